// maskd: the lines of a document: pieces of text in a balanced tree and the fields on them.
import MaskEngine

/// A piece of a line as a value: its text, its fields (columns from the piece's start), and how it ends.
struct Piece: Hashable, Sendable {
    var text: String
    var fields: [FieldSpan]
    var ending: LineEnding
    /// The line goes on in the next piece (`ending` is then `.none`).
    var continues: Bool
}

/// Some consecutive pieces, taken out to be edited: the region a change, an echo or a new field touches.
struct LineWindow {
    /// The index of its first piece among all pieces, and that piece's node (valid until the tree changes).
    var firstPiece: Int
    fileprivate var firstNode: Int32
    var pieces: [Piece]
    /// The line of its first piece, and the scalar column where that piece starts on it.
    var line: Int
    var column: Int
    /// The pieces grouped by line: the first starts at `column` of `line`, the others at their lines' starts; each
    /// line's fields are columns from where it starts. The last one's ending is `.none` when `lastContinues`.
    var lines: [Line]
    /// The last piece's line goes on after the window.
    var lastContinues: Bool
}

/// A sequence of lines with their fields: a `PieceTree` of their text (a line is one piece, or, when longer than
/// `pieceSize.max`, a run of pieces cut between fields) and a `FieldTable` of the fields on the pieces.
///
/// Every lookup descends the tree by one of its counts, so a position converts between encodings, a line is
/// found, and a field is located in O(log n); an edit rewrites only the pieces it touches. A cut never falls
/// strictly inside a field, so each field lies in one piece, its span stored relative to that piece's start: the
/// fields after an edit, on its line or elsewhere, need no shifting. **Invariant (cost):** no operation a keystroke
/// needs reads more than the pieces its change touches (and the one before, when it starts at a piece's start),
/// whatever the length of the line or the number of fields on it; `work` counts what is read, for tests.
final class LineTree {
    /// How long pieces grow.
    struct PieceSize: Hashable {
        /// A line longer than this is cut into pieces, and so is a piece that an edit makes longer.
        var max: Int
        /// A long line is cut at the first allowed place at least this many bytes into a piece.
        var cut: Int

        static let standard = PieceSize(max: 256, cut: 128)
    }

    /// The size of the pieces of new trees: `standard`, except where the fuzz target makes every line many pieces.
    nonisolated(unsafe) static var defaultPieceSize = PieceSize.standard

    let pieceSize: PieceSize

    /// What the tree has read, for tests that check a keystroke's work does not grow with its line.
    struct Work: Hashable {
        /// Bytes of text read out of pieces.
        var bytes = 0
        /// Fields read out of pieces or put on them.
        var fields = 0
    }

    var work: Work { Work(bytes: tree.bytesRead, fields: table.fieldsRead) }

    private let tree: PieceTree
    private let table = FieldTable()

    init(_ lines: [Line], pieceSize: PieceSize = LineTree.defaultPieceSize) {
        self.pieceSize = pieceSize
        tree = PieceTree()
        replacePieces(0..<0, with: lines.flatMap { cut($0, continues: false) })
    }

    /// Splits `document` into lines as `Line.split` does, keeping the string as the pieces' text (no copy); long
    /// lines are cut into pieces.
    init(text document: String, pieceSize: PieceSize = LineTree.defaultPieceSize) {
        self.pieceSize = pieceSize
        tree = PieceTree(text: document, maxPiece: pieceSize.max, cutAt: pieceSize.cut)
    }

    /// The number of lines.
    var count: Int { tree.lineCount }

    /// Line `index` as a value (linear in its length). - Precondition: `0 <= index < count`.
    subscript(index: Int) -> Line {
        get { LineTree.join(pieces(pieceRange(ofLine: index))).lines[0] }
        set { replacePieces(pieceRange(ofLine: index), with: cut(newValue, continues: false)) }
    }

    /// The text of line `index`, without its line break (linear in its length).
    func text(at index: Int) -> String { self[index].text }

    /// The fields of line `index`, in order of start (linear in its length).
    func fields(at index: Int) -> [FieldSpan] { self[index].fields }

    // MARK: - Lines in O(log n)

    /// The length of line `index` in scalars. - Precondition: `0 <= index < count`.
    func length(ofLine index: Int) -> Int { length(ofLine: index, in: .utf32) }

