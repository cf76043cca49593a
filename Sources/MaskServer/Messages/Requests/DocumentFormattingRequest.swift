// maskd: `textDocument/formatting`.
import JSON

/// Brings every field of a document into form (`FormattingOptions` are ignored: masks decide).
///
/// Server capability: `documentFormattingProvider`.
/// - Parameters: `{"textDocument": {"uri"}, "options"}`.
/// - Returns: `TextEdit[]` against the current version; applying them is the daemon's echo.
struct DocumentFormattingRequest: RequestMessage {
    static let method = "textDocument/formatting"

    let uri: String

    init(params: JSONValue) throws {
        uri = try Params(params).documentURI()
    }

    func handle(_ server: Server) throws -> JSONValue {
        try server.format(uri: uri, range: nil)
    }
}
