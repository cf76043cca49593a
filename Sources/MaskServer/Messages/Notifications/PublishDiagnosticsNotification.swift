// maskd: `textDocument/publishDiagnostics`, daemon to client.
import JSON
import JSONRPC

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
        [
            "range": .from(range), "severity": .from(severity.rawValue), "code": .string(code), "source": "maskd",
            "message": .string(message),
        ]
    }
}

/// The diagnostics of one document: `{"uri", "version"?, "diagnostics": Diagnostic[]}`, each
/// `{"range", "severity", "code", "source": "maskd", "message"}`.
///
/// Sent when the fields' diagnostics changed and the document has been quiet for `diagnosticsDelay` ms (see
/// `Features/Diagnostics.swift`); an empty list clears them.
struct PublishDiagnosticsNotification: OutgoingBody {
    static let method = "textDocument/publishDiagnostics"

    let uri: String
    /// The document version the ranges are in; nil once the document is closed.
    let version: Int?
    let diagnostics: DiagnosticList

    /// The params but for `diagnostics`, the last member.
    var json: JSONValue {
        var params: JSONObject = ["uri": .string(uri)]
        if let version { params["version"] = .from(version) }
        return .object(params)
    }

    /// A document's list may hold 100,000 diagnostics: each is made as it is written.
    var longList: (member: String, elements: JSONElements)? {
        let diagnostics = diagnostics
        return ("diagnostics", JSONElements(count: diagnostics.count) { diagnostics[$0].json })
    }
}
