// maskd: `maskd/formatHints` (maskd extension).
import JSON

/// The state of the field at a position. *(maskd extension)*
///
/// - Parameters: `{"textDocument": {"uri", "version"?}, "position"}`.
/// - Returns: the `FieldState` of the field containing or touching `position` (the first in
///   document order when two touch it), or `null`.
struct FormatHintsRequest: RequestMessage {
    static let method = "maskd/formatHints"

    let uri: String
    let version: Int?
    let position: Position

    init(params: JSONValue) throws {
        let p = try Params(params)
        let document = try p.object("textDocument")
        uri = try document.string("uri")
        version = try document.optionalInt("version")
        position = try p.position("position")
    }

    func handle(_ server: Server) throws -> JSONValue {
        try server.formatHints(uri: uri, version: version, position: position)
    }
}
