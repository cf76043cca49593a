// maskd: `shutdown`.
import JSON

/// Prepares to exit: every later request gets `-32600`. Params may be absent or `null`.
/// - Returns: `null`.
struct ShutdownRequest: RequestMessage {
    static let method = "shutdown"

    init(params: JSONValue) throws {}

    func handle(_ server: Server) throws -> JSONValue {
        server.lifecycle = .shutDown
        server.log.info("shut down")
        return .null
    }
}
