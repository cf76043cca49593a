// maskd: the lines of a document in a balanced tree, so edits cost O(log lines).

/// A sequence of lines kept in an implicit treap (a randomised balanced tree ordered by
/// position), each node holding one line and its fields.
///
/// Line numbers are implicit: inserting or removing lines shifts every later line, and the
/// fields stored on them, in O(log n) with no renumbering. Each node knows its parent, so the
/// line number of a node (and of a field, through `nodeOfField`) is found in O(log n).
/// Subtrees count their fields, so listing fields in document order skips field-less subtrees.
final class LineTree {
    final class Node {
        var line: Line
        let priority: UInt64
        var left: Node?
        var right: Node?
        weak var parent: Node?
        var size = 1
        var fieldCount: Int

        init(_ line: Line, priority: UInt64) {
            self.line = line
            self.priority = priority
            self.fieldCount = line.fields.count
        }
    }

    private(set) var root: Node?
    /// The node holding each field, by field id.
    private(set) var nodeOfField: [String: Node] = [:]
    private var random: UInt64 = 0x9E37_79B9_7F4A_7C15

    init(_ lines: [Line]) {
        root = build(lines)
    }

    /// The number of lines.
    var count: Int { root?.size ?? 0 }

    /// The line at `index`. - Precondition: `0 <= index < count`.
    subscript(index: Int) -> Line {
        get { node(at: index).line }
        set { update(node(at: index), newValue) }
    }

    /// The node of line `index`, in O(log n). - Precondition: `0 <= index < count`.
    func node(at index: Int) -> Node {
        var node = root!
        var index = index
        while true {
            let leftSize = node.left?.size ?? 0
            if index < leftSize {
                node = node.left!
            } else if index == leftSize {
                return node
            } else {
                index -= leftSize + 1
                node = node.right!
            }
        }
    }

    /// The line number of `node`, in O(log n).
    func index(of node: Node) -> Int {
        var result = node.left?.size ?? 0
        var current = node
        while let parent = current.parent {
            if parent.right === current {
                result += (parent.left?.size ?? 0) + 1
            }
            current = parent
        }
        return result
    }

    /// The line number holding field `id`, or nil when no such field is open.
    func lineOfField(_ id: String) -> Int? {
        nodeOfField[id].map(index(of:))
    }

    /// Replaces line `node`'s content in place, keeping the field index and counts right.
    func update(_ node: Node, _ line: Line) {
        for field in node.line.fields where nodeOfField[field.id] === node {
            nodeOfField[field.id] = nil
        }
        let delta = line.fields.count - node.line.fields.count
        node.line = line
        for field in line.fields {
            nodeOfField[field.id] = node
        }
        var current: Node? = node
        while let n = current {
            n.fieldCount += delta
            current = n.parent
        }
    }

    /// Replaces lines `range` with `lines`, in O(log n + lines.count + range.count).
    /// - Returns: the lines that were removed.
    @discardableResult
    func replace(_ range: Range<Int>, with lines: [Line]) -> [Line] {
        if range.count == 1 && lines.count == 1 {
            let node = node(at: range.lowerBound)
            let old = node.line
            update(node, lines[0])
            return [old]
        }
        let (before, rest) = split(root, range.lowerBound)
        let (removed, after) = split(rest, range.count)
        var old: [Line] = []
        old.reserveCapacity(range.count)
        forEach(removed) { node in
            old.append(node.line)
            for field in node.line.fields where nodeOfField[field.id] === node {
                nodeOfField[field.id] = nil
            }
        }
        root = merge(merge(before, build(lines)), after)
        root?.parent = nil
        return old
    }

    /// Every line in order (linear).
    var lines: [Line] {
        var result: [Line] = []
        result.reserveCapacity(count)
        forEach(root) { result.append($0.line) }
        return result
    }

    /// Calls `body` with each line number and line that holds fields, in document order,
    /// skipping subtrees without fields: O(f log n) for f fields.
    func forEachLineWithFields(_ body: (Int, Line) -> Void) {
        func visit(_ node: Node?, _ offset: Int) {
            guard let node, node.fieldCount > 0 else { return }
            let leftSize = node.left?.size ?? 0
            visit(node.left, offset)
            if !node.line.fields.isEmpty { body(offset + leftSize, node.line) }
            visit(node.right, offset + leftSize + 1)
        }
        visit(root, 0)
    }

    // MARK: - Treap internals

    private func nextPriority() -> UInt64 {
        // SplitMix64: deterministic, so runs are reproducible.
        random &+= 0x9E37_79B9_7F4A_7C15
        var z = random
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private func pull(_ node: Node) {
        node.size = 1 + (node.left?.size ?? 0) + (node.right?.size ?? 0)
        node.fieldCount = node.line.fields.count + (node.left?.fieldCount ?? 0) + (node.right?.fieldCount ?? 0)
        node.left?.parent = node
        node.right?.parent = node
    }

    /// Builds a treap from `lines` in linear time (a Cartesian tree over random priorities).
    private func build(_ lines: [Line]) -> Node? {
        var spine: [Node] = []
        for line in lines {
            let node = Node(line, priority: nextPriority())
            for field in line.fields { nodeOfField[field.id] = node }
            var last: Node?
            while let top = spine.last, top.priority < node.priority {
                pull(top)
                last = spine.removeLast()
            }
            node.left = last
            spine.last?.right = node
            spine.append(node)
        }
        for node in spine.reversed() { pull(node) }
        spine.first?.parent = nil
        return spine.first
    }

    /// Splits `node` into its first `count` lines and the rest.
    private func split(_ node: Node?, _ count: Int) -> (Node?, Node?) {
        guard let node else { return (nil, nil) }
        let leftSize = node.left?.size ?? 0
        if count <= leftSize {
            let (a, b) = split(node.left, count)
            node.left = b
            pull(node)
            a?.parent = nil
            node.parent = nil
            return (a, node)
        } else {
            let (a, b) = split(node.right, count - leftSize - 1)
            node.right = a
            pull(node)
            b?.parent = nil
            node.parent = nil
            return (node, b)
        }
    }

    private func merge(_ a: Node?, _ b: Node?) -> Node? {
        guard let a else { return b }
        guard let b else { return a }
        if a.priority > b.priority {
            a.right = merge(a.right, b)
            pull(a)
            return a
        } else {
            b.left = merge(a, b.left)
            pull(b)
            return b
        }
    }

    private func forEach(_ node: Node?, _ body: (Node) -> Void) {
        guard let node else { return }
        forEach(node.left, body)
        body(node)
        forEach(node.right, body)
    }
}
