// maskd: `initialized`.
import JSON

/// The client got the `initialize` result: the daemon asks it to watch the rules files whenever it may, so a
/// `.maskd.json` created later (or in a folder added later) takes effect without a restart.
struct InitializedNotification: NotificationMessage {
    static let method = "initialized"

    init(params: JSONValue) throws {}

    func handle(_ server: Server) {
        server.log.debug("client initialized")
        if server.client.watchedFilesRegistration {
            server.request(RegisterCapabilityRequest.method, RegisterCapabilityRequest.watchingRules()) { [weak server] result in
                if case .failure(let error) = result {
                    server?.log.info("the client refused to watch \(Server.rulesFileName): \(error)")
                }
            }
        }
    }
}
