// maskd: an open document: its lines, its fields, and how changes move them.
import MaskEngine

/// Why a `didChange` was refused; nothing of it was applied.
public enum ChangeRefusal: Error, Hashable, CustomStringConvertible {
    /// The version is not above the document's.
    case staleVersion(got: Int, current: Int)
    /// Change number `index` (0-based) has a range outside the document or reversed.
    case impossibleRange(index: Int, reason: String)

    public var description: String {
        switch self {
        case let .staleVersion(got, current):
            return "stale version \(got): the document is at version \(current)"
        case let .impossibleRange(index, reason):
            return "change \(index): \(reason)"
        }
    }
}

/// One entry of `didChange.contentChanges`: a range and its replacement, or (no range) the
/// whole new content.
public struct ContentChange: Hashable, Sendable {
    public var range: TextRange?
    public var text: String

    public init(range: TextRange?, text: String) {
        self.range = range
        self.text = text
    }
}

/// What the daemon tells the client after a person's change touched fields (`maskd/didFormat`).
public struct FormatReport: Hashable, Sendable {
    public var version: Int
    public var edits: [TextEdit]
    /// Where the caret goes; nil when no person's change is behind the edits (a rule's fields opened with the
    /// document, or when the rules changed): the caret stays where it is.
    public var cursor: Position?
    public var fields: [FieldSnapshot]
    public var rejected: String
    public var overflow: String
    /// The fields a person's change closed (it reached beyond them and left none of their text), in order.
    public var closed: [String] = []
}

/// An open document.
///
/// **Invariant:** the daemon's copy of the text is the editor's, as its `didChange`s describe
/// it. Edits the daemon proposes (`didFormat`, `openField`, `setMask`) enter the copy only when
/// the editor's echo of them arrives; until then they are `pending`. A client that drops them
/// (its document moved on) therefore never leaves the two copies apart, and the fields whose edits
/// it dropped are read afresh with the change that overtook them, so nothing they refused stays.
final class Document {
    let uri: String
    let languageId: String
    private(set) var version: Int
    let encoding: PositionEncoding
    private(set) var lines: LineTree
    private(set) var pending = PendingEdits()
    /// A change was refused: the client's copy may differ until a full-content change.
    private(set) var suspect = false
    /// The distinct problems of the fields, as of each field's last state: what its diagnostic says. Kept as states
    /// change (each field its problem's number in its slot), so diagnostics never compute a field's state.
    private var problems = FieldProblems()
    private var fieldCounter = 0
    /// The field rules this document is under (`Rules/`), tried on the lines a person's change touches.
    var rules = DocumentRules.none
    /// The rule that opened each field a rule opened, by field id.
    var ruleOrigins: [String: RuleOrigin] = [:]
    /// The lines where the person closed a field: rules open nothing there again (kept in place as lines come
    /// and go; a few lines, closed by hand).
    var closedLines: Set<Int> = []
    /// How many lines the rules were tried on, ever: the work the cost rule bounds, counted for the tests.
    var linesTriedByRules = 0
    /// The texts fields had when the person's changes touched them, or when a rule opened them (the last
    /// `historyDepth`): a change inside a field that gives one back is an undo or redo, kept as it is.
    private var fieldHistory: [String] = []
    static let historyDepth = 64
    /// Where fields stood before the last changes that touched them without typing into them (`placesPerField` each,
    /// for the last `historyDepth` fields), by field id: an undo that gives a line back gives its field back its
    /// place (`restoresPlace`).
    private var places: [String: [Place]] = [:]
    private var placeOrder: [String] = []
    static let placesPerField = 4
    /// The engine's handle on the field typed into last, which keeps what its text reads back to, so that the
    /// next keystroke there costs only the key. Any field may use it: a text it did not produce is read afresh.
    private var typing: MaskField?

    init(
        uri: String, languageId: String, version: Int, text: String, encoding: PositionEncoding,
        pieceSize: LineTree.PieceSize = LineTree.defaultPieceSize
    ) {
        self.uri = uri
        self.languageId = languageId
        self.version = version
        self.encoding = encoding
        self.lines = LineTree(text: text, pieceSize: pieceSize)
    }

    /// The whole text (linear; for tests and full-content diffs).
    var text: String { lines.joinedText }

    /// The open fields' sessions, by field id.
    var sessions: Sessions { Sessions(lines: lines) }

    /// A view of the sessions, which live in the fields' slots of the line tree.
    struct Sessions {
        fileprivate let lines: LineTree

        subscript(id: String) -> FieldSession? { lines.session(of: id) }
    }

    // MARK: - Positions (the client's, in `Document-positions.swift`)

    /// The client position of column `column` of `text`, line `offset` of `window` as edited (which the tree does
    /// not hold yet); `base` is where the window starts on its first line, in code units.
    private func position(in window: LineWindow, line offset: Int, column: Int, text: String, base: Int) -> Position {
        Position(
            line: window.line + offset,
            character: (offset == 0 ? base : 0) + encoding.units(ofScalarColumn: column, in: text))
    }

    // MARK: - Fields

    /// Where field `id` lies and its text, in O(log n + the field's piece).
    func fieldText(_ id: String) -> (line: Int, span: FieldSpan, text: String)? {
        guard let (line, span) = lines.locate(id) else { return nil }
        return (line, span, lines.slice(line: line, from: span.start, to: span.end))
    }

    func snapshot(_ id: String) -> FieldSnapshot? {
        guard let session = lines.session(of: id), let (line, span) = lines.locate(id) else { return nil }
        return snapshot(session, line: line, span: span)
    }

