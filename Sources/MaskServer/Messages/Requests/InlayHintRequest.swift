// maskd: `textDocument/inlayHint`.
import JSON

/// The placeholder still to fill, as ghost text after each field in a range.
///
/// Server capability: `inlayHintProvider`.
/// - Parameters: `{"textDocument": {"uri"}, "range"}`.
/// - Returns: `InlayHint[]`, each `{"position": the field's end, "label": its placeholder,
///   "paddingLeft": false, "paddingRight": false}` (no `kind`: it is neither a type nor a
///   parameter), for the fields whose end lies in `range` and whose placeholder is not empty.
struct InlayHintRequest: RequestMessage {
    static let method = "textDocument/inlayHint"

    let uri: String
    let range: TextRange

    init(params: JSONValue) throws {
        let p = try Params(params)
        uri = try p.documentURI()
        range = try p.range("range")
    }

    func handle(_ server: Server) throws -> JSONValue {
        try server.inlayHints(uri: uri, range: range)
    }
}
