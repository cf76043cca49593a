// maskd: `exit`.
import JSON

/// Ends the process: exit code 0 after `shutdown`, 1 without. Accepted in every state,
/// with any params (Emacs sends `null`).
struct ExitNotification: NotificationMessage {
    static let method = "exit"

    init(params: JSONValue) throws {}

    func handle(_ server: Server) {
        server.exitCode = server.lifecycle == .shutDown ? 0 : 1
    }
}
