// maskd: the server seen through JSON-RPC messages.
import JSON
import JSONRPC

extension Server {
    /// Handles one decoded message.
    /// - Returns: the response for a request (nil for one answered through `respondWriting`); nil for
    ///   notifications and responses (a response goes to the request the daemon sent, such as `workspace/applyEdit`).
    public func handle(_ message: Message) -> Message? {
        switch message {
        case let .request(id, method, params):
            if let respondWriting, let answer = handleWritingRequest(method, params) {
                switch answer {
                case .success(let writeResult):
                    respondWriting(id, writeResult)
                    return nil
                case .failure(let error):
                    return .errorResponse(id: id, error: error)
                }
            }
            switch handleRequest(method, params) {
            case .success(let result): return .response(id: id, result: result)
            case .failure(let error): return .errorResponse(id: id, error: error)
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
    /// - Returns: false when the transport cannot send requests (nothing was sent).
    @discardableResult
    func request(_ method: String, _ params: JSONValue,
                 then: @escaping (Result<JSONValue, ResponseError>) -> Void = { _ in }) -> Bool {
        guard let sendRequest else {
            log.error("cannot send '\(method)': this transport has no way to send requests")
            return false
        }
        let id = sendRequest(method, params)
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
        return true
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
