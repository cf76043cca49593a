// maskd: `workspace/applyEdit`, daemon to client.
import JSON

/// Asks the client to apply edits to one document: the `maskd.openField` command's edits, and in
/// plain-client mode (`initializationOptions.edits: "applyEdit"`) every formatting.
///
/// Params: `{"edit": WorkspaceEdit}`, never a `label` (Neovim prints every label it gets, a message while the person
/// types); the `WorkspaceEdit` is
/// `{"documentChanges": [{"textDocument": {"uri", "version"}, "edits"}]}` when the client takes
/// versioned edits (`workspace.workspaceEdit.documentChanges`), so a client whose document moved
/// on refuses it, else `{"changes": {uri: edits}}`. Response: `{"applied", "failureReason"?}`.
/// The `didChange` that applying it produces is the daemon's echo.
enum ApplyWorkspaceEditRequest {
    static let method = "workspace/applyEdit"

    /// - Parameter version: the version the edits are against, or nil for unversioned `changes`.
    static func params(uri: String, version: Int?, _ edits: [TextEdit]) -> JSONValue {
        let edit: JSONValue
        if let version {
            edit = [
                "documentChanges": [
                    [
                        "textDocument": ["uri": .string(uri), "version": .from(version)],
                        "edits": .from(edits),
                    ]
                ]
            ]
        } else {
            edit = ["changes": .object(JSONObject([(uri, .from(edits))]))]
        }
        return ["edit": edit]
    }
}
