// maskd: how the daemon's edits reach the editor: `maskd/didFormat`, or `workspace/applyEdit`.
import JSON
import JSONRPC

/// The formatting of a person's changes to a document, for a plain client, not sent yet: it goes once the document
/// has been quiet for `applyEditDelay` ms and no earlier `applyEdit` for it waits for its answer (protocol.md 8.7).
struct HeldEdits {
    /// The version the edits are against: the document's when they were made.
    var version: Int
    var edits: [TextEdit]
    /// When they may be sent; nil until the messages of the read that made them are handled.
    var due: UInt64?
}

extension Server {
    /// Delivers the formatting of a person's change: `maskd/didFormat` for a maskd plugin, or
    /// `workspace/applyEdit` for a plain client (which gets nothing when there is nothing to edit).
    /// - Parameter what: what the edits do, for the log.
    func deliver(_ report: FormatReport, uri: String, what: String = "formatting") {
        switch client.delivery {
        case .didFormat:
            notify(DidFormatNotification.method, DidFormatNotification(uri: uri, report: report))
        case .applyEdit:
            applyEdits(uri: uri, version: report.version, report.edits, what: what)
        }
    }

    /// Delivers the formatting of a person's `didChange`. A plain client's is held (`HeldEdits`): sent while the
    /// person types, it could reach the editor after a newer key, where it lands on the wrong text (a client that
    /// cannot refuse it) or is refused with a message (one that can).
    func deliverTyping(_ report: FormatReport, uri: String) {
        guard client.delivery == .applyEdit else { return deliver(report, uri: uri) }
        heldEdits[uri] = report.edits.isEmpty ? nil : HeldEdits(version: report.version, edits: report.edits)
    }

    /// Sends `edits` (against `version` of `uri`, already pending in the document) as one
    /// `workspace/applyEdit`, `what` they do naming them in the log; nothing when there are none.
    ///
    /// When the client answers that it did not apply them and the document has not changed since,
    /// no echo will come: the pending edits are dropped and the diagnostics published.
    func applyEdits(uri: String, version: Int, _ edits: [TextEdit], what: String) {
        guard !edits.isEmpty else { return }
        let params = ApplyWorkspaceEditRequest.params(
            uri: uri,
            version: client.documentChanges ? version : nil, edits)
        applyEditsAwaiting[uri, default: 0] += 1
        request(ApplyWorkspaceEditRequest.method, params) { [weak self] result in
            guard let self else { return }
            if let left = self.applyEditsAwaiting[uri] { self.applyEditsAwaiting[uri] = left > 1 ? left - 1 : nil }
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
            self.report(
                .info,
                "\(what): the client did not apply the edits for '\(uri)' version \(version) "
                    + "(\(why)); they are dropped")
            document.discardPending()
            self.diagnosticsMayHaveChanged(uri, withoutText: true)
        }
    }

    /// Sends the held edits of each document quiet for `applyEditDelay` ms (since the end of the read that made
    /// them) whose earlier `applyEdit`s are all answered; called with `publishChanges`.
    func sendHeldEdits(now: UInt64) {
        guard !heldEdits.isEmpty else { return }
        for uri in heldEdits.keys.sorted() {
            guard var held = heldEdits[uri] else { continue }
            if held.due == nil {
                held.due = now + UInt64(client.applyEditDelay)
                heldEdits[uri] = held
            }
            guard let due = held.due, due <= now, applyEditsAwaiting[uri] == nil else { continue }
            heldEdits[uri] = nil
            // The document is at the edits' version: any change since would have replaced them.
            guard let document = documents[uri], document.version == held.version else { continue }
            applyEdits(uri: uri, version: held.version, held.edits, what: "formatting")
        }
    }

    /// When the next held edits may be sent, in clock milliseconds; nil when none wait for time alone.
    var heldEditsDue: UInt64? {
        heldEdits.lazy.filter { self.applyEditsAwaiting[$0.key] == nil }.compactMap(\.value.due).min()
    }

    /// Asks the client to request inlay hints again, when it offers `workspace.inlayHint.refreshSupport`.
    func refreshInlayHints() {
        guard client.inlayHintRefresh else { return }
        request(InlayHintRefreshRequest.method, .null)
    }
}
