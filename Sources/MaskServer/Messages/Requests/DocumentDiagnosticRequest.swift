// maskd: `textDocument/diagnostic` (LSP 3.17 pull diagnostics).
import JSON

/// The fields' problems of one document, pulled by the client.
///
/// Server capability: `diagnosticProvider` (for clients with `textDocument.diagnostic`, or with
/// `initializationOptions.diagnostics` `"pull"`).
/// - Parameters: `{"textDocument": {"uri"}, "identifier"?, "previousResultId"?}`.
/// - Returns: `{"kind": "full", "resultId", "items": Diagnostic[]}`, or `{"kind": "unchanged", "resultId"}` when
///   `previousResultId` names a report whose items are still the document's.
struct DocumentDiagnosticRequest: RequestMessage {
    static let method = "textDocument/diagnostic"

    let uri: String
    let previousResultId: String?

    init(params: JSONValue) throws {
        let p = try Params(params)
        uri = try p.documentURI()
        previousResultId = try p.optionalString("previousResultId")
    }

    func handle(_ server: Server) throws -> JSONValue {
        try server.pullDiagnostics(uri: uri, previousResultId: previousResultId)
    }
}
