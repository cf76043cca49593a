// maskd: `initialized`.
import JSON

/// The client got the `initialize` result: the daemon asks it to watch the rules files, when it may and a
/// workspace folder has one. (Only then: some clients, eglot among them, list every file of the project to set up
/// any watcher, which costs seconds in a large folder that does not use rules.)
struct InitializedNotification: NotificationMessage {
    static let method = "initialized"

    init(params: JSONValue) throws {}

    func handle(_ server: Server) {
        server.log.debug("client initialized")
        if server.client.watchedFilesRegistration && server.hasRulesFile {
            server.request(RegisterCapabilityRequest.method, RegisterCapabilityRequest.watchingRules()) { [weak server] result in
                if case .failure(let error) = result {
                    server?.log.info("the client refused to watch \(Server.rulesFileName): \(error)")
                }
            }
        }
    }
}
