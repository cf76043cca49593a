/// Right-to-left masks (`"rightToLeft": true`), as RedMadRobot's input-mask makes them: the mask's
/// elements are compiled in reverse, and every call reverses the field's text (by grapheme cluster),
/// mirrors its offsets, runs the ordinary engine and mirrors the result back. So `[000] [000] [000]`
/// fills from its end (`1234` shows `1 234`), every rule of `Protocol/engine.md` holds mirrored, and a
/// full field cuts at its start. The one rule that is not a plain mirror is where the caret lands: it
/// stays right after the character the person typed, and after a deletion right after the entered
/// character to its left (see `caret(_:)`).
enum RightToLeft {
    /// The elements read from the end: reversed, each run of slots of one class keeping its required slots
    /// first in the reversed order (so the optional ones stand at the left of the mask as written).
    static func mirroredElements(_ elements: [Element], blocks: [Block]) throws -> [Element] {
        if !blocks.isEmpty { throw MaskError("'rightToLeft' does not apply to a pattern with blocks") }
        if let repeating = elements.first(where: \.repeats) {
            throw MaskError(
                "'rightToLeft' does not take a slot without limit ('…' or 'repeat')", offset: repeating.offset)
        }
        var mirrored: [Element] = []
        var run: [Element] = []
        for element in elements.reversed() {
            if element.isSlot {
                run.append(element)
                continue
            }
            mirrored += NotationCompiler.reorderRuns(run)
            run.removeAll()
            mirrored.append(element)
        }
        mirrored += NotationCompiler.reorderRuns(run)
        return mirrored
    }

    /// The value checks, given the value in reading order: the engine extracts it reversed.
    static func mirroredChecks(_ checks: ValueChecks) -> ValueChecks {
        var mirrored = ValueChecks()
        if let viable = checks.viable { mirrored.viable = { viable(String($0.reversed())) } }
        mirrored.validators = checks.validators.map { validation in
            switch validation {
            case .text(let check): return .text { check(String($0.reversed())) }
            case .utf8(let check): return .text { check(Array(String($0.reversed()).utf8)) }
            }
        }
        return mirrored
    }

    static func reversed(_ text: String) -> String { String(text.reversed()) }

    /// An offset in a text of `length` characters, counted from the other end.
    static func mirrored(_ offset: Int, _ length: Int) -> Int { length - min(max(offset, 0), length) }

    static func mirrored(_ range: Range<Int>, _ length: Int) -> Range<Int> {
        let lower = mirrored(range.upperBound, length), upper = mirrored(range.lowerBound, length)
        return lower..<max(lower, upper)
    }

    /// A result of the reversed program, in reading order: text, value, placeholder and the cut characters
    /// reversed back, the selection mirrored, the mask's own notation.
    static func mirrored(_ r: FieldResult, notation: String) -> FieldResult {
        var m = r.settled()
        let length = r.text.count
        m.text = reversed(r.text)
        m.selection = mirrored(r.selection, length)
        m.value = reversed(r.value)
        m.placeholder = reversed(r.placeholder)
        m.rejected = reversed(r.rejected)
        m.overflow = reversed(r.overflow)
        m.mask = notation
        return m
    }
}

extension Mask {
    /// `format` (or `reformat`) of a right-to-left mask: the reversed text read by the reversed program.
    func formatRightToLeft(_ text: String, selection: Range<Int>?, notation: String, padding: Bool) -> FieldResult {
        let length = text.count
        let reversedSelection = (selection ?? length..<length).clamped(to: 0..<length)
        let r = readReversed(
            RightToLeft.reversed(text), selection: RightToLeft.mirrored(reversedSelection, length),
            padding: padding)
        return RightToLeft.mirrored(r, notation: notation)
    }

