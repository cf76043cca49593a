// maskd: the lines of a document as pieces in a balanced tree, so an edit costs O(log n + the piece it is in).
import MaskEngine

/// A piece of a line as a value: its text, its fields (columns from the piece's start), and how it ends.
struct Piece: Hashable, Sendable {
    var text: String
    var fields: [FieldSpan]
    var ending: LineEnding
    /// The line goes on in the next piece (`ending` is then `.none`).
    var continues: Bool
}

/// Counts of everything before a place in the document (or in a subtree): pieces, line ends, and text with its
/// line breaks in bytes, scalars and UTF-16 units.
struct TreeOffsets: Hashable {
    var pieces = 0
    var lines = 0
    var bytes = 0
    var scalars = 0
    var utf16 = 0

    subscript(encoding: PositionEncoding) -> Int {
        switch encoding {
        case .utf8: return bytes
        case .utf16: return utf16
        case .utf32: return scalars
        }
    }
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

/// A sequence of lines kept in an implicit treap (a randomised balanced tree ordered by position) of pieces:
/// a line is one piece, or, when longer than `pieceSize.max`, a run of pieces cut between fields.
///
/// Every lookup descends the tree by one of the counts each subtree keeps (pieces, line ends, bytes, scalars,
/// UTF-16 units, fields), so a position converts between encodings, a line is found, and a field is located in
/// O(log n); an edit rewrites only the pieces it touches. A cut never falls strictly inside a field, so each
/// field lies in one piece, its span stored relative to that piece's start: the fields after an edit, on its line
/// or elsewhere, need no shifting. **Invariant (cost):** no operation a keystroke needs reads more than the
/// pieces its change touches (and the one before, when it starts at a piece's start), whatever the length of the
/// line or the number of fields on it; `work` counts what is read, for tests.
///
/// Storage is compact and free of reference counting on a walk: nodes are structs in one array, addressed by
/// index; a piece's text is UTF-8 in the document's text as opened (`base`, never written) until the piece is
/// first edited, then in one shared byte buffer (`text`), rewritten in place while it fits its room and moved to
/// the end otherwise (both are compacted into `text` once they hold more dead bytes than live ones);
/// fields are slots in one array, each on its piece's list in order of start, found by id through an
/// open-addressing index. A field's slot, and the session it carries, stays the same while the field moves.
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

    struct Node {
        /// Where the piece's text (without its line break) starts in `text`, its length, and the bytes it may
        /// grow into there.
        var textStartOffset: UInt32
        var textLength: Int32
        var textRoom: Int32
        var left: Int32 = -1
        var right: Int32 = -1
        var parent: Int32 = -1
        /// Pieces, line ends, bytes, scalars and UTF-16 units (line breaks included) and fields of the subtree.
        var size: Int32 = 1
        var lineCount: Int32 = 0
        var sumBytes: Int32 = 0
        var sumScalars: Int32 = 0
        var sumUTF16: Int32 = 0
        var fieldCount: Int32 = 0
        /// The piece's own fields, and the slot of its first, -1 when it has none.
        var ownFields: Int32 = 0
        var firstField: Int32 = -1
        var ending: LineEnding
        var continues: Bool
        /// The text is ASCII: scalar, UTF-8 and UTF-16 offsets are the same.
        var isASCII: Bool
        /// The text lies in `base`, which is never written: an edit moves it to `text`.
        var inBase = false

        /// Where the text starts (in 32 bits: live text is counted in 32 bits, and dead bytes never outweigh it).
        var textStart: Int {
            get { Int(textStartOffset) }
            set { textStartOffset = UInt32(newValue) }
        }

        var ownBytes: Int32 { textLength + Int32(ending.scalarCount) }
    }

    /// One open field: its span on its piece and its session (none for spans set without one). 32 bytes, all
    /// numbers: the id, mask and kept result live elsewhere when they are not numbers already (a slot with a
    /// `String` and a `FieldSession` took 56, 2.4 MB more for 100,000 fields).
    struct FieldSlot {
        /// The id: n >= 0 for "f<n>" (the daemon's own ids, kept without a string), else `-1 - i` for the id
        /// `clientIDs[i]`.
        var id: Int32
        var start: Int32
        var end: Int32
        /// The node of its piece; -1 for a free slot, -2 while detached during an update.
        var node: Int32
        /// The next field on the piece (or the next free slot), -1 at the end.
        var next: Int32
        /// The number of its session's mask in `masks`, -1 for no session; the session's kept result, when it
        /// keeps one, is in `keptResults`.
        var mask: Int32 = -1
        /// The number of the field's problem in its document's table (`FieldProblems`), -1 for none: kept in the
        /// slot, so it goes with the field, and costs four bytes a field instead of a dictionary entry.
        var problem: Int32 = -1
        /// Where the slot stands in `problemSlots` while it has a problem; after it lost one, the place it left
        /// (to take back), until the list is compacted; else -1.
        var problemPlace: Int32 = -1
    }

    /// What the tree has read, for tests that check a keystroke's work does not grow with its line.
    struct Work: Hashable {
        /// Bytes of text read out of pieces.
        var bytes = 0
        /// Fields read out of pieces or put on them.
        var fields = 0
    }

    private(set) var work = Work()

    private var nodes: [Node] = []
    private var freeNode: [Int32] = []
    /// The text's length in scalars and in UTF-16 units of each piece that is not ASCII, by node: an ASCII piece's
    /// are its length in bytes, so nodes do not store them (8 bytes a node, 0.8 MB for 100,000 lines).
    private var wideCounts: [Int32: (scalars: Int32, utf16: Int32)] = [:]
    private var root: Int32 = -1
    /// The document's text as it was opened, which the pieces not edited since read from in place: a document
    /// of 10 MB is not copied when it opens (the copy was the open's peak of memory, with the message's string).
    private var base = ""
    /// The UTF-8 text of every piece not in `base`, each at its node's `textStart`.
    private var text: [UInt8] = []
    /// Bytes of `base` and `text` that no piece uses.
    private var deadBytes = 0
    private var slots: [FieldSlot] = []
    private var freeSlot: Int32 = -1
    /// The slots of the fields that have a problem, in the order they first got one, so the problems are found in
    /// O(p), not by a pass over every field; a place a field left holds `vacated(by:)` of its slot.
    private var problemSlots: [Int32] = []
    /// How many places of `problemSlots` are left ones.
    private var vacatedProblemPlaces = 0
    /// Slots taken off their pieces by the update under way.
    private var detached: [Int32] = []
    /// The ids of fields not of the form "f<n>", each at the place its slot names; `freeClientIDs` are places
    /// to reuse.
    private var clientIDs: [String] = []
    private var freeClientIDs: [Int32] = []
    /// The masks of the sessions, each once, numbered (`FieldSlot.mask`): fields mostly share a few. Those no
    /// field has any more are dropped when the table has doubled since the last drop.
    private var masks: [Mask] = []
    private var maskNumbers: [ObjectIdentifier: Int32] = [:]
    private var compactMasksAt = 64
    /// The results kept by sessions that keep one (the fields typed into), by slot.
    private var keptResults: [Int32: KeptResult] = [:]
    /// Open addressing over `slots` by id: each entry a slot index, -1 when empty.
    private var index: [Int32] = []
    private var indexCount = 0

