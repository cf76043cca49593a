// maskd: the fields' problems as `textDocument/publishDiagnostics`.
import JSON

extension Server {
    /// Publishes the diagnostics of `uri` when they differ from the last ones published for it.
    ///
    /// An incomplete field is a hint, a complete but invalid one an error; a complete, valid field
    /// has none. They describe the daemon's copy at its version, so while edits the daemon proposed
    /// wait for their echo (the editor's text is then not yet the one they describe) nothing is
    /// sent: the echo publishes them. A closed document's list is cleared (published empty).
    ///
    /// - Complexity: O(f log n) for a document with f fields and n lines.
    func publishDiagnostics(_ uri: String) {
        var diagnostics: [Diagnostic] = []
        var version: Int?
        if let document = documents[uri] {
            guard document.pending.isEmpty else { return }
            diagnostics = document.allSnapshots().compactMap(Server.diagnostic)
            version = document.version
        }
        guard diagnostics != publishedDiagnostics[uri] ?? [] else { return }
        publishedDiagnostics[uri] = diagnostics.isEmpty ? nil : diagnostics
        notify(PublishDiagnosticsNotification.method,
               PublishDiagnosticsNotification.params(uri: uri, version: version, diagnostics))
    }

    /// A field's diagnostic, or nil when it is complete and valid.
    static func diagnostic(_ field: FieldSnapshot) -> Diagnostic? {
        let state = field.result
        let problems = state.problems.joined(separator: "; ")
        if !state.complete {
            return Diagnostic(range: field.range, severity: .hint, code: "incomplete",
                              message: problems.isEmpty ? "incomplete" : problems)
        }
        if !state.valid {
            return Diagnostic(range: field.range, severity: .error, code: "invalid",
                              message: problems.isEmpty ? "invalid" : problems)
        }
        return nil
    }

    /// Called after a field was opened, re-masked or closed: its diagnostics and inlay hints change
    /// without the text necessarily changing.
    func fieldsChanged(_ uri: String) {
        publishDiagnostics(uri)
        refreshInlayHints()
    }
}
