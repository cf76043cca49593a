// maskd: where a field opens when the client gives a position, and how a range over lines splits into fields.

/// The extent of fields the client does not give exactly: `maskd/openField`'s `at` (the widest run of words
/// around the cursor that the mask reads whole) and `maskd/openFields`' entries over several lines (one field per
/// line). Plain functions of a line's scalars, so every client gets the same answer.
///
/// A *blank* is a space or a tab; a *word* is a maximal run of scalars that are not blanks.
enum FieldExtent {
    /// Whether `scalar` separates words.
    static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t"
    }

    /// The most words a run takes on each side of the word under the cursor.
    static let wordsPerSide = 3

    /// The word under the cursor at `column` of `line`, and the runs of words around it to try, in order.
    ///
    /// The word under the cursor is the one holding the scalar just before `column`. The runs are the spans of
    /// consecutive words holding it, each word one blank apart from the next, with at most ``wordsPerSide`` words on
    /// each side of it, other than the word alone; widest first (in scalars), and of two as wide the one starting
    /// further left first.
    /// - Returns: nil when `column` starts the line or the scalar before it is blank: the field opens empty there.
    /// - Precondition: `0 <= column <= line.count`.
    /// - Complexity: O(the word and its neighbours' lengths).
    static func candidates(in line: [Unicode.Scalar], at column: Int) -> (word: Range<Int>, runs: [Range<Int>])? {
        guard column > 0, !isBlank(line[column - 1]) else { return nil }
        var start = column - 1
        while start > 0, !isBlank(line[start - 1]) { start -= 1 }
        var end = column
        while end < line.count, !isBlank(line[end]) { end += 1 }
        // Where the words one blank apart begin to the left, and end to the right, nearest first.
        var starts = [start], ends = [end]
        while starts.count <= wordsPerSide, let s = starts.last, s >= 2, isBlank(line[s - 1]), !isBlank(line[s - 2]) {
            var b = s - 2
            while b > 0, !isBlank(line[b - 1]) { b -= 1 }
            starts.append(b)
        }
        while ends.count <= wordsPerSide, let e = ends.last, e + 1 < line.count, isBlank(line[e]), !isBlank(line[e + 1])
        {
            var a = e + 1
            while a < line.count, !isBlank(line[a]) { a += 1 }
            ends.append(a)
        }
        var runs: [Range<Int>] = []
        for s in starts {
            for e in ends where s != start || e != end {
                runs.append(s..<e)
            }
        }
        runs.sort { a, b in a.count != b.count ? a.count > b.count : a.lowerBound < b.lowerBound }
        return (start..<end, runs)
    }

    /// The part `from..<to` of a line without its leading and trailing blanks, or nil when nothing is left.
    /// - Precondition: `0 <= from <= to <= line.count`.
    static func trimmed(_ line: [Unicode.Scalar], from: Int, to: Int) -> Range<Int>? {
        var s = from, e = to
        while s < e, isBlank(line[s]) { s += 1 }
        while e > s, isBlank(line[e - 1]) { e -= 1 }
        return s < e ? s..<e : nil
    }
}
