// maskd: `window/logMessage`, daemon to client.
import JSON

/// Tells the client about a problem with a message that had no id (a bad notification, a
/// refused change).
enum LogMessageNotification {
    static let method = "window/logMessage"

    /// `{"type": 1 error | 2 warning | 3 info | 4 log, "message"}`.
    static func params(_ level: Logger.Level, _ message: String) -> JSONValue {
        let type: Int
        switch level {
        case .error: type = 1
        case .warn: type = 2
        case .info: type = 3
        case .debug: type = 4
        }
        return ["type": .from(type), "message": .string("maskd: " + message)]
    }
}