    /// The length of line `index` in `encoding`'s code units. - Precondition: `0 <= index < count`.
    func length(ofLine index: Int, in encoding: PositionEncoding) -> Int {
        let (node, before) = tree.lastPiece(ofLine: index)
        let own: Int
        switch encoding {
        case .utf8: own = Int(tree.nodes[Int(node)].textLength)
        case .utf16: own = Int(tree.textCounts(node).utf16)
        case .utf32: own = Int(tree.textCounts(node).scalars)
        }
        return before[encoding] + own - tree.lineStart(index)[encoding]
    }

    /// How line `index` ends. - Precondition: `0 <= index < count`.
    func ending(ofLine index: Int) -> LineEnding { tree.nodes[Int(tree.lastPiece(ofLine: index).node)].ending }

    /// The scalar column of code-unit offset `units` on line `line`, or nil when it lies past the line's end.
    /// An offset inside a scalar moves to its start, or to its end when `roundUp` is true.
    func scalarColumn(line: Int, units: Int, in encoding: PositionEncoding, roundUp: Bool) -> Int? {
        guard units >= 0 else { return nil }
        let start = tree.lineStart(line)
        let (node, before) = tree.find(start[encoding] + units, in: encoding)
        guard before.lines == line else { return nil }
        let within = start[encoding] + units - before[encoding]
        let column: Int?
        if tree.nodes[Int(node)].isASCII || encoding == .utf32 {
            column = within <= Int(tree.textCounts(node).scalars) ? within : nil
        } else {
            column = tree.withText(node) {
                encoding.scalarColumn(ofUnits: within, inUTF8: $0, isASCII: false, roundUp: roundUp)
            }
        }
        return column.map { before.scalars - start.scalars + $0 }
    }

    /// The code-unit offset of scalar column `column` on line `line`.
    /// - Precondition: `0 <= column <= length(ofLine: line)`.
    func units(line: Int, column: Int, in encoding: PositionEncoding) -> Int {
        let start = tree.lineStart(line)
        let (node, before) = tree.find(start.scalars + column, in: .utf32)
        let within = start.scalars + column - before.scalars
        let units =
            tree.nodes[Int(node)].isASCII || encoding == .utf32
            ? within : tree.withText(node) { encoding.units(ofScalarColumn: within, inUTF8: $0) }
        return before[encoding] - start[encoding] + units
    }

