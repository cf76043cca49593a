// maskd: the field requests: open, re-mask, close, list, hint.
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
            throw MessageError(
                code: ErrorCode.contentModified,
                message: "'\(uri)' is at version \(document.version), not \(version)")
        }
        return document
    }

    /// The result of `openField` and `setMask`.
    static func fieldResult(
        _ document: Document, _ outcome: (edits: [TextEdit], cursor: Position?, state: FieldSnapshot)
    )
        -> JSONValue
    {
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

    func openField(
        uri: String, version: Int?, place: FieldPlace, spec: MaskSpec, mask: Mask, id: String?,
        force: Bool
    ) throws -> JSONValue {
        let (document, outcome) = try openFieldOutcome(
            uri: uri, version: version, place: place, spec: spec, mask: mask,
            id: id, force: force)
        fieldsChanged(uri)
        return Server.fieldResult(document, outcome)
    }

    /// Opens a field (`maskd/openField`, the `maskd.openField` command); the caller then calls
    /// `fieldsChanged`, once the edits are on their way.
    /// - Returns: the document and what opening the field proposes; the edits are pending.
    func openFieldOutcome(
        uri: String, version: Int?, place: FieldPlace, spec: MaskSpec, mask: Mask, id: String?,
        force: Bool
    ) throws
        -> (Document, (edits: [TextEdit], cursor: Position?, state: FieldSnapshot))
    {
        let document = try fieldDocument(uri, version: version)
        let placed: (id: String, result: FieldResult)
        switch place {
        case .range(let range):
            placed = try Server.placeField(in: document, uri: uri, range: range, mask: mask, id: id, force: force)
        case .at(let position):
            let at: ScalarPosition
            switch document.scalarPosition(position) {
            case .failure(let problem): throw MessageError.invalidParams("params.at: \(problem.reason)")
            case .success(let p): at = p
            }
            let (start, end) = Server.fieldExtent(in: document, at: at, mask: mask)
            placed = try Server.placeField(
                in: document, uri: uri, start: start, end: end, key: "at", mask: mask, id: id,
                force: force)
        }
        return (document, document.proposeOpened([placed.id: placed.result])[placed.id]!)
    }

    /// Where `maskd/openField` with `at` opens its field (``FieldExtent/candidates(in:at:)``): the first run of
    /// words around the cursor that overlaps no field and that `mask` reads dropping nothing (no `rejected`, no
    /// `overflow`, punctuation included), else the word under the cursor alone, else the empty range at `at`.
    /// - Complexity: O(the runs' lengths) to read them (a window of the line around `at`, widened only while a run
    ///   reaches its edge), plus reading at most 15 runs through the mask.
    static func fieldExtent(in document: Document, at: ScalarPosition, mask: Mask) -> (ScalarPosition, ScalarPosition) {
        let length = document.lines.length(ofLine: at.line)
        var reach = 256
        var from: Int, line: [Unicode.Scalar], found: (word: Range<Int>, runs: [Range<Int>])?
        while true {
            from = max(0, at.column - reach)
            let to = min(length, at.column + reach)
            line = Array(document.lines.slice(line: at.line, from: from, to: to).unicodeScalars)
            found = FieldExtent.candidates(in: line, at: at.column - from)
            // A run that starts within a blank and a word of the window's left edge, or ends within a blank of its
            // right edge, may go on past it: read more of the line.
            let left = found.map { $0.runs.reduce($0.word.lowerBound) { min($0, $1.lowerBound) } } ?? Int.max
            let right = found.map { $0.runs.reduce($0.word.upperBound) { max($0, $1.upperBound) } } ?? Int.min
            if (from > 0 && left < 2) || (to < length && right + 1 >= line.count) {
                reach *= 4
                continue
            }
            break
        }
        func position(_ column: Int) -> ScalarPosition { ScalarPosition(line: at.line, column: column) }
        guard let (windowWord, windowRuns) = found else { return (at, at) }
        let word = (windowWord.lowerBound + from)..<(windowWord.upperBound + from)
        let runs = windowRuns.map { ($0.lowerBound + from)..<($0.upperBound + from) }
        let fields = document.fields(
            touching: at.line, from: runs.first?.lowerBound ?? word.lowerBound,
            to: runs.first?.upperBound ?? word.upperBound)
        for run in runs where !fields.contains(where: { $0.start < run.upperBound && run.lowerBound < $0.end }) {
            var text = String.UnicodeScalarView()
            text.append(contentsOf: line[(run.lowerBound - from)..<(run.upperBound - from)])
            let result = mask.format(String(text))
            if result.rejected.isEmpty && result.overflow.isEmpty {
                return (position(run.lowerBound), position(run.upperBound))
            }
        }
        return (position(word.lowerBound), position(word.upperBound))
    }

    /// `maskd/openFields`: each entry opened as `openField` would, all proposed in one pass, published once.
    /// - Returns: `{"results": [...], "version"}`, one result per entry in order: the `openField` result, or
    ///   `{"error": {"code", "message"}}` for an entry that failed alone (its params, its range, an overlap, what
    ///   it would drop).
    /// - Complexity: O(N log n) for N entries on n lines (plus the entries' lines and masks).
    func openFields(uri: String, version: Int?, entries: [Result<OpenFieldsRequest.Entry, MessageError>]) throws
        -> JSONValue
    {
        let document = try fieldDocument(uri, version: version)
        // Per result, in order: the field placed, or the error and, for a line of an entry over several lines, the
        // range it was for.
        var placed: [Result<String, PartError>] = []
        var results: [String: FieldResult] = [:]
        for read in entries {
            let entry: OpenFieldsRequest.Entry
            switch read {
            case .failure(let error):
                placed.append(.failure(PartError(error: error, range: nil)))
                continue
            case .success(let e): entry = e
            }
            // nil: the entry's own range, on one line (or refused as any range is).
            var parts: [TextRange?] = [nil]
            if entry.range.start.line < entry.range.end.line {
                do {
                    parts = try Server.rebasing(to: entry.path) { try Server.lineParts(of: entry.range, in: document) }
                } catch let error as MessageError {
                    placed.append(.failure(PartError(error: error, range: nil)))
                    continue
                }
            }
            for part in parts {
                do {
                    let field = try Server.rebasing(to: entry.path) {
                        try Server.placeField(
                            in: document, uri: uri, range: part ?? entry.range, mask: entry.mask,
                            id: entry.field, force: entry.force)
                    }
                    results[field.id] = field.result
                    placed.append(.success(field.id))
                } catch let error as MessageError {
                    placed.append(.failure(PartError(error: error, range: part)))
                }
            }
        }
        let outcomes = results.isEmpty ? [:] : document.proposeOpened(results)
        if !results.isEmpty { fieldsChanged(uri) }
        return [
            "results": .array(
                placed.map { entry in
                    switch entry {
                    case .success(let id): return Server.fieldResult(document, outcomes[id]!)
                    case .failure(let part):
                        guard let range = part.range else { return ["error": part.error.json] }
                        return ["error": part.error.json, "range": .from(range)]
                    }
                }),
            "version": .from(document.version),
        ]
    }

    /// An entry of `maskd/openFields` that failed, with the range of its line when it is one line of an entry over
    /// several.
    private struct PartError: Error {
        let error: MessageError
        let range: TextRange?
    }

    /// The fields an `openFields` entry over several lines opens: one per line from its start's to its end's, over
    /// that line's part of the range (from the start on the first, to the end on the last, whole between) without
    /// its leading and trailing blanks; a part with nothing else is left out.
    /// - Throws: `-32602` for a range outside the document or whose end comes before its start.
    /// - Complexity: O(the lines' lengths).
    private static func lineParts(of range: TextRange, in document: Document) throws -> [TextRange] {
        let start: ScalarPosition, end: ScalarPosition
        switch document.scalarRange(range) {
        case .failure(let problem): throw MessageError.invalidParams("params.range: \(problem.reason)")
        case .success(let (s, e)): (start, end) = (s, e)
        }
        var parts: [TextRange] = []
        for line in start.line...end.line {
            let length = document.lines.length(ofLine: line)
            let from = line == start.line ? start.column : 0, to = line == end.line ? end.column : length
            let text = Array(document.lines.slice(line: line, from: from, to: to).unicodeScalars)
            guard let part = FieldExtent.trimmed(text, from: 0, to: text.count) else { continue }
            parts.append(
                TextRange(
                    start: document.position(ScalarPosition(line: line, column: from + part.lowerBound)),
                    end: document.position(ScalarPosition(line: line, column: from + part.upperBound))))
        }
        return parts
    }

    /// Checks that a field can open over `range` of `document` and places it there (nothing proposed yet).
    /// - Returns: the field's id and its state (`mask.format` of the range's text).
    /// - Throws: `-32602` for a range across lines or outside the document, an id in use or an overlap with
    ///   another field; `-32803` when the mask would drop a letter or digit of the text and `force` is false.
    private static func placeField(
        in document: Document, uri: String, range: TextRange, mask: Mask, id: String?,
        force: Bool
    ) throws -> (id: String, result: FieldResult) {
        guard range.start.line == range.end.line else {
            throw MessageError.invalidParams(
                "params.range: a field is one line, this range spans lines "
                    + "\(range.start.line) to \(range.end.line)")
        }
        let start: ScalarPosition, end: ScalarPosition
        switch document.scalarRange(range) {
        case .failure(let problem): throw MessageError.invalidParams("params.range: \(problem.reason)")
        case .success(let (s, e)): (start, end) = (s, e)
        }
        return try placeField(
            in: document, uri: uri, start: start, end: end, key: "range", mask: mask, id: id,
            force: force)
    }

    /// As ``placeField(in:uri:range:mask:id:force:)``, over scalar positions of one line; `key` names the params
    /// member an overlap is blamed on.
    private static func placeField(
        in document: Document, uri: String, start: ScalarPosition, end: ScalarPosition,
        key: String, mask: Mask, id: String?, force: Bool
    ) throws
        -> (id: String, result: FieldResult)
    {
        if let id, document.sessions[id] != nil {
            throw MessageError.invalidParams("params.field: field '\(id)' is already open in '\(uri)'")
        }
        if let other = document.fields(touching: start.line, from: start.column, to: end.column)
            .first(where: { $0.start < end.column && start.column < $0.end })
        {
            throw MessageError.invalidParams("params.\(key): overlaps field '\(other.id)'")
        }
        let text = document.lines.slice(line: start.line, from: start.column, to: end.column)
        let result = mask.format(text)
        if !force { try refuseLoss(of: text, result, mask: mask) }
        let id = id ?? document.newFieldID()
        document.insertField(id: id, line: start.line, start: start.column, end: end.column, mask: mask)
        return (id, result)
    }

    /// Refuses reading `text` into `mask` when `result` drops (rejects or cuts) a letter or digit of it:
    /// opening never destroys content (punctuation and spaces may go: they are separators).
    /// - Throws: `-32803` naming the text, the mask and what would be lost
    ///   (`'Phone:' does not fit phone.us: P, h, o, n, e would be dropped`).
    static func refuseLoss(of text: String, _ result: FieldResult, mask: Mask) throws {
        let lost = droppedContent(result)
        guard !lost.isEmpty else { return }
        let name: String
        if case .preset(let preset) = mask.spec.form { name = preset } else { name = result.mask }
        let shown = 20
        var listed = lost.prefix(shown).map(String.init).joined(separator: ", ")
        if lost.count > shown { listed += " and \(lost.count - shown) more" }
        let quoted = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
        throw MessageError.requestFailed("'\(quoted)' does not fit \(name): \(listed) would be dropped")
    }

    /// The letters and digits reading a text into a mask would drop (reject or cut), in order.
    static func droppedContent(_ result: FieldResult) -> [Character] {
        (result.rejected + result.overflow).filter { $0.unicodeScalars.first.map(isLetterOrDigit) ?? false }
    }

    func setMask(
        uri: String, version: Int?, id: String, spec: MaskSpec, mask: Mask, caret: Position?,
        force: Bool
    ) throws
        -> JSONValue
    {
        let document = try fieldDocument(uri, version: version)
        // Its edits are computed on the daemon's copy; over edits the editor has not echoed yet they
        // would be against a text the editor no longer has.
        if document.pending.contains(where: { $0.field == id }) {
            throw MessageError(
                code: ErrorCode.contentModified,
                message: "field '\(id)' has formatting edits the editor has not applied yet; retry after them")
        }
        let outcome = try document.setMask(id: id, spec: spec, mask: mask, caret: caret) { text, result in
            if !force { try Server.refuseLoss(of: text, result, mask: mask) }
        }
        guard let outcome else {
            throw MessageError.invalidParams("params.field: no field '\(id)' in '\(uri)'")
        }
        fieldsChanged(uri)
        return Server.fieldResult(document, outcome)
    }

    /// Closes a field (`maskd/closeField`, the `maskd.closeField` command). What closing pads (a number mask's
    /// `padFraction`) is delivered before the `null` result as the client's mode delivers formatting: a
    /// `maskd/didFormat` whose `fields` no longer list the field, or a `workspace/applyEdit`.
    /// - Parameter caret: the editor's cursor, when the client sends it (`position`).
    func closeField(uri: String, version: Int?, id: String, caret: Position?) throws -> JSONValue {
        let document = try fieldDocument(uri, version: version)
        if let caret, case .failure(let problem) = document.scalarPosition(caret) {
            throw MessageError.invalidParams("params.position: \(problem.reason)")
        }
        guard let padding = document.closeField(id, caret: caret) else {
            throw MessageError.invalidParams("params.field: no field '\(id)' in '\(uri)'")
        }
        if !padding.edits.isEmpty {
            deliver(
                FormatReport(
                    version: document.version, edits: padding.edits, cursor: padding.cursor, fields: [],
                    rejected: "", overflow: ""),
                uri: uri, what: "close field")
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