    /// The state of the field `span` on line `line`.
    private func snapshot(_ session: FieldSession, line: Int, span: FieldSpan) -> FieldSnapshot {
        let text = lines.slice(line: line, from: span.start, to: span.end)
        return FieldSnapshot(
            id: span.id,
            range: TextRange(
                start: position(ScalarPosition(line: line, column: span.start)),
                end: position(ScalarPosition(line: line, column: span.end))),
            text: text,
            result: session.result(fieldText: text),
            rule: ruleOrigins[span.id])
    }

    /// Every field in document order, in O(f log n).
    func allSnapshots() -> [FieldSnapshot] {
        var result: [FieldSnapshot] = []
        lines.forEachField { line, span, slot in
            if let session = lines.session(slot: slot) { result.append(snapshot(session, line: line, span: span)) }
        }
        return result
    }

    /// The fields touching `start...end` of line `line`, as columns of that line, in order.
    func fields(touching line: Int, from start: Int, to end: Int) -> [FieldSpan] {
        let window = lines.window(
            from: ScalarPosition(line: line, column: start),
            to: ScalarPosition(line: line, column: end))
        return window.lines[0].fields.compactMap { field in
            let span = FieldSpan(id: field.id, start: field.start + window.column, end: field.end + window.column)
            return span.end >= start && span.start <= end ? span : nil
        }
    }

    /// The ids of the fields on the lines of `range` (lines past the document's end ignored, positions past a
    /// line's end taken as its end) that touch the range's columns on its first and last line, in document order.
    /// - Complexity: O(log n + the pieces the range covers and their fields).
    func fieldIDs(touching range: TextRange) -> [String] {
        let first = max(range.start.line, 0), last = min(range.end.line, lines.count - 1)
        guard first <= last else { return [] }
        func column(_ p: Position, onLine line: Int) -> Int {
            guard p.line == line else { return p.line < line ? 0 : lines.length(ofLine: line) }
            return lines.scalarColumn(line: line, units: max(p.character, 0), in: encoding, roundUp: false)
                ?? lines.length(ofLine: line)
        }
        let from = ScalarPosition(line: first, column: column(range.start, onLine: first))
        let to = ScalarPosition(line: last, column: column(range.end, onLine: last))
        guard from <= to else { return [] }
        let window = lines.window(from: from, to: to)
        var ids: [String] = []
        for (offset, line) in window.lines.enumerated() {
            let shift = offset == 0 ? window.column : 0
            for field in line.fields {
                let (start, end) = (field.start + shift, field.end + shift)
                if offset == 0, end < from.column { continue }
                if offset == window.lines.count - 1, start > to.column { continue }
                ids.append(field.id)
            }
        }
        return ids
    }

    /// The field containing or touching `position` (the first in document order), or nil.
    func field(at position: Position) -> FieldSnapshot? {
        guard case .success(let p) = scalarPosition(position),
            let span = fields(touching: p.line, from: p.column, to: p.column).first
        else { return nil }
        return snapshot(span.id)
    }

    /// The diagnostics of the fields that have a problem, in document order: a compact list (8 bytes a
    /// diagnostic, most of the time) whose items are made as they are read.
    /// - Complexity: O(p log n) for p fields with a problem and n lines (and a sort when they got their problems
    /// out of document order).
    func diagnostics() -> DiagnosticList {
        // Fields at one column (an empty one before another) in document order.
        typealias Place = (line: Int, column: Int, slot: Int32)
        func before(_ a: Place, _ b: Place) -> Bool {
            if (a.line, a.column) != (b.line, b.column) { return (a.line, a.column) < (b.line, b.column) }
            return lines.orderKey(slot: a.slot) < lines.orderKey(slot: b.slot)
        }
        var items = DiagnosticList.Items()
        // Room for all at once: grown by doubling, its last growth would hold two buffers at once, at the peak of a
        // publication.
        items.reserveCapacity(lines.problemCount)
        // The slots are mostly in document order already (fields opened top to bottom, and a field whose problem
        // goes and comes back keeps its place), and then there is nothing to sort, nor places to keep for a sort.
        var last: Place? = nil
        var inOrder = true
        lines.forEachProblem { slot, problem in
            let (line, span) = lines.locate(slot: slot)
            let place = (line, span.start, slot)
            if inOrder, let last, !before(last, place) { inOrder = false }
            last = place
            items.append(
                DiagnosticList.Item(
                    line: line, start: lines.units(line: line, column: span.start, in: encoding),
                    end: lines.units(line: line, column: span.end, in: encoding), problem: problem))
        }
        if !inOrder {
            // Sorted by index (4 bytes each, with the slots for ties) and then moved into place, not as a sorted
            // copy of places and items, ten times the size.
            // A line's units grow with its columns, so the items' own (line, start) order them but for a tie.
            var fieldSlots: [Int32] = []
            fieldSlots.reserveCapacity(items.count)
            lines.forEachProblem { slot, _ in fieldSlots.append(slot) }
            var order = Array(0..<Int32(items.count))
            order.sort { a, b in
                let x = items[Int(a)], y = items[Int(b)]
                if (x.line, x.start) != (y.line, y.start) { return (x.line, x.start) < (y.line, y.start) }
                return lines.orderKey(slot: fieldSlots[Int(a)]) < lines.orderKey(slot: fieldSlots[Int(b)])
            }
            items.rearrange(takingFrom: &order)
        }
        return DiagnosticList(items: items, problems: problems.table)
    }

