// maskd: open documents and their changes.
import JSON

extension Server {
    func openDocument(uri: String, languageId: String, version: Int, text: String) {
        if documents[uri] != nil {
            report(.warn, "textDocument/didOpen: '\(uri)' was already open; it is replaced and its fields closed")
        }
        documents[uri] = Document(uri: uri, languageId: languageId, version: version, text: text, encoding: encoding)
        log.debug("opened \(uri) at version \(version)")
    }

    func closeDocument(uri: String) {
        guard documents.removeValue(forKey: uri) != nil else {
            report(.warn, "textDocument/didClose: '\(uri)' is not open")
            return
        }
        log.debug("closed \(uri)")
    }

    /// Applies a `didChange` and sends `maskd/didFormat` when a person's change touched a field.
    ///
    /// A refused change (stale version, impossible range) is reported with `window/logMessage`
    /// and leaves the document exactly as it was.
    func changeDocument(uri: String, version: Int, changes: [ContentChange]) {
        guard let document = documents[uri] else {
            report(.warn, "textDocument/didChange: '\(uri)' is not open")
            return
        }
        do {
            if let report = try document.apply(changes, version: version) {
                notify(DidFormatNotification.method, DidFormatNotification.params(uri: uri, report))
            }
        } catch let refusal as ChangeRefusal {
            report(.warn, "textDocument/didChange '\(uri)' version \(version) refused, nothing applied: "
                + "\(refusal); send the full content to resynchronise")
        } catch {
            report(.error, "textDocument/didChange '\(uri)': \(error)")
        }
    }
}
