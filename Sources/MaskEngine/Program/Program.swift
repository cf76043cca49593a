/// A mask compiled to a flat program of elements, plus the options that shape its output.
///
/// The program is immutable and shared. A field's state is a list of `Cell`s (the entered
/// characters and the element each sits in) and an end cursor; its text is always derived
/// from that state by `render`. Every loop here is linear in the field's length.
final class Program: @unchecked Sendable {
    let elements: [Element]
    let eager: Bool
    let letterCase: LetterCase?
    let placeholderChar: Character
    /// The canonical bracket notation.
    let notation: String
    /// `literalsBefore[e]`: how many literal elements stand before element `e`; with the cell
    /// count it turns a mask cursor into a text offset without rendering.
    let literalsBefore: [Int]
    /// The first slot's element index (`elements.count` when there is none).
    let firstSlot: Int
    /// Classes of all slots, to tell a character cut at the mask's end (overflow) from one that
    /// fits nowhere (rejected).
    private let slotClasses: [SlotClass]

    init(elements: [Element], eager: Bool, letterCase: LetterCase?, placeholderChar: Character) {
        self.elements = elements
        self.eager = eager
        self.letterCase = letterCase
        self.placeholderChar = placeholderChar
        self.notation = Program.canonicalNotation(elements)
        var before = [Int](repeating: 0, count: elements.count + 1)
        var count = 0
        for (i, element) in elements.enumerated() {
            before[i] = count
            if !element.isSlot { count += 1 }
        }
        before[elements.count] = count
        literalsBefore = before
        firstSlot = elements.firstIndex(where: \.isSlot) ?? elements.count
        var classes: [SlotClass] = []
        for element in elements {
            if let c = element.slotClass, !classes.contains(c) { classes.append(c) }
        }
        slotClasses = classes
    }

    /// The cursor after an entered character in element `e`: a `…` slot keeps it.
    @inline(__always)
    func cursor(after e: Int) -> Int { elements[e].repeats ? e : e + 1 }

    /// Whether `c` would fit some slot of this mask (it is then overflow, not rejected, when cut).
    func fitsSomeSlot(_ c: Character) -> Bool {
        slotClasses.contains { $0.fit(c, letterCase: letterCase) != nil }
    }
}

/// One entered character and the element it fills.
struct Cell: Hashable, Sendable {
    var char: Character
    var element: Int
}

/// A field's state: the entered characters and where the text ends.
///
/// `end` is the mask cursor at the end of the text: literals between the last cell and `end`
/// are shown (they were typed, or the mask ran out); `Program.settle` applies `eager`.
struct Layout: Hashable, Sendable {
    var cells: [Cell] = []
    var end: Int = 0
}

// MARK: - Reading and placing

extension Program {
    /// What reading a run of characters did.
    struct ReadOutcome {
        /// The mask cursor after the last character read in.
        var cursor: Int
        /// Whether anything was read in (a slot filled, a literal consumed, or literals shown
        /// because the mask ran out).
        var accepted = false
        var rejected = ""
        var overflow = ""
    }

    /// Reads `chars` into `cells` from mask cursor `start`, as typing does.
    ///
    /// At a literal, an equal character is consumed; any other makes the literal appear and is
    /// tried on what follows. At a slot, a fitting character fills it; an optional slot it does
    /// not fit is skipped; a required one drops it into `rejected`. Past the mask's end a
    /// character goes to `overflow`, and the literals it walked over stay shown.
    /// - Parameter sourceIndex: called with each character's index in `chars` and the cell
    ///   index it became, or -1 for a consumed literal, so callers can map positions.
    func read<S: Sequence>(_ chars: S, from start: Int, into cells: inout [Cell],
                           sourceIndex: ((Int, Int) -> Void)? = nil) -> ReadOutcome where S.Element == Character {
        var outcome = ReadOutcome(cursor: start)
        let count = elements.count
        var index = 0
        for raw in chars {
            defer { index += 1 }
            let c = normalizedForLiteral(raw)
            var e = outcome.cursor
            var walkedLiteral = false
            while true {
                if e >= count {
                    if fitsSomeSlot(c) {
                        outcome.overflow.append(raw)
                        if walkedLiteral {
                            outcome.cursor = e
                            outcome.accepted = true
                        }
                    } else {
                        outcome.rejected.append(raw)
                    }
                    break
                }
                let element = elements[e]
                switch element.kind {
                case .literal(let literal):
                    if c == literal {
                        outcome.cursor = e + 1
                        outcome.accepted = true
                        sourceIndex?(index, -1)
                    } else {
                        walkedLiteral = true
                        e += 1
                        continue
                    }
                case .slot(let slotClass):
                    if let stored = slotClass.fit(c, letterCase: letterCase) {
                        sourceIndex?(index, cells.count)
                        cells.append(Cell(char: stored, element: e))
                        outcome.cursor = cursor(after: e)
                        outcome.accepted = true
                    } else if element.isOptional {
                        e += 1
                        continue
                    } else {
                        outcome.rejected.append(raw)
                    }
                }
                break
            }
        }
        return outcome
    }