    init(_ lines: [Line], pieceSize: PieceSize = LineTree.defaultPieceSize) {
        self.pieceSize = pieceSize
        nodes.reserveCapacity(lines.count)
        root = build(lines.flatMap { cut($0, continues: false) }.map(makeNode))
    }

    /// Splits `document` into lines as `Line.split` does, keeping the string as the pieces' text (no copy); long
    /// lines are cut into pieces.
    init(text document: String, pieceSize: PieceSize = LineTree.defaultPieceSize) {
        self.pieceSize = pieceSize
        let size = pieceSize
        base = document
        base.makeContiguousUTF8()
        base.withUTF8Bytes { bytes in
            // Room for the lines edited first, so they do not double the buffer at once.
            text.reserveCapacity(max(1 << 16, bytes.count / 32))
            var breaks = 0
            for byte in bytes where byte == 0x0A || byte == 0x0D { breaks += 1 }
            nodes.reserveCapacity(breaks + 1)
            var made: [Int32] = []
            made.reserveCapacity(breaks + 1)
            var start = 0, i = 0
            var ascii = true
            func piece(_ from: Int, _ to: Int, _ ending: LineEnding, continues: Bool, ascii: Bool) {
                let length = Int32(to - from)
                var node = Node(textStartOffset: UInt32(from), textLength: length, textRoom: length + Int32(ending.scalarCount),
                                ending: ending, continues: continues, isASCII: ascii, inBase: true)
                var wide: (Int32, Int32)?
                if !ascii {
                    let (scalars, utf16, isASCII) = LineTree.counts(UnsafeBufferPointer(rebasing: bytes[from..<to]))
                    node.isASCII = isASCII
                    if !isASCII { wide = (scalars, utf16) }
                }
                let index = newNode(node)
                if let wide { wideCounts[index] = wide }
                made.append(index)
            }
            func line(_ end: Int, _ ending: LineEnding) {
                var from = start
                // A long line: pieces of `size.cut` bytes, each cut at a scalar's start.
                if end - start > size.max {
                    while end - from > size.max {
                        var to = from + size.cut
                        while to < end, !UTF8Scan.isScalarStart(bytes[to]) { to += 1 }
                        if to == end { break }
                        piece(from, to, .none, continues: true, ascii: ascii)
                        from = to
                    }
                }
                piece(from, end, ending, continues: false, ascii: ascii)
                ascii = true
            }
            while i < bytes.count {
                let byte = bytes[i]
                if byte == 0x0A {
                    line(i, .lf)
                    start = i + 1
                } else if byte == 0x0D {
                    if i + 1 < bytes.count, bytes[i + 1] == 0x0A {
                        line(i, .crlf)
                        i += 1
                    } else {
                        line(i, .cr)
                    }
                    start = i + 1
                } else if byte >= 0x80 {
                    ascii = false
                }
                i += 1
            }
            line(bytes.count, .none)
            root = build(made)
        }
    }

    /// The number of lines.
    var count: Int { root < 0 ? 0 : Int(nodes[Int(root)].lineCount) }

