// maskd: `workspace/didChangeWorkspaceFolders`.
import JSON

/// Folders joined or left the workspace: `{"event": {"added": [WorkspaceFolder], "removed": [WorkspaceFolder]}}`.
/// The rules are read again, as on a changed `.maskd.json`: a document in an added folder comes under that folder's
/// file, one in a removed folder under the client's rules alone; the fields already open stay.
struct DidChangeWorkspaceFoldersNotification: NotificationMessage {
    static let method = "workspace/didChangeWorkspaceFolders"

    let added: [WorkspaceFolder]
    let removed: [WorkspaceFolder]

    init(params: JSONValue) throws {
        let event = try Params(params).object("event")
        // Only `file:` folders can hold a rules file the daemon reads; others are passed over, as in `initialize`.
        added = try event.array("added").compactMap { $0["uri"]?.stringValue.flatMap(WorkspaceFolder.init(uri:)) }
        removed = try event.array("removed").compactMap { $0["uri"]?.stringValue.flatMap(WorkspaceFolder.init(uri:)) }
    }

    func handle(_ server: Server) {
        // Folders compare by path, so `file:///w` and `file:///w/` are one folder.
        let removedPaths = Set(removed.map(\.path))
        var folders = server.workspaceFolders.filter { !removedPaths.contains($0.path) }
        for folder in added where !folders.contains(where: { $0.path == folder.path }) { folders.append(folder) }
        guard folders != server.workspaceFolders else { return }
        server.workspaceFolders = folders
        server.log.info("workspace folders: \(folders.map(\.uri).joined(separator: ", "))")
        server.reloadRules()
        server.requestRulesWatcherIfDue()
    }
}
