// maskd: `textDocument/didChange`.
import JSON

/// Changes a document: `{"textDocument": {"uri", "version"}, "contentChanges": [{"range"?,
/// "text"}]}`, applied in order, all or none. Answered by `maskd/didFormat` when a person's
/// change touched a field.
struct DidChangeTextDocumentNotification: NotificationMessage {
    static let method = "textDocument/didChange"

    let uri: String
    let version: Int
    let changes: [ContentChange]

    init(params: JSONValue) throws {
        let p = try Params(params)
        let document = try p.object("textDocument")
        uri = try document.string("uri")
        version = try document.int("version")
        changes = try p.array("contentChanges").enumerated().map { index, item in
            guard let object = item.objectValue else {
                throw p.typeError("contentChanges[\(index)]", "an object", item)
            }
            let c = p.element(object, at: index, of: "contentChanges")
            let range = c.value("range") == nil ? nil : try c.range("range")
            return ContentChange(range: range, text: try c.string("text"))
        }
    }

    func handle(_ server: Server) {
        server.changeDocument(uri: uri, version: version, changes: changes)
    }
}