    /// Puts `items[sources[k]]` at `k` for every k, in place, by following the permutation's cycles; `sources` is
    /// used up (every entry is set to -1).
    static func rearrange<Item>(_ items: inout [Item], takingFrom sources: inout [Int32]) {
        for start in sources.indices where sources[start] >= 0 {
            let first = items[start]
            var k = start
            while true {
                let source = Int(sources[k])
                sources[k] = -1
                if source == start {
                    items[k] = first
                    break
                }
                items[k] = items[source]
                k = source
            }
        }
    }

    /// Forgets the state kept for a field whose proposed edits were dropped (its text is not the
    /// one that state describes), and reads its problem from its text as it is.
    private func forgetProposal(_ id: String) {
        guard let slot = lines.slot(of: id), var session = lines.session(slot: slot) else { return }
        session.keep(nil)
        lines.setSession(session, slot: slot)
        lines.setProblem(problems.number(snapshot(id).flatMap { FieldProblem($0.result) }, in: lines), slot: slot)
    }

    /// A fresh field id, `f1`, `f2`, ... skipping ids in use.
    func newFieldID() -> String {
        repeat { fieldCounter += 1 } while lines.session(of: "f\(fieldCounter)") != nil
        return "f\(fieldCounter)"
    }

    /// Opens a field over `start..<end` on one line and proposes the edits that format it.
    /// - Returns: the edits (against the current version), the caret's place after them (nil
    ///   when nothing changes), and the field's state as it will be.
    func openField(id: String, line: Int, start: Int, end: Int, spec: MaskSpec, mask: Mask)
        -> (edits: [TextEdit], cursor: Position?, state: FieldSnapshot)
    {
        let result = mask.format(lines.slice(line: line, from: start, to: end))
        insertField(id: id, line: line, start: start, end: end, mask: mask)
        return proposeOpened([id: result])[id]!
    }

    /// Places a new field over `start..<end` of line `line` (which no field of it overlaps); nothing is
    /// proposed yet (`proposeOpened`). - Complexity: O(log n + the pieces the range is in).
    func insertField(id: String, line: Int, start: Int, end: Int, mask: Mask) {
        let window = lines.window(
            from: ScalarPosition(line: line, column: start), to: ScalarPosition(line: line, column: end))
        var content = window.lines[0]
        let (s, e) = (start - window.column, end - window.column)
        let index = content.fields.firstIndex(where: { $0.start >= e }) ?? content.fields.count
        content.fields.insert(FieldSpan(id: id, start: s, end: e), at: index)
        lines.replace(window, with: [content])
        lines.setSession(FieldSession(mask: mask), of: id)
        ruleOrigins[id] = nil
    }

    /// Proposes the edits that format fields just placed by `insertField`, `results` being `mask.format`
    /// of each one's text: one pass for all of them (`maskd/openFields`).
    /// - Returns: for each field, its edits (against the current version), the caret after them (nil when
    ///   its text is already in form) and its state as it will be.
    func proposeOpened(_ results: [String: FieldResult])
        -> [String: (edits: [TextEdit], cursor: Position?, state: FieldSnapshot)]
    {
        let formatted = formatEdits(results, formatted: true, byField: true)
        var outcomes: [String: (edits: [TextEdit], cursor: Position?, state: FieldSnapshot)] = [:]
        for state in formatted.snapshots {
            let edits = formatted.fieldEdits[state.id] ?? []
            outcomes[state.id] = (edits, edits.isEmpty ? nil : formatted.caret[state.id], state)
        }
        return outcomes
    }

    /// `proposeOpened` for fields delivered together (a rule's, in one `didFormat` or `applyEdit`).
    /// - Returns: all their edits, sorted, and their states in document order.
    func proposeOpenedTogether(_ results: [String: FieldResult]) -> (edits: [TextEdit], fields: [FieldSnapshot]) {
        let formatted = formatEdits(results, formatted: true)
        return (formatted.edits, formatted.snapshots)
    }

    /// Changes a field's mask, re-flowing what was entered.
    /// - Parameter caret: the editor's cursor, when the client sends it; inside or touching the
    ///   field it keeps its count of entered characters to its left, elsewhere (or nil) the
    ///   field's end stands for it.
    /// - Parameter check: sees the field's text and its re-flowed state before anything changes, and may
    ///   refuse (`setMask` then throws its error and changes nothing).
    func setMask(
        id: String, spec: MaskSpec, mask: Mask, caret: Position?,
        check: (_ fieldText: String, _ result: FieldResult) throws -> Void = { _, _ in }
    )
        rethrows -> (edits: [TextEdit], cursor: Position?, state: FieldSnapshot)?
    {
        guard var session = lines.session(of: id), let (line, span, fieldText) = fieldText(id) else { return nil }
        var fieldCaret: Int?
        if let caret, case .success(let p) = scalarPosition(caret), p.line == line,
            span.start <= p.column, p.column <= span.end
        {
            fieldCaret = fieldText.characterOffset(ofScalar: p.column - span.start, roundUp: false)
        }
        let result = mask.reflow(fieldText, from: session.mask, caret: fieldCaret)
        try check(fieldText, result)
        session.setMask(spec, mask)
        lines.setSession(session, of: id)
        return propose([id: result], cursorField: id, alwaysCursor: true)
    }

