// maskd: `initialized`.
import JSON

/// The client got the `initialize` result: the daemon asks it to watch the rules files when it may
/// (`Server.requestRulesWatcherIfDue`).
struct InitializedNotification: NotificationMessage {
    static let method = "initialized"

    init(params: JSONValue) throws {}

    func handle(_ server: Server) {
        server.log.debug("client initialized")
        server.requestRulesWatcherIfDue()
    }
}
