/// A block of a compiled mask: consecutive slots whose characters together must make one value of
/// a rule (a number in a range, one word of a list), as `{"pattern": "MM/YY", "blocks": {...}}` names them.
///
/// Blocks are a slot kind of the program: each of their slots is an ordinary element (digits for a
/// range, the words' class for a list) that points at its block, so every editing rule of
/// `Protocol/engine.md` applies to them unchanged. The rule is enforced only where text is *read*
/// (typing, pasting, formatting): a character that cannot lead to a value of the rule is refused
/// there. Text already in the field (read back before an edit) and characters re-flowed behind an
/// edit are taken by class alone, so an edit elsewhere never deletes them; a complete value that
/// breaks the rule is reported in `problems` instead.
package struct Block: Hashable, Sendable {
    enum Rule: Hashable, Sendable {
        /// Digits as wide as `max` (leading zeros shown); the value lies in `min...max`.
        case range(min: Int, max: Int)
        /// One of the words, typed letter by letter, case-insensitively, stored as the word spells it.
        case words([[Character]])
    }

    /// The part a block plays in a calendar date, whose ranges follow each other (the `date` preset).
    enum CalendarRole: Hashable, Sendable {
        case year, month, day
    }

    var rule: Rule
    /// A first digit that can only make a shorter value is padded with zeros (`4` in 01-12 gives `04`),
    /// and so is a partial value when the literal after the block is typed (`1/` gives `01/`).
    var pad: Bool
    /// How problems name the block: the pattern's name for it, or `month`, `hour`.
    var label: String
    /// The element index of the block's first slot.
    var start: Int
    /// How many slots the block has.
    var width: Int
    var calendar: CalendarRole? = nil
    /// The part the block plays in a moment whose `bounds` it is held to (the date and time presets).
    var part: MomentPart? = nil
    var bounds: MomentBounds? = nil
    /// A word the typed letters name alone is completed at once (`p` gives `PM`).
    var completesWord = false

    /// The words folded for comparison, position by position (empty for a range).
    let folded: [[String]]

    init(rule: Rule, pad: Bool, label: String, start: Int, width: Int, calendar: CalendarRole? = nil) {
        self.rule = rule
        self.pad = pad
        self.label = label
        self.start = start
        self.width = width
        self.calendar = calendar
        if case .words(let words) = rule {
            folded = words.map { $0.map { String($0).lowercased() } }
        } else {
            folded = []
        }
    }

    var end: Int { start + width }

    /// The words, as one sentence's list: `AM, PM`.
    var wordList: String {
        guard case .words(let words) = rule else { return "" }
        return words.map { String($0) }.joined(separator: ", ")
    }

    /// `n` written with the block's width of digits (`4` in 01-12 is `04`).
    func padded(_ n: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// The most digits a range block may have: its values must fit an `Int` with room to spare.
    static let maximumRangeDigits = 15

    /// The slot class of a list of words: the narrowest that holds every character of them.
    static func slotClass(of words: [[Character]]) -> SlotClass {
        let chars = words.joined()
        if chars.allSatisfy({ $0.isLetter }) { return .letter }
        if chars.allSatisfy({ asciiDigit($0) == $0 }) { return .digit }
        if chars.allSatisfy({ $0.isLetter || asciiDigit($0) == $0 }) { return .alnum }
        return .any
    }
}

/// 10^n for the small n of a block's width.
@inline(__always)
func powerOfTen(_ n: Int) -> Int {
    var p = 1
    for _ in 0..<n { p *= 10 }
    return p
}

// MARK: - Reading into a block

extension Program {
    /// What reading one character at a block's slot did.
    enum BlockStep {
        /// It filled the slot (after any padding zeros); the cursor goes to `cursor`.
        case cell(cursor: Int)
        /// It was the literal after the block, consumed after padding the block's value.
        case literal(cursor: Int)
        /// It fits the slot after the block, not the block: the block's value was padded; read it at `cursor`.
        case padded(cursor: Int)
        /// It cannot continue the block's value at an optional slot: try what follows.
        case skip
        /// It cannot continue the block's value.
        case refused
        /// Not the block's to decide: read it as the slot's class alone (text already in a field).
        case bySlotClass
    }

    /// Reads `c` at slot element `e` of block `b`, enforcing the block's rule when `strict` (typed or
    /// pasted text). Text already in a field only gets the literal after a partial range value padded
    /// (`4/25` is `04/25`): a text the engine rendered never has one (a range's slots are all required,
    /// so its literal shows only once the block is full), so formatting such a text changes nothing.
    ///
    /// The block's characters entered so far are the last cells (a block's required slots cannot be
    /// skipped, and its optional ones only come last). Costs O(width) for the block, plus the widths
    /// of the calendar blocks before it.
    func readIntoBlock<U: FieldUnit>(
        _ c: U, at e: Int, block b: Int, slotClass: SlotClass,
        into cells: inout [Cell<U>], strict: Bool
    ) -> BlockStep {
        let block = blocks[b]
        if !strict {
            guard case .range = block.rule, block.pad, fitted(c, slotClass) == nil else { return .bySlotClass }
        }
        var p = 0  // how many of the block's slots are filled
        while p < cells.count, cells[cells.count - 1 - p].element >= block.start { p += 1 }
        let optional = elements[e].isOptional
        switch block.rule {
        case .words(let words):
            guard let typed = c.character.lowercasedString else { return optional ? .skip : .refused }
            for (w, word) in block.folded.enumerated() where word.count > p && word[p] == typed {
                var matches = true
                for i in 0..<p where block.folded[w][i] != cells[cells.count - p + i].char.character.lowercasedString {
                    matches = false
                    break
                }
                guard matches, let stored = U.unit(words[w][p]) else { continue }
                if p == 0, block.bounds != nil, !boundsAdmit(w...w, block: block, cells: cells, skipping: 0) {
                    continue
                }
                cells.append(Cell(char: stored, element: e))
                guard block.completesWord else { return .cell(cursor: e + 1) }
                return .cell(cursor: e + 1 + completeWord(block, typed: p + 1, into: &cells))
            }
            return optional ? .skip : .refused
        case .range:
            var prefix = 0
            for i in (cells.count - p)..<cells.count { prefix = prefix * 10 + (cells[i].char.digitValue ?? 0) }
            guard let stored = fitted(c, slotClass), let d = stored.digitValue else {
                // What follows the block, typed into a partial value, pads it: the literal after it (`1/` is
                // `01/`), or a character the slot after it takes (`1a` is `01a` in `[range][letter]`).
                let after = block.end
                guard block.pad, p > 0, after < elements.count,
                    rangeAllows(prefix, remaining: 0, block: block, cells: cells, prefixCount: p)
                else { return strict ? .refused : .bySlotClass }
                let slotAfter = elements[after].slotClass
                let literal = slotAfter == nil && c.matches(elements[after])
                guard literal || slotAfter.map({ fitted(c, $0) != nil }) == true
                else { return strict ? .refused : .bySlotClass }
                let digits = cells.suffix(p).map(\.char)
                cells.removeLast(p)
                for i in 0..<(block.width - p) { cells.append(Cell(char: U.zero, element: block.start + i)) }
                for (i, digit) in digits.enumerated() {
                    cells.append(Cell(char: digit, element: block.start + block.width - p + i))
                }
                return literal ? .literal(cursor: after + 1) : .padded(cursor: after)
            }
            let remaining = block.width - p - 1
            if rangeAllows(prefix * 10 + d, remaining: remaining, block: block, cells: cells, prefixCount: p) {
                cells.append(Cell(char: stored, element: e))
                return .cell(cursor: e + 1)
            }
            // A digit after zeros only (or first) that fits as a shorter value: pad it (`4` is `04`).
            guard block.pad, prefix == 0 else { return .refused }
            for zeros in stride(from: 1, through: remaining, by: 1)
            where rangeAllows(d, remaining: remaining - zeros, block: block, cells: cells, prefixCount: p) {
                for i in 0..<zeros { cells.append(Cell(char: U.zero, element: e + i)) }
                cells.append(Cell(char: stored, element: e + zeros))
                return .cell(cursor: e + zeros + 1)
            }
            return .refused
        }
    }

    /// Completes the word of `block` whose first `typed` letters (the last cells) name it alone: appends its
    /// other letters. - Returns: how many it appended.
    private func completeWord<U: FieldUnit>(_ block: Block, typed: Int, into cells: inout [Cell<U>]) -> Int {
        guard case .words(let words) = block.rule else { return 0 }
        let entered = cells.suffix(typed).map { $0.char.character.lowercasedString }
        let named = block.folded.indices.filter { w in
            block.folded[w].count >= typed && zip(block.folded[w], entered).allSatisfy { $0 == $1 }
        }
        guard named.count == 1 else { return 0 }
        let word = words[named[0]]
        var added = 0
        for i in typed..<word.count {
            guard let stored = U.unit(word[i]) else { break }
            cells.append(Cell(char: stored, element: block.start + i))
            added += 1
        }
        return added
    }

    /// Whether `prefix`, followed by `remaining` more digits, can still make a value the block allows,
    /// given the calendar blocks before it.
    private func rangeAllows<U>(_ prefix: Int, remaining: Int, block: Block, cells: [Cell<U>], prefixCount: Int) -> Bool
    {
        guard case .range(let low, var high) = block.rule else { return false }
        let scale = powerOfTen(remaining)
        let from = prefix * scale, to = from + scale - 1
        var month: Int? = nil, day: Int? = nil, year: Int? = nil
        if block.calendar != nil {
            (year, month, day) = calendarValues(before: block, cells: cells, skipping: prefixCount)
        }
        if block.calendar == .day, let month {
            // The day's range follows the month, and February the year, once they are typed.
            high = Checks.daysIn(month: month, year: year ?? 2000)
        }
        let a = max(low, from), b = min(high, to)
        guard a <= b else { return false }
        if block.bounds != nil, !boundsAdmit(a...b, block: block, cells: cells, skipping: prefixCount) { return false }
        if block.calendar == .month, let day {
            // Typed after the day (dmy): only months that have that day.
            return (a...b).contains { Checks.daysIn(month: $0, year: year ?? 2000) >= day }
        }
        if block.calendar == .year, remaining == 0, let month, let day {
            // Typed after the day and month: 29 February needs a leap year.
            return Checks.daysIn(month: month, year: prefix) >= day
        }
        return true
    }

    /// The values of the calendar blocks that stand complete before `block`, read from the end of `cells`
    /// (past the `skipping` cells of the block itself).
    private func calendarValues<U>(before block: Block, cells: [Cell<U>], skipping: Int)
        -> (year: Int?, month: Int?, day: Int?)
    {
        var values: (year: Int?, month: Int?, day: Int?) = (nil, nil, nil)
        var i = cells.count - skipping - 1
        for other in blocks.reversed() where other.start < block.start {
            guard let role = other.calendar else { continue }
            while i >= 0, cells[i].element >= other.end { i -= 1 }
            var value = 0, count = 0, scale = 1
            while i >= 0, cells[i].element >= other.start {
                value += (cells[i].char.digitValue ?? 0) * scale
                scale *= 10
                count += 1
                i -= 1
            }
            guard count == other.width else { continue }
            switch role {
            case .year: values.year = value
            case .month: values.month = value
            case .day: values.day = value
            }
        }
        return values
    }
}

// MARK: - Problems

extension Program {
    /// What the blocks of a complete field say about their values: a range value outside its range, a
    /// word not in its list, a date that does not exist (the values typed in were checked as they came;
    /// these come from re-flow or from text read back as it stood).
    func blockProblems<U>(_ layout: Layout<U>) -> [String] {
        guard !blocks.isEmpty else { return [] }
        var problems: [String] = []
        var calendar: (year: Int?, month: Int?, day: Int?) = (nil, nil, nil)
        var ci = 0
        for block in blocks {
            while ci < layout.cells.count, layout.cells[ci].element < block.start { ci += 1 }
            var chars: [U] = []
            while ci < layout.cells.count, layout.cells[ci].element < block.end {
                chars.append(layout.cells[ci].char)
                ci += 1
            }
            switch block.rule {
            case .range(let low, let high):
                guard chars.count == block.width else { continue }
                let value = chars.reduce(0) { $0 * 10 + ($1.digitValue ?? 0) }
                switch block.calendar {
                case .year?: calendar.year = value
                case .month?: calendar.month = value
                case .day?: calendar.day = value
                case nil:
                    if value < low || value > high {
                        problems.append("\(block.label) must be \(block.padded(low)) to \(block.padded(high))")
                    }
                }
            case .words:
                let typed = chars.map { $0.character.lowercasedString ?? "" }
                guard !typed.isEmpty else { continue }
                if !block.folded.contains(typed) {
                    problems.append("\(block.label) must be one of \(block.wordList)")
                }
            }
        }
        if let year = calendar.year, let month = calendar.month, let day = calendar.day,
            let problem = Checks.dayProblem(year: year, month: month, day: day)
        {
            problems.append(problem)
        } else if let problem = boundsProblem(layout) {
            problems.append(problem)
        }
        return problems
    }
}

extension Character {
    /// The character lower-cased for case-insensitive comparison; nil for a line break.
    var lowercasedString: String? { isNewline ? nil : String(self).lowercased() }
}
