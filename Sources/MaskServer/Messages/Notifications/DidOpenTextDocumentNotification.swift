// maskd: `textDocument/didOpen`.
import JSON

/// Opens a document: `{"textDocument": {"uri", "languageId", "version", "text"}}`.
/// Opening a URI that is already open replaces it (its fields are closed) with a warning.
struct DidOpenTextDocumentNotification: NotificationMessage {
    static let method = "textDocument/didOpen"

    let uri: String
    let languageId: String
    let version: Int
    let text: String

    init(params: JSONValue) throws {
        let document = try Params(params).object("textDocument")
        uri = try document.string("uri")
        languageId = try document.optionalString("languageId") ?? ""
        version = try document.int("version")
        text = try document.string("text")
    }

    func handle(_ server: Server) {
        server.openDocument(uri: uri, languageId: languageId, version: version, text: text)
    }
}