    /// Closes a field. Its text stays, but for the zeros a number mask's `padFraction` adds on closing
    /// (`Mask.closing`: `12.5` becomes `12.50`), which are proposed as edits, pending like any formatting, on
    /// behalf of the closed field: their echo is the daemon's own, and no field takes what they insert.
    /// - Parameter caret: the editor's cursor, when the client sends it: in or at the field it is carried as
    ///   `format` carries it (at the end, after the zeros), later on the line it moves with the edits.
    /// - Returns: nil when there is no such field; else the padding edits (against the current version; none
    ///   when nothing pads, or while the field's formatting still waits for its echo, since its text in the
    ///   editor is then not the daemon's yet) and the caret after them (nil without `caret` or edits).
    func closeField(_ id: String, caret: Position?) -> (edits: [TextEdit], cursor: Position?)? {
        guard let session = lines.session(of: id), let (line, span, text) = fieldText(id) else { return nil }
        var caretAt: ScalarPosition?
        var fieldCaret: Int?
        if let caret, case .success(let p) = scalarPosition(caret) {
            caretAt = p
            if p.line == line, span.start <= p.column, p.column <= span.end {
                fieldCaret = text.characterOffset(ofScalar: p.column - span.start, roundUp: false)
            }
        }
        var padding: (edits: [TextEdit], cursor: Position?) = ([], nil)
        let waiting = pending.contains { $0.field == id }
        if !waiting, let padded = session.mask.closing(text, caret: fieldCaret) {
            let formatted = formatEdits([id: padded])
            padding.edits = formatted.edits
            if fieldCaret != nil { padding.cursor = formatted.caret[id] }
        }
        guard lines.removeField(id) else { return nil }
        if waiting { pending.removeAll { $0.field == id } }
        ruleOrigins[id] = nil
        closedLines.insert(line)
        if let p = caretAt, fieldCaret == nil, !padding.edits.isEmpty { padding.cursor = cursorAfterPending(p) }
        return padding
    }

    /// Brings fields into form (`textDocument/formatting`): each field's text in the daemon's copy
    /// is read into its mask afresh, and the edits that turn it into the result become pending,
    /// replacing the field's edits still waiting for their echo.
    /// - Returns: the edits, sorted, against the current version; none for fields already in form.
    func reformat(_ ids: [String]) -> [TextEdit] {
        let set = Set(ids)
        pending.removeAll { set.contains($0.field) }
        var results: [String: FieldResult] = [:]
        for id in ids {
            guard let session = sessions[id], let (_, _, text) = fieldText(id) else { continue }
            results[id] = session.mask.format(text)
        }
        return formatEdits(results).edits
    }

    /// Forgets the edits waiting for their echo: the client said it will not apply them.
    func discardPending() {
        let fields = Set(pending.lazy.map(\.field))
        pending.removeAll()
        for id in fields { forgetProposal(id) }
    }

    /// Stores `results` as the fields' states, and makes pending the edits that turn each
    /// field's current text into its result's.
    private func propose(_ results: [String: FieldResult], cursorField: String, alwaysCursor: Bool)
        -> (edits: [TextEdit], cursor: Position?, state: FieldSnapshot)
    {
        let formatted = formatEdits(results)
        let cursor = formatted.edits.isEmpty && !alwaysCursor ? nil : formatted.caret[cursorField]
        let state = formatted.snapshots.first { $0.id == cursorField }!
        return (formatted.edits, cursor, state)
    }

    /// Computes the edits bringing every field of `results` into form, records them as pending,
    /// and describes the document as it will be once they are applied.
    /// - Parameter formatted: the results are `mask.format` of each field's current text; a field
    ///   whose text is already in form then keeps no state (it is recomputed when asked for).
    /// - Parameter byField: whether to gather each field's edits apart too (`fieldEdits`; empty otherwise).
    private func formatEdits(_ results: [String: FieldResult], formatted: Bool = false, byField: Bool = false)
        -> (edits: [TextEdit], fieldEdits: [String: [TextEdit]], caret: [String: Position], snapshots: [FieldSnapshot])
    {
        var newPending: [PendingEdit] = []
        // Where the fields of `results` are, to be sorted by line: the document as it will be is read there only
        // (an array sorted once, not a dictionary by line: a keystroke's one field allocates once).
        var placed: [(line: Int, span: FieldSpan)] = []
        placed.reserveCapacity(results.count)
        for (id, result) in results {
            guard let slot = lines.slot(of: id), var session = lines.session(slot: slot) else { continue }
            let (line, span) = lines.locate(slot: slot)
            placed.append((line, span))
            let oldText = lines.slice(line: line, from: span.start, to: span.end)
            let inForm = oldText.sameScalars(result.text)
            session.keep(formatted && inForm ? nil : result)
            lines.setSession(session, slot: slot)
            lines.setProblem(problems.number(FieldProblem(result), in: lines), slot: slot)
            guard !inForm else { continue }
            let order = lines.orderKey(slot: slot)
            let ascii = oldText.utf8.allSatisfy { $0 < 0x80 } && result.text.utf8.allSatisfy { $0 < 0x80 }
            for (d, text) in TextDiff.replacements(
                oldText, result.text, bytesAreUnits: ascii,
                split: { Array($0.unicodeScalars) },
                join: { String(String.UnicodeScalarView($0)) })
            {
                newPending.append(
                    PendingEdit(
                        line: line, start: span.start + d.start, end: span.start + d.end,
                        text: text, field: id, fieldOrder: order))
            }
        }
        newPending.sort(by: PendingEdit.inOrder)
        var edits: [TextEdit] = []
        var fieldEdits: [String: [TextEdit]] = [:]
        for p in newPending {
            let edit = TextEdit(
                range: TextRange(
                    start: position(ScalarPosition(line: p.line, column: p.start)),
                    end: position(ScalarPosition(line: p.line, column: p.end))),
                newText: p.text)
            edits.append(edit)
            if byField { fieldEdits[p.field, default: []].append(edit) }
        }
        // The document as it will be. The edits on a field are its own, inside it, so each field will hold its
        // result's text, shifted by what the fields before it on its line grow or shrink: its start is read from the
        // tree, the rest from the results' texts, so many fields on one line cost O(fields log n), not the line's
        // length for each.
        var carets: [String: Position] = [:]
        var snapshots: [FieldSnapshot] = []
        placed.sort { ($0.line, $0.span.start) < ($1.line, $1.span.start) }
        var shiftLine = -1
        var shift = 0
        for (lineIndex, span) in placed {
            guard let result = results[span.id] else { continue }
            if lineIndex != shiftLine { (shiftLine, shift) = (lineIndex, 0) }
            var start = position(ScalarPosition(line: lineIndex, column: span.start))
            let oldEnd =
                span.end == span.start
                ? start.character
                : position(ScalarPosition(line: lineIndex, column: span.end)).character
            let oldUnits = oldEnd - start.character
            start.character += shift
            let newUnits = encoding.length(of: result.text)
            shift += newUnits - oldUnits
            func at(_ column: Int) -> Position {
                Position(
                    line: lineIndex,
                    character: start.character + encoding.units(ofScalarColumn: column, in: result.text))
            }
            carets[span.id] = at(result.text.scalarOffset(ofCharacter: result.caret))
            snapshots.append(
                FieldSnapshot(
                    id: span.id,
                    range: TextRange(
                        start: start,
                        end: Position(line: lineIndex, character: start.character + newUnits)),
                    text: result.text, result: result, rule: ruleOrigins[span.id]))
        }
        snapshots.sort { ($0.range.start, $0.range.end, $0.id) < ($1.range.start, $1.range.end, $1.id) }
        pending.add(newPending)
        return (edits, fieldEdits, carets, snapshots)
    }

