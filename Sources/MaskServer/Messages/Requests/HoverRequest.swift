// maskd: `textDocument/hover`.
import JSON

/// A field's state, for any LSP client: mask, value, complete/valid, problems, brand.
///
/// Server capability: `hoverProvider`.
/// - Parameters: `{"textDocument": {"uri"}, "position"}`.
/// - Returns: `{"contents": {"kind": "markdown", "value"}, "range"}` for the field containing or
///   touching `position` (the first in document order), or `null`.
struct HoverRequest: RequestMessage {
    static let method = "textDocument/hover"

    let uri: String
    let position: Position

    init(params: JSONValue) throws {
        let p = try Params(params)
        uri = try p.documentURI()
        position = try p.position("position")
    }

    func handle(_ server: Server) throws -> JSONValue {
        try server.hover(uri: uri, position: position)
    }
}
