// The JSONRPC layer: JSON-RPC 2.0 envelopes to and from JSON values; see ARCHITECTURE.md.

import JSON

/// The id of a request: an integer or a string.
public enum RequestID: Hashable, Sendable, CustomStringConvertible {
    /// An integer id.
    case int(Int64)
    /// A string id.
    case string(String)

    /// The id as JSON.
    public var json: JSONValue {
        switch self {
        case .int(let number): return .int(number)
        case .string(let text): return .string(text)
        }
    }

    /// Reads an id, or returns nil unless `json` is an integer (a double with an integral value counts) or a string.
    public init?(json: JSONValue?) {
        switch json {
        case .int(let number)?: self = .int(number)
        case .double(let number)?:
            guard let exact = Int64(exactly: number) else { return nil }
            self = .int(exact)
        case .string(let text)?: self = .string(text)
        default: return nil
        }
    }

    /// The id as it is written in JSON.
    public var description: String { json.serializedString() }
}

/// A message that is not a valid JSON-RPC 2.0 envelope, and how to answer it.
public struct DecodingFailure: Error, Hashable, Sendable {
    /// The id to answer with an error response, or nil when there is none to answer (the message had no usable id,
    /// or it was itself a response).
    public var id: RequestID?
    /// The error to answer (or to log), usually ``ErrorCode/invalidRequest``.
    public var error: ResponseError

    /// Creates a failure.
    public init(id: RequestID?, error: ResponseError) {
        self.id = id
        self.error = error
    }
}

/// One JSON-RPC 2.0 message: a request, a notification or a response.
public enum Message: Hashable, Sendable {
    /// A call that expects a response; `params` is ``JSONValue/null`` when absent.
    case request(id: RequestID, method: String, params: JSONValue)
    /// A call that expects no response; `params` is ``JSONValue/null`` when absent.
    case notification(method: String, params: JSONValue)
    /// A successful answer.
    case response(id: RequestID, result: JSONValue)
    /// A failed answer; `id` is nil (written `null`) when the failed request's id could not be read.
    case errorResponse(id: RequestID?, error: ResponseError)

    /// The method of a request or a notification, or nil for a response.
    public var method: String? {
        switch self {
        case .request(_, let method, _), .notification(let method, _): return method
        case .response, .errorResponse: return nil
        }
    }

    /// The id of a request or a response, or nil for a notification or an error response without one.
    public var id: RequestID? {
        switch self {
        case .request(let id, _, _), .response(let id, _): return id
        case .errorResponse(let id, _): return id
        case .notification: return nil
        }
    }

    /// Reads a JSON-RPC 2.0 envelope.
    ///
    /// The rules, each failure being ``ErrorCode/invalidRequest``:
    /// - The message must be an object with `"jsonrpc": "2.0"`.
    /// - With a string `method`, it is a request when it has an `id` (an integer or a string; `null` or another kind
    ///   fails) and a notification otherwise. `params` may be absent or `null` (both read as ``JSONValue/null``), an
    ///   array or an object.
    /// - Without `method`, it is a response: exactly one of `result` (with a non-null `id`) and `error` (an object with
    ///   an integer `code` and a string `message`; `id` may be `null`).
    /// - Unknown members are ignored.
    ///
    /// - Returns: the message, or a failure whose `id` is the request's id when the message was a request whose id
    ///   could be read; a broken response never gets an id, since responses are not answered.
    public static func decode(_ value: JSONValue) -> Result<Message, DecodingFailure> {
        guard case .object(let object) = value else {
            return .failure(DecodingFailure(id: nil, error: .invalidRequest("a message must be a JSON object")))
        }
        let rawID = object["id"]
        let id = RequestID(json: rawID)
        let hasMethod = object["method"] != nil
        func fail(_ message: String) -> Result<Message, DecodingFailure> {
            .failure(DecodingFailure(id: hasMethod ? id : nil, error: .invalidRequest(message)))
        }
        guard object["jsonrpc"] == "2.0" else { return fail("\"jsonrpc\" must be \"2.0\"") }
        if hasMethod {
            guard let method = object["method"]?.stringValue else { return fail("\"method\" must be a string") }
            let params = object["params"] ?? .null
            switch params {
            case .null, .array, .object: break
            default: return fail("\"params\" must be an object or an array")
            }
            guard let rawID else { return .success(.notification(method: method, params: params)) }
            guard let id else {
                return fail("a request id must be an integer or a string, not \(rawID.serializedString())")
            }
            return .success(.request(id: id, method: method, params: params))
        }
        switch (object["result"], object["error"]) {
        case (let result?, nil):
            guard let id else { return fail("a response needs an integer or string id") }
            return .success(.response(id: id, result: result))
        case (nil, let error?):
            guard let error = ResponseError(json: error) else {
                return fail("\"error\" must be an object with an integer \"code\" and a string \"message\"")
            }
            guard rawID == .null || id != nil else { return fail("a response id must be an integer, a string or null") }
            return .success(.errorResponse(id: id, error: error))
        case (_?, _?):
            return fail("a response must not have both \"result\" and \"error\"")
        case (nil, nil):
            return fail("a message needs a \"method\", a \"result\" or an \"error\"")
        }
    }

    /// The message as a JSON-RPC 2.0 envelope; `params` is left out when it is ``JSONValue/null``.
    public var json: JSONValue {
        // Made in one piece, members in their written order: the envelope of every message sent.
        let members: [(String, JSONValue)]
        switch self {
        case .request(let id, let method, let params):
            members =
                params.isNull
                ? [("jsonrpc", "2.0"), ("id", id.json), ("method", .string(method))]
                : [("jsonrpc", "2.0"), ("id", id.json), ("method", .string(method)), ("params", params)]
        case .notification(let method, let params):
            members =
                params.isNull
                ? [("jsonrpc", "2.0"), ("method", .string(method))]
                : [("jsonrpc", "2.0"), ("method", .string(method)), ("params", params)]
        case .response(let id, let result):
            members = [("jsonrpc", "2.0"), ("id", id.json), ("result", result)]
        case .errorResponse(let id, let error):
            members = [("jsonrpc", "2.0"), ("id", id?.json ?? .null), ("error", error.json)]
        }
        return .object(JSONObject(members))
    }
}

extension Message {
    /// Appends the text of a notification whose `params` object `writeParams` writes (``JSONObjectWriter``), as
    /// ``json`` of the same notification serialises: for a notification sent on every keystroke, whose params
    /// are made straight from typed values, with no ``JSONValue`` in between.
    public static func serializeNotification(
        _ method: String, into bytes: inout [UInt8],
        params writeParams: (JSONObjectWriter) -> Void
    ) {
        JSONObjectWriter.serialize(into: &bytes) { envelope in
            envelope.set("jsonrpc", "2.0")
            envelope.set("method", method)
            envelope.setObject("params", writeParams)
        }
    }
}

extension Message {
    /// Appends the text of a response whose `result` object `writeResult` writes (``JSONObjectWriter``), as ``json``
    /// of the same response serialises: for a request answered many times a second (`maskd/apply`), whose result is
    /// made straight from typed values.
    public static func serializeResponse(
        id: RequestID, into bytes: inout [UInt8],
        result writeResult: (JSONObjectWriter) -> Void
    ) {
        JSONObjectWriter.serialize(into: &bytes) { envelope in
            envelope.set("jsonrpc", "2.0")
            switch id {
            case .int(let number): envelope.set("id", Int(number))
            case .string(let text): envelope.set("id", text)
            }
            envelope.setObject("result", writeResult)
        }
    }
}