    /// The text of `text` with `edits` (sorted, on its line) applied, in one pass: what `applying` makes of it when
    /// the edits do not overlap, nor break the line (proposals never do); nil otherwise.
    private func appliedText(_ edits: [PendingEdit], to text: String) -> String? {
        let scalars = text.unicodeScalars
        var result = String.UnicodeScalarView()
        var index = scalars.startIndex, column = 0
        for edit in edits {
            guard edit.start >= column, edit.end >= edit.start, !edit.text.containsLineBreak else { return nil }
            while column < edit.end {
                guard index < scalars.endIndex else { return nil }
                if column < edit.start { result.append(scalars[index]) }
                index = scalars.index(after: index)
                column += 1
            }
            result.append(contentsOf: edit.text.unicodeScalars)
        }
        result.append(contentsOf: scalars[index...])
        return String(result)
    }

    /// `line` with `edits` (sorted, on this line) applied, each claimed by its field.
    private func applying(_ edits: [PendingEdit], to line: Line) -> Line {
        var line = line
        for edit in edits.reversed() {
            line = Document.track(line: line, start: edit.start, end: edit.end, text: edit.text, claimant: edit.field)
        }
        return line
    }

    // MARK: - Changes

    /// Applies one `didChange`: every change in order, or none of them.
    /// - Returns: what to send as `maskd/didFormat`, or nil when no person's change touched a field.
    /// - Throws: `ChangeRefusal` when the version is stale or a range impossible; the document
    ///   is then exactly as before, and marked suspect until a full-content change.
    /// - Parameter echoes: whether the pending edits were sent, so that the change may echo them; when not, every
    ///   change is the person's and the fields of the pending edits are read afresh with it.
    func apply(_ changes: [ContentChange], version newVersion: Int, echoes: Bool = true) throws -> FormatReport? {
        guard newVersion > version else {
            suspect = true
            throw ChangeRefusal.staleVersion(got: newVersion, current: version)
        }
        var outcome = ChangeOutcome(pending: pending)
        for (index, change) in changes.enumerated() {
            guard let scalarChange = try scalarChange(change, index: index, &outcome) else { continue }
            if echoes, !outcome.pending.isEmpty, let echo = matchEcho(scalarChange, &outcome.pending) {
                applyEcho(echo, &outcome)
            } else {
                applyPersonChange(scalarChange, &outcome)
            }
        }
        // Every change is in: commit.
        version = newVersion
        pending = outcome.pending
        if outcome.resynchronised { suspect = false }
        readDroppedFieldsAfresh(&outcome)
        addRuleFields(&outcome)
        return report(outcome)
    }

    /// `change` in scalars, nil for a full-content change that changes nothing.
    /// - Throws: `ChangeRefusal.impossibleRange`, after undoing the changes before it.
    private func scalarChange(_ change: ContentChange, index: Int, _ outcome: inout ChangeOutcome) throws
        -> ScalarChange?
    {
        guard let range = change.range else {
            outcome.resynchronised = true
            return fullContentChange(change.text)
        }
        switch scalarRange(range) {
        case .failure(let problem):
            for step in outcome.undo.reversed() {
                lines.replacePieces(step.firstPiece..<(step.firstPiece + step.count), with: step.removed)
                for (id, session, problem) in step.closed {
                    guard let slot = lines.slot(of: id) else { continue }
                    lines.setSession(session, slot: slot)
                    lines.setProblem(problem, slot: slot)
                }
            }
            suspect = true
            throw ChangeRefusal.impossibleRange(index: index, reason: problem.reason)
        case .success(let (start, end)):
            return ScalarChange(start: start, end: end, text: change.text)
        }
    }

