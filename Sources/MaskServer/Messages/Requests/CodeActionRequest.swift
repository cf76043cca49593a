// maskd: `textDocument/codeAction`.
import JSON

/// "Format as <preset>" for a selection the presets fit, and "Close maskd field" in a field.
///
/// Server capability: `codeActionProvider` (`{"codeActionKinds": ["refactor", "refactor.rewrite"]}`
/// for clients that take `CodeAction` literals, else `true`).
/// - Parameters: `{"textDocument": {"uri"}, "range", "context": {"diagnostics", "only"?}}`.
/// - Returns: `CodeAction[]` (`{"title", "kind", "isPreferred"?, "command"}`), or `Command[]`
///   for clients without `codeActionLiteralSupport`; the commands run through
///   `workspace/executeCommand`.
struct CodeActionRequest: RequestMessage {
    static let method = "textDocument/codeAction"

    let uri: String
    let range: TextRange
    /// `context.only`, or nil for every kind.
    let only: [String]?

    init(params: JSONValue) throws {
        let p = try Params(params)
        uri = try p.documentURI()
        range = try p.range("range")
        if let context = try p.optionalObject("context"), let list = context.value("only") {
            guard let items = list.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
                throw context.typeError("only", "an array of strings", list)
            }
            only = items.compactMap(\.stringValue)
        } else {
            only = nil
        }
    }

    func handle(_ server: Server) throws -> JSONValue {
        try server.codeActions(uri: uri, range: range, only: only)
    }
}
