// maskd: `textDocument/rangeFormatting`.
import JSON

/// Brings the fields overlapping or touching a range into form.
///
/// Server capability: `documentRangeFormattingProvider`.
/// - Parameters: `{"textDocument": {"uri"}, "range", "options"}`.
/// - Returns: `TextEdit[]` against the current version; applying them is the daemon's echo.
struct DocumentRangeFormattingRequest: RequestMessage {
    static let method = "textDocument/rangeFormatting"

    let uri: String
    let range: TextRange

    init(params: JSONValue) throws {
        let p = try Params(params)
        uri = try p.documentURI()
        range = try p.range("range")
    }

    func handle(_ server: Server) throws -> JSONValue {
        try server.format(uri: uri, range: range)
    }
}
