// maskd: which changes a field formats (protocol.md, "Field tracking", which changes a field formats).

/// How a person's change stands to one field it meets: typing into the field, which the field formats, or a change
/// that reaches beyond it, whose text is kept exactly as the editor has it.
///
/// Offsets are flat (scalars from one origin, line breaks included): the field is `[start, end)`, the change replaces
/// `[changeStart, changeEnd)`; a change that spans lines always has a line break inside its range.
enum FieldChangeKind: Equatable {
    /// The field lies wholly before the change (it stays) or after it (it shifts); its text does not change.
    case apart
    /// Typing, deleting, a paste or a replacement within the field's range, boundaries included, that puts no line
    /// break in: the field's own edit, which the engine reads.
    case typing
    /// A change that starts before the field and reaches into it, starts in it and ends after it, covers it and more,
    /// or puts a line break in or at it (a line deleted, joined or replaced, a block or whole-buffer edit, a pasted
    /// line): not typing. The text stays as the editor has it; `FieldChangeKind.remains` says what is left of the field.
    case beyond

    /// How the change `[changeStart, changeEnd)` stands to the field `[start, end)`.
    static func of(field start: Int, _ end: Int, change changeStart: Int, _ changeEnd: Int, insertsLineBreak: Bool)
        -> FieldChangeKind
    {
        if end < changeStart || start > changeEnd { return .apart }
        if !insertsLineBreak && start <= changeStart && changeEnd <= end { return .typing }
        return .beyond
    }

    /// What is left of a field after a change that reaches beyond it (`beyond`), in the flat offsets of the text
    /// after the change, `inserted` being the length of the change's text; nil when the field closes.
    ///
    /// - The field keeps the part of its text the change did not replace: the part before the change when there is
    ///   one (a field cut by a line break keeps its left part), else the part after it. The change's text is never
    ///   the field's.
    /// - A field none of whose text is left closes, when the change reaches beyond it on either side (`dd`, `S`, a
    ///   selection over it and more). A change exactly over its range is typing, not this.
    /// - An empty field closes when the change's range reaches over it on both sides, or takes all of its line's text
    ///   (`lineCleared`: `S` on `Tel: |`, `dd` of its line); at the change's start it stays there, at its end it goes
    ///   after the inserted text. At the point of a pure insertion (only one that puts a line break in is not typing)
    ///   it keeps to the text it belongs to: after a label (`Tel: |`) it stays, at the start of its line
    ///   (`atLineStart`) it moves down with the rest of the line.
    static func remains(
        field start: Int, _ end: Int, change changeStart: Int, _ changeEnd: Int, inserted: Int,
        atLineStart: Bool, lineCleared: Bool
    ) -> Range<Int>? {
        let shift = inserted - (changeEnd - changeStart)
        if start == end {
            if (changeStart < start && start < changeEnd) || lineCleared { return nil }
            if start == changeStart && start == changeEnd && atLineStart {
                return (start + inserted)..<(start + inserted)
            }
            if start == changeStart { return start..<start }
            return (start + shift)..<(start + shift)
        }
        if start < changeStart { return start..<min(end, changeStart) }
        if end > changeEnd {
            let from = max(start, changeEnd)
            return (from + shift)..<(end + shift)
        }
        return nil
    }
}
