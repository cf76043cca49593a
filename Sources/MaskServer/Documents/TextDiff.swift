// maskd: the smallest edits that turn one field text into another (Myers' O(ND) diff).

/// One replacement found by `TextDiff`, in element offsets of the old sequence.
struct DiffEdit: Hashable, Sendable {
    var start: Int
    var end: Int
    /// The offsets of the new text, in the new sequence.
    var newStart: Int
    var newEnd: Int
}

enum TextDiff {
    /// The most differences searched for before the changed middle is replaced whole.
    static let searchLimit = 512

    /// The replacements that turn text `old` into `new`, each with its new text, in units of `split`.
    ///
    /// When `bytesAreUnits` (both texts are ASCII, or one byte per character), the texts are compared
    /// as bytes where they are stored: no array of characters or scalars is made, and no copy, so a
    /// megabyte pasted into a field costs one look at each byte up to the first difference from each end.
    static func replacements<T: Equatable>(
        _ old: String, _ new: String, bytesAreUnits: Bool,
        split: (String) -> [T], join: (ArraySlice<T>) -> String
    )
        -> [(edit: DiffEdit, text: String)]
    {
        if bytesAreUnits {
            var old = old, new = new
            return old.withUTF8 { oldBytes in
                new.withUTF8 { newBytes in
                    edits(oldBytes, newBytes).map {
                        (
                            $0,
                            String(
                                decoding: UnsafeBufferPointer(rebasing: newBytes[$0.newStart..<$0.newEnd]),
                                as: UTF8.self)
                        )
                    }
                }
            }
        }
        let newUnits = split(new)
        return edits(split(old), newUnits).map { ($0, join(newUnits[$0.newStart..<$0.newEnd])) }
    }

    /// The sorted, non-overlapping, non-adjacent replacements that turn `old` into `new`,
    /// changing as few elements as possible.
    ///
    /// Common prefix and suffix are trimmed first; the rest costs O((n + m) d) for d differences, up to
    /// `searchLimit`, and beyond it (or when the lengths alone differ by more) O(n + m), as one replacement.
    /// The texts are read where they are (arrays, or buffers of bytes): nothing is copied.
    static func edits<C: RandomAccessCollection>(_ old: C, _ new: C) -> [DiffEdit]
    where C.Element: Equatable, C.Index == Int {
        let old0 = old.startIndex, new0 = new.startIndex
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[old0 + prefix] == new[new0 + prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
            old[old0 + old.count - 1 - suffix] == new[new0 + new.count - 1 - suffix]
        { suffix += 1 }
        // The changed middles: `a` is old[prefix..<prefix + n], `b` is new[prefix..<prefix + m].
        let n = old.count - prefix - suffix, m = new.count - prefix - suffix
        let whole = [DiffEdit(start: prefix, end: prefix + n, newStart: prefix, newEnd: prefix + m)]
        if n == 0 && m == 0 { return [] }
        if n == 0 || m == 0 { return whole }
        // Past `searchLimit` differences the smallest edits are not worth their cost: the middle is replaced
        // whole. A paste of a megabyte into a card field differs from its result by about a megabyte, and the
        // search would cost the product of the lengths in time and in memory.
        let limit = min(n + m, searchLimit)
        if abs(n - m) > limit { return whole }
        let a = old[(old0 + prefix)..<(old0 + prefix + n)], b = new[(new0 + prefix)..<(new0 + prefix + m)]
        let a0 = a.startIndex, b0 = b.startIndex
        // Myers: furthest-reaching paths per diagonal. Before distance d is searched, the diagonals it reads
        // (-d-1...d+1) are kept, so the walk back costs O(d^2) memory, not O((n + m) d).
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * offset + 1)
        var trace: [Int] = []
        func traced(_ d: Int, _ k: Int) -> Int { trace[d * d + 2 * d + (k + d + 1)] }  // band d starts at d^2 + 2d
        var distance: Int? = nil
        search: for d in 0...limit {
            trace.append(contentsOf: v[(offset - d - 1)...(offset + d + 1)])
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]
                } else {
                    x = v[offset + k - 1] + 1
                }
                var y = x - k
                while x < n, y < m, a[a0 + x] == b[b0 + y] { x += 1; y += 1 }
                v[offset + k] = x
                if x >= n && y >= m {
                    distance = d
                    break search
                }
            }
        }
        guard let distance else { return whole }
        // Walk back, marking which elements of a are deleted and of b inserted.
        var deleted = [Bool](repeating: false, count: n)
        var inserted = [Bool](repeating: false, count: m)
        var x = n, y = m
        for d in stride(from: distance, through: 1, by: -1) {
            let k = x - y
            let previousK: Int
            if k == -d || (k != d && traced(d, k - 1) < traced(d, k + 1)) {
                previousK = k + 1
            } else {
                previousK = k - 1
            }
            let previousX = traced(d, previousK)
            let previousY = previousX - previousK
            while x > previousX && y > previousY { x -= 1; y -= 1 }
            if x == previousX { inserted[y - 1] = true; y -= 1 } else { deleted[x - 1] = true; x -= 1 }
        }
        // Group runs of changes between common elements into replacements.
        var result: [DiffEdit] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, !deleted[i], !inserted[j] {
                i += 1; j += 1
                continue
            }
            let startI = i, startJ = j
            while i < n && deleted[i] { i += 1 }
            while j < m && inserted[j] { j += 1 }
            while (i < n && deleted[i]) || (j < m && inserted[j]) {
                while i < n && deleted[i] { i += 1 }
                while j < m && inserted[j] { j += 1 }
            }
            result.append(
                DiffEdit(start: prefix + startI, end: prefix + i, newStart: prefix + startJ, newEnd: prefix + j))
        }
        return result
    }
}
