// maskd: `workspace/didChangeWatchedFiles`.
import JSON

/// Files the client watches changed: `{"changes": [{"uri", "type"}]}`. A change to a workspace folder's
/// `.maskd.json` re-reads the rules (the daemon registers the watcher when the client allows it).
struct DidChangeWatchedFilesNotification: NotificationMessage {
    static let method = "workspace/didChangeWatchedFiles"

    let uris: [String]

    init(params: JSONValue) throws {
        let p = try Params(params)
        uris = try p.array("changes").compactMap { $0["uri"]?.stringValue }
    }

    func handle(_ server: Server) {
        if uris.contains(where: { $0.hasSuffix("/" + Server.rulesFileName) }) { server.reloadRules() }
    }
}
