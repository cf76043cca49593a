// maskd: the lines of a document in a balanced tree, so edits cost O(log lines).

/// A sequence of lines kept in an implicit treap (a randomised balanced tree ordered by
/// position), each node holding one line and its fields.
///
/// Line numbers are implicit: inserting or removing lines shifts every later line, and the
/// fields stored on them, in O(log n) with no renumbering. Each node knows its parent, so the
/// line number of a node (and of a field, through its slot) is found in O(log n).
/// Subtrees count their fields, so listing fields in document order skips field-less subtrees.
///
/// Storage is compact and free of reference counting on a walk: nodes are structs in one array,
/// addressed by index; every line's text is UTF-8 in one shared byte buffer (`text`), where a
/// line is rewritten in place while it fits its room and moved to the end otherwise (the buffer
/// is compacted once it holds more dead bytes than live ones); fields are slots in one array, each
/// on its line's list in order of start, found by id through an open-addressing index. A field's
/// slot, and the session it carries, stays the same while the field moves between lines.
final class LineTree {
    struct Node {
        /// Where the line's text (without its line break) starts in `text`, its length, and the
        /// bytes it may grow into there.
        var textStart: Int
        var textLength: Int32
        var textRoom: Int32
        var left: Int32 = -1
        var right: Int32 = -1
        var parent: Int32 = -1
        /// Lines in the subtree.
        var size: Int32 = 1
        /// Fields on the lines of the subtree.
        var fieldCount: Int32 = 0
        /// The slot of the line's first field, -1 when it has none.
        var firstField: Int32 = -1
        var priority: UInt32
        var ending: LineEnding
        /// The text is ASCII: scalar, UTF-8 and UTF-16 offsets are the same.
        var isASCII: Bool
    }

    /// One open field: its span on its line and its session (nil for spans set without one).
    struct FieldSlot {
        var id: String
        var start: Int32
        var end: Int32
        /// The node of its line; -1 for a free slot, -2 while detached during an update.
        var node: Int32
        /// The next field on the line (or the next free slot), -1 at the end.
        var next: Int32
        var session: FieldSession?
    }

    private var nodes: [Node] = []
    private var freeNode: [Int32] = []
    private var root: Int32 = -1
    /// Every line's UTF-8 text, each at its node's `textStart`.
    private var text: [UInt8] = []
    /// Bytes of `text` that no line uses.
    private var deadBytes = 0
    private var slots: [FieldSlot] = []
    private var freeSlot: Int32 = -1
    /// Slots taken off their lines by the update under way.
    private var detached: [Int32] = []
    /// Open addressing over `slots` by id: each entry a slot index and its id's hash, -1 when empty.
    private var index: [(slot: Int32, hash: UInt32)] = []
    private var indexCount = 0
    private var random: UInt64 = 0x9E37_79B9_7F4A_7C15

    init(_ lines: [Line]) {
        nodes.reserveCapacity(lines.count)
        root = build(lines.map(makeNode))
    }