    /// The number of pieces.
    private var pieceCount: Int { root < 0 ? 0 : Int(nodes[Int(root)].size) }

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
        let (node, before) = lastPiece(ofLine: index)
        let n = nodes[Int(node)]
        let own: Int
        switch encoding {
        case .utf8: own = Int(n.textLength)
        case .utf16: own = Int(textCounts(n).utf16)
        case .utf32: own = Int(textCounts(n).scalars)
        }
        return before[encoding] + own - lineStart(index)[encoding]
    }

    /// How line `index` ends. - Precondition: `0 <= index < count`.
    func ending(ofLine index: Int) -> LineEnding { nodes[Int(lastPiece(ofLine: index).node)].ending }

    /// The scalar column of code-unit offset `units` on line `line`, or nil when it lies past the line's end.
    /// An offset inside a scalar moves to its start, or to its end when `roundUp` is true.
    func scalarColumn(line: Int, units: Int, in encoding: PositionEncoding, roundUp: Bool) -> Int? {
        guard units >= 0 else { return nil }
        let start = lineStart(line)
        let (node, before) = find(start[encoding] + units, in: encoding)
        guard before.lines == line else { return nil }
        let n = nodes[Int(node)]
        let within = start[encoding] + units - before[encoding]
        let column: Int?
        if n.isASCII || encoding == .utf32 {
            column = within <= Int(textCounts(n).scalars) ? within : nil
        } else {
            column = withText(node) { encoding.scalarColumn(ofUnits: within, inUTF8: $0, isASCII: false, roundUp: roundUp) }
        }
        return column.map { before.scalars - start.scalars + $0 }
    }

    /// The code-unit offset of scalar column `column` on line `line`.
    /// - Precondition: `0 <= column <= length(ofLine: line)`.
    func units(line: Int, column: Int, in encoding: PositionEncoding) -> Int {
        let start = lineStart(line)
        let (node, before) = find(start.scalars + column, in: .utf32)
        let within = start.scalars + column - before.scalars
        let n = nodes[Int(node)]
        let units = n.isASCII || encoding == .utf32 ? within : withText(node) { encoding.units(ofScalarColumn: within, inUTF8: $0) }
        return before[encoding] - start[encoding] + units
    }

    /// The text of line `line` between two scalar columns. - Precondition: `0 <= from <= to <= length(ofLine: line)`.
    func slice(line: Int, from: Int, to: Int) -> String {
        let start = lineStart(line)
        let (first, before) = find(start.scalars + from, in: .utf32)
        var node = first
        var skip = start.scalars + from - before.scalars
        var remaining = to - from
        var bytes: [UInt8] = []
        while true {
            let n = nodes[Int(node)]
            let scalars = Int(textCounts(n).scalars)
            withText(node) { piece in
                let a = n.isASCII ? skip : UTF8Scan.byteOffset(ofScalar: skip, in: piece)
                let take = min(remaining, scalars - skip)
                let rest = UnsafeBufferPointer(rebasing: piece[a...])
                let b = a + (n.isASCII ? take : UTF8Scan.byteOffset(ofScalar: take, in: rest))
                bytes.append(contentsOf: piece[a..<b])
                remaining -= take
            }
            if remaining <= 0 || !n.continues { break }
            skip = 0
            guard let next = successor(node) else { break }
            node = next
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Windows

    /// The pieces that hold `from...to` and every field touching it: from the piece holding `from` (the one
    /// before too when `from` is where a piece starts, so a field ending there is in) to the one holding `to`.
    /// - Precondition: both are positions of the document, `from <= to`.
    func window(from: ScalarPosition, to: ScalarPosition) -> LineWindow {
        let fromStart = lineStart(from.line)
        var (node, before) = find(fromStart.scalars + from.column, in: .utf32)
        // Back over pieces that start exactly at `from`, unless it is the line's start.
        while before.scalars == fromStart.scalars + from.column, before.scalars > fromStart.scalars,
              let previous = predecessor(node) {
            node = previous
            before.pieces -= 1
            before.scalars -= Int(own(nodes[Int(previous)]).scalars)
        }
        let toStart = to.line == from.line ? fromStart : lineStart(to.line)
        let last = find(toStart.scalars + to.column, in: .utf32).before.pieces
        var pieces: [Piece] = []
        pieces.reserveCapacity(last - before.pieces + 1)
        var current: Int32? = node
        for _ in before.pieces...last {
            guard let piece = current else { break }
            pieces.append(self.piece(piece))
            current = successor(piece)
        }
        let (lines, lastContinues) = LineTree.join(pieces)
        return LineWindow(firstPiece: before.pieces, firstNode: node, pieces: pieces, line: from.line,
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
        let (before, rest) = split(root, Int32(range.lowerBound))
        let (removed, after) = split(rest, Int32(range.count))
        var old: [Piece] = []
        old.reserveCapacity(range.count)
        var gone: [Int32] = []
        forEach(removed) { node in
            old.append(piece(node))
            detachFields(of: node)
            gone.append(node)
        }
        for node in gone {
            deadBytes += Int(nodes[Int(node)].textRoom)
            nodes[Int(node)].textRoom = 0
            if !nodes[Int(node)].isASCII { wideCounts[node] = nil }
            freeNode.append(node)
        }
        let added = build(pieces.map(makeNode))
        releaseDetached()
        root = merge(merge(before, added), after)
        if root >= 0 { nodes[Int(root)].parent = -1 }
        compactIfNeeded()
        return old
    }

    /// Replaces lines `range` with `lines`, in O(log n + the lengths of both). - Returns: the lines removed.
    @discardableResult
    func replace(_ range: Range<Int>, with lines: [Line]) -> [Line] {
        let first = range.lowerBound < count ? lineStart(range.lowerBound).pieces : pieceCount
        let end = range.upperBound < count ? lineStart(range.upperBound).pieces : pieceCount
        let removed = replacePieces(first..<end, with: lines.flatMap { cut($0, continues: false) })
        return removed.isEmpty ? [] : LineTree.join(removed).lines
    }

    /// Every line in order (linear).
    var lines: [Line] {
        var all: [Piece] = []
        forEach(root) { all.append(piece($0)) }
        return LineTree.join(all).lines
    }

    /// The whole text, line breaks included (linear).
    var joinedText: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(base.utf8.count + text.count - deadBytes + count * 2)
        forEach(root) { node in
            withText(node) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: nodes[Int(node)].ending.rawValue.utf8)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Fields

    /// Calls `body` with every field's line and span (columns of its line) and slot, in document order, skipping
    /// subtrees without fields: O(f log n) for f fields.
    func forEachField(_ body: (Int, FieldSpan, Int32) -> Void) {
        var lineStarts: (line: Int, scalars: Int) = (-1, 0)
        func visit(_ node: Int32, _ offsets: TreeOffsets) {
            guard node >= 0 else { return }
            let n = nodes[Int(node)]
            guard n.fieldCount > 0 else { return }
            visit(n.left, offsets)
            var before = offsets
            if n.left >= 0 { before.add(nodes[Int(n.left)]) }
            if n.firstField >= 0 {
                if lineStarts.line != before.lines { lineStarts = (before.lines, lineStart(before.lines).scalars) }
                let base = before.scalars - lineStarts.scalars
                var slot = n.firstField
                while slot >= 0 {
                    let s = slots[Int(slot)]
                    work.fields += 1
                    body(before.lines, FieldSpan(id: id(slot: slot), start: base + Int(s.start), end: base + Int(s.end)), slot)
                    slot = s.next
                }
            }
            addOwn(n, to: &before)
            visit(n.right, before)
        }
        visit(root, TreeOffsets())
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

    /// The line number holding field `id`, or nil when no such field is open.
    func lineOfField(_ id: String) -> Int? {
        slot(of: id).map { offsets(before: slots[Int($0)].node).lines }
    }

    /// Where field `id` lies: its line number and span, or nil when no such field is open.
    func locate(_ id: String) -> (line: Int, span: FieldSpan)? {
        slot(of: id).map(locate(slot:))
    }

    /// Where the field in `slot` lies, in O(log n). - Precondition: `slot` is a field's (from `slot(of:)`, no
    /// edit since).
    func locate(slot: Int32) -> (line: Int, span: FieldSpan) {
        let s = slots[Int(slot)]
        let before = offsets(before: s.node)
        let base = before.scalars - lineStart(before.lines).scalars
        return (before.lines, FieldSpan(id: id(slot: slot), start: base + Int(s.start), end: base + Int(s.end)))
    }

    /// A key that orders the fields of one line as they lie (two empty fields at one column included).
    /// - Precondition: `slot` is a field's (from `slot(of:)`, no edit since).
    func orderKey(slot: Int32) -> Int {
        let node = slots[Int(slot)].node
        var place = 0
        var current = nodes[Int(node)].firstField
        while current >= 0, current != slot {
            place += 1
            current = slots[Int(current)].next
        }
        work.fields += place
        return offsets(before: node).pieces << 24 | min(place, (1 << 24) - 1)
    }

    /// The session in `slot`. - Precondition: `slot` is a field's (from `slot(of:)`, no edit since).
    func session(slot: Int32) -> FieldSession? {
        let number = slots[Int(slot)].mask
        guard number >= 0 else { return nil }
        return FieldSession(mask: masks[Int(number)], kept: keptResults.isEmpty ? nil : keptResults[slot])
    }

    /// Sets the session in `slot`. - Precondition: `slot` is a field's (from `slot(of:)`, no edit since).
    func setSession(_ session: FieldSession?, slot: Int32) {
        guard let session else {
            slots[Int(slot)].mask = -1
            if !keptResults.isEmpty { keptResults[slot] = nil }
            return
        }
        // Mostly the mask it had (a keystroke keeps its field's): then no lookup.
        let current = slots[Int(slot)].mask
        if current < 0 || masks[Int(current)] !== session.mask { slots[Int(slot)].mask = maskNumber(session.mask) }
        if let kept = session.kept {
            keptResults[slot] = kept
        } else if !keptResults.isEmpty {
            keptResults[slot] = nil
        }
    }

    /// The session of field `id`, or nil when there is no such field or it was set without one.
    func session(of id: String) -> FieldSession? {
        slot(of: id).flatMap { session(slot: $0) }
    }

    /// The number of `mask` in `masks`, added when new.
    private func maskNumber(_ mask: Mask) -> Int32 {
        if let number = maskNumbers[ObjectIdentifier(mask)] { return number }
        if masks.count >= compactMasksAt { compactMasks() }
        let number = Int32(masks.count)
        masks.append(mask)
        maskNumbers[ObjectIdentifier(mask)] = number
        return number
    }

    /// Drops the masks no field has, renumbering the rest: O(slots), once for as many new masks as are kept.
    private func compactMasks() {
        var renumbered = [Int32](repeating: -1, count: masks.count)
        var kept: [Mask] = []
        for slot in slots.indices where slots[slot].mask >= 0 {
            let old = Int(slots[slot].mask)
            if renumbered[old] < 0 {
                renumbered[old] = Int32(kept.count)
                kept.append(masks[old])
            }
            slots[slot].mask = renumbered[old]
        }
        masks = kept
        maskNumbers = Dictionary(uniqueKeysWithValues: kept.enumerated().map { (ObjectIdentifier($1), Int32($0)) })
        compactMasksAt = max(64, 2 * kept.count)
    }

    /// The number of the problem of the field in `slot`, -1 for none. - Precondition: `slot` is a field's.
    func problem(slot: Int32) -> Int32 { slots[Int(slot)].problem }

    /// Sets the number of the problem of the field in `slot`, -1 for none. - Precondition: `slot` is a field's.
    ///
    /// A field that gets a problem back takes back its old place in the list if no compaction has moved it: typing
    /// in a field whose problem comes and goes (emptied, then typed again) leaves the list in the order it was, so
    /// the diagnostics, which are in document order, need no sort.
    func setProblem(_ number: Int32, slot: Int32) {
        let had = slots[Int(slot)].problem >= 0
        slots[Int(slot)].problem = number
        if number >= 0, !had {
            let place = Int(slots[Int(slot)].problemPlace)
            if place >= 0, place < problemSlots.count, problemSlots[place] == LineTree.vacated(by: slot) {
                problemSlots[place] = slot
                vacatedProblemPlaces -= 1
            } else {
                slots[Int(slot)].problemPlace = Int32(problemSlots.count)
                problemSlots.append(slot)
            }
        } else if number < 0, had {
            dropProblem(slot)
        }
    }

    /// The mark of a place in `problemSlots` that `slot` left (always negative).
    private static func vacated(by slot: Int32) -> Int32 { -2 - slot }

    /// Takes `slot` off the list of those with a problem; its place stays marked as its own (and the slot
    /// remembers it) until the list is compacted, once more than half of it is such marks.
    private func dropProblem(_ slot: Int32) {
        problemSlots[Int(slots[Int(slot)].problemPlace)] = LineTree.vacated(by: slot)
        vacatedProblemPlaces += 1
        guard vacatedProblemPlaces >= 64, 2 * vacatedProblemPlaces > problemSlots.count else { return }
        var kept = 0
        for index in problemSlots.indices {
            let entry = problemSlots[index]
            if entry >= 0 {
                problemSlots[kept] = entry
                slots[Int(entry)].problemPlace = Int32(kept)
                kept += 1
            } else {
                // Its owner, if it is still a field, has no place to take back.
                let owner = Int(-2 - entry)
                if slots[owner].problem < 0, slots[owner].problemPlace == Int32(index) {
                    slots[owner].problemPlace = -1
                }
            }
        }
        problemSlots.removeLast(problemSlots.count - kept)
        vacatedProblemPlaces = 0
    }

    /// The number of fields that have a problem.
    var problemCount: Int { problemSlots.count - vacatedProblemPlaces }

    /// Calls `body` with the slot of every field that has a problem and its problem's number, in the order they
    /// first got one: O(p) for p such fields (and at most as many places they left).
    func forEachProblem(_ body: (_ slot: Int32, _ problem: Int32) -> Void) {
        for slot in problemSlots where slot >= 0 { body(slot, slots[Int(slot)].problem) }
    }

    /// Renumbers the problem of every field that has one.
    func renumberProblems(_ renumber: (Int32) -> Int32) {
        for slot in problemSlots where slot >= 0 { slots[Int(slot)].problem = renumber(slots[Int(slot)].problem) }
    }

    /// Gives field `id` (which must be on a line) its session. - Returns: false when there is no such field.
    @discardableResult
    func setSession(_ session: FieldSession?, of id: String) -> Bool {
        guard let slot = slot(of: id) else { return false }
        setSession(session, slot: slot)
        return true
    }

    /// Takes field `id` off its piece and forgets it, in O(log n + the piece's fields).
    /// - Returns: false when there is no such field.
    @discardableResult
    func removeField(_ id: String) -> Bool {
        guard let slot = slot(of: id), slots[Int(slot)].node >= 0 else { return false }
        unlink(slot)
        detached.append(slot)
        releaseDetached()
        return true
    }

    /// The number of fields on all lines.
    var fieldCount: Int { root < 0 ? 0 : Int(nodes[Int(root)].fieldCount) }

    // MARK: - Descents

    /// The pieces of line `index`.
    private func pieceRange(ofLine index: Int) -> Range<Int> {
        lineStart(index).pieces..<(lastPiece(ofLine: index).before.pieces + 1)
    }

    /// The offsets where line `index` starts (`count` gives the document's end).
    private func lineStart(_ index: Int) -> TreeOffsets {
        guard index > 0 else { return TreeOffsets() }
        let (node, before) = lastPiece(ofLine: index - 1)
        var after = before
        addOwn(nodes[Int(node)], to: &after)
        return after
    }

    /// The last piece of line `index` and the offsets before it. - Precondition: `0 <= index < count`.
    private func lastPiece(ofLine index: Int) -> (node: Int32, before: TreeOffsets) {
        var node = root
        var remaining = Int32(index) + 1
        var before = TreeOffsets()
        while true {
            let n = nodes[Int(node)]
            let leftLines = n.left < 0 ? 0 : nodes[Int(n.left)].lineCount
            if remaining <= leftLines {
                node = n.left
                continue
            }
            if n.left >= 0 { before.add(nodes[Int(n.left)]) }
            remaining -= leftLines
            if !n.continues {
                if remaining == 1 { return (node, before) }
                remaining -= 1
            }
            addOwn(n, to: &before)
            node = n.right
        }
    }

    /// The last piece that starts at or before `target` (counted in `encoding` from the document's start), and
    /// the offsets before it. - Precondition: the tree is not empty, `target >= 0`.
    private func find(_ target: Int, in encoding: PositionEncoding) -> (node: Int32, before: TreeOffsets) {
        var node = root
        var before = TreeOffsets()
        while true {
            let n = nodes[Int(node)]
            var here = before
            if n.left >= 0 { here.add(nodes[Int(n.left)]) }
            if here[encoding] > target {
                node = n.left
                continue
            }
            var after = here
            addOwn(n, to: &after)
            if n.right >= 0, after[encoding] <= target {
                before = after
                node = n.right
                continue
            }
            return (node, here)
        }
    }

    /// The node of piece `index` and the offsets before it. - Precondition: `0 <= index < pieceCount`.
    private func node(atPiece index: Int) -> (node: Int32, before: TreeOffsets) {
        var node = root
        var remaining = Int32(index)
        var before = TreeOffsets()
        while true {
            let n = nodes[Int(node)]
            let leftSize = n.left < 0 ? 0 : nodes[Int(n.left)].size
            if remaining < leftSize {
                node = n.left
                continue
            }
            if n.left >= 0 { before.add(nodes[Int(n.left)]) }
            if remaining == leftSize { return (node, before) }
            remaining -= leftSize + 1
            addOwn(n, to: &before)
            node = n.right
        }
    }

    /// Pieces `range` as values.
    private func pieces(_ range: Range<Int>) -> [Piece] {
        guard !range.isEmpty else { return [] }
        var result: [Piece] = []
        result.reserveCapacity(range.count)
        var current: Int32? = node(atPiece: range.lowerBound).node
        for _ in range {
            guard let node = current else { break }
            result.append(piece(node))
            current = successor(node)
        }
        return result
    }

    /// The offsets before `node`, through its ancestors.
    private func offsets(before node: Int32) -> TreeOffsets {
        var n = nodes[Int(node)]
        var result = TreeOffsets()
        if n.left >= 0 { result.add(nodes[Int(n.left)]) }
        var current = node
        while n.parent >= 0 {
            let parent = nodes[Int(n.parent)]
            if parent.right == current {
                if parent.left >= 0 { result.add(nodes[Int(parent.left)]) }
                addOwn(parent, to: &result)
            }
            current = n.parent
            n = parent
        }
        return result
    }

    private func successor(_ node: Int32) -> Int32? {
        var n = nodes[Int(node)]
        if n.right >= 0 {
            var current = n.right
            while nodes[Int(current)].left >= 0 { current = nodes[Int(current)].left }
            return current
        }
        var current = node
        while n.parent >= 0 {
            let parent = n.parent
            if nodes[Int(parent)].left == current { return parent }
            current = parent
            n = nodes[Int(parent)]
        }
        return nil
    }

    private func predecessor(_ node: Int32) -> Int32? {
        var n = nodes[Int(node)]
        if n.left >= 0 {
            var current = n.left
            while nodes[Int(current)].right >= 0 { current = nodes[Int(current)].right }
            return current
        }
        var current = node
        while n.parent >= 0 {
            let parent = n.parent
            if nodes[Int(parent)].right == current { return parent }
            current = parent
            n = nodes[Int(parent)]
        }
        return nil
    }

    // MARK: - Pieces as values

    private func withText<R>(_ node: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let n = nodes[Int(node)]
        work.bytes += Int(n.textLength)
        let range = n.textStart..<(n.textStart + Int(n.textLength))
        if n.inBase { return base.withUTF8Bytes { body(UnsafeBufferPointer(rebasing: $0[range])) } }
        return text.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    private func piece(_ node: Int32) -> Piece {
        let n = nodes[Int(node)]
        let text = withText(node) { String(decoding: $0, as: UTF8.self) }
        var fields: [FieldSpan] = []
        fields.reserveCapacity(Int(n.ownFields))
        var slot = n.firstField
        while slot >= 0 {
            let s = slots[Int(slot)]
            fields.append(FieldSpan(id: id(slot: slot), start: Int(s.start), end: Int(s.end)))
            slot = s.next
        }
        work.fields += fields.count
        return Piece(text: text, fields: fields, ending: n.ending, continues: n.continues)
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
                    current.fields.append(FieldSpan(id: field.id, start: columns + field.start, end: columns + field.end))
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
            return [Piece(text: line.text, fields: line.fields, ending: continues ? .none : line.ending,
                          continues: continues)]
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
                pieces.append(Piece(text: text, fields: fields, ending: last && !continues ? line.ending : .none,
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

    // MARK: - Storing pieces

    /// A detached node holding `piece`.
    private func makeNode(_ piece: Piece) -> Int32 {
        let node = newNode(Node(textStartOffset: 0, textLength: 0, textRoom: 0, ending: piece.ending,
                                continues: piece.continues, isASCII: true))
        storeText(piece.text, in: node)
        attach(piece.fields, to: node)
        return node
    }

    private func newNode(_ value: Node) -> Int32 {
        if let reused = freeNode.popLast() {
            nodes[Int(reused)] = value
            return reused
        }
        nodes.append(value)
        return Int32(nodes.count - 1)
    }

    /// Replaces `node`'s content in place (a piece for a piece, ending the same way), fixing the counts above it.
    private func update(_ node: Int32, _ piece: Piece) {
        let old = nodes[Int(node)]
        let oldOwn = own(old)
        storeText(piece.text, in: node)
        nodes[Int(node)].ending = piece.ending
        nodes[Int(node)].continues = piece.continues
        let first = detached.count
        detachFields(of: node)
        attach(piece.fields, to: node, likely: detached[first...])
        releaseDetached()
        let n = nodes[Int(node)]
        let newOwn = storedOwn(node, n)
        let bytes = n.ownBytes - old.ownBytes, scalars = newOwn.scalars - oldOwn.scalars
        let utf16 = newOwn.utf16 - oldOwn.utf16, fields = n.ownFields - old.ownFields
        let lines: Int32 = (n.continues ? 0 : 1) - (old.continues ? 0 : 1)
        var current = node
        while current >= 0 {
            nodes[Int(current)].sumBytes += bytes
            nodes[Int(current)].sumScalars += scalars
            nodes[Int(current)].sumUTF16 += utf16
            nodes[Int(current)].fieldCount += fields
            nodes[Int(current)].lineCount += lines
            current = nodes[Int(current)].parent
        }
        compactIfNeeded()
    }

    /// The scalar and UTF-16 lengths of UTF-8 text, and whether it is ASCII.
    private static func counts(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int32, Int32, Bool) {
        var scalars: Int32 = 0, astral: Int32 = 0
        var ascii = true
        for byte in bytes {
            if byte >= 0x80 { ascii = false }
            if UTF8Scan.isScalarStart(byte) { scalars += 1 }
            if byte >= 0xF0 { astral += 1 }
        }
        return (scalars, scalars + astral, ascii)
    }

    /// Writes `piece` as `node`'s text: in place when it fits (in `base`, only when it is the text there already:
    /// opening a field rewrites its piece), else at the end of `text` with some room to grow.
    private func storeText(_ piece: String, in node: Int32) {
        var piece = piece
        piece.withUTF8 { bytes in
            var n = nodes[Int(node)]
            if n.inBase, bytes.count == Int(n.textLength),
               base.withUTF8Bytes({ bytes.elementsEqual($0[n.textStart..<(n.textStart + bytes.count)]) }) {
                return
            }
            let (scalars, utf16, isASCII) = LineTree.counts(bytes)
            n.isASCII = isASCII
            if !isASCII {
                wideCounts[node] = (scalars, utf16)
            } else if !wideCounts.isEmpty {
                wideCounts[node] = nil
            }
            if bytes.count <= Int(n.textRoom), !n.inBase {
                text.withUnsafeMutableBufferPointer { all in
                    for (offset, byte) in bytes.enumerated() { all[n.textStart + offset] = byte }
                }
            } else {
                deadBytes += Int(n.textRoom)
                let room = bytes.count + min(bytes.count / 4 + 8, 256)
                n.textStart = text.count
                n.textRoom = Int32(room)
                n.inBase = false
                text.append(contentsOf: bytes)
                text.append(contentsOf: repeatElement(0, count: room - bytes.count))
            }
            n.textLength = Int32(bytes.count)
            nodes[Int(node)] = n
        }
    }

    /// Rewrites `text` with only the live pieces, once the dead bytes outweigh them (amortised O(1) a byte written).
    private func compactIfNeeded() {
        guard deadBytes > 1 << 16, deadBytes * 2 > base.utf8.count + text.count else { return }
        var compacted: [UInt8] = []
        compacted.reserveCapacity(base.utf8.count + text.count - deadBytes)
        base.withUTF8Bytes { base in
            forEach(root) { node in
                let n = nodes[Int(node)]
                let start = compacted.count
                let room = n.textStart..<(n.textStart + Int(n.textRoom))
                if n.inBase { compacted.append(contentsOf: base[room]) } else { compacted.append(contentsOf: text[room]) }
                nodes[Int(node)].textStart = start
                nodes[Int(node)].inBase = false
            }
        }
        text = compacted
        base = ""
        deadBytes = 0
    }

    // MARK: - Field slots

    /// Takes `node`'s fields off it; they stay in the index, detached, until attached again or released.
    private func detachFields(of node: Int32) {
        var slot = nodes[Int(node)].firstField
        while slot >= 0 {
            slots[Int(slot)].node = -2
            detached.append(slot)
            slot = slots[Int(slot)].next
        }
        nodes[Int(node)].firstField = -1
        nodes[Int(node)].ownFields = 0
    }

    /// Puts `fields` (sorted by start) on `node`, reusing the slot of each id already open; the caller fixes the
    /// counts of the nodes above it.
    /// - Parameter likely: the slots the piece held, in order: a field found at its place there needs no lookup.
    private func attach(_ fields: [FieldSpan], to node: Int32, likely: ArraySlice<Int32> = []) {
        var last: Int32 = -1
        work.fields += fields.count
        for (offset, field) in fields.enumerated() {
            let slot: Int32
            let guess = offset < likely.count ? likely[likely.startIndex + offset] : -1
            if guess >= 0, slots[Int(guess)].node == -2, has(slot: guess, id: field.id, LineTree.madeNumber(field.id)) {
                slot = guess
                slots[Int(slot)].start = Int32(field.start)
                slots[Int(slot)].end = Int32(field.end)
            } else if let existing = self.slot(of: field.id) {
                slot = existing
                // An id twice on one piece is kept once.
                if slots[Int(slot)].node == node { continue }
                if slots[Int(slot)].node >= 0 { unlink(slot) }
                slots[Int(slot)].start = Int32(field.start)
                slots[Int(slot)].end = Int32(field.end)
            } else {
                slot = newSlot(FieldSlot(id: storedID(field.id), start: Int32(field.start), end: Int32(field.end),
                                         node: -2, next: -1))
                insertIndex(slot)
            }
            slots[Int(slot)].node = node
            slots[Int(slot)].next = -1
            if last >= 0 { slots[Int(last)].next = slot } else { nodes[Int(node)].firstField = slot }
            nodes[Int(node)].ownFields += 1
            last = slot
        }
    }

    /// Takes an attached slot off its piece (a field id moving, or closed), fixing the counts above it.
    private func unlink(_ slot: Int32) {
        let node = slots[Int(slot)].node
        var previous: Int32 = -1
        var current = nodes[Int(node)].firstField
        while current >= 0, current != slot {
            previous = current
            current = slots[Int(current)].next
            work.fields += 1
        }
        let next = slots[Int(slot)].next
        if previous >= 0 { slots[Int(previous)].next = next } else { nodes[Int(node)].firstField = next }
        nodes[Int(node)].ownFields -= 1
        var up = node
        while up >= 0 {
            nodes[Int(up)].fieldCount -= 1
            up = nodes[Int(up)].parent
        }
        slots[Int(slot)].node = -2
    }

    /// Frees every slot left detached by an update: those fields are gone.
    private func releaseDetached() {
        for slot in detached where slots[Int(slot)].node == -2 {
            removeIndex(slot: slot)
            if slots[Int(slot)].problem >= 0 { dropProblem(slot) }
            if !keptResults.isEmpty { keptResults[slot] = nil }
            let id = slots[Int(slot)].id
            if id < 0 {
                clientIDs[Int(-1 - id)] = ""
                freeClientIDs.append(-1 - id)
            }
            slots[Int(slot)] = FieldSlot(id: 0, start: 0, end: 0, node: -1, next: freeSlot)
            freeSlot = slot
        }
        detached.removeAll(keepingCapacity: true)
    }

    private func newSlot(_ value: FieldSlot) -> Int32 {
        if freeSlot >= 0 {
            let slot = freeSlot
            freeSlot = slots[Int(slot)].next
            slots[Int(slot)] = value
            return slot
        }
        slots.append(value)
        return Int32(slots.count - 1)
    }

    // MARK: - Ids

    /// The number n of an id "f<n>" as the daemon makes them (n in decimal, no leading zero, below 2^31), nil for
    /// any other id: only those are kept as numbers, so each id has one form and reads back the same.
    private static func madeNumber(_ id: String) -> Int32? {
        let utf8 = id.utf8
        guard utf8.count >= 2, utf8.count <= 11, utf8.first == UInt8(ascii: "f") else { return nil }
        var value = 0
        var first = true
        for byte in utf8.dropFirst() {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            if first, byte == UInt8(ascii: "0"), utf8.count > 2 { return nil }
            first = false
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value <= Int(Int32.max) ? Int32(value) : nil
    }

    /// `id` as a slot keeps it: its number, or the place of its string in `clientIDs` (taken here).
    private func storedID(_ id: String) -> Int32 {
        if let number = LineTree.madeNumber(id) { return number }
        if let place = freeClientIDs.popLast() {
            clientIDs[Int(place)] = id
            return -1 - place
        }
        clientIDs.append(id)
        return -1 - Int32(clientIDs.count - 1)
    }

    /// The id of the field in `slot`.
    func id(slot: Int32) -> String {
        let id = slots[Int(slot)].id
        return id >= 0 ? "f\(id)" : clientIDs[Int(-1 - id)]
    }

    /// Whether the field in `slot` has id `id`, whose `madeNumber` is `number`.
    private func has(slot: Int32, id: String, _ number: Int32?) -> Bool {
        let stored = slots[Int(slot)].id
        if stored >= 0 { return stored == number }
        return number == nil && clientIDs[Int(-1 - stored)] == id
    }

    // MARK: - The id index

    /// The hash of an id as its slot stores it: a made id's number mixed (no string is hashed for it), another
    /// id's string hashed. - Parameter number: `madeNumber(id)`.
    private static func hash(_ id: String, number: Int32?) -> UInt32 {
        if let number { return mix(UInt32(bitPattern: number)) }
        var hasher = Hasher()
        hasher.combine(id)
        return UInt32(truncatingIfNeeded: hasher.finalize())
    }

    /// The hash of the id of the field in `slot`, as `hash(_:number:)` gives it.
    private func hash(slot: Int32) -> UInt32 {
        let stored = slots[Int(slot)].id
        return stored >= 0 ? LineTree.mix(UInt32(bitPattern: stored)) : LineTree.hash(clientIDs[Int(-1 - stored)], number: nil)
    }

    /// The slot of field `id`, attached or detached, or nil.
    func slot(of id: String) -> Int32? {
        guard !index.isEmpty else { return nil }
        let number = LineTree.madeNumber(id)
        let mask = index.count - 1
        var position = Int(LineTree.hash(id, number: number)) & mask
        while true {
            let slot = index[position]
            if slot < 0 { return nil }
            if has(slot: slot, id: id, number) { return slot }
            position = (position + 1) & mask
        }
    }

    private func insertIndex(_ slot: Int32) {
        // At most four fifths full: 100,000 fields fit in 131,072 entries of four bytes (0.5 MB). A probe compares
        // the slot's id, a number for the daemon's own ids.
        if (indexCount + 1) * 5 > index.count * 4 { growIndex() }
        place(slot)
        indexCount += 1
    }

    private func place(_ slot: Int32) {
        let mask = index.count - 1
        var position = Int(hash(slot: slot)) & mask
        while index[position] >= 0 { position = (position + 1) & mask }
        index[position] = slot
    }

    private func growIndex() {
        let old = index
        index = Array(repeating: -1, count: max(16, old.count * 2))
        for slot in old where slot >= 0 { place(slot) }
    }

    /// Removes the entry of `slot` from the index, shifting back the entries after it (no tombstones).
    private func removeIndex(slot: Int32) {
        guard !index.isEmpty else { return }
        let mask = index.count - 1
        var hole = Int(hash(slot: slot)) & mask
        while true {
            let entry = index[hole]
            if entry < 0 { return }
            if entry == slot { break }
            hole = (hole + 1) & mask
        }
        indexCount -= 1
        var position = hole
        while true {
            position = (position + 1) & mask
            let entry = index[position]
            if entry < 0 { break }
            // The entry may fill the hole unless its home lies cyclically in (hole, position].
            let home = Int(hash(slot: entry)) & mask
            let stays = hole <= position ? (hole < home && home <= position) : (hole < home || home <= position)
            if !stays {
                index[hole] = entry
                hole = position
            }
        }
        index[hole] = -1
    }

    // MARK: - Treap internals

    /// A node's treap priority: a hash of its index (SplitMix64's mixing), so no node stores one, and runs are
    /// reproducible.
    private func priority(_ node: Int32) -> UInt32 { LineTree.mix(UInt32(bitPattern: node)) }

    /// SplitMix64's mixing of `value`, cut to 32 bits.
    private static func mix(_ value: UInt32) -> UInt32 {
        var z = UInt64(value) &* 0x9E37_79B9_7F4A_7C15 &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt32(truncatingIfNeeded: z ^ (z >> 31))
    }

    /// `n`'s own scalars and UTF-16 units, line break included, in a consistent tree: an ASCII piece's are its
    /// bytes; another's are its subtree's less its children's (no lookup in the descents).
    private func own(_ n: Node) -> (scalars: Int32, utf16: Int32) {
        if n.isASCII { return (n.ownBytes, n.ownBytes) }
        var scalars = n.sumScalars, utf16 = n.sumUTF16
        if n.left >= 0 {
            scalars -= nodes[Int(n.left)].sumScalars
            utf16 -= nodes[Int(n.left)].sumUTF16
        }
        if n.right >= 0 {
            scalars -= nodes[Int(n.right)].sumScalars
            utf16 -= nodes[Int(n.right)].sumUTF16
        }
        return (scalars, utf16)
    }

    /// The same from `wideCounts`, for `pull` and `update`, which change the counts `own` reads.
    private func storedOwn(_ node: Int32, _ n: Node) -> (scalars: Int32, utf16: Int32) {
        if n.isASCII { return (n.ownBytes, n.ownBytes) }
        let counts = wideCounts[node] ?? (0, 0)
        let ending = Int32(n.ending.scalarCount)
        return (counts.scalars + ending, counts.utf16 + ending)
    }

    /// `n`'s text's own scalars and UTF-16 units, without the line break, in a consistent tree.
    private func textCounts(_ n: Node) -> (scalars: Int32, utf16: Int32) {
        let counts = own(n)
        let ending = Int32(n.ending.scalarCount)
        return (counts.scalars - ending, counts.utf16 - ending)
    }

    private func addOwn(_ n: Node, to offsets: inout TreeOffsets) {
        let counts = own(n)
        offsets.addOwn(n, scalars: counts.scalars, utf16: counts.utf16)
    }

    private func pull(_ node: Int32) {
        var n = nodes[Int(node)]
        n.size = 1
        n.lineCount = n.continues ? 0 : 1
        n.sumBytes = n.ownBytes
        (n.sumScalars, n.sumUTF16) = storedOwn(node, n)
        n.fieldCount = n.ownFields
        func add(_ child: Int32) {
            guard child >= 0 else { return }
            let c = nodes[Int(child)]
            n.size += c.size
            n.lineCount += c.lineCount
            n.sumBytes += c.sumBytes
            n.sumScalars += c.sumScalars
            n.sumUTF16 += c.sumUTF16
            n.fieldCount += c.fieldCount
            nodes[Int(child)].parent = node
        }
        add(n.left)
        add(n.right)
        nodes[Int(node)] = n
    }

    /// Builds a treap from detached nodes in linear time (a Cartesian tree over random priorities).
    private func build(_ made: [Int32]) -> Int32 {
        var spine: [Int32] = []
        for node in made {
            var last: Int32 = -1
            while let top = spine.last, priority(top) < priority(node) {
                pull(top)
                last = spine.removeLast()
            }
            nodes[Int(node)].left = last
            nodes[Int(node)].right = -1
            if let top = spine.last { nodes[Int(top)].right = node }
            spine.append(node)
        }
        for node in spine.reversed() { pull(node) }
        guard let first = spine.first else { return -1 }
        nodes[Int(first)].parent = -1
        return first
    }

    /// Splits `node` into its first `count` pieces and the rest.
    private func split(_ node: Int32, _ count: Int32) -> (Int32, Int32) {
        guard node >= 0 else { return (-1, -1) }
        let n = nodes[Int(node)]
        let leftSize = n.left < 0 ? 0 : nodes[Int(n.left)].size
        if count <= leftSize {
            let (a, b) = split(n.left, count)
            nodes[Int(node)].left = b
            pull(node)
            if a >= 0 { nodes[Int(a)].parent = -1 }
            nodes[Int(node)].parent = -1
            return (a, node)
        } else {
            let (a, b) = split(n.right, count - leftSize - 1)
            nodes[Int(node)].right = a
            pull(node)
            if b >= 0 { nodes[Int(b)].parent = -1 }
            nodes[Int(node)].parent = -1
            return (node, b)
        }
    }

    private func merge(_ a: Int32, _ b: Int32) -> Int32 {
        guard a >= 0 else { return b }
        guard b >= 0 else { return a }
        if priority(a) > priority(b) {
            nodes[Int(a)].right = merge(nodes[Int(a)].right, b)
            pull(a)
            return a
        } else {
            nodes[Int(b)].left = merge(a, nodes[Int(b)].left)
            pull(b)
            return b
        }
    }

    private func forEach(_ node: Int32, _ body: (Int32) -> Void) {
        guard node >= 0 else { return }
        let (left, right) = (nodes[Int(node)].left, nodes[Int(node)].right)
        forEach(left, body)
        body(node)
        forEach(right, body)
    }
}

private extension TreeOffsets {
    /// Adds a whole subtree's counts.
    mutating func add(_ subtree: LineTree.Node) {
        pieces += Int(subtree.size)
        lines += Int(subtree.lineCount)
        bytes += Int(subtree.sumBytes)
        scalars += Int(subtree.sumScalars)
        utf16 += Int(subtree.sumUTF16)
    }

    /// Adds one node's own counts, its scalars and UTF-16 units given.
    mutating func addOwn(_ node: LineTree.Node, scalars ownScalars: Int32, utf16 ownUTF16: Int32) {
        pieces += 1
        lines += node.continues ? 0 : 1
        bytes += Int(node.ownBytes)
        scalars += Int(ownScalars)
        utf16 += Int(ownUTF16)
    }
}
