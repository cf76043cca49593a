// maskd: how the editor's changes are read before they are spliced: a full content diffed against the daemon's
// copy, and a `\r` and a `\n` brought together made one line break.

extension Document {
    /// Whether line `index` is empty between a line ending in a lone `\r` and its own `\n`: the two then make
    /// one line break for the editor, which the daemon's lines must follow.
    func joinsLineBreaks(emptied index: Int) -> Bool {
        guard index > 0, index < lines.count else { return false }
        return lines.length(ofLine: index) == 0 && lines.ending(ofLine: index) == .lf
            && lines.ending(ofLine: index - 1) == .cr
    }

    /// `change` widened so that a `\r` and a `\n` it brings together are one line break, as the
    /// editor counts them: a `\r` typed before a line's `\n` ending, a `\n` typed after a lone `\r`
    /// ending, or a deletion of what stood between them. The widened change writes the same text.
    func joiningLineBreaks(_ change: ScalarChange) -> ScalarChange {
        var change = change
        let before: Character? = change.start.column == 0 && change.start.line > 0
            && lines.ending(ofLine: change.start.line - 1) == .cr ? "\r" : nil
        let after: Character? = change.end.column == lines.length(ofLine: change.end.line)
            && lines.ending(ofLine: change.end.line) == .lf ? "\n" : nil
        // Where the widened text would hold a `\r` then a `\n` across a boundary of the change: only the
        // change's first and last scalars matter (a pasted megabyte is not copied to find them).
        let scalars = change.text.unicodeScalars
        let startJoins = before != nil && (scalars.first ?? (after != nil ? "\n" : nil)) == "\n"
        let endJoins = after != nil && (scalars.last ?? (before != nil ? "\r" : nil)) == "\r"
        if startJoins {
            change.start = ScalarPosition(line: change.start.line - 1, column: lines.length(ofLine: change.start.line - 1))
            change.text = "\r" + change.text
        }
        if endJoins {
            change.end = ScalarPosition(line: change.end.line + 1, column: 0)
            change.text += "\n"
        }
        return change
    }

    /// The full new content as one change against the current text: the part between their
    /// common prefix and common suffix, or nil when they are equal.
    func fullContentChange(_ newText: String) -> ScalarChange? {
        let oldLines = lines.lines
        let newLines = Line.split(newText)
        var p = 0
        while p < oldLines.count, p < newLines.count,
              oldLines[p].text.sameScalars(newLines[p].text), oldLines[p].ending == newLines[p].ending { p += 1 }
        if p == oldLines.count && p == newLines.count { return nil }
        var q = 0
        while q < oldLines.count - p, q < newLines.count - p,
              oldLines[oldLines.count - 1 - q].text.sameScalars(newLines[newLines.count - 1 - q].text),
              oldLines[oldLines.count - 1 - q].ending == newLines[newLines.count - 1 - q].ending { q += 1 }
        if p == oldLines.count { p -= 1; q = 0 }
        let oldRegion = Array(oldLines[p..<(oldLines.count - q)].map { $0.text + $0.ending.rawValue }.joined().unicodeScalars)
        let newRegion = Array(newLines[p..<(newLines.count - q)].map { $0.text + $0.ending.rawValue }.joined().unicodeScalars)
        var a = 0
        while a < oldRegion.count, a < newRegion.count, oldRegion[a] == newRegion[a] { a += 1 }
        var b = 0
        while b < oldRegion.count - a, b < newRegion.count - a,
              oldRegion[oldRegion.count - 1 - b] == newRegion[newRegion.count - 1 - b] { b += 1 }
        // Never cut a CRLF in two.
        while a > 0, a < oldRegion.count, oldRegion[a - 1] == "\r", oldRegion[a] == "\n" { a -= 1 }
        while b > 0, oldRegion.count - b > 0, oldRegion[oldRegion.count - b] == "\n",
              oldRegion[oldRegion.count - b - 1] == "\r" { b -= 1 }
        func locate(_ offset: Int) -> ScalarPosition {
            var line = p, rest = offset
            for l in oldLines[p..<(oldLines.count - q)] {
                let length = l.scalarCount + l.ending.scalarCount
                if rest < length || l.ending == .none || rest <= l.scalarCount { break }
                rest -= length
                line += 1
            }
            return ScalarPosition(line: line, column: rest)
        }
        return ScalarChange(start: locate(a), end: locate(oldRegion.count - b),
                            text: String(String.UnicodeScalarView(newRegion[a..<(newRegion.count - b)])))
    }
}
