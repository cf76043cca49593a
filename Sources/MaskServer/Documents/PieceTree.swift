// maskd: the pieces of a document's lines in a balanced tree, each subtree counting what it holds.
import MaskEngine

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

/// Pieces of text in an implicit treap (a randomised balanced tree ordered by position), each node a piece with
/// its line ending, each subtree counting its pieces, line ends, bytes, scalars, UTF-16 units and fields.
///
/// The tree holds text and counts only: which fields a piece holds is `FieldTable`'s, the tree counts them so a
/// walk can skip subtrees without any. Every lookup descends by one of the counts, O(log n).
///
/// Storage is compact and free of reference counting on a walk: nodes are structs in one array, addressed by
/// index; a piece's text is UTF-8 in the document's text as opened (`base`, never written) until the piece is
/// first edited, then in one shared byte buffer (`text`), rewritten in place while it fits its room and moved to
/// the end otherwise (both are compacted into `text` once they hold more dead bytes than live ones).
final class PieceTree {
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
        /// The piece's own fields.
        var ownFields: Int32 = 0
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

    /// Bytes of text read out of pieces, for tests that check a keystroke's work does not grow with its line.
    private(set) var bytesRead = 0

    private(set) var nodes: [Node] = []
    private var freeNodes: [Int32] = []
    /// The text's length in scalars and in UTF-16 units of each piece that is not ASCII, by node: an ASCII piece's
    /// are its length in bytes, so nodes do not store them.
    private var wideCounts: [Int32: (scalars: Int32, utf16: Int32)] = [:]
    private(set) var root: Int32 = -1
    /// The document's text as it was opened, which the pieces not edited since read from in place: a document
    /// is not copied when it opens.
    private var base = ""
    /// The UTF-8 text of every piece not in `base`, each at its node's `textStart`.
    private var text: [UInt8] = []
    /// Bytes of `base` and `text` that no piece uses.
    private var deadBytes = 0

    init() {}