    /// Places already-entered characters into the slots from `start`, as re-flow does.
    ///
    /// Unlike `read`, a character is never matched against a literal: literals appear by
    /// themselves. A character that fits no slot left is cut into the returned overflow.
    /// - Returns: the cursor after the last placed character, and what was cut.
    func place<S: Sequence>(_ chars: S, from start: Int, into cells: inout [Cell]) -> (cursor: Int, overflow: String)
    where S.Element == Character {
        var cursor = start
        var overflow = ""
        let count = elements.count
        for c in chars {
            var e = cursor
            var placed = false
            while e < count {
                let element = elements[e]
                guard case .slot(let slotClass) = element.kind else {
                    e += 1
                    continue
                }
                if let stored = slotClass.fit(c, letterCase: letterCase) {
                    cells.append(Cell(char: stored, element: e))
                    cursor = self.cursor(after: e)
                    placed = true
                    break
                }
                if element.isOptional {
                    e += 1
                    continue
                }
                break
            }
            if !placed { overflow.append(c) }
        }
        return (cursor, overflow)
    }

    /// Applies `eager` and drops a cursor that points inside the cells.
    func settle(_ layout: inout Layout) {
        if let last = layout.cells.last {
            layout.end = max(layout.end, last.element + 1)
        }
        if eager {
            while layout.end < elements.count, !elements[layout.end].isSlot {
                layout.end += 1
            }
        }
    }

    /// The element just past the text: everything before it is shown.
    func limit(of layout: Layout) -> Int {
        max(layout.end, (layout.cells.last?.element ?? -1) + 1)
    }

    /// The text offset of a mask cursor that has `cellCount` cells before it.
    @inline(__always)
    func textOffset(cursor: Int, cellCount: Int) -> Int {
        literalsBefore[min(cursor, elements.count)] + cellCount
    }

    /// The text offset just after cell `index`.
    @inline(__always)
    func textOffset(afterCell index: Int, in cells: [Cell]) -> Int {
        literalsBefore[cells[index].element] + index + 1
    }
}

// MARK: - Output

extension Program {
    /// The text of a layout.
    func render(_ layout: Layout) -> String {
        var text = ""
        let limit = limit(of: layout)
        var ci = 0
        let cells = layout.cells
        for e in 0..<limit {
            switch elements[e].kind {
            case .literal(let c): text.append(c)
            case .slot:
                while ci < cells.count, cells[ci].element == e {
                    text.append(cells[ci].char)
                    ci += 1
                }
            }
        }
        return text
    }

    /// The extracted value: entered characters plus the `{}` literals shown.
    func value(of layout: Layout) -> String {
        var value = ""
        let limit = limit(of: layout)
        var ci = 0
        let cells = layout.cells
        for e in 0..<limit {
            let element = elements[e]
            switch element.kind {
            case .literal(let c):
                if element.isExtracted { value.append(c) }
            case .slot:
                while ci < cells.count, cells[ci].element == e {
                    value.append(cells[ci].char)
                    ci += 1
                }
            }
        }
        return value
    }

    /// How many required slots and `{}` literals are still to fill, and whether all are digits.
    func missing(in layout: Layout) -> (count: Int, allDigits: Bool) {
        var count = 0
        var allDigits = true
        for e in limit(of: layout)..<elements.count {
            let element = elements[e]
            if element.isRequiredSlot {
                count += 1
                if element.slotClass != .digit && element.slotClass != .digitX { allDigits = false }
            } else if element.isExtracted {
                count += 1
            }
        }
        return (count, allDigits)
    }

    /// What the next slot takes, or nil when no slot is left.
    func nextSlot(in layout: Layout) -> SlotKind? {
        if let last = layout.cells.last, elements[last.element].repeats {
            return elements[last.element].slotClass?.kind
        }
        for e in limit(of: layout)..<elements.count {
            if let c = elements[e].slotClass { return c.kind }
        }
        return nil
    }

    /// The tail still to fill: slots as the placeholder character, literals as themselves.
    func placeholder(of layout: Layout) -> String {
        var tail = ""
        for e in limit(of: layout)..<elements.count {
            let element = elements[e]
            switch element.kind {
            case .literal(let c): tail.append(c)
            case .slot: if !element.repeats { tail.append(placeholderChar) }
            }
        }
        return tail
    }
}
