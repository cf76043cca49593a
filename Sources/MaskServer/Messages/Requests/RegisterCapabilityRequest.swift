// maskd: `client/registerCapability`, daemon to client.
import JSON

/// Asks the client to watch the workspace folders' `.maskd.json` and send `workspace/didChangeWatchedFiles`
/// (LSP's dynamic registration; sent after `initialized` to a client with
/// `workspace.didChangeWatchedFiles.dynamicRegistration`).
enum RegisterCapabilityRequest {
    static let method = "client/registerCapability"

    /// `{"registrations": [{"id", "method": "workspace/didChangeWatchedFiles", "registerOptions": {"watchers":
    /// [{"globPattern": "**/.maskd.json"}]}}]}`.
    static func watchingRules() -> JSONValue {
        [
            "registrations": [
                [
                    "id": "maskd.rules",
                    "method": .string(DidChangeWatchedFilesNotification.method),
                    "registerOptions": ["watchers": [["globPattern": .string("**/" + Server.rulesFileName)]]],
                ]
            ]
        ]
    }
}