    /// The editor echoing edits the daemon proposed: each goes in as the field it belongs to claims it.
    private func applyEcho(_ echo: [PendingEdit], _ outcome: inout ChangeOutcome) {
        for edit in echo.reversed() {
            let window = lines.window(
                from: ScalarPosition(line: edit.line, column: edit.start),
                to: ScalarPosition(line: edit.line, column: edit.end))
            let shift = window.column
            let tracked = Document.track(
                line: window.lines[0], start: edit.start - shift, end: edit.end - shift,
                text: edit.text, claimant: edit.field)
            let (count, removed) = lines.replace(window, with: [tracked])
            outcome.undo.append(Undo(firstPiece: window.firstPiece, count: count, removed: removed))
        }
        // An echo that empties a line between a `\r` and a `\n` brings them together: one line break for the
        // editor. Join them as a person's change would; what is still pending was computed on the lines as they
        // were, so it is dropped (the editor's next change is then formatted afresh).
        for line in Set(echo.map(\.line)).sorted(by: >) where joinsLineBreaks(emptied: line) {
            let joined = joiningLineBreaks(
                ScalarChange(
                    start: ScalarPosition(line: line, column: 0), end: ScalarPosition(line: line, column: 0), text: ""))
            outcome.lineSteps.append(LineStep(joined, opensRuleFields: false))
            let (undo, splice) = splicePersonChange(joined)
            outcome.undo.append(undo)
            outcome.closed += splice.closed
            outcome.dropPending()
        }
    }

    /// A person's change: spliced in, and each field it typed into formatted as the field sees the change.
    private func applyPersonChange(_ change: ScalarChange, _ outcome: inout ChangeOutcome) {
        outcome.dropPending()
        let joined = joiningLineBreaks(change)
        let (undo, splice) = splicePersonChange(joined)
        // Typing inside a field is that field's; a change that made or replaced lines may bring new matches.
        var step = LineStep(joined, opensRuleFields: true)
        step.opensRuleFields = splice.touches.isEmpty || step.oldCount > 1 || step.newCount > 1
        outcome.lineSteps.append(step)
        outcome.undo.append(undo)
        if !splice.touches.isEmpty || !splice.reshaped.isEmpty || !splice.closed.isEmpty {
            outcome.personTouched = true
        }
        for touch in splice.touches {
            guard let session = lines.session(of: touch.field) else { continue }
            // An undo or redo gives the field back a text it had: kept as the editor has it, as a change reaching
            // beyond the field is.
            if restoresPlace(touch.field, &outcome) || givesBack(touch) {
                outcome.keptAsItStands(touch.field)
                continue
            }
            outcome.formatted(touch.field, as: typedResult(touch.edit, to: touch.oldText, mask: session.mask))
            outcome.reshaped.remove(touch.field)
        }
        // A change that reached beyond a field keeps the text as the editor has it: the field's state is read from
        // what is left, and nothing of it is formatted (nor read afresh for a dropped proposal).
        for id in splice.reshaped + splice.closed {
            outcome.results[id] = nil
            outcome.dropped.remove(id)
        }
        // A change that gives a field's line back the text it had before a change that touched the field without
        // typing into it gives the field back its place there (an undo of a selection from the label into it).
        for id in splice.nearby where places[id] != nil && restoresPlace(id, &outcome) {
            outcome.keptAsItStands(id)
            outcome.personTouched = true
        }
        for place in splice.places { keep(place) }
        for id in splice.closed { forgetPlaces(id) }
        outcome.reshaped.formUnion(splice.reshaped)
        outcome.closed += splice.closed
        outcome.cursor = (splice.caret, splice.touches.first?.field)
    }

    /// Reads afresh the fields whose proposed edits the editor discarded, in document order (so that `rejected`
    /// lists what each field refused in the order the fields come).
    private func readDroppedFieldsAfresh(_ outcome: inout ChangeOutcome) {
        let droppedInOrder = outcome.dropped.compactMap { id in
            lines.slot(of: id).map { (id, $0, at: lines.locate(slot: $0)) }
        }
        .sorted { ($0.at.line, $0.at.span.start) < ($1.at.line, $1.at.span.start) }
        for (id, slot, (line, span)) in droppedInOrder {
            guard let session = lines.session(slot: slot) else { continue }
            // The editor discarded this field's formatting, so its text is the person's as typed, which an edit
            // never reformats where it does not touch (engine.md): read it afresh, the change in it included, or
            // what the mask refused (keys typed faster than the answers came) would stay.
            let typed = outcome.results[id]
            let text = typed?.text ?? lines.slice(line: line, from: span.start, to: span.end)
            let whole = session.mask.reformat(text, selection: typed?.selection)
            if whole.text.sameScalars(text) {
                if typed == nil { forgetProposal(id) }
                continue
            }
            outcome.formatted(id, as: whole)
            outcome.personTouched = true
        }
    }

    /// Forgets the rules behind the fields the changes closed, and opens rule fields on the lines they left.
    private func addRuleFields(_ outcome: inout ChangeOutcome) {
        for id in outcome.closed {
            ruleOrigins[id] = nil
        }
        let opened = openRuleFields(after: outcome.lineSteps)
        if !opened.formatted.isEmpty {
            outcome.results.merge(opened.formatted) { touched, _ in touched }
            outcome.personTouched = true
        }
        // Fields whose text is kept as it stands: their state is read from it, and no edit is proposed for them.
        let asTheyStand =
            outcome.reshaped.filter { outcome.results[$0] == nil && lines.slot(of: $0) != nil }
            + opened.asTheyStand
        for id in asTheyStand { forgetProposal(id) }
        if !asTheyStand.isEmpty { outcome.personTouched = true }
        outcome.asTheyStand = asTheyStand
    }

