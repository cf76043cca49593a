// The JSONRPC layer: JSON-RPC 2.0 and LSP error codes, and the error a response carries; see ARCHITECTURE.md.

import JSON

/// The error codes of JSON-RPC 2.0 and of the LSP that maskd uses.
public enum ErrorCode {
    /// The body was not JSON (or not UTF-8).
    public static let parseError = -32700
    /// The JSON was not a valid JSON-RPC message.
    public static let invalidRequest = -32600
    /// No such method.
    public static let methodNotFound = -32601
    /// The parameters did not fit the method.
    public static let invalidParams = -32602
    /// The server failed for a reason of its own.
    public static let internalError = -32603
    /// A request came before `initialize`.
    public static let serverNotInitialized = -32002
    /// The client cancelled the request before it was answered.
    public static let requestCancelled = -32800
    /// The document changed under the request, so its answer would be stale.
    public static let contentModified = -32801
    /// The request was valid but could not be carried out (LSP's RequestFailed): maskd refuses an open that would
    /// drop the person's letters or digits.
    public static let requestFailed = -32803
}

/// The `error` member of a JSON-RPC error response.
public struct ResponseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One of ``ErrorCode``'s codes, or another integer.
    public var code: Int
    /// A sentence for a person.
    public var message: String
    /// Extra information, or nil to leave `data` out.
    public var data: JSONValue?

    /// Creates an error.
    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// The error as the JSON object that a response carries.
    public var json: JSONValue {
        var object: JSONObject = ["code": .int(Int64(code)), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }

    /// Reads an error object, or returns nil unless `json` is an object with an integer `code` and a string `message`.
    public init?(json: JSONValue) {
        guard let code = json["code"]?.intValue, let message = json["message"]?.stringValue else { return nil }
        self.init(code: code, message: message, data: json["data"])
    }

    /// The code and the message.
    public var description: String { "\(code): \(message)" }
}

extension ResponseError {
    /// A ``ErrorCode/parseError`` error.
    public static func parseError(_ message: String, data: JSONValue? = nil) -> ResponseError {
        ResponseError(code: ErrorCode.parseError, message: message, data: data)
    }

    /// An ``ErrorCode/invalidRequest`` error.
    public static func invalidRequest(_ message: String, data: JSONValue? = nil) -> ResponseError {
        ResponseError(code: ErrorCode.invalidRequest, message: message, data: data)
    }

    /// A ``ErrorCode/methodNotFound`` error.
    public static func methodNotFound(_ message: String, data: JSONValue? = nil) -> ResponseError {
        ResponseError(code: ErrorCode.methodNotFound, message: message, data: data)
    }

    /// An ``ErrorCode/invalidParams`` error.
    public static func invalidParams(_ message: String, data: JSONValue? = nil) -> ResponseError {
        ResponseError(code: ErrorCode.invalidParams, message: message, data: data)
    }

    /// An ``ErrorCode/internalError`` error.
    public static func internalError(_ message: String, data: JSONValue? = nil) -> ResponseError {
        ResponseError(code: ErrorCode.internalError, message: message, data: data)
    }

    /// A ``ErrorCode/serverNotInitialized`` error.
    public static func serverNotInitialized(_ message: String, data: JSONValue? = nil) -> ResponseError {
        ResponseError(code: ErrorCode.serverNotInitialized, message: message, data: data)
    }

    /// A ``ErrorCode/requestCancelled`` error.
    public static func requestCancelled(_ message: String, data: JSONValue? = nil) -> ResponseError {
        ResponseError(code: ErrorCode.requestCancelled, message: message, data: data)
    }

    /// A ``ErrorCode/contentModified`` error.
    public static func contentModified(_ message: String, data: JSONValue? = nil) -> ResponseError {
        ResponseError(code: ErrorCode.contentModified, message: message, data: data)
    }

    /// A ``ErrorCode/requestFailed`` error.
    public static func requestFailed(_ message: String, data: JSONValue? = nil) -> ResponseError {
        ResponseError(code: ErrorCode.requestFailed, message: message, data: data)
    }
}
