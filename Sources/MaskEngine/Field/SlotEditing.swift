/// Formatting and editing on one slot program: PROTOCOL.md section 2, step by step.
///
/// Every operation starts from a field's text, reads it back into cells (a formatted text reads
/// back to itself), changes the cells, and renders them again. All of it is linear in the
/// field's length and allocates only the field-sized arrays it returns.
extension Program {
    /// A text read into the program, with where each of its characters went.
    struct Decomposition {
        var layout: Layout
        /// For each cell, the index of the text character it came from.
        var cellSource: [Int]
        /// For each text character, the mask cursor after it.
        var cursorAfter: [Int]
        /// For each text character, the offset in the formatted text where its own output
        /// starts (after the literals it made appear), or -1 when it produced nothing.
        var outputStart: [Int]
        var rejected = ""
        var overflow = ""

        /// The mask cursor at text offset `offset` (between characters).
        func cursor(at offset: Int) -> Int { offset == 0 ? 0 : cursorAfter[offset - 1] }

        /// How many cells came from text characters before `offset`.
        func cellCount(before offset: Int) -> Int {
            var low = 0, high = cellSource.count
            while low < high {
                let mid = (low + high) / 2
                if cellSource[mid] < offset { low = mid + 1 } else { high = mid }
            }
            return low
        }
    }

    /// Reads `chars` from the start of the mask, one character at a time.
    func decompose(_ chars: [Character]) -> Decomposition {
        var cells: [Cell] = []
        cells.reserveCapacity(chars.count)
        var d = Decomposition(layout: Layout(), cellSource: [], cursorAfter: [], outputStart: [])
        d.cellSource.reserveCapacity(chars.count)
        d.cursorAfter.reserveCapacity(chars.count)
        d.outputStart.reserveCapacity(chars.count)
        var cursor = 0
        for (i, c) in chars.enumerated() {
            let before = cells.count
            let outcome = read(CollectionOfOne(c), from: cursor, into: &cells)
            if cells.count > before {
                d.cellSource.append(i)
                d.outputStart.append(literalsBefore[cells[before].element] + before)
            } else if outcome.accepted && outcome.overflow.isEmpty {
                d.outputStart.append(literalsBefore[outcome.cursor - 1] + before)
            } else {
                d.outputStart.append(-1)
            }
            cursor = outcome.cursor
            d.cursorAfter.append(cursor)
            d.rejected += outcome.rejected
            d.overflow += outcome.overflow
        }
        d.layout = Layout(cells: cells, end: cursor)
        return d
    }

    /// The formatted text's offset for an offset in the text that was read, with forward
    /// gravity: a caret moves over the literals that appear at its place.
    func carriedOffset(_ offset: Int, through d: Decomposition, textLength: Int) -> Int {
        var i = offset
        while i < d.outputStart.count {
            if d.outputStart[i] >= 0 { return d.outputStart[i] }
            i += 1
        }
        return textLength
    }

    /// The outcome of one edit on this program.
    struct EditOutcome {
        var layout: Layout
        var caret: Int
        var rejected = ""
        var overflow = ""
        /// Nothing was read in or deleted: the caller keeps the field as it was.
        var refused = false
        /// The entered characters kept before the edit point, read in by it, and after it, so
        /// other masks of a `oneOf` can replay the same edit.
        var before: [Character] = []
        var inserted: String? = nil
        var after: [Character] = []
    }

