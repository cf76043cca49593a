// maskd: the server seen through JSON-RPC messages.
import JSON
import JSONRPC

extension Server {
    /// Handles one decoded message.
    /// - Returns: the response for a request; nil for notifications and responses (the daemon
    ///   sends no requests, so a response is only logged).
    public func handle(_ message: Message) -> Message? {
        switch message {
        case let .request(id, method, params):
            switch handleRequest(method, params) {
            case .success(let result): return .response(id: id, result: result)
            case .failure(let error): return .errorResponse(id: id, error: error)
            }
        case let .notification(method, params):
            handleNotification(method, params)
            return nil
        case .response(let id, _), .errorResponse(let id?, _):
            log.debug("ignored a response to \(id), which the daemon never asked")
            return nil
        case .errorResponse(nil, let error):
            log.warn("the client reported an error: \(error)")
            return nil
        }
    }
}
