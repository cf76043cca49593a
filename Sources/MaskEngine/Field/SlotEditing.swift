/// Formatting and editing on one slot program: `Protocol/engine.md`, step by step.
///
/// Every operation starts from a field's text, reads it back into cells (a formatted text reads
/// back to itself), changes the cells, and renders them again. All of it is linear in the
/// field's length and allocates only field-sized arrays.
extension Program {
    /// A text read into the program, with where each of its characters went.
    struct Decomposition<U: FieldUnit> {
        var layout: Layout<U>
        /// For each text character read before reading stopped (`Program.isFull`), the mask cursor
        /// after it and the cells read so far; the characters after those change neither.
        var trace: [(cursor: Int32, cells: Int32)] = []
        /// For each text character read, the offset in the formatted text where its own output
        /// starts (after the literals it made appear), or -1 when it produced nothing; only
        /// recorded when formatting, which carries carets with it. The unread rest produces nothing.
        var outputStart: [Int] = []
        /// What the text held that the field refused or cut; the rest after reading stopped is sorted
        /// only for the decomposition a caller keeps.
        var cuts = Cuts<U>()

        /// The mask cursor at text offset `offset` (between characters).
        @inline(__always)
        func cursor(at offset: Int) -> Int {
            offset == 0 ? 0 : offset > trace.count ? layout.end : Int(trace[offset - 1].cursor)
        }

        /// How many cells came from text characters before `offset`.
        @inline(__always)
        func cellCount(before offset: Int) -> Int {
            offset == 0 ? 0 : offset > trace.count ? layout.cells.count : Int(trace[offset - 1].cells)
        }

        /// The index of the text character cell `k` came from.
        func source(ofCell k: Int) -> Int {
            trace.firstIndex { Int($0.cells) > k } ?? trace.count
        }
    }

    /// Reads `chars` from the start of the mask, one character at a time until reading stops
    /// (`isFull`); the rest is left in `cuts`, sorted into rejected and overflow when asked.
    ///
    /// Text already in a field (formatted, opened over, or read back before an edit) is taken as it
    /// stands: blocks' rules are not enforced here, only by reading typed or pasted text, so no text
    /// the engine renders changes when it is formatted again.
    /// - Parameters:
    ///   - carets: also record where each character's output starts.
    ///   - runs: the runs of `chars` other programs refused (`RefusedRuns`), for the alternatives of a `oneOf`.
    ///   - tracing: record the `trace`, which an edit reads; formatting a text whole never does.
    ///   - cells: an empty array to read the cells into, whose room is used (`CellArrays`).
    func decompose<U: FieldUnit>(
        _ chars: [U], carets: Bool = false, runs: RefusedRuns? = nil, tracing: Bool = true,
        into cells: consuming [Cell<U>] = []
    ) -> Decomposition<U> {
        var d = Decomposition<U>(layout: Layout(cells: cells))
        d.layout.cells.reserveCapacity(min(chars.count, Program.maximumCells))
        if !carets, !tracing, runs == nil, blocks.isEmpty {
            readRecordingNothing(chars, into: &d)
            return d
        }
        if tracing { d.trace.reserveCapacity(min(chars.count, Program.maximumCells)) }
        if carets { d.outputStart.reserveCapacity(min(chars.count, Program.maximumCells)) }
        continueReading(chars, from: 0, carets: carets, runs: runs, tracing: tracing, into: &d)
        return d
    }

