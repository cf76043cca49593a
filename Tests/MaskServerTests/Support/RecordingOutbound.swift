// maskd tests: the outbound channel of a server driven in-process, which records what the server sends.
import JSON
import JSONRPC

/// Takes every message a server sends as the values a client would read: into ``messages``, or, given a function,
/// its notifications and requests to that function (a long session then keeps only what its test keeps). Requests
/// are numbered from 1.
final class RecordingOutbound: Outbound {
    /// Every message sent, in order (none when a function takes them).
    private(set) var messages: [Message] = []
    /// Set by a test to stand for a long list the client has not read yet.
    var isWritingLongList = false
    /// Called with each notification and request as it is sent (method, params, and a request's id).
    private let sent: ((String, JSONValue, RequestID?) -> Void)?
    private var requests: Int64 = 0

    init() {
        sent = nil
    }

    init(_ sent: @escaping (_ method: String, _ params: JSONValue, _ id: RequestID?) -> Void) {
        self.sent = sent
    }

    func send(_ message: OutgoingMessage) -> RequestID? {
        var id: RequestID?
        let recorded: Message
        switch message {
        case let .notification(method, params):
            recorded = .notification(method: method, params: params.value)
        case let .request(method, params):
            requests += 1
            id = .int(requests)
            recorded = .request(id: .int(requests), method: method, params: params.value)
        case let .response(id, .success(result)):
            recorded = .response(id: id, result: result.value)
        case let .response(id, .failure(error)):
            recorded = .errorResponse(id: id, error: error)
        }
        if let sent {
            switch recorded {
            case let .notification(method, params), let .request(_, method, params): sent(method, params, id)
            default: break
            }
        } else {
            messages.append(recorded)
        }
        return id
    }

    /// The last message sent, taken off the record.
    func takeLast() -> Message? {
        messages.popLast()
    }
}
