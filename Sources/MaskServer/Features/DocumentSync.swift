// maskd: the document lifecycle a client drives: open, change, close.
import JSON

extension Server {
    func openDocument(uri: String, languageId: String, version: Int, text: String) {
        if documents[uri] != nil {
            report(.warn, "textDocument/didOpen: '\(uri)' was already open; it is replaced and its fields closed")
        }
        heldEdits[uri] = nil
        let document = Document(uri: uri, languageId: languageId, version: version, text: text, encoding: encoding)
        documents[uri] = document
        log.debug("opened \(uri) at version \(version)")
        document.rules = rules(for: uri, languageId: languageId)
        openRuleFieldsEverywhere(uri, document)
        // A replaced document's fields are gone, and so are their diagnostics; a new revision either way, so a
        // pull client's result id of the old document is never taken for the new one's.
        diagnosticsMayHaveChanged(uri)
    }

    func closeDocument(uri: String) {
        heldEdits[uri] = nil
        guard documents.removeValue(forKey: uri) != nil else {
            report(.warn, "textDocument/didClose: '\(uri)' is not open")
            return
        }
        log.debug("closed \(uri)")
        // Pushed diagnostics are cleared (an empty list); a pull client forgets them itself.
        if client.diagnostics == .push { diagnosticsMayHaveChanged(uri) } else { diagnosticsState[uri] = nil }
    }

    /// Applies a `didChange`; when a person's change touched a field, delivers the edits that
    /// bring it into form (`maskd/didFormat`, or `workspace/applyEdit` for a plain client once quiet).
    ///
    /// A refused change (stale version, impossible range) is reported with `window/logMessage`
    /// and leaves the document exactly as it was.
    func changeDocument(uri: String, version: Int, changes: [ContentChange]) {
        guard let document = documents[uri] else {
            report(.warn, "textDocument/didChange: '\(uri)' is not open")
            return
        }
        let echoExpected = !document.pending.isEmpty
        // Edits held back were never sent, so nothing in this change is their echo: they are dropped, and the
        // fields are read afresh with it.
        let held = heldEdits[uri] != nil
        do {
            let formatted = try document.apply(changes, version: version, echoes: !held)
            heldEdits[uri] = nil
            if let formatted { deliverTyping(formatted, uri: uri) }
            // Diagnostics can only have changed when a field's state did, when an echo completed (they
            // waited for it), or when fields that have diagnostics may have moved.
            documentChanged(uri)
            if formatted != nil || echoExpected || hasDiagnostics(uri) { diagnosticsMayHaveChanged(uri) }
        } catch let refusal as ChangeRefusal {
            report(
                .warn,
                "textDocument/didChange '\(uri)' version \(version) refused, nothing applied: "
                    + "\(refusal); send the full content to resynchronise")
        } catch {
            report(.error, "textDocument/didChange '\(uri)': \(error)")
        }
    }
}