    /// The `maskd/didFormat` the changes call for, nil when no person's change touched a field.
    private func report(_ outcome: ChangeOutcome) -> FormatReport? {
        guard outcome.personTouched else { return nil }
        var formatted = formatEdits(outcome.results)
        if !outcome.asTheyStand.isEmpty {
            formatted.snapshots += outcome.asTheyStand.compactMap(snapshot)
            formatted.snapshots.sort { ($0.range.start, $0.range.end, $0.id) < ($1.range.start, $1.range.end, $1.id) }
        }
        // nil when no person's change is behind the edits (a field read afresh after an echo): the caret stays.
        var caret: Position?
        if let (_, field) = outcome.cursor, let field, let fieldCaret = formatted.caret[field] {
            caret = fieldCaret
        } else if let (p, _) = outcome.cursor {
            caret = cursorAfterPending(p)
        }
        return FormatReport(
            version: version, edits: formatted.edits, cursor: caret,
            fields: formatted.snapshots, rejected: outcome.rejected, overflow: outcome.overflow,
            closed: outcome.closed.filter { lines.slot(of: $0) == nil })
    }

    /// Whether a change typed into a field leaves it a text a field of the document had when an earlier change
    /// touched it (what an editor's undo or redo does, also across a field closed and opened again by a rule),
    /// remembering the text this one had before it.
    /// - Complexity: O(`historyDepth`) but for comparing texts of the same length as the field's new text.
    /// One keystroke (a character typed, over at most one character, or one deleted) is read as the key it most
    /// likely is, even when it gives back an earlier text: the engine's rules for it (a whole enum word deleted, the
    /// `0` before a decimal mark, a character refused) apply, and an undo of one typed or deleted character only
    /// takes out or puts back that character.
    private func givesBack(_ touch: FieldTouch) -> Bool {
        if touch.edit.text.count <= 1, touch.edit.range.count <= 1, touch.edit.text.count + touch.edit.range.count > 0 {
            remember(touch.oldText)
            return false
        }
        let length = touch.newText.unicodeScalars.count
        let found = fieldHistory.contains { $0.unicodeScalars.count == length && $0.sameScalars(touch.newText) }
        remember(touch.oldText)
        return found
    }

    /// Whether the change just spliced gave field `id`'s line back the text it had before a change that touched the
    /// field without typing into it, the field standing elsewhere now: it is put back where it stood then, its text
    /// kept as it is. An undo of `D` after the field puts the text back at the field's end, an undo of `de` from the
    /// label into the field puts the label's space back at its start, and the field takes either as typed: read
    /// afresh, it would be formatted one change later (plugins do not apply the undo's `didFormat`).
    /// - Complexity: O(the line's length), for a line no longer than `Place.longestLine`.
    private func restoresPlace(_ id: String, _ outcome: inout ChangeOutcome) -> Bool {
        guard let kept = places[id], let (line, span) = lines.locate(id) else { return false }
        let length = lines.length(ofLine: line)
        guard kept.contains(where: { $0.line.unicodeScalars.count == length }) else { return false }
        let window = lines.window(
            from: ScalarPosition(line: line, column: 0), to: ScalarPosition(line: line, column: length))
        guard window.column == 0, window.lines.count == 1,
            let place = kept.last(where: { window.lines[0].text.sameScalars($0.line) }),
            (place.start, place.end) != (span.start, span.end)
        else { return false }
        var restored = window.lines[0]
        let others = restored.fields.filter { $0.id != id }
        guard !others.contains(where: { $0.start < place.end && place.start < $0.end }) else { return false }
        restored.fields = (others + [FieldSpan(id: id, start: place.start, end: place.end)]).sorted {
            $0.start < $1.start
        }
        let (count, removed) = lines.replace(window, with: [restored])
        outcome.undo.append(Undo(firstPiece: window.firstPiece, count: count, removed: removed))
        forgetPlaces(id)
        return true
    }

    /// Keeps where a field stood (the last `placesPerField` places of the last `historyDepth` fields).
    private func keep(_ place: Place) {
        var kept = places[place.field] ?? []
        if kept.isEmpty {
            placeOrder.append(place.field)
            if placeOrder.count > Document.historyDepth { places[placeOrder.removeFirst()] = nil }
        }
        kept.append(place)
        if kept.count > Document.placesPerField { kept.removeFirst() }
        places[place.field] = kept
    }

    private func forgetPlaces(_ id: String) {
        guard places.removeValue(forKey: id) != nil else { return }
        placeOrder.removeAll { $0 == id }
    }

    /// Remembers a text a field had (the last `historyDepth` distinct ones).
    func remember(_ fieldText: String) {
        guard !fieldHistory.contains(where: { $0.sameScalars(fieldText) }) else { return }
        if fieldHistory.count == Document.historyDepth { fieldHistory.removeFirst() }
        fieldHistory.append(fieldText)
    }

    /// `mask.apply(edit, to: text)`, through the handle of the field typed into last (a new one for another mask).
    private func typedResult(_ edit: FieldEdit, to text: String, mask: Mask) -> FieldResult {
        if typing?.mask !== mask { typing = MaskField(mask, text: text) }
        return typing!.apply(edit, to: text)
    }

