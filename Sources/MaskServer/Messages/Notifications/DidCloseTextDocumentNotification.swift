// maskd: `textDocument/didClose`.
import JSON

/// Closes a document and every field in it: `{"textDocument": {"uri"}}`.
struct DidCloseTextDocumentNotification: NotificationMessage {
    static let method = "textDocument/didClose"

    let uri: String

    init(params: JSONValue) throws {
        uri = try Params(params).documentURI()
    }

    func handle(_ server: Server) {
        server.closeDocument(uri: uri)
    }
}