    /// The text of line `line` between two scalar columns. - Precondition: `0 <= from <= to <= length(ofLine: line)`.
    func slice(line: Int, from: Int, to: Int) -> String {
        let start = tree.lineStart(line)
        let (first, before) = tree.find(start.scalars + from, in: .utf32)
        var node = first
        var skip = start.scalars + from - before.scalars
        var remaining = to - from
        var bytes: [UInt8] = []
        while true {
            let n = tree.nodes[Int(node)]
            let scalars = Int(tree.textCounts(node).scalars)
            tree.withText(node) { piece in
                let a = n.isASCII ? skip : UTF8Scan.byteOffset(ofScalar: skip, in: piece)
                let take = min(remaining, scalars - skip)
                let rest = UnsafeBufferPointer(rebasing: piece[a...])
                let b = a + (n.isASCII ? take : UTF8Scan.byteOffset(ofScalar: take, in: rest))
                bytes.append(contentsOf: piece[a..<b])
                remaining -= take
            }
            if remaining <= 0 || !n.continues { break }
            skip = 0
            guard let next = tree.successor(node) else { break }
            node = next
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Windows

    /// The pieces that hold `from...to` and every field touching it: from the piece holding `from` (the one
    /// before too when `from` is where a piece starts, so a field ending there is in) to the one holding `to`.
    /// - Precondition: both are positions of the document, `from <= to`.
    func window(from: ScalarPosition, to: ScalarPosition) -> LineWindow {
        let fromStart = tree.lineStart(from.line)
        var (node, before) = tree.find(fromStart.scalars + from.column, in: .utf32)
        // Back over pieces that start exactly at `from`, unless it is the line's start.
        while before.scalars == fromStart.scalars + from.column, before.scalars > fromStart.scalars,
            let previous = tree.predecessor(node)
        {
            node = previous
            before.pieces -= 1
            before.scalars -= tree.ownScalars(previous)
        }
        let toStart = to.line == from.line ? fromStart : tree.lineStart(to.line)
        let last = tree.find(toStart.scalars + to.column, in: .utf32).before.pieces
        var pieces: [Piece] = []
        pieces.reserveCapacity(last - before.pieces + 1)
        var current: Int32? = node
        for _ in before.pieces...last {
            guard let piece = current else { break }
            pieces.append(self.piece(piece))
            current = tree.successor(piece)
        }
        let (lines, lastContinues) = LineTree.join(pieces)
        return LineWindow(
            firstPiece: before.pieces, firstNode: node, pieces: pieces, line: from.line,
            column: before.scalars - fromStart.scalars, lines: lines, lastContinues: lastContinues)
    }

    /// Puts `lines` (the window's lines edited: the first starting where the window starts, the last going on
    /// after it when the window's did) in place of the window's pieces.
    /// - Returns: how many pieces replaced them and the pieces removed, for `replacePieces` to undo it.
    @discardableResult
    func replace(_ window: LineWindow, with lines: [Line]) -> (count: Int, removed: [Piece]) {
        var pieces: [Piece] = []
        for (i, line) in lines.enumerated() {
            pieces += cut(line, continues: i == lines.count - 1 && window.lastContinues)
        }
        if pieces.count == 1, window.pieces.count == 1 {
            update(window.firstNode, pieces[0])
            return (1, window.pieces)
        }
        let removed = replacePieces(window.firstPiece..<(window.firstPiece + window.pieces.count), with: pieces)
        return (pieces.count, removed)
    }

    /// Replaces pieces `range` with `pieces`. - Returns: the pieces removed.
    @discardableResult
    func replacePieces(_ range: Range<Int>, with pieces: [Piece]) -> [Piece] {
        var old: [Piece] = []
        old.reserveCapacity(range.count)
        tree.replace(
            range,
            removing: { node in
                old.append(piece(node))
                table.detach(from: node)
            },
            with: {
                pieces.map(makeNode)
            })
        table.releaseDetached()
        return old
    }

    /// Replaces lines `range` with `lines`, in O(log n + the lengths of both). - Returns: the lines removed.
    @discardableResult
    func replace(_ range: Range<Int>, with lines: [Line]) -> [Line] {
        let first = range.lowerBound < count ? tree.lineStart(range.lowerBound).pieces : tree.pieceCount
        let end = range.upperBound < count ? tree.lineStart(range.upperBound).pieces : tree.pieceCount
        let removed = replacePieces(first..<end, with: lines.flatMap { cut($0, continues: false) })
        return removed.isEmpty ? [] : LineTree.join(removed).lines
    }

    /// Every line in order (linear).
    var lines: [Line] {
        var all: [Piece] = []
        tree.forEach { all.append(piece($0)) }
        return LineTree.join(all).lines
    }

    /// The whole text, line breaks included (linear).
    var joinedText: String { tree.joinedText }

    // MARK: - Fields

    /// Calls `body` with every field's line and span (columns of its line) and slot, in document order, skipping
    /// subtrees without fields: O(f log n) for f fields.
    func forEachField(_ body: (Int, FieldSpan, Int32) -> Void) {
        var lineStarts: (line: Int, scalars: Int) = (-1, 0)
        tree.forEachWithFields { node, before in
            if lineStarts.line != before.lines { lineStarts = (before.lines, tree.lineStart(before.lines).scalars) }
            let base = before.scalars - lineStarts.scalars
            table.forEachField(on: node) { slot, start, end in
                body(before.lines, FieldSpan(id: table.id(slot: slot), start: base + start, end: base + end), slot)
            }
        }
    }

    /// Calls `body` with each line number and line that holds fields, in document order (each line is read whole).
    func forEachLineWithFields(_ body: (Int, Line) -> Void) {
        var last = -1
        forEachField { line, _, _ in
            guard line != last else { return }
            last = line
            body(line, self[line])
        }
    }

    /// The slot of field `id`, attached or detached, or nil.
    func slot(of id: String) -> Int32? { table.slot(of: id) }

    /// The id of the field in `slot`.
    func id(slot: Int32) -> String { table.id(slot: slot) }

    /// The line number holding field `id`, or nil when no such field is open.
    func lineOfField(_ id: String) -> Int? {
        table.slot(of: id).map { tree.offsets(before: table.place(of: $0).node).lines }
    }

    /// Where field `id` lies: its line number and span, or nil when no such field is open.
    func locate(_ id: String) -> (line: Int, span: FieldSpan)? {
        table.slot(of: id).map(locate(slot:))
    }

    /// Where the field in `slot` lies, in O(log n). - Precondition: `slot` is a field's (from `slot(of:)`, no
    /// edit since).
    func locate(slot: Int32) -> (line: Int, span: FieldSpan) {
        let (node, start, end) = table.place(of: slot)
        let before = tree.offsets(before: node)
        let base = before.scalars - tree.lineStart(before.lines).scalars
        return (before.lines, FieldSpan(id: table.id(slot: slot), start: base + start, end: base + end))
    }

    /// A key that orders the fields of one line as they lie (two empty fields at one column included).
    /// - Precondition: `slot` is a field's (from `slot(of:)`, no edit since).
    func orderKey(slot: Int32) -> Int {
        let place = table.order(of: slot)
        return tree.offsets(before: table.place(of: slot).node).pieces << 24 | min(place, (1 << 24) - 1)
    }

    /// The session in `slot`. - Precondition: `slot` is a field's (from `slot(of:)`, no edit since).
    func session(slot: Int32) -> FieldSession? { table.session(slot: slot) }

    /// Sets the session in `slot`. - Precondition: `slot` is a field's (from `slot(of:)`, no edit since).
    func setSession(_ session: FieldSession?, slot: Int32) { table.setSession(session, slot: slot) }

    /// The session of field `id`, or nil when there is no such field or it was set without one.
    func session(of id: String) -> FieldSession? {
        table.slot(of: id).flatMap { table.session(slot: $0) }
    }

    /// Gives field `id` (which must be on a line) its session. - Returns: false when there is no such field.
    @discardableResult
    func setSession(_ session: FieldSession?, of id: String) -> Bool {
        guard let slot = table.slot(of: id) else { return false }
        table.setSession(session, slot: slot)
        return true
    }

    /// The number of the problem of the field in `slot`, -1 for none. - Precondition: `slot` is a field's.
    func problem(slot: Int32) -> Int32 { table.problem(slot: slot) }

    /// Sets the number of the problem of the field in `slot`, -1 for none (see `FieldTable.setProblem`).
    func setProblem(_ number: Int32, slot: Int32) { table.setProblem(number, slot: slot) }

    /// The number of fields that have a problem.
    var problemCount: Int { table.problemCount }

    /// Calls `body` with the slot of every field that has a problem and its problem's number: O(p) for p such
    /// fields.
    func forEachProblem(_ body: (_ slot: Int32, _ problem: Int32) -> Void) { table.forEachProblem(body) }

    /// Renumbers the problem of every field that has one.
    func renumberProblems(_ renumber: (Int32) -> Int32) { table.renumberProblems(renumber) }

    /// Takes field `id` off its piece and forgets it, in O(log n + the piece's fields).
    /// - Returns: false when there is no such field.
    @discardableResult
    func removeField(_ id: String) -> Bool {
        guard let node = table.remove(id) else { return false }
        tree.removeField(from: node)
        return true
    }

    /// The number of fields on all lines.
    var fieldCount: Int { tree.fieldCount }

    // MARK: - Pieces as values

    /// The pieces of line `index`.
    private func pieceRange(ofLine index: Int) -> Range<Int> {
        tree.lineStart(index).pieces..<(tree.lastPiece(ofLine: index).before.pieces + 1)
    }

    /// Pieces `range` as values.
    private func pieces(_ range: Range<Int>) -> [Piece] {
        guard !range.isEmpty else { return [] }
        var result: [Piece] = []
        result.reserveCapacity(range.count)
        var current: Int32? = tree.node(atPiece: range.lowerBound).node
        for _ in range {
            guard let node = current else { break }
            result.append(piece(node))
            current = tree.successor(node)
        }
        return result
    }

    private func piece(_ node: Int32) -> Piece {
        let n = tree.nodes[Int(node)]
        let text = tree.withText(node) { String(decoding: $0, as: UTF8.self) }
        let fields = n.ownFields > 0 ? table.spans(on: node, count: Int(n.ownFields)) : []
        return Piece(text: text, fields: fields, ending: n.ending, continues: n.continues)
    }

    /// A node outside the tree holding `piece`, for `PieceTree.replace`.
    private func makeNode(_ piece: Piece) -> Int32 {
        let node = tree.makeNode(text: piece.text, ending: piece.ending, continues: piece.continues)
        tree.setOwnFields(table.attach(piece.fields, to: node, unlinked: tree.removeField(from:)), of: node)
        return node
    }

    /// Replaces `node`'s piece in place (a piece for a piece), keeping the slots of its fields.
    private func update(_ node: Int32, _ piece: Piece) {
        let first = table.detachedCount
        table.detach(from: node)
        let fields = table.attach(piece.fields, to: node, likelyFrom: first, unlinked: tree.removeField(from:))
        table.releaseDetached()
        tree.update(node, text: piece.text, ending: piece.ending, continues: piece.continues, ownFields: fields)
    }

    /// Consecutive pieces grouped into lines (fields as columns of each line, from where its first piece starts),
    /// and whether the last line goes on after them.
    static func join(_ pieces: [Piece]) -> (lines: [Line], lastContinues: Bool) {
        var lines: [Line] = []
        var current = Line(text: "", ending: .none)
        var columns = 0
        var open = false
        for piece in pieces {
            if !open {
                current = Line(text: piece.text, ending: .none, fields: piece.fields)
                columns = piece.text.scalarCount
                open = true
            } else {
                for field in piece.fields {
                    current.fields.append(
                        FieldSpan(id: field.id, start: columns + field.start, end: columns + field.end))
                }
                current.text += piece.text
                columns += piece.text.scalarCount
            }
            if !piece.continues {
                current.ending = piece.ending
                lines.append(current)
                open = false
            }
        }
        if open { lines.append(current) }
        return (lines, open)
    }

    /// `line` as pieces: one when it is at most `pieceSize.max` long, else cut at the first place at least
    /// `pieceSize.cut` into each piece that is a scalar's start and not strictly inside a field. An empty line that
    /// goes on and holds no field makes no piece.
    private func cut(_ line: Line, continues: Bool) -> [Piece] {
        let (maxPieceBytes, pieceBytes) = (pieceSize.max, pieceSize.cut)
        let count = line.text.utf8.count
        if count <= maxPieceBytes {
            if count == 0 && continues && line.fields.isEmpty { return [] }
            return [
                Piece(
                    text: line.text, fields: line.fields, ending: continues ? .none : line.ending,
                    continues: continues)
            ]
        }
        return line.text.withUTF8Bytes { bytes in
            var pieces: [Piece] = []
            var pieceByte = 0, pieceColumn = 0
            var column = 0
            var nextField = 0  // The first field not yet given to a piece.
            var scanned = 0  // The fields whose start lies before `column`.
            var coveredTo = 0  // The largest end among them.
            func emit(upTo byte: Int, column end: Int, last: Bool) {
                var fields: [FieldSpan] = []
                while nextField < line.fields.count, last || line.fields[nextField].start < end {
                    let f = line.fields[nextField]
                    fields.append(FieldSpan(id: f.id, start: f.start - pieceColumn, end: f.end - pieceColumn))
                    nextField += 1
                }
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[pieceByte..<byte]), as: UTF8.self)
                pieces.append(
                    Piece(
                        text: text, fields: fields, ending: last && !continues ? line.ending : .none,
                        continues: last ? continues : true))
                pieceByte = byte
                pieceColumn = end
            }
            var i = 0
            while i < bytes.count {
                if UTF8Scan.isScalarStart(bytes[i]) {
                    while scanned < line.fields.count, line.fields[scanned].start < column {
                        coveredTo = max(coveredTo, line.fields[scanned].end)
                        scanned += 1
                    }
                    if i - pieceByte >= pieceBytes, coveredTo <= column, count - i > pieceBytes / 2 {
                        emit(upTo: i, column: column, last: false)
                    }
                    column += 1
                }
                i += 1
            }
            emit(upTo: bytes.count, column: column, last: true)
            return pieces
        }
    }
}
