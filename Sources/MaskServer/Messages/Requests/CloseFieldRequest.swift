// maskd: `maskd/closeField` (maskd extension).
import JSON

/// Ends a field session; the text stays as it is. *(maskd extension)*
///
/// - Parameters: `{"textDocument": {"uri", "version"?}, "field"}`.
/// - Returns: `null`.
struct CloseFieldRequest: RequestMessage {
    static let method = "maskd/closeField"

    let uri: String
    let version: Int?
    let field: String

    init(params: JSONValue) throws {
        let p = try Params(params)
        let document = try p.object("textDocument")
        uri = try document.string("uri")
        version = try document.optionalInt("version")
        field = try p.string("field")
    }

    func handle(_ server: Server) throws -> JSONValue {
        try server.closeField(uri: uri, version: version, id: field)
    }
}