    /// `apply` of a right-to-left mask. A backspace in the text is a forward delete in the reversed text
    /// (and the other way round); the caret is then placed by `caretAfterEdit`.
    func applyRightToLeft(_ edit: FieldEdit, to text: String, notation: String) -> FieldResult {
        let length = text.count
        let lower = min(max(edit.range.lowerBound, 0), length)
        var range = lower..<min(max(edit.range.upperBound, lower), length)
        if case .slots(let program) = kind, spec.overwrite == true, range.isEmpty, !edit.text.isEmpty {
            // Overwrite reads in reading order: the text typed at the caret replaces the entered characters to
            // its right, as many as it brings that fit the mask. The reversed program must not overwrite again
            // (it would take those to the caret's left), so this becomes a replacement of a selection.
            let (raw, before) = enteredRightToLeft(text, caret: lower)
            let brought = edit.text.filter { program.fitsSomeSlot($0) }.count
            if brought > 0, before < raw.count {
                range = lower..<max(lower, offset(afterEntered: min(before + brought, raw.count), in: text))
            }
        }
        var mirroredEdit = FieldEdit(
            range: RightToLeft.mirrored(range, length), text: RightToLeft.reversed(edit.text),
            direction: edit.direction == .backward ? .forward : .backward)
        mirroredEdit.selection = edit.selection.map { RightToLeft.mirrored($0.clamped(to: 0..<length), length) }
        let reversedText = RightToLeft.reversed(text)
        let r = applyReversed(mirroredEdit, to: reversedText)
        var m = RightToLeft.mirrored(r, notation: notation)
        if r.text != reversedText || r.selection.isEmpty && edit.text.isEmpty {
            m.selection = caretAfterEdit(m, edit: edit, range: range, before: text)
        }
        return m
    }

    /// Where the caret lands after an edit of a right-to-left field: right after the entered characters that
    /// stand to its left, the person's inserted ones included (so typing on at the caret continues there, and
    /// a caret never stops after a separator that follows them); with none to its left, before the first
    /// entered character (0 when there is none).
    private func caretAfterEdit(_ result: FieldResult, edit: FieldEdit, range: Range<Int>, before text: String)
        -> Range<Int>
    {
        let (before, leftOfEnd) = enteredRightToLeft(text, caret: range.upperBound)
        let leftOfStart = enteredRightToLeft(text, caret: range.lowerBound).before
        let (after, _) = enteredRightToLeft(result.text, caret: 0)
        let k: Int
        if !edit.text.isEmpty {
            // Entered characters to the caret's right never move to its left, and what a full field cuts goes
            // from its start: the caret stands before as many of the result's as stood to its right.
            k = max(0, after.count - (before.count - leftOfEnd))
        } else if edit.direction == .backward, leftOfStart == leftOfEnd {
            // A backspace on separators only removed the entered character before them.
            k = max(0, leftOfStart - (before.count - after.count))
        } else {
            k = leftOfStart
        }
        let caret = offset(afterEntered: k, in: result.text)
        return caret..<caret
    }

    /// The text offset right after the k-th entered character of a right-to-left field's text (for k = 0, at
    /// the first entered character, or 0).
    func offset(afterEntered k: Int, in text: String) -> Int {
        guard case .slots(let program) = kind else { return 0 }
        let chars = Array(text.reversed())
        let d = program.decompose(chars)
        let cells = d.layout.cells
        let length = chars.count
        if cells.isEmpty { return 0 }
        if k == 0 {
            // Before the first entered character: after the last cell in the reversed text.
            return RightToLeft.mirrored(program.textOffset(afterCell: cells.count - 1, in: cells), length)
        }
        // Right after cell k-1 (in reading order), which is cell (count - k) read from the end: the caret stands
        // before it in the reversed text.
        let index = cells.count - min(k, cells.count)
        let start = program.literalsBefore[cells[index].element] + index
        return RightToLeft.mirrored(start, length)
    }

    /// The entered characters of a right-to-left field's text in reading order, and how many stand before `caret`.
    func enteredRightToLeft(_ text: String, caret: Int) -> (raw: [Character], before: Int) {
        let length = text.count
        let (raw, beforeMirrored) = enteredReversed(
            RightToLeft.reversed(text), caret: RightToLeft.mirrored(caret, length))
        return (raw.reversed(), raw.count - beforeMirrored)
    }
}