    /// Applies `edit` to a field whose text is `chars`, read into `d`.
    func edit(_ edit: FieldEdit, chars: [Character], decomposition d: Decomposition) -> EditOutcome {
        let s = min(max(edit.range.lowerBound, 0), chars.count)
        let e = min(max(edit.range.upperBound, s), chars.count)
        let cells = d.layout.cells
        let k0 = d.cellCount(before: s)
        let k1 = d.cellCount(before: e)

        if !edit.text.isEmpty {
            var newCells = Array(cells[0..<k0])
            // In an eager field the literals just before the caret appeared by themselves, so
            // reading starts before them: typing one of them steps over it, as pasting would.
            var from = s
            if eager {
                while from > 0, d.cellCount(before: from - 1) == k0 { from -= 1 }
                // Only literals that follow the previous cell directly appeared by themselves; a
                // literal reached by skipping an optional slot was typed and stays behind the caret.
                if !(d.cursor(at: from)..<d.cursor(at: s)).allSatisfy({ !elements[$0].isSlot }) { from = s }
            }
            let read = self.read(edit.text, from: d.cursor(at: from), into: &newCells)
            var outcome = EditOutcome(layout: d.layout, caret: e, rejected: read.rejected, overflow: read.overflow)
            outcome.before = cells[0..<k0].map(\.char)
            outcome.inserted = edit.text
            outcome.after = cells[k1...].map(\.char)
            guard read.accepted else {
                outcome.refused = true
                return outcome
            }
            let caretCells = newCells.count
            let placed = place(outcome.after, from: read.cursor, into: &newCells)
            outcome.overflow += placed.overflow
            var layout = Layout(cells: newCells, end: read.cursor)
            settle(&layout)
            outcome.layout = layout
            outcome.caret = caretAfterReading(cursor: read.cursor, cellCount: caretCells, layout: layout)
            return outcome
        }

        // A deletion.
        var removeFrom = k0, removeTo = k1
        if k1 == k0 {
            if s == e { return EditOutcome(layout: d.layout, caret: e, refused: true) }
            if k0 == cells.count && !eager {
                // Only trailing literals of a lazy field: they would not come back, so they go.
                var layout = Layout(cells: cells, end: d.cursor(at: s))
                settle(&layout)
                var outcome = EditOutcome(layout: layout, caret: s)
                outcome.before = cells.map(\.char)
                return outcome
            }
            // Only separators: delete the entered character beside them, so the key never sticks.
            switch edit.direction {
            case .backward:
                guard k0 > 0 else { return EditOutcome(layout: d.layout, caret: caretForDeletion(0, d.layout), refused: true) }
                removeFrom = k0 - 1
                removeTo = k0
            case .forward:
                guard k1 < cells.count else { return EditOutcome(layout: d.layout, caret: s, refused: true) }
                removeFrom = k1
                removeTo = k1 + 1
            }
        }
        var newCells = Array(cells[0..<removeFrom])
        let start = removeFrom == 0 ? 0 : cursor(after: cells[removeFrom - 1].element)
        var outcome = EditOutcome(layout: d.layout, caret: 0)
        outcome.before = newCells.map(\.char)
        outcome.after = cells[removeTo...].map(\.char)
        let placed = place(outcome.after, from: start, into: &newCells)
        outcome.overflow = placed.overflow
        var layout = Layout(cells: newCells, end: 0)
        settle(&layout)
        outcome.layout = layout
        outcome.caret = caretForDeletion(removeFrom, layout)
        return outcome
    }

    /// Replays an edit from its entered characters alone, for the other masks of a `oneOf`.
    func replay(before: [Character], inserted: String?, after: [Character]) -> EditOutcome {
        var cells: [Cell] = []
        let start = place(before, from: 0, into: &cells)
        var outcome = EditOutcome(layout: Layout(), caret: 0, overflow: start.overflow)
        guard let inserted else {
            let keptBefore = cells.count
            let placed = place(after, from: start.cursor, into: &cells)
            outcome.overflow += placed.overflow
            var layout = Layout(cells: cells, end: 0)
            settle(&layout)
            outcome.layout = layout
            outcome.caret = caretForDeletion(keptBefore, layout)
            return outcome
        }
        let read = self.read(inserted, from: start.cursor, into: &cells)
        outcome.rejected = read.rejected
        outcome.overflow += read.overflow
        if !read.accepted { outcome.refused = true }
        let caretCells = cells.count
        let placed = place(after, from: read.cursor, into: &cells)
        outcome.overflow += placed.overflow
        var layout = Layout(cells: cells, end: read.cursor)
        settle(&layout)
        outcome.layout = layout
        outcome.caret = caretAfterReading(cursor: read.cursor, cellCount: caretCells, layout: layout)
        return outcome
    }

    /// Right after the last character read in; with `eager`, past the literals that follow.
    private func caretAfterReading(cursor: Int, cellCount: Int, layout: Layout) -> Int {
        var caret = textOffset(cursor: cursor, cellCount: cellCount)
        if eager {
            var e = cursor
            while e < limit(of: layout), !elements[e].isSlot {
                caret += 1
                e += 1
            }
        }
        return caret
    }

    /// Right after the k-th entered character, never after a literal that follows it; for
    /// k = 0, at the first slot (0 when the text is empty).
    func caretForDeletion(_ k: Int, _ layout: Layout) -> Int {
        if k > 0 { return textOffset(afterCell: k - 1, in: layout.cells) }
        let shown = literalsBefore[min(limit(of: layout), elements.count)] + layout.cells.count
        return min(literalsBefore[firstSlot], shown)
    }
}