    /// Splits `document` into lines as `Line.split` does, copying its bytes once.
    init(text document: String) {
        var document = document
        document.withUTF8 { bytes in
            // Room for lines that outgrow their place, so the first edits do not double the buffer (a copy of the
            // whole document at the peak).
            text.reserveCapacity(bytes.count + max(1 << 16, bytes.count / 32))
            text.append(contentsOf: bytes)
            var breaks = 0
            for byte in bytes where byte == 0x0A || byte == 0x0D { breaks += 1 }
            nodes.reserveCapacity(breaks + 1)
            var made: [Int32] = []
            made.reserveCapacity(breaks + 1)
            var start = 0, i = 0
            var ascii = true
            func line(_ end: Int, _ ending: LineEnding) {
                let length = Int32(end - start)
                made.append(newNode(Node(textStart: start, textLength: length,
                                         textRoom: length + Int32(ending.scalarCount), priority: 0, ending: ending,
                                         isASCII: ascii)))
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
    var count: Int { root < 0 ? 0 : Int(nodes[Int(root)].size) }

    /// The line at `index`. - Precondition: `0 <= index < count`.
    subscript(index: Int) -> Line {
        get { line(node(at: index)) }
        set { update(node(at: index), newValue) }
    }

    /// The text of line `index`, without its line break. - Precondition: `0 <= index < count`.
    func text(at index: Int) -> String { lineText(node(at: index)) }

    /// Calls `body` with line `index`'s UTF-8 text and whether it is ASCII. - Precondition: `0 <= index < count`.
    func withUTF8<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>, Bool) -> R) -> R {
        let n = nodes[Int(node(at: index))]
        return text.withUnsafeBufferPointer { all in
            body(UnsafeBufferPointer(rebasing: all[n.textStart..<(n.textStart + Int(n.textLength))]), n.isASCII)
        }
    }

    /// The fields of line `index`, in order of start. - Precondition: `0 <= index < count`.
    func fields(at index: Int) -> [FieldSpan] { fieldSpans(node(at: index)) }

    /// The node of line `index`, in O(log n). - Precondition: `0 <= index < count`.
    private func node(at index: Int) -> Int32 {
        var node = root
        var index = Int32(index)
        while true {
            let n = nodes[Int(node)]
            let leftSize = n.left < 0 ? 0 : nodes[Int(n.left)].size
            if index < leftSize {
                node = n.left
            } else if index == leftSize {
                return node
            } else {
                index -= leftSize + 1
                node = n.right
            }
        }
    }

    /// The line number of `node`, in O(log n).
    private func index(of node: Int32) -> Int {
        var n = nodes[Int(node)]
        var result = n.left < 0 ? 0 : Int(nodes[Int(n.left)].size)
        var current = node
        while n.parent >= 0 {
            let parent = nodes[Int(n.parent)]
            if parent.right == current {
                result += (parent.left < 0 ? 0 : Int(nodes[Int(parent.left)].size)) + 1
            }
            current = n.parent
            n = parent
        }
        return result
    }

    // MARK: - Fields

    /// The line number holding field `id`, or nil when no such field is open.
    func lineOfField(_ id: String) -> Int? {
        slot(of: id).map { index(of: slots[Int($0)].node) }
    }

    /// Where field `id` lies: its line number and span, or nil when no such field is open.
    func locate(_ id: String) -> (line: Int, span: FieldSpan)? {
        slot(of: id).map(locate(slot:))
    }

    /// Where the field in `slot` lies. - Precondition: `slot` is a field's (from `slot(of:)`, no edit since).
    func locate(slot: Int32) -> (line: Int, span: FieldSpan) {
        let s = slots[Int(slot)]
        return (index(of: s.node), FieldSpan(id: s.id, start: Int(s.start), end: Int(s.end)))
    }

    /// The session in `slot`. - Precondition: `slot` is a field's (from `slot(of:)`, no edit since).
    func session(slot: Int32) -> FieldSession? { slots[Int(slot)].session }

    /// Sets the session in `slot`. - Precondition: `slot` is a field's (from `slot(of:)`, no edit since).
    func setSession(_ session: FieldSession?, slot: Int32) { slots[Int(slot)].session = session }

    /// The session of field `id`, or nil when there is no such field or it was set without one.
    func session(of id: String) -> FieldSession? {
        slot(of: id).flatMap { slots[Int($0)].session }
    }

    /// Gives field `id` (which must be on a line) its session. - Returns: false when there is no such field.
    @discardableResult
    func setSession(_ session: FieldSession?, of id: String) -> Bool {
        guard let slot = slot(of: id) else { return false }
        slots[Int(slot)].session = session
        return true
    }

    /// The number of fields on all lines.
    var fieldCount: Int { root < 0 ? 0 : Int(nodes[Int(root)].fieldCount) }

    /// Replaces line `index`'s content in place, keeping the field index and counts right.
    private func update(_ node: Int32, _ line: Line) {
        storeText(line.text, in: node)
        nodes[Int(node)].ending = line.ending
        let before = fieldsOnLine(countingFrom: nodes[Int(node)].firstField)
        let first = detached.count
        detachFields(of: node)
        attach(line.fields, to: node, likely: detached[first...])
        releaseDetached()
        let delta = fieldsOnLine(countingFrom: nodes[Int(node)].firstField) - before
        if delta != 0 {
            var current = node
            while current >= 0 {
                nodes[Int(current)].fieldCount += delta
                current = nodes[Int(current)].parent
            }
        }
        compactIfNeeded()
    }

    /// Replaces lines `range` with `lines`, in O(log n + lines.count + range.count).
    /// - Returns: the lines that were removed.
    @discardableResult
    func replace(_ range: Range<Int>, with lines: [Line]) -> [Line] {
        if range.count == 1 && lines.count == 1 {
            let node = node(at: range.lowerBound)
            let old = line(node)
            update(node, lines[0])
            return [old]
        }
        let (before, rest) = split(root, Int32(range.lowerBound))
        let (removed, after) = split(rest, Int32(range.count))
        var old: [Line] = []
        old.reserveCapacity(range.count)
        var gone: [Int32] = []
        forEach(removed) { node in
            old.append(line(node))
            detachFields(of: node)
            gone.append(node)
        }
        for node in gone {
            deadBytes += Int(nodes[Int(node)].textRoom)
            nodes[Int(node)].textRoom = 0
            freeNode.append(node)
        }
        let added = build(lines.map(makeNode))
        releaseDetached()
        root = merge(merge(before, added), after)
        if root >= 0 { nodes[Int(root)].parent = -1 }
        compactIfNeeded()
        return old
    }

    /// Every line in order (linear).
    var lines: [Line] {
        var result: [Line] = []
        result.reserveCapacity(count)
        forEach(root) { result.append(line($0)) }
        return result
    }

    /// The whole text, line breaks included (linear).
    var joinedText: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count - deadBytes + count * 2)
        forEach(root) { node in
            let n = nodes[Int(node)]
            bytes.append(contentsOf: text[n.textStart..<(n.textStart + Int(n.textLength))])
            bytes.append(contentsOf: n.ending.rawValue.utf8)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Calls `body` with each line number and line that holds fields, in document order,
    /// skipping subtrees without fields: O(f log n) for f fields.
    func forEachLineWithFields(_ body: (Int, Line) -> Void) {
        func visit(_ node: Int32, _ offset: Int) {
            guard node >= 0 else { return }
            let n = nodes[Int(node)]
            guard n.fieldCount > 0 else { return }
            let leftSize = n.left < 0 ? 0 : Int(nodes[Int(n.left)].size)
            visit(n.left, offset)
            if n.firstField >= 0 { body(offset + leftSize, line(node)) }
            visit(n.right, offset + leftSize + 1)
        }
        visit(root, 0)
    }

    // MARK: - Lines as values

    private func line(_ node: Int32) -> Line {
        Line(text: lineText(node), ending: nodes[Int(node)].ending, fields: fieldSpans(node))
    }

    private func lineText(_ node: Int32) -> String {
        let n = nodes[Int(node)]
        return text.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[n.textStart..<(n.textStart + Int(n.textLength))]),
                   as: UTF8.self)
        }
    }

    private func fieldSpans(_ node: Int32) -> [FieldSpan] {
        var result: [FieldSpan] = []
        var slot = nodes[Int(node)].firstField
        while slot >= 0 {
            let s = slots[Int(slot)]
            result.append(FieldSpan(id: s.id, start: Int(s.start), end: Int(s.end)))
            slot = s.next
        }
        return result
    }

    /// A detached node holding `line`'s text and fields.
    private func makeNode(_ line: Line) -> Int32 {
        let node = newNode(Node(textStart: 0, textLength: 0, textRoom: 0, priority: 0, ending: line.ending,
                                isASCII: true))
        storeText(line.text, in: node)
        attach(line.fields, to: node)
        return node
    }

    private func newNode(_ value: Node) -> Int32 {
        var value = value
        value.priority = nextPriority()
        if let reused = freeNode.popLast() {
            nodes[Int(reused)] = value
            return reused
        }
        nodes.append(value)
        return Int32(nodes.count - 1)
    }

    /// Writes `line` as `node`'s text: in place when it fits, else at the end of `text` with some room to grow.
    private func storeText(_ line: String, in node: Int32) {
        var line = line
        line.withUTF8 { bytes in
            var ascii = true
            for byte in bytes where byte >= 0x80 {
                ascii = false
                break
            }
            var n = nodes[Int(node)]
            if bytes.count <= Int(n.textRoom) {
                text.withUnsafeMutableBufferPointer { all in
                    for (offset, byte) in bytes.enumerated() { all[n.textStart + offset] = byte }
                }
            } else {
                deadBytes += Int(n.textRoom)
                let room = bytes.count + min(bytes.count / 4 + 8, 256)
                n.textStart = text.count
                n.textRoom = Int32(room)
                text.append(contentsOf: bytes)
                text.append(contentsOf: repeatElement(0, count: room - bytes.count))
            }
            n.textLength = Int32(bytes.count)
            n.isASCII = ascii
            nodes[Int(node)] = n
        }
    }

    /// Rewrites `text` with only the live lines, once the dead bytes outweigh them (amortised O(1) a byte written).
    private func compactIfNeeded() {
        guard deadBytes > 1 << 16, deadBytes * 2 > text.count else { return }
        var compacted: [UInt8] = []
        compacted.reserveCapacity(text.count - deadBytes)
        forEach(root) { node in
            let n = nodes[Int(node)]
            let start = compacted.count
            compacted.append(contentsOf: text[n.textStart..<(n.textStart + Int(n.textRoom))])
            nodes[Int(node)].textStart = start
        }
        text = compacted
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
    }

    /// Puts `fields` (sorted by start) on `node`, reusing the slot of each id already open; the caller fixes the
    /// counts of `node` and the nodes above it.
    /// - Parameter likely: the slots the line held, in order: a field found at its place there needs no lookup.
    private func attach(_ fields: [FieldSpan], to node: Int32, likely: ArraySlice<Int32> = []) {
        var last: Int32 = -1
        for (offset, field) in fields.enumerated() {
            let slot: Int32
            let guess = offset < likely.count ? likely[likely.startIndex + offset] : -1
            if guess >= 0, slots[Int(guess)].node == -2, slots[Int(guess)].id == field.id {
                slot = guess
                slots[Int(slot)].start = Int32(field.start)
                slots[Int(slot)].end = Int32(field.end)
            } else if let existing = self.slot(of: field.id) {
                slot = existing
                // An id twice on one line is kept once.
                if slots[Int(slot)].node == node { continue }
                if slots[Int(slot)].node >= 0 { unlink(slot) }
                slots[Int(slot)].start = Int32(field.start)
                slots[Int(slot)].end = Int32(field.end)
            } else {
                slot = newSlot(FieldSlot(id: field.id, start: Int32(field.start), end: Int32(field.end), node: -2,
                                         next: -1, session: nil))
                insertIndex(slot)
            }
            slots[Int(slot)].node = node
            slots[Int(slot)].next = -1
            if last >= 0 { slots[Int(last)].next = slot } else { nodes[Int(node)].firstField = slot }
            last = slot
        }
    }

    /// Takes an attached slot off its line (a field id moving to another line), fixing the counts above it.
    private func unlink(_ slot: Int32) {
        let node = slots[Int(slot)].node
        var previous: Int32 = -1
        var current = nodes[Int(node)].firstField
        while current >= 0, current != slot {
            previous = current
            current = slots[Int(current)].next
        }
        let next = slots[Int(slot)].next
        if previous >= 0 { slots[Int(previous)].next = next } else { nodes[Int(node)].firstField = next }
        var up = node
        while up >= 0 {
            nodes[Int(up)].fieldCount -= 1
            up = nodes[Int(up)].parent
        }
        slots[Int(slot)].node = -2
    }

    /// The number of fields on the list that starts at slot `first` (-1: none).
    private func fieldsOnLine(countingFrom first: Int32) -> Int32 {
        var count: Int32 = 0
        var slot = first
        while slot >= 0 {
            count += 1
            slot = slots[Int(slot)].next
        }
        return count
    }

    /// Frees every slot left detached by an update: those fields are gone.
    private func releaseDetached() {
        for slot in detached where slots[Int(slot)].node == -2 {
            removeIndex(slots[Int(slot)].id)
            slots[Int(slot)] = FieldSlot(id: "", start: 0, end: 0, node: -1, next: freeSlot, session: nil)
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

    // MARK: - The id index

    private static func hash(_ id: String) -> UInt32 {
        var hasher = Hasher()
        hasher.combine(id)
        return UInt32(truncatingIfNeeded: hasher.finalize())
    }

    /// The slot of field `id`, attached or detached, or nil.
    func slot(of id: String) -> Int32? {
        guard !index.isEmpty else { return nil }
        let hash = LineTree.hash(id)
        let mask = index.count - 1
        var position = Int(hash) & mask
        while true {
            let entry = index[position]
            if entry.slot < 0 { return nil }
            if entry.hash == hash, slots[Int(entry.slot)].id == id { return entry.slot }
            position = (position + 1) & mask
        }
    }

    private func insertIndex(_ slot: Int32) {
        if (indexCount + 1) * 2 > index.count { growIndex() }
        place(slot, hash: LineTree.hash(slots[Int(slot)].id))
        indexCount += 1
    }

    private func place(_ slot: Int32, hash: UInt32) {
        let mask = index.count - 1
        var position = Int(hash) & mask
        while index[position].slot >= 0 { position = (position + 1) & mask }
        index[position] = (slot, hash)
    }

    private func growIndex() {
        let old = index
        index = Array(repeating: (-1, 0), count: max(16, old.count * 2))
        for entry in old where entry.slot >= 0 { place(entry.slot, hash: entry.hash) }
    }

    /// Removes `id` from the index, shifting back the entries after it (no tombstones).
    private func removeIndex(_ id: String) {
        guard !index.isEmpty else { return }
        let hash = LineTree.hash(id)
        let mask = index.count - 1
        var hole = Int(hash) & mask
        while true {
            let entry = index[hole]
            if entry.slot < 0 { return }
            if entry.hash == hash, slots[Int(entry.slot)].id == id { break }
            hole = (hole + 1) & mask
        }
        indexCount -= 1
        var position = hole
        while true {
            position = (position + 1) & mask
            let entry = index[position]
            if entry.slot < 0 { break }
            // The entry may fill the hole unless its home lies cyclically in (hole, position].
            let home = Int(entry.hash) & mask
            let stays = hole <= position ? (hole < home && home <= position) : (hole < home || home <= position)
            if !stays {
                index[hole] = entry
                hole = position
            }
        }
        index[hole] = (-1, 0)
    }

    // MARK: - Treap internals

    private func nextPriority() -> UInt32 {
        // SplitMix64: deterministic, so runs are reproducible.
        random &+= 0x9E37_79B9_7F4A_7C15
        var z = random
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt32(truncatingIfNeeded: z ^ (z >> 31))
    }

    private func pull(_ node: Int32) {
        var n = nodes[Int(node)]
        var size: Int32 = 1
        var fields = fieldsOnLine(countingFrom: n.firstField)
        if n.left >= 0 {
            size += nodes[Int(n.left)].size
            fields += nodes[Int(n.left)].fieldCount
            nodes[Int(n.left)].parent = node
        }
        if n.right >= 0 {
            size += nodes[Int(n.right)].size
            fields += nodes[Int(n.right)].fieldCount
            nodes[Int(n.right)].parent = node
        }
        n.size = size
        n.fieldCount = fields
        nodes[Int(node)].size = n.size
        nodes[Int(node)].fieldCount = n.fieldCount
    }

    /// Builds a treap from detached nodes in linear time (a Cartesian tree over random priorities).
    private func build(_ made: [Int32]) -> Int32 {
        var spine: [Int32] = []
        for node in made {
            var last: Int32 = -1
            while let top = spine.last, nodes[Int(top)].priority < nodes[Int(node)].priority {
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

    /// Splits `node` into its first `count` lines and the rest.
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
        if nodes[Int(a)].priority > nodes[Int(b)].priority {
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
