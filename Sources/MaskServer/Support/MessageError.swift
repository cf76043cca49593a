// maskd: the JSON-RPC errors a handler can answer with.
import JSONRPC

/// A handler's error answer: the JSON-RPC layer's `ResponseError` (code, message, data).
public typealias MessageError = ResponseError
