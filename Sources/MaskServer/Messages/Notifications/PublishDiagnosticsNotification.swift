// maskd: `textDocument/publishDiagnostics`, daemon to client.
import JSON

/// One field's problem as an LSP `Diagnostic`.
struct Diagnostic: Hashable, Sendable {
    /// LSP `DiagnosticSeverity`.
    enum Severity: Int, Hashable, Sendable {
        case error = 1, warning, information, hint
    }

    var range: TextRange
    var severity: Severity
    /// `incomplete` or `invalid`.
    var code: String
    var message: String

    /// `{"range", "severity", "code", "source": "maskd", "message"}`.
    var json: JSONValue {
        ["range": .from(range), "severity": .from(severity.rawValue), "code": .string(code), "source": "maskd",
         "message": .string(message)]
    }
}

/// The diagnostics of one document: `{"uri", "version"?, "diagnostics": Diagnostic[]}`, each
/// `{"range", "severity", "code", "source": "maskd", "message"}`.
///
/// Sent when the fields' diagnostics changed and the document has been quiet for `diagnosticsDelay` ms (see
/// `Features/Diagnostics.swift`); an empty list clears them.
enum PublishDiagnosticsNotification {
    static let method = "textDocument/publishDiagnostics"

    /// - Parameter version: the document version the ranges are in; nil once the document is closed.
    static func params(uri: String, version: Int?, _ diagnostics: [Diagnostic]) -> JSONValue {
        var params = paramsWithoutList(uri: uri, version: version)
        params["diagnostics"] = .array(diagnostics.map(\.json))
        return .object(params)
    }

    /// The params but for `diagnostics`, the last member, for a list written element by element.
    static func paramsWithoutList(uri: String, version: Int?) -> JSONObject {
        var params: JSONObject = ["uri": .string(uri)]
        if let version { params["version"] = .from(version) }
        return params
    }
}
