// maskd: how the daemon's edits reach the editor: `maskd/didFormat`, or `workspace/applyEdit`.
import JSON
import JSONRPC

extension Server {
    /// Delivers the formatting of a person's change: `maskd/didFormat` for a maskd plugin, or
    /// `workspace/applyEdit` for a plain client (which gets nothing when there is nothing to edit).
    /// - Parameter label: the `applyEdit`'s label; none for a keystroke's formatting, since a client may
    ///   show each one (Neovim prints it), and that is every keystroke.
    func deliver(_ report: FormatReport, uri: String, label: String? = nil) {
        switch client.delivery {
        case .didFormat:
            // A keystroke's params are written straight from the report; a long list (a rule opening
            // thousands of fields) goes as a value, which is written piece by piece.
            if let notifyWriting, DidFormatNotification.isShort(report) {
                notifyWriting(DidFormatNotification.method) { DidFormatNotification.write(uri: uri, report, to: $0) }
            } else {
                notify(DidFormatNotification.method, DidFormatNotification.params(uri: uri, report))
            }
        case .applyEdit:
            applyEdits(uri: uri, version: report.version, report.edits, label: label)
        }
    }

    /// Sends `edits` (against `version` of `uri`, already pending in the document) as one
    /// `workspace/applyEdit`, with `label` when given; nothing when there are none.
    ///
    /// When the client answers that it did not apply them and the document has not changed since,
    /// no echo will come: the pending edits are dropped and the diagnostics published.
    func applyEdits(uri: String, version: Int, _ edits: [TextEdit], label: String?) {
        guard !edits.isEmpty else { return }
        let what = label ?? "formatting"
        let params = ApplyWorkspaceEditRequest.params(label: label, uri: uri,
                                                      version: client.documentChanges ? version : nil, edits)
        request(ApplyWorkspaceEditRequest.method, params) { [weak self] result in
            guard let self else { return }
            let why: String
            switch result {
            case .success(let answer) where answer["applied"]?.boolValue == true:
                return
            case .success(let answer):
                why = answer["failureReason"]?.stringValue ?? "no reason given"
            case .failure(let error):
                why = "error \(error)"
            }
            guard let document = self.documents[uri], document.version == version else {
                // The document moved on: the change that moved it already dropped or matched the edits.
                self.log.info("\(what): the client did not apply the edits for '\(uri)' version \(version): \(why)")
                return
            }
            self.report(.info, "\(what): the client did not apply the edits for '\(uri)' version \(version) "
                + "(\(why)); they are dropped")
            document.discardPending()
            self.diagnosticsMayHaveChanged(uri, withoutText: true)
        }
    }

    /// Asks the client to request inlay hints again, when it offers `workspace.inlayHint.refreshSupport`.
    func refreshInlayHints() {
        guard client.inlayHintRefresh else { return }
        request(InlayHintRefreshRequest.method, .null)
    }
}
