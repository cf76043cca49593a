// maskd: the server seen through JSON-RPC messages.
import JSON
import JSONRPC

extension Server {
    /// Handles one decoded message: a request is answered through ``outbound``; a response goes to the request the
    /// daemon sent (such as `workspace/applyEdit`).
    /// - Returns: the error a request was answered with (for the log); nil otherwise.
    @discardableResult
    public func handle(_ message: Message) -> ResponseError? {
        switch message {
        case let .request(id, method, params):
            switch answer(method, params) {
            case .success(let result):
                outbound.send(.response(to: id, .success(result)))
                return nil
            case .failure(let error):
                outbound.send(.response(to: id, .failure(error)))
                return error
            }
        case let .notification(method, params):
            handleNotification(method, params)
            return nil
        case let .response(id, result):
            answered(id, .success(result))
            return nil
        case let .errorResponse(id?, error):
            answered(id, .failure(error))
            return nil
        case .errorResponse(nil, let error):
            log.warn("the client reported an error: \(error)")
            return nil
        }
    }

    /// Sends a request to the client; `then` gets its response (never, when the client sends none).
    func request(
        _ method: String, _ params: JSONValue,
        then: @escaping (Result<JSONValue, ResponseError>) -> Void = { _ in }
    ) {
        guard let id = outbound.send(.request(method, params)) else {
            log.error("cannot send '\(method)': the channel gave the request no id")
            return
        }
        awaiting[id] = then
        awaitingOrder.append(id)
        while awaiting.count > Server.maxAwaiting, awaitingOrderHead < awaitingOrder.count {
            let oldest = awaitingOrder[awaitingOrderHead]
            awaitingOrderHead += 1
            if awaiting.removeValue(forKey: oldest) != nil {
                log.info("forgot request \(oldest) to the client: more than \(Server.maxAwaiting) are unanswered")
            }
        }
        // The order keeps at most the waiting ids and as many answered ones.
        if awaitingOrderHead > Server.maxAwaiting || awaitingOrder.count > 2 * Server.maxAwaiting {
            awaitingOrder = awaitingOrder[awaitingOrderHead...].filter { awaiting[$0] != nil }
            awaitingOrderHead = 0
        }
    }

    /// Passes a response to the request it answers.
    private func answered(_ id: RequestID, _ result: Result<JSONValue, ResponseError>) {
        guard let then = awaiting.removeValue(forKey: id) else {
            log.debug("ignored a response to \(id), which the daemon never asked or which was answered")
            return
        }
        then(result)
    }
}
