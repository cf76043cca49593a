// maskd: the JSON-RPC errors a handler can answer with.
import JSON

/// A JSON-RPC error a message handler answers with; the dispatcher turns it into a response.
public struct MessageError: Error, Hashable, CustomStringConvertible {
    public var code: Int
    public var message: String
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var description: String { "\(code): \(message)" }

    public static let parseErrorCode = -32700
    public static let invalidRequestCode = -32600
    public static let methodNotFoundCode = -32601
    public static let invalidParamsCode = -32602
    public static let internalErrorCode = -32603
    public static let serverNotInitializedCode = -32002
    public static let requestCancelledCode = -32800
    public static let contentModifiedCode = -32801

    public static func invalidParams(_ message: String, data: JSONValue? = nil) -> MessageError {
        MessageError(code: invalidParamsCode, message: message, data: data)
    }
}
