// maskd's client: JSON-RPC messages to and from the daemon.
import JSON

extension DaemonProcess {
    /// One framed message: the header and the body in one buffer, so one `write` sends both.
    public static func frame(_ message: JSONValue) -> [UInt8] {
        frame(body: message.serialized())
    }

    /// One frame around `body`, sent as it is: bytes that need not be JSON, or UTF-8.
    public static func frame(body: [UInt8]) -> [UInt8] {
        var out = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
        out.reserveCapacity(out.count + body.count)
        out.append(contentsOf: body)
        return out
    }

    /// A request envelope.
    public static func request(id: Int, _ method: String, _ params: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "id": .int(Int64(id)), "method": .string(method), "params": params]
    }

    /// A notification envelope.
    public static func notification(_ method: String, _ params: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "method": .string(method), "params": params]
    }

    /// Writes one message, framed.
    public func send(_ message: JSONValue) throws {
        try write(Self.frame(message))
    }

    /// Sends a notification.
    public func notify(_ method: String, _ params: JSONValue) throws {
        try send(Self.notification(method, params))
    }

    /// Sends a request without waiting for its response. - Returns: its id.
    public func sendRequest(_ method: String, _ params: JSONValue) throws -> Int {
        let id = newID()
        try send(Self.request(id: id, method, params))
        return id
    }

    /// Sends a request and waits for its result.
    /// - Throws: a ``DaemonError`` when it fails (`.failed`) or no response comes.
    public func request(_ method: String, _ params: JSONValue) throws -> JSONValue {
        try readResponse(id: try sendRequest(method, params))
    }

    /// The next message, parsed.
    /// - Throws: a ``DaemonError`` as ``readBody()`` does, or `.notJSON` for a body that is not JSON (skipped).
    public func read() throws -> JSONValue {
        try read(waitingAtMost: timeout)
    }

    /// The next message, parsed, waiting at most `seconds` for each chunk of output, as ``read()`` does.
    public func read(waitingAtMost seconds: Double) throws -> JSONValue {
        let body = try readBody(waitingAtMost: seconds)
        do {
            return try body.withUnsafeBytes { try JSONValue.parse($0) }
        } catch {
            throw DaemonError(.notJSON, "\(name): sent a body that is not JSON: \(error)")
        }
    }

    /// Reads until the response to request `id`, skipping notifications and the daemon's requests.
    /// - Returns: its result. - Throws: a ``DaemonError``, `.failed` when the response is an error.
    public func readResponse(id: Int) throws -> JSONValue {
        while true {
            let message = try read()
            if message["method"] != nil { continue }
            guard message["id"]?.intValue == id else { continue }
            if let error = message["error"] {
                throw DaemonError(.failed, "\(name): request \(id) failed: \(error.serializedString())")
            }
            return message["result"] ?? .null
        }
    }

    /// `shutdown`, `exit`, and a wait of at most ``timeout`` for the process to end (it is killed after that).
    /// - Returns: its exit code. - Throws: a ``DaemonError`` when it did not answer or did not exit.
    @discardableResult
    public func shutDown() throws -> Int32 {
        if isRunning {
            _ = try request("shutdown", .null)
            try notify("exit", .null)
        }
        closeInput()
        guard let code = waitForExit(within: timeout.isFinite ? timeout : 60) else {
            kill()
            throw DaemonError(.exit, "\(name): did not exit after shutdown and exit; killed")
        }
        return code
    }
}
