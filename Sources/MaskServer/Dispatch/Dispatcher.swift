// maskd: routing each message to its handler, with the lifecycle rules in front.
import JSON
import JSONRPC

extension Server {
    /// Answers one request.
    /// - Returns: the result, or the error to answer with (`-32002` before `initialize`,
    ///   `-32600` after `shutdown`, `-32601` for an unknown method, `-32602` for bad params).
    public func handleRequest(_ method: String, _ params: JSONValue) -> Result<JSONValue, MessageError> {
        perform(method, params) { try $0.handle(self) }
    }

    /// Answers one request with its result as the message describes it (``RequestMessage/answer(_:)``), for the
    /// channel to write; the rules are ``handleRequest(_:_:)``'s.
    func answer(_ method: String, _ params: JSONValue) -> Result<any OutgoingBody, MessageError> {
        perform(method, params) { try $0.answer(self) }
    }

    /// The lifecycle's rules, decoding the params and carrying the request out with `carryOut`.
    private func perform<Answer>(
        _ method: String, _ params: JSONValue,
        _ carryOut: (any RequestMessage) throws -> Answer
    ) -> Result<Answer, MessageError> {
        switch lifecycle {
        case .uninitialized where method != InitializeRequest.method:
            return .failure(
                MessageError(
                    code: ErrorCode.serverNotInitialized,
                    message: "the server is not initialized: send 'initialize' first"))
        case .shutDown:
            return .failure(
                MessageError(
                    code: ErrorCode.invalidRequest,
                    message: "the server is shut down: only 'exit' is expected"))
        default:
            break
        }
        guard let type = MessageRegistry.requestsByMethod[method] else {
            return .failure(MessageError(code: ErrorCode.methodNotFound, message: "unknown method '\(method)'"))
        }
        do {
            let request = try type.init(params: params)
            return .success(try carryOut(request))
        } catch let error as MessageError {
            log.info("\(method): \(error.message)")
            return .failure(error)
        } catch {
            return .failure(MessageError(code: ErrorCode.internalError, message: "\(method): \(error)"))
        }
    }

    /// Handles one notification; problems are logged and reported with `window/logMessage`.
    public func handleNotification(_ method: String, _ params: JSONValue) {
        if method != ExitNotification.method {
            switch lifecycle {
            case .uninitialized:
                log.debug("dropped '\(method)' before initialize")
                return
            case .shutDown:
                log.debug("dropped '\(method)' after shutdown")
                return
            case .running:
                break
            }
        }
        guard let type = MessageRegistry.notificationsByMethod[method] else {
            log.debug("ignored unknown notification '\(method)'")
            return
        }
        do {
            try type.init(params: params).handle(self)
        } catch let error as MessageError {
            report(.warn, "\(method): \(error.message)")
        } catch {
            report(.error, "\(method): \(error)")
        }
    }
}
