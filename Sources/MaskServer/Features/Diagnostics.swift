// maskd: the fields' problems as `textDocument/publishDiagnostics`.
import JSON
import MaskEngine

/// What a field's diagnostic says, without its place: a document keeps one per field that has a
/// problem, updated as the field's state changes, so publishing costs the problems, not the fields.
struct FieldProblem: Hashable, Sendable {
    var severity: Diagnostic.Severity
    /// `incomplete` or `invalid`.
    var code: String
    var message: String

    /// An incomplete field is a hint, a complete but invalid one an error; nil for a complete,
    /// valid field.
    init?(_ state: FieldResult) {
        let problems = state.problems.joined(separator: "; ")
        if !state.complete {
            (severity, code, message) = (.hint, "incomplete", problems.isEmpty ? "incomplete" : problems)
        } else if !state.valid {
            (severity, code, message) = (.error, "invalid", problems.isEmpty ? "invalid" : problems)
        } else {
            return nil
        }
    }
}

extension Server {
    /// Notes that the diagnostics of `uri` may have changed; `publishChanges` publishes them.
    func diagnosticsMayHaveChanged(_ uri: String) {
        diagnosticsToCheck.insert(uri)
    }

    /// Called after a field was opened, re-masked or closed: its diagnostics and inlay hints change
    /// without the text necessarily changing.
    func fieldsChanged(_ uri: String) {
        diagnosticsMayHaveChanged(uri)
        inlayHintsChanged = true
    }

    /// Sends what the messages handled since the last call changed: the diagnostics of each
    /// document that may have new ones, and one `workspace/inlayHint/refresh`.
    ///
    /// The transport calls it once it has handled every message of a read, so a burst (a plugin
    /// restoring 100,000 fields in one go) publishes once, not once per message.
    public func publishChanges() {
        for uri in diagnosticsToCheck.sorted() { publishDiagnostics(uri) }
        diagnosticsToCheck.removeAll()
        if inlayHintsChanged {
            inlayHintsChanged = false
            refreshInlayHints()
        }
    }

    /// Publishes the diagnostics of `uri` when they differ from the last ones published for it.
    ///
    /// They describe the daemon's copy at its version, so while edits the daemon proposed wait for
    /// their echo (the editor's text is then not yet the one they describe) nothing is sent: the
    /// echo publishes them. A closed document's list is cleared (published empty).
    ///
    /// - Complexity: O(p log n) for a document with p fields that have a problem and n lines.
    private func publishDiagnostics(_ uri: String) {
        var diagnostics: [Diagnostic] = []
        var version: Int?
        if let document = documents[uri] {
            guard document.pending.isEmpty else { return }
            diagnostics = document.diagnostics()
            version = document.version
        }
        guard diagnostics != publishedDiagnostics[uri] ?? [] else { return }
        publishedDiagnostics[uri] = diagnostics.isEmpty ? nil : diagnostics
        notify(PublishDiagnosticsNotification.method,
               PublishDiagnosticsNotification.params(uri: uri, version: version, diagnostics))
    }
}
