// maskd: `window/showMessage`, daemon to client.
import JSON

/// Tells the person about a problem in their configuration (a bad field rule): a client shows it, where a
/// `window/logMessage` only goes to its log. The params are `window/logMessage`'s: `{"type", "message"}`.
enum ShowMessageNotification {
    static let method = "window/showMessage"
}

extension Server {
    /// Logs `message` and shows it to the person (`window/showMessage`).
    func showMessage(_ level: Logger.Level, _ message: String) {
        log.log(level, message)
        notify(ShowMessageNotification.method, LogMessageNotification.params(level, message))
    }
}