    /// Splits `document` into pieces at its line breaks (as `Line.split` does), keeping the string as the
    /// pieces' text (no copy); a line longer than `maxPiece` bytes is cut into pieces of about `cutAt` bytes.
    init(text document: String, maxPiece: Int, cutAt: Int) {
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
                var node = Node(
                    textStartOffset: UInt32(from), textLength: length, textRoom: length + Int32(ending.scalarCount),
                    ending: ending, continues: continues, isASCII: ascii, inBase: true)
                var wide: (Int32, Int32)?
                if !ascii {
                    let (scalars, utf16, isASCII) = PieceTree.counts(UnsafeBufferPointer(rebasing: bytes[from..<to]))
                    node.isASCII = isASCII
                    if !isASCII { wide = (scalars, utf16) }
                }
                let index = newNode(node)
                if let wide { wideCounts[index] = wide }
                made.append(index)
            }
            func line(_ end: Int, _ ending: LineEnding) {
                var from = start
                // A long line: pieces of `cutAt` bytes, each cut at a scalar's start.
                if end - start > maxPiece {
                    while end - from > maxPiece {
                        var to = from + cutAt
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
    var lineCount: Int { root < 0 ? 0 : Int(nodes[Int(root)].lineCount) }

    /// The number of pieces.
    var pieceCount: Int { root < 0 ? 0 : Int(nodes[Int(root)].size) }

    /// The number of fields on all pieces.
    var fieldCount: Int { root < 0 ? 0 : Int(nodes[Int(root)].fieldCount) }

    /// The bytes of text held, line breaks included.
    var textBytes: Int { root < 0 ? 0 : Int(nodes[Int(root)].sumBytes) }

    // MARK: - Descents

    /// The offsets where line `index` starts (`lineCount` gives the end).
    func lineStart(_ index: Int) -> TreeOffsets {
        guard index > 0 else { return TreeOffsets() }
        let (node, before) = lastPiece(ofLine: index - 1)
        var after = before
        addOwn(nodes[Int(node)], to: &after)
        return after
    }

    /// The last piece of line `index` and the offsets before it. - Precondition: `0 <= index < lineCount`.
    func lastPiece(ofLine index: Int) -> (node: Int32, before: TreeOffsets) {
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

    /// The last piece that starts at or before `target` (counted in `encoding` from the start), and the offsets
    /// before it. - Precondition: the tree is not empty, `target >= 0`.
    func find(_ target: Int, in encoding: PositionEncoding) -> (node: Int32, before: TreeOffsets) {
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
    func node(atPiece index: Int) -> (node: Int32, before: TreeOffsets) {
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

    /// The offsets before `node`, through its ancestors.
    func offsets(before node: Int32) -> TreeOffsets {
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

    func successor(_ node: Int32) -> Int32? {
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

    func predecessor(_ node: Int32) -> Int32? {
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

    /// Calls `body` with every node in order.
    func forEach(_ body: (Int32) -> Void) { forEach(root, body) }

    /// Calls `body` with every node holding fields and the offsets before it, in order, skipping subtrees without
    /// fields: O(f log n) for f fields.
    func forEachWithFields(_ body: (Int32, TreeOffsets) -> Void) {
        func visit(_ node: Int32, _ offsets: TreeOffsets) {
            guard node >= 0 else { return }
            let n = nodes[Int(node)]
            guard n.fieldCount > 0 else { return }
            visit(n.left, offsets)
            var before = offsets
            if n.left >= 0 { before.add(nodes[Int(n.left)]) }
            if n.ownFields > 0 { body(node, before) }
            addOwn(n, to: &before)
            visit(n.right, before)
        }
        visit(root, TreeOffsets())
    }

    // MARK: - Text

    /// Calls `body` with `node`'s text (without its line break) as UTF-8.
    func withText<R>(_ node: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let n = nodes[Int(node)]
        bytesRead += Int(n.textLength)
        let range = n.textStart..<(n.textStart + Int(n.textLength))
        if n.inBase { return base.withUTF8Bytes { body(UnsafeBufferPointer(rebasing: $0[range])) } }
        return text.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The whole text, line breaks included (linear).
    var joinedText: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(base.utf8.count + text.count - deadBytes + lineCount * 2)
        forEach(root) { node in
            withText(node) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: nodes[Int(node)].ending.rawValue.utf8)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `node`'s text's own scalars and UTF-16 units, without the line break.
    func textCounts(_ node: Int32) -> (scalars: Int32, utf16: Int32) {
        let n = nodes[Int(node)]
        let counts = own(n)
        let ending = Int32(n.ending.scalarCount)
        return (counts.scalars - ending, counts.utf16 - ending)
    }

    /// `node`'s own scalars, line break included.
    func ownScalars(_ node: Int32) -> Int { Int(own(nodes[Int(node)]).scalars) }

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
                base.withUTF8Bytes({ bytes.elementsEqual($0[n.textStart..<(n.textStart + bytes.count)]) })
            {
                return
            }
            let (scalars, utf16, isASCII) = PieceTree.counts(bytes)
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
                if n.inBase {
                    compacted.append(contentsOf: base[room])
                } else {
                    compacted.append(contentsOf: text[room])
                }
                nodes[Int(node)].textStart = start
                nodes[Int(node)].inBase = false
            }
        }
        text = compacted
        base = ""
        deadBytes = 0
    }

    // MARK: - Changing pieces

    /// A node outside the tree holding `text`, for `replace`'s `make`; its fields are counted with `setOwnFields`.
    func makeNode(text piece: String, ending: LineEnding, continues: Bool) -> Int32 {
        let node = newNode(
            Node(
                textStartOffset: 0, textLength: 0, textRoom: 0, ending: ending, continues: continues,
                isASCII: true))
        storeText(piece, in: node)
        return node
    }

    /// Sets how many fields a node `makeNode` made holds.
    func setOwnFields(_ count: Int32, of node: Int32) { nodes[Int(node)].ownFields = count }

    /// Counts one field fewer on `node`, in the tree or in a part `replace` cut off.
    func removeField(from node: Int32) {
        nodes[Int(node)].ownFields -= 1
        var up = node
        while up >= 0 {
            nodes[Int(up)].fieldCount -= 1
            up = nodes[Int(up)].parent
        }
    }

    /// Replaces `node`'s text in place (a piece for a piece), with `ownFields` fields, fixing the counts above it.
    func update(_ node: Int32, text piece: String, ending: LineEnding, continues: Bool, ownFields: Int32) {
        let old = nodes[Int(node)]
        let oldOwn = own(old)
        storeText(piece, in: node)
        nodes[Int(node)].ending = ending
        nodes[Int(node)].continues = continues
        nodes[Int(node)].ownFields = ownFields
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

    /// Replaces pieces `range` with the nodes `make` returns (from `makeNode`, made after the old nodes are freed,
    /// so they reuse them), calling `removing` with each old node, in order, before it is freed.
    func replace(_ range: Range<Int>, removing: (Int32) -> Void, with make: () -> [Int32]) {
        let (before, rest) = split(root, Int32(range.lowerBound))
        let (removed, after) = split(rest, Int32(range.count))
        var gone: [Int32] = []
        gone.reserveCapacity(range.count)
        forEach(removed) { node in
            removing(node)
            gone.append(node)
        }
        for node in gone {
            deadBytes += Int(nodes[Int(node)].textRoom)
            nodes[Int(node)].textRoom = 0
            if !nodes[Int(node)].isASCII { wideCounts[node] = nil }
            freeNodes.append(node)
        }
        let added = build(make())
        root = merge(merge(before, added), after)
        if root >= 0 { nodes[Int(root)].parent = -1 }
        compactIfNeeded()
    }

    private func newNode(_ value: Node) -> Int32 {
        if let reused = freeNodes.popLast() {
            nodes[Int(reused)] = value
            return reused
        }
        nodes.append(value)
        return Int32(nodes.count - 1)
    }

    // MARK: - Treap internals

    /// A node's treap priority: a hash of its index (SplitMix64's mixing), so no node stores one, and runs are
    /// reproducible.
    private func priority(_ node: Int32) -> UInt32 {
        var z = UInt64(UInt32(bitPattern: node)) &* 0x9E37_79B9_7F4A_7C15 &+ 0x9E37_79B9_7F4A_7C15
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
    mutating func add(_ subtree: PieceTree.Node) {
        pieces += Int(subtree.size)
        lines += Int(subtree.lineCount)
        bytes += Int(subtree.sumBytes)
        scalars += Int(subtree.sumScalars)
        utf16 += Int(subtree.sumUTF16)
    }

    /// Adds one node's own counts, its scalars and UTF-16 units given.
    mutating func addOwn(_ node: PieceTree.Node, scalars ownScalars: Int32, utf16 ownUTF16: Int32) {
        pieces += 1
        lines += node.continues ? 0 : 1
        bytes += Int(node.ownBytes)
        scalars += Int(ownScalars)
        utf16 += Int(ownUTF16)
    }
}
