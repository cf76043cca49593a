// maskd: how the editor's changes are read before they are spliced: a `\r` and a `\n` brought together made one
// line break (a full content is diffed against the daemon's copy in `FullContentChange.swift`).

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
        let before: Character? =
            change.start.column == 0 && change.start.line > 0
                && lines.ending(ofLine: change.start.line - 1) == .cr ? "\r" : nil
        let after: Character? =
            change.end.column == lines.length(ofLine: change.end.line)
                && lines.ending(ofLine: change.end.line) == .lf ? "\n" : nil
        // Where the widened text would hold a `\r` then a `\n` across a boundary of the change: only the
        // change's first and last scalars matter (a pasted megabyte is not copied to find them).
        let scalars = change.text.unicodeScalars
        let startJoins = before != nil && (scalars.first ?? (after != nil ? "\n" : nil)) == "\n"
        let endJoins = after != nil && (scalars.last ?? (before != nil ? "\r" : nil)) == "\r"
        if startJoins {
            change.start = ScalarPosition(
                line: change.start.line - 1, column: lines.length(ofLine: change.start.line - 1))
            change.text = "\r" + change.text
        }
        if endJoins {
            change.end = ScalarPosition(line: change.end.line + 1, column: 0)
            change.text += "\n"
        }
        return change
    }
}
