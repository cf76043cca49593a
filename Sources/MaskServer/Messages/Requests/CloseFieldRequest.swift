// maskd: `maskd/closeField` (maskd extension).
import JSON

/// Ends a field session; the text stays as it is, but for the zeros a number mask's `padFraction` adds,
/// delivered as formatting is before the result. *(maskd extension)*
///
/// - Parameters: `{"textDocument": {"uri", "version"?}, "field", "position": Position?}`; `position` (maskd's
///   addition) is the editor's cursor, carried through the padding into the delivered `cursor`.
/// - Returns: `null`.
struct CloseFieldRequest: RequestMessage {
    static let method = "maskd/closeField"

    let uri: String
    let version: Int?
    let field: String
    let position: Position?

    init(params: JSONValue) throws {
        let p = try Params(params)
        let document = try p.object("textDocument")
        uri = try document.string("uri")
        version = try document.optionalInt("version")
        field = try p.string("field")
        position = p.value("position") == nil ? nil : try p.position("position")
    }

    func handle(_ server: Server) throws -> JSONValue {
        try server.closeField(uri: uri, version: version, id: field, caret: position)
    }
}
