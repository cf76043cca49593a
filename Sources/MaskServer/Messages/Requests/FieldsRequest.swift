// maskd: `maskd/fields` (maskd extension).
import JSON

/// Lists a document's fields. *(maskd extension)*
///
/// - Parameters: `{"textDocument": {"uri", "version"?}}`.
/// - Returns: `FieldState[]` in document order.
struct FieldsRequest: RequestMessage {
    static let method = "maskd/fields"

    let uri: String
    let version: Int?

    init(params: JSONValue) throws {
        let document = try Params(params).object("textDocument")
        uri = try document.string("uri")
        version = try document.optionalInt("version")
    }

    func handle(_ server: Server) throws -> JSONValue {
        try server.fields(uri: uri, version: version)
    }
}