    /// `continueReading` from the mask's start for a reading that records no trace, carets or runs, by a program
    /// without blocks: a text formatted whole. It is `step`'s walk (a block's rules aside), kept lean, since every
    /// line `maskd format` reads runs it: the elements are read in place, and each cell is written into a buffer
    /// on the stack and appended with the rest at the end. `ReadingRecordingNothingTests` holds it equal to
    /// `continueReading`.
    private func readRecordingNothing<U: FieldUnit>(_ chars: [U], into d: inout Decomposition<U>) {
        var rejected: [U] = [], overflow: [U] = []
        var cursor = 0, read = 0
        let room = min(chars.count, Program.maximumCells)
        withUnsafeTemporaryAllocation(of: Cell<U>.self, capacity: room) { buffer in
            var filled = 0
            slotInfo.withUnsafeBufferPointer { slotInfo in
                let count = slotInfo.count, reachableEnd = reachableEnd
                while read < chars.count, cursor < count, filled < room {
                    let c = chars[read]
                    read &+= 1
                    WorkCounter.count()
                    var e = cursor
                    var walkedLiteral = false, readIn = false, refused = false
                    while e < count {
                        WorkCounter.count()
                        let info = slotInfo[e]
                        guard let slotClass = info.slotClass else {
                            if c.matches(literalByte: info.literalByte, elements[e]) {
                                cursor = e &+ 1
                                readIn = true
                                break
                            }
                            walkedLiteral = true
                            e &+= 1
                            continue
                        }
                        if let stored = fitted(c, slotClass) {
                            (buffer.baseAddress! + filled).initialize(to: Cell(char: stored, element: e))
                            filled &+= 1
                            cursor = info.repeats ? e : e &+ 1
                            readIn = true
                            break
                        }
                        // As in `step`: only an optional slot lets a character it does not take walk on.
                        guard info.isOptional, e &+ 1 < reachableEnd || reachableEnd == count else {
                            refused = true
                            break
                        }
                        e &+= 1
                    }
                    if readIn { continue }
                    if refused || !fitsSomeSlot(c) {
                        rejected.append(c)
                        continue
                    }
                    if walkedLiteral { cursor = e }
                    overflow.append(c)
                }
            }
            guard filled > 0, let cells = buffer.baseAddress else { return }
            d.layout.cells.append(contentsOf: UnsafeBufferPointer(start: cells, count: filled))
            cells.deinitialize(count: filled)
        }
        d.cuts = Cuts(rejectedUnits: rejected, overflowUnits: overflow)
        if read < chars.count { d.cuts.leave(chars[read...], for: self) }
        d.layout.end = cursor
    }

    /// `decompose(chars)`, reusing `d`, this program's reading of another text whose first `shared` units
    /// are those of `chars`: reading is a scan from the left, so those read the same and only the rest is
    /// read. Blocks may change cells already read (`4/` pads the `4`), so a program with blocks, or a
    /// reading with characters cut or refused, is read again whole.
    func decompose<U: FieldUnit>(_ chars: [U], resuming d: inout Decomposition<U>, sharing shared: Int) {
        guard blocks.isEmpty, d.cuts.isEmpty, d.outputStart.isEmpty, shared <= d.trace.count,
            shared <= chars.count
        else {
            d = decompose(chars)
            return
        }
        if shared == chars.count, shared == d.trace.count { return }
        let cellsKept = shared == 0 ? 0 : Int(d.trace[shared - 1].cells)
        if d.trace.count > shared { d.trace.removeLast(d.trace.count - shared) }
        if d.layout.cells.count > cellsKept { d.layout.cells.removeLast(d.layout.cells.count - cellsKept) }
        continueReading(chars, from: shared, carets: false, runs: nil, tracing: true, into: &d)
    }

    /// Reads `chars[start...]` into `d`, which holds the reading of `chars[..<start]` with nothing cut
    /// or refused (for `start` 0, an empty reading).
    private func continueReading<U: FieldUnit>(
        _ chars: [U], from start: Int, carets: Bool, runs: RefusedRuns?, tracing: Bool,
        into d: inout Decomposition<U>
    ) {
        var cells: [Cell<U>] = []
        swap(&cells, &d.layout.cells)
        var rejected: [U] = [], overflow: [U] = []
        var cursor = start == 0 ? 0 : Int(d.trace[start - 1].cursor)
        var i = start
        var run = RefusedRun()
        while i < chars.count, !isFull(cursor: cursor, cells: cells.count) {
            let c = chars[i]
            i += 1
            let before = cells.count
            let step = self.step(c, cursor: &cursor, into: &cells, strict: false)
            if carets {
                switch step {
                case .cell: d.outputStart.append(literalsBefore[cells[before].element] + before)
                case .literal: d.outputStart.append(literalsBefore[cursor - 1] + before)
                case .rejected, .overflow: d.outputStart.append(-1)
                }
            }
            switch step {
            case .rejected: rejected.append(c)
            case .overflow: overflow.append(c)
            case .cell, .literal: break
            }
            if tracing { d.trace.append((Int32(cursor), Int32(cells.count))) }
            if let runs, let end = run.next(step, c, at: i - 1, cursor: cursor, in: self, runs: runs) {
                // Refused unread, as the program that found the run refused them: nothing moves.
                rejected.append(contentsOf: chars[i..<end])
                // (`Array(repeating:)`: appending a `repeatElement` costs a hundred times more in a debug build.)
                if tracing {
                    let entry = (cursor: Int32(cursor), cells: Int32(cells.count))
                    d.trace.append(contentsOf: Array(repeating: entry, count: end - i))
                }
                if carets { d.outputStart.append(contentsOf: Array(repeating: -1, count: end - i)) }
                i = end
            }
        }
        if let runs { run.ended(at: i, in: self, runs: runs) }
        d.cuts = Cuts(rejectedUnits: rejected, overflowUnits: overflow)
        if i < chars.count { d.cuts.leave(chars[i...], for: self) }
        swap(&cells, &d.layout.cells)
        d.layout.end = cursor
    }

