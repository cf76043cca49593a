// maskd: `initialized`.
import JSON

/// The client got the `initialize` result; nothing to do.
struct InitializedNotification: NotificationMessage {
    static let method = "initialized"

    init(params: JSONValue) throws {}

    func handle(_ server: Server) {
        server.log.debug("client initialized")
    }
}
