// maskd: `workspace/inlayHint/refresh`, daemon to client.

/// Asks the client to request inlay hints again: sent after a field is opened, re-masked or
/// closed, to clients that offer `workspace.inlayHint.refreshSupport`. No params; response `null`.
enum InlayHintRefreshRequest {
    static let method = "workspace/inlayHint/refresh"
}