    /// The formatted text's offset for an offset in the text that was read, with forward
    /// gravity: a caret moves over the literals that appear at its place.
    func carriedOffset<U>(_ offset: Int, through d: Decomposition<U>, textLength: Int) -> Int {
        var i = offset
        while i < d.outputStart.count {
            WorkCounter.count()
            if d.outputStart[i] >= 0 { return d.outputStart[i] }
            i += 1
        }
        return textLength
    }

    /// The outcome of one edit on this program.
    struct EditOutcome<U: FieldUnit> {
        var layout: Layout<U>
        var caret: Int
        /// What the edit refused and cut; `sorted()` once the outcome is chosen.
        var cuts = Cuts<U>()
        /// Nothing was read in or deleted: the caller keeps the field as it was.
        var refused = false
        /// The edit in entered characters, so other programs can replay it: the cells of the
        /// text before the edit, how many stay before the edit point, where the ones after it
        /// start, and what was inserted.
        var original: [Cell<U>] = []
        var keptBefore = 0
        var afterFrom = 0
        var inserted: [U]? = nil

        var before: ArraySlice<Cell<U>> { original[0..<keptBefore] }
        var after: ArraySlice<Cell<U>> { original[afterFrom...] }
    }

    /// Applies `edit` to a field whose text is `chars`, read into `d`.
    /// - Parameters:
    ///   - inserted: the edit's text in units (empty for a deletion).
    ///   - spare: an array to build the new cells in, emptied first (its room is what is reused).
    ///   - replayable: the outcome keeps the edit in entered characters (`original`, `inserted`) for another program
    ///     to replay; a mask of one fixed program never replays, and keeping them costs references on every key.
    ///   - runs: the runs of `inserted` other programs refused (`RefusedRuns`), for the alternatives of a `oneOf`.
    func edit<U: FieldUnit>(
        _ edit: FieldEdit, inserted: [U], chars: [U], decomposition d: Decomposition<U>,
        cells spare: consuming [Cell<U>] = [], replayable: Bool = true, runs: RefusedRuns? = nil
    ) -> EditOutcome<U> {
        let s = min(max(edit.range.lowerBound, 0), chars.count)
        let e = min(max(edit.range.upperBound, s), chars.count)
        let cells = d.layout.cells
        let k0 = d.cellCount(before: s)
        let k1 = d.cellCount(before: e)

        if !inserted.isEmpty {
            // Room for what re-flows and what is read in, so appending never grows the array.
            var newCells = spare
            newCells.removeAll(keepingCapacity: true)
            // At least a whole field's room: a kept spare array then serves every keystroke to come.
            newCells.reserveCapacity(min(max(cells.count + inserted.count, elements.count + 1), Program.maximumCells))
            // From a buffer, copied at once (appending an array slice has a setup cost paid on every key).
            cells.withUnsafeBufferPointer { newCells.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<k0])) }
            // In an eager field the literals just before the caret appeared by themselves, so
            // reading starts before them: typing one of them steps over it, as pasting would. Not
            // when the caret stands inside such a run (a literal follows it): the person stepped
            // over the literals before it, which count as typed (`+7 (` eager: the first 7 typed is
            // the prefix and leaves the caret after it, the next is a digit).
            var from = s
            if eager, s == chars.count || d.cellCount(before: s + 1) > k0 {
                while from > 0, d.cellCount(before: from - 1) == k0 { from -= 1 }
                // Only literals that follow the previous cell directly appeared by themselves; a
                // literal reached by skipping an optional slot was typed and stays behind the caret.
                // (A `…` slot holding the previous cell is passed, as `settle` passes it.)
                let lastCell = k0 > 0 ? cells[k0 - 1].element : -1
                if !(d.cursor(at: from)..<d.cursor(at: s)).allSatisfy({ !elements[$0].isSlot || $0 == lastCell }) {
                    from = s
                }
            }
            let read = self.read(inserted, from: d.cursor(at: from), into: &newCells, runs: runs)
            // Built once, whole: the outcome is a large value, and each change to a copy of it costs.
            guard read.accepted else {
                return EditOutcome(
                    layout: d.layout, caret: e, cuts: read.cuts, refused: true,
                    original: replayable ? cells : [], keptBefore: k0, afterFrom: k1, inserted: inserted)
            }
            // Overwrite: typed or pasted at a caret, the text replaces as many entered characters after the caret
            // as it brought in; over a selection it replaces the selection only, as insertion does.
            let replaced = overwrite && s == e ? min(newCells.count - k0, cells.count - k1) : 0
            let k1 = k1 + replaced
            var outcome = EditOutcome(
                layout: Layout(), caret: e, cuts: read.cuts, original: replayable ? cells : [],
                keptBefore: k0, afterFrom: k1, inserted: replayable ? inserted : [])
            if k1 == cells.count {
                // Typing at the end: nothing re-flows.
                reflow(EmptyCollection<U>(), after: read, into: &newCells, outcome: &outcome)
            } else {
                reflow(cells[k1...].lazy.map { $0.char }, after: read, into: &newCells, outcome: &outcome)
            }
            return outcome
        }

        // A deletion.
        var outcome = EditOutcome(layout: d.layout, caret: e)
        if replayable { outcome.original = cells }
        var removeFrom = k0, removeTo = k1
        if k1 == k0 {
            if s == e {
                outcome.refused = true
                return outcome
            }
            if k0 == cells.count && !eager {
                // Only trailing literals of a lazy field: they would not come back, so they go.
                var layout = Layout(cells: cells, end: d.cursor(at: s))
                settle(&layout)
                outcome.layout = layout
                outcome.caret = s
                outcome.keptBefore = cells.count
                outcome.afterFrom = cells.count
                return outcome
            }
            // Only separators: delete the entered character beside them, so the key never sticks.
            switch edit.direction {
            case .backward:
                // Nothing to delete before the range: the caret goes where the deletion rule puts it
                // (at the first slot: a backspace never stops inside the leading literals).
                guard k0 > 0 else {
                    outcome.refused = true
                    outcome.caret = caretForDeletion(0, d.layout)
                    return outcome
                }
                removeFrom = k0 - 1
                removeTo = k0
            case .forward:
                // Nothing to delete after the range: a Delete that does nothing leaves the caret where
                // it was, before the range.
                guard k1 < cells.count else {
                    outcome.refused = true
                    outcome.caret = s
                    return outcome
                }
                removeFrom = k1
                removeTo = k1 + 1
            }
        }
        if !blocks.isEmpty { widenToWholeWords(&removeFrom, &removeTo, cells) }
        var newCells = spare
        newCells.removeAll(keepingCapacity: true)
        newCells.reserveCapacity(min(max(cells.count, elements.count + 1), Program.maximumCells))
        newCells.append(contentsOf: cells[0..<removeFrom])
        let start = removeFrom == 0 ? 0 : cursor(after: cells[removeFrom - 1].element)
        outcome.keptBefore = removeFrom
        outcome.afterFrom = removeTo
        let placed = place(cells[removeTo...].lazy.map { $0.char }, from: start, into: &newCells)
        outcome.cuts = Cuts(overflow: placed.overflow)
        var layout = Layout(cells: newCells, end: 0)
        settle(&layout)
        outcome.layout = layout
        outcome.caret = caretForDeletion(removeFrom, layout)
        return outcome
    }

    /// Widens a deletion of the cells `from..<to` to the whole word of each enum block it touches
    /// that holds a whole word: the word is one unit (`10:30 PM` with a Backspace gives `10:30`),
    /// while a word still being typed loses one letter at a time (`10:30 P` gives `10:30 `).
    private func widenToWholeWords<U: FieldUnit>(_ from: inout Int, _ to: inout Int, _ cells: [Cell<U>]) {
        /// The cells of the block holding cell `k`, when it is an enum block holding a whole word.
        func wholeWord(at k: Int) -> Range<Int>? {
            let b = Int(elements[cells[k].element].block)
            guard b >= 0, case .words = blocks[b].rule else { return nil }
            let block = blocks[b]
            var first = k, last = k + 1
            while first > 0, elements[cells[first - 1].element].block == Int32(b),
                cells[first - 1].element >= block.start
            { first -= 1 }
            while last < cells.count, elements[cells[last].element].block == Int32(b),
                cells[last].element < block.end
            { last += 1 }
            // The same block name may stand twice in a row: keep to this occurrence's slots.
            guard cells[first].element == block.start else { return nil }
            let typed = cells[first..<last].map { String($0.char.character).lowercased() }
            return block.folded.contains(typed) ? first..<last : nil
        }
        if from < to, let word = wholeWord(at: from) {
            from = min(from, word.lowerBound); to = max(to, word.upperBound)
        }
        if from < to, let word = wholeWord(at: to - 1) {
            from = min(from, word.lowerBound); to = max(to, word.upperBound)
        }
    }

    /// Replays an edit from its entered characters alone, in this program (another `oneOf`
    /// alternative, another card brand, a new mask).
    /// - Parameter runs: the runs of `inserted` other programs refused (`RefusedRuns`).
    func replay<U: FieldUnit, B: Collection, A: Collection>(
        before: B, inserted: [U]?, after: A, runs: RefusedRuns? = nil
    ) -> EditOutcome<U>
    where B.Element == U, A.Element == U {
        var cells: [Cell<U>] = []
        let start = place(before, from: 0, into: &cells)
        var outcome = EditOutcome<U>(layout: Layout(), caret: 0, cuts: Cuts(overflow: start.overflow))
        guard let inserted else {
            let keptBefore = cells.count
            let placed = place(after, from: start.cursor, into: &cells)
            outcome.cuts.cut(placed.overflow)
            var layout = Layout(cells: cells, end: 0)
            settle(&layout)
            outcome.layout = layout
            outcome.caret = caretForDeletion(keptBefore, layout)
            return outcome
        }
        let read = self.read(inserted, from: start.cursor, into: &cells, runs: runs)
        outcome.cuts.append(read.cuts)
        if !read.accepted { outcome.refused = true }
        reflow(after, after: read, into: &cells, outcome: &outcome)
        return outcome
    }

    /// After an insertion was read in up to `cursor`: the entered characters behind it re-flow,
    /// and the caret lands right after what was read in.
    private func reflow<U: FieldUnit, C: Collection>(
        _ after: C, after read: ReadOutcome<U>, into cells: inout [Cell<U>],
        outcome: inout EditOutcome<U>
    ) where C.Element == U {
        let caretCells = cells.count
        outcome.cuts.cut(place(after, from: read.cursor, into: &cells).overflow)
        var layout = Layout(cells: cells, end: read.cursor)
        settle(&layout)
        outcome.layout = layout
        outcome.caret = caretAfterReading(
            cursor: read.cursor, cellCount: caretCells, layout: layout,
            steppedOverLiteral: read.endedOnLiteral)
    }

    /// Right after the last character read in; with `eager`, past the literals that follow, unless
    /// that character was consumed as a literal: the caret then stays right after it, so that what
    /// the person stepped over counts as typed for the next key.
    private func caretAfterReading<U>(cursor: Int, cellCount: Int, layout: Layout<U>, steppedOverLiteral: Bool) -> Int {
        var caret = textOffset(cursor: cursor, cellCount: cellCount)
        if eager, !steppedOverLiteral {
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
    func caretForDeletion<U>(_ k: Int, _ layout: Layout<U>) -> Int {
        if k > 0 { return textOffset(afterCell: k - 1, in: layout.cells) }
        let shown = literalsBefore[min(limit(of: layout), elements.count)] + layout.cells.count
        return min(literalsBefore[firstSlot], shown)
    }
}
