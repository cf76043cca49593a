// maskd: field sessions: open, re-mask, close, list, hint.
import JSON
import JSONRPC
import MaskEngine

extension Server {
    /// The document of a field request, checking `textDocument.version` when the client sends it.
    /// - Throws: `-32602` for a document that is not open, `-32801` for a version the daemon's
    ///   copy is not at (the content was modified since the client asked).
    func fieldDocument(_ uri: String, version: Int?) throws -> Document {
        let document = try document(uri)
        if let version, version != document.version {
            throw MessageError(code: ErrorCode.contentModified,
                               message: "'\(uri)' is at version \(document.version), not \(version)")
        }
        return document
    }

    /// The result of `openField` and `setMask`.
    static func fieldResult(_ document: Document, _ outcome: (edits: [TextEdit], cursor: Position?, state: FieldSnapshot))
        -> JSONValue {
        [
            "field": .string(outcome.state.id),
            "edits": .from(outcome.edits),
            "cursor": outcome.cursor.map(JSONValue.from) ?? .null,
            "state": .from(outcome.state),
            "version": .from(document.version),
            "rejected": .string(outcome.state.result.rejected),
            "overflow": .string(outcome.state.result.overflow),
        ]
    }

    func openField(uri: String, version: Int?, range: TextRange, spec: MaskSpec, mask: Mask, id: String?) throws
        -> JSONValue {
        let (document, outcome) = try openFieldOutcome(uri: uri, version: version, range: range, spec: spec, mask: mask,
                                                       id: id)
        fieldsChanged(uri)
        return Server.fieldResult(document, outcome)
    }

    /// Opens a field (`maskd/openField`, the `maskd.openField` command); the caller then calls
    /// `fieldsChanged`, once the edits are on their way.
    /// - Returns: the document and what opening the field proposes; the edits are pending.
    func openFieldOutcome(uri: String, version: Int?, range: TextRange, spec: MaskSpec, mask: Mask, id: String?) throws
        -> (Document, (edits: [TextEdit], cursor: Position?, state: FieldSnapshot)) {
        let document = try fieldDocument(uri, version: version)
        guard range.start.line == range.end.line else {
            throw MessageError.invalidParams("params.range: a field is one line, this range spans lines "
                + "\(range.start.line) to \(range.end.line)")
        }
        let start: ScalarPosition, end: ScalarPosition
        switch document.scalarRange(range) {
        case .failure(let problem): throw MessageError.invalidParams("params.range: \(problem.reason)")
        case .success(let (s, e)): (start, end) = (s, e)
        }
        if let id, document.sessions[id] != nil {
            throw MessageError.invalidParams("params.field: field '\(id)' is already open in '\(uri)'")
        }
        if let other = document.fields(touching: start.line, from: start.column, to: end.column)
            .first(where: { $0.start < end.column && start.column < $0.end }) {
            throw MessageError.invalidParams("params.range: overlaps field '\(other.id)'")
        }
        let outcome = document.openField(id: id ?? document.newFieldID(), line: start.line, start: start.column,
                                         end: end.column, spec: spec, mask: mask)
        return (document, outcome)
    }

    func setMask(uri: String, version: Int?, id: String, spec: MaskSpec, mask: Mask, caret: Position?) throws
        -> JSONValue {
        let document = try fieldDocument(uri, version: version)
        // Its edits are computed on the daemon's copy; over edits the editor has not echoed yet they
        // would be against a text the editor no longer has.
        if document.pending.contains(where: { $0.field == id }) {
            throw MessageError(code: ErrorCode.contentModified,
                               message: "field '\(id)' has formatting edits the editor has not applied yet; retry after them")
        }
        guard let outcome = document.setMask(id: id, spec: spec, mask: mask, caret: caret) else {
            throw MessageError.invalidParams("params.field: no field '\(id)' in '\(uri)'")
        }
        fieldsChanged(uri)
        return Server.fieldResult(document, outcome)
    }

    func closeField(uri: String, version: Int?, id: String) throws -> JSONValue {
        let document = try fieldDocument(uri, version: version)
        guard document.closeField(id) else {
            throw MessageError.invalidParams("params.field: no field '\(id)' in '\(uri)'")
        }
        fieldsChanged(uri)
        return .null
    }

    func fields(uri: String, version: Int?) throws -> JSONValue {
        .array(try fieldDocument(uri, version: version).allSnapshots().map(JSONValue.from))
    }

    func formatHints(uri: String, version: Int?, position: Position) throws -> JSONValue {
        let document = try fieldDocument(uri, version: version)
        if case .failure(let problem) = document.scalarPosition(position) {
            throw MessageError.invalidParams("params.position: \(problem.reason)")
        }
        return document.field(at: position).map(JSONValue.from) ?? .null
    }
}
