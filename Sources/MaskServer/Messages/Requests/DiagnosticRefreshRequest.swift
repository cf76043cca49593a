// maskd: `workspace/diagnostic/refresh`, daemon to client.

/// Asks a pull client to request diagnostics again: sent, to clients that offer
/// `workspace.diagnostics.refreshSupport`, when diagnostics changed and the documents are quiet. No params;
/// response `null`.
enum DiagnosticRefreshRequest {
    static let method = "workspace/diagnostic/refresh"
}