    /// A scalar position mapped through the pending edits on its line, as a client position
    /// in the document those edits will make.
    private func cursorAfterPending(_ p: ScalarPosition) -> Position {
        let onLine = pending.onLine(p.line)
        var column = p.column
        for edit in onLine.reversed() where edit.start < p.column || (edit.start == p.column && edit.end > edit.start) {
            let inserted = edit.text.unicodeScalars.count
            if edit.end <= column {
                column += inserted - (edit.end - edit.start)
            } else {
                column = edit.start + inserted
            }
        }
        // Read where the edits and the position are, not the whole line.
        var (from, to) = (p.column, p.column)
        var length = lines.length(ofLine: p.line)
        for edit in onLine {
            (from, to) = (min(from, edit.start), max(to, edit.end))
            length += edit.text.unicodeScalars.count - (edit.end - edit.start)
        }
        let window = lines.window(
            from: ScalarPosition(line: p.line, column: from), to: ScalarPosition(line: p.line, column: to))
        let shifted = onLine.map { $0.shifted(by: window.column) }
        let text = appliedText(shifted, to: window.lines[0].text) ?? applying(shifted, to: window.lines[0]).text
        return position(
            in: window, line: 0, column: min(column, length) - window.column, text: text,
            base: lines.units(line: p.line, column: window.column, in: encoding))
    }

    /// The pending edits that `change` echoes (removed from `pending`, the rest shifted), or nil.
    ///
    /// An echo is either exactly one pending edit, as the editor applies edits one by one, or
    /// any change that leaves the lines it spans exactly as all pending edits on them would (an
    /// editor replacing the whole line or sending the full content).
    private func matchEcho(_ change: ScalarChange, _ pending: inout PendingEdits) -> [PendingEdit]? {
        if change.start.line == change.end.line,
            let edit = pending.takeEcho(
                line: change.start.line, start: change.start.column, end: change.end.column,
                text: change.text)
        {
            return [edit]
        }
        let span = change.start.line...change.end.line
        let inSpan = pending.inLines(span)
        guard !inSpan.isEmpty else { return nil }
        // Outside the hull of the change and the pending edits both texts are the document's: compare inside it.
        var (from, to) = (change.start.column, change.end.column)
        for edit in inSpan {
            if edit.line == change.start.line { from = min(from, edit.start) }
            if edit.line == change.end.line { to = max(to, edit.end) }
        }
        let window = lines.window(
            from: ScalarPosition(line: change.start.line, column: from),
            to: ScalarPosition(line: change.end.line, column: to))
        var expected = ""
        var actual = ""
        let byLine = Dictionary(grouping: inSpan, by: \.line)
        for (offset, line) in window.lines.enumerated() {
            let shift = offset == 0 ? window.column : 0
            let onLine = (byLine[window.line + offset] ?? []).map { $0.shifted(by: shift) }
            expected += (appliedText(onLine, to: line.text) ?? applying(onLine, to: line).text) + line.ending.rawValue
            actual += line.text + line.ending.rawValue
        }
        let last = window.lines[window.lines.count - 1]
        let start = change.start.column - window.column
        let lastStart = actual.unicodeScalars.count - last.scalarCount - last.ending.scalarCount
        let end = lastStart + change.end.column - (window.lines.count == 1 ? window.column : 0)
        actual = actual.scalarSlice(0, start) + change.text + actual.scalarSlice(end, actual.unicodeScalars.count)
        guard actual.sameScalars(expected) else { return nil }
        pending.removeLines(span)
        return inSpan
    }

    /// What undoes one step of a `didChange`: the pieces it put in place of `removed`.
    struct Undo {
        var firstPiece: Int
        var count: Int
        var removed: [Piece]
        /// The fields the step closed: id, session and problem number.
        var closed: [(String, FieldSession, Int32)] = []
    }

    /// One person's change: the text spliced in, fields tracked, reading only the pieces it touches.
    private func splicePersonChange(_ change: ScalarChange) -> (undo: Undo, splice: Splice) {
        let window = lines.window(from: change.start, to: change.end)
        var local = change
        local.start.column -= window.column
        if change.end.line == change.start.line { local.end.column -= window.column }
        var splice = Document.splice(
            window.lines, local, firstLine: window.line, firstColumn: window.column,
            lastEndsLine: !window.lastContinues)
        if splice.caret.line == window.line { splice.caret.column += window.column }
        // Where the fields the change touches without typing into them stand, on their whole lines (an undo may give
        // a line back).
        var lineTexts: [Int: String] = [:]  // Two fields on one line read it once.
        for id in splice.nearby {
            guard let (line, span) = lines.locate(id), lines.length(ofLine: line) <= Place.longestLine else { continue }
            let text = lineTexts[line] ?? lines.text(at: line)
            lineTexts[line] = text
            splice.places.append(Place(field: id, line: text, start: span.start, end: span.end))
        }
        // A field the change closes leaves the tree with its pieces; its session is kept until the notification is
        // committed, so that a refused later change can put it back.
        var closing: [(String, FieldSession, Int32)] = []
        for id in splice.closed {
            guard let slot = lines.slot(of: id), let session = lines.session(slot: slot) else { continue }
            closing.append((id, session, lines.problem(slot: slot)))
        }
        let (count, removed) = lines.replace(window, with: splice.lines)
        return (Undo(firstPiece: window.firstPiece, count: count, removed: removed, closed: closing), splice)
    }
}

/// A field whose text a person's change altered, and the change as the field sees it.
struct FieldTouch: Hashable {
    var field: String
    var oldText: String
    var edit: FieldEdit
    /// The field's text as the change left it.
    var newText: String
}
