// maskd: `initialize`.
import JSON
import JSONRPC
import MaskEngine

/// Starts the session and picks the position encoding.
///
/// From `capabilities.general.positionEncodings`, utf-16 when offered or when the list is
/// absent or empty, else utf-8, else utf-32, else utf-16 anyway (LSP's mandatory default).
/// - Returns: `{"capabilities": {"positionEncoding", "textDocumentSync": {"openClose": true,
///   "change": 2}, "experimental": {"maskd": {"version": 1, "presets": [names]}}},
///   "serverInfo": {"name": "maskd", "version"}}`.
struct InitializeRequest: RequestMessage {
    static let method = "initialize"

    /// The encodings the client offers, in its order; nil when it says nothing.
    let offered: [String]?

    init(params: JSONValue) throws {
        let p = try Params(params, optional: true)
        let general = try p.optionalObject("capabilities")?.optionalObject("general")
        if let list = general?.value("positionEncodings") {
            guard let items = list.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
                throw general!.typeError("positionEncodings", "an array of strings", list)
            }
            offered = items.compactMap(\.stringValue)
        } else {
            offered = nil
        }
    }

    static func choose(_ offered: [String]?) -> PositionEncoding {
        guard let offered, !offered.isEmpty else { return .utf16 }
        for preferred in [PositionEncoding.utf16, .utf8, .utf32] where offered.contains(preferred.rawValue) {
            return preferred
        }
        return .utf16
    }

    func handle(_ server: Server) throws -> JSONValue {
        guard server.lifecycle == .uninitialized else {
            throw MessageError(code: ErrorCode.invalidRequest, message: "'initialize' was already received")
        }
        server.encoding = InitializeRequest.choose(offered)
        server.lifecycle = .running
        server.log.info("initialized; positions in \(server.encoding.rawValue)")
        return [
            "capabilities": [
                "positionEncoding": .string(server.encoding.rawValue),
                "textDocumentSync": ["openClose": true, "change": 2],
                "experimental": ["maskd": ["version": 1, "presets": .array(Server.presets.map(JSONValue.string))]],
            ],
            "serverInfo": ["name": "maskd", "version": .string(server.version)],
        ]
    }
}

extension Server {
    /// The preset names of `Protocol/presets.md`, as the engine lists them.
    static let presets: [String] = Presets.names
}
