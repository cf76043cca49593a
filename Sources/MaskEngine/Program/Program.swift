/// A mask compiled to a flat program of elements, plus the options that shape its output.
///
/// The program is immutable and shared. A field's state is a list of `Cell`s (the entered
/// characters and the element each sits in) and an end cursor; its text is always derived
/// from that state by `render`. Every loop here is linear in the field's length, and generic
/// over the unit of text (`FieldUnit`) so ASCII fields run over bytes.
package final class Program: @unchecked Sendable {
    let elements: [Element]
    let eager: Bool
    let letterCase: LetterCase?
    /// A character typed at a caret replaces the entered character at or after it (`Protocol/engine.md`, modes).
    let overwrite: Bool
    /// The mask's own slot classes (`SlotClass.defined(i)` is `definitions[i]`), and what each stores for an
    /// ASCII byte (0: nothing): definition `i`'s byte `b` at `i * 128 + b`, in one array (an array of arrays
    /// retained the inner one on every character read).
    let definitions: [SlotDefinition]
    private let definedASCII: [UInt8]
    /// Slots store ASCII only: a character whose stored form is not ASCII fits no slot (the IBAN,
    /// whose letters are A-Z; digits of other scripts still become ASCII digits).
    let asciiOnly: Bool
    let placeholderChar: Character
    /// Literals after the last entered character show only when `eager`: a right-to-left mask's reversed
    /// program, whose trailing literals are the leading ones of the text, which a person never types after
    /// the characters they lead (so typing and pasting give the same field).
    let showsOnlyEagerTrailingLiterals: Bool
    /// The canonical bracket notation.
    let notation: String
    /// `literalsBefore[e]`: how many literal elements stand before element `e`; with the cell
    /// count it turns a mask cursor into a text offset without rendering.
    let literalsBefore: [Int]
    /// The first slot's element index (`elements.count` when there is none).
    let firstSlot: Int
    /// The `…` slot's element index, if the mask has one.
    let repeatingSlot: Int?
    /// Only literals follow the `…` slot (a unit such as ` kg`): `eager` shows them. Slots after a
    /// `…` are never reached, so then nothing after it shows.
    let onlyLiteralsAfterRepeat: Bool
    /// The elements from here on are never reached: those after a `…` slot that slots follow
    /// (`[0…][AAA]`, as RedMadRobot compiles it); `elements.count` otherwise.
    let reachableEnd: Int
    /// Whether every literal (and every word of an enum block) is one ASCII byte, so ASCII text can
    /// run on the byte path.
    let asciiLiterals: Bool
    /// The blocks (range and enum) the slots point at, in element order.
    let blocks: [Block]
    /// A text rendered from a layout that fills every slot before its end reads back element by element: its
    /// character `i` is element `i` (one ASCII byte per literal, no `\r` to join a cluster, one cell per slot, no
    /// `…` slot, no block to pad), so the reading's trace is known without reading (`Decomposition.byElement`).
    let readsRenderedTextByElement: Bool
    /// The best a reading of a text can reach, for choosing among a `oneOf`'s alternatives.
    let readingBound: ReadingBound
    /// What reading (`step`, `readRecordingNothing`), `place` and `cursor(after:)` ask of each element, in an array of
    /// plain values: reading an `Element` copies its literal `Character` (a retain and a release) every time.
    let slotInfo: [SlotInfo]

    struct SlotInfo {
        /// nil for a literal.
        var slotClass: SlotClass?
        /// An ASCII literal's byte (`Element.literalByte`), which the byte path compares without copying the element.
        var literalByte: UInt8
        var isOptional: Bool
        var repeats: Bool
        /// The block the slot belongs to, or -1.
        var block: Int32
    }
    /// Classes of all slots, to tell a character cut at the mask's end (overflow) from one that
    /// fits nowhere (rejected).
    private let slotClasses: [SlotClass]
    /// `fitsSomeSlot` of each ASCII byte, looked up on the byte path; and of every byte as 1 or 0, which
    /// sorts the rest of a long paste (`sortUnread`).
    private let bytesFittingSomeSlot: [Bool]
    private let fitsByte: [UInt8]
    /// The UTF-8 bytes of every literal element, in element order, and of every `{}` literal: element `e`'s
    /// are those from `literalUTF8Before[e]` (`extractedUTF8Before[e]`) to the next element's, so the literals
    /// between two cells are one run to copy.
    private let literalUTF8: [UInt8]
    private let extractedUTF8: [UInt8]
    /// The problems list for each count of missing slots, built once.
    private let missingProblems: [[String]]
    /// For each element index `e`, the UTF-8 length of the literals before it, and of the
    /// value literals before it: render sizes its strings exactly.
    private let literalUTF8Before: [Int]
    private let extractedUTF8Before: [Int]
    /// For each element index `e` as the end of a text: what is still missing after it, the
    /// next slot's kind, and the placeholder tail. Fixed per mask, so a keystroke only looks up.
    private let missingFrom: [Int]
    private let nextFrom: [SlotKind?]
    private let placeholderFrom: [String]

    init(
        elements: [Element], eager: Bool, letterCase: LetterCase?, placeholderChar: Character, asciiOnly: Bool = false,
        blocks: [Block] = [], overwrite: Bool = false, definitions: [SlotDefinition] = [],
        showsOnlyEagerTrailingLiterals: Bool = false
    ) {
        self.elements = elements
        self.showsOnlyEagerTrailingLiterals = showsOnlyEagerTrailingLiterals
        self.overwrite = overwrite
        self.definitions = definitions
        definedASCII = definitions.flatMap { $0.asciiTable(letterCase: letterCase) }
        self.blocks = blocks
        slotInfo = elements.map {
            SlotInfo(
                slotClass: $0.slotClass, literalByte: $0.literalByte, isOptional: $0.isOptional, repeats: $0.repeats,
                block: $0.block)
        }
        self.eager = eager
        self.letterCase = letterCase
        self.asciiOnly = asciiOnly
        self.placeholderChar = placeholderChar
        self.notation = Program.canonicalNotation(elements, definitions: definitions)
        var before = [Int](repeating: 0, count: elements.count + 1)
        var count = 0
        for (i, element) in elements.enumerated() {
            before[i] = count
            if !element.isSlot { count += 1 }
        }
        before[elements.count] = count
        literalsBefore = before
        firstSlot = elements.firstIndex(where: \.isSlot) ?? elements.count
        repeatingSlot = elements.firstIndex(where: \.repeats)
        onlyLiteralsAfterRepeat = repeatingSlot.map { r in elements[(r + 1)...].allSatisfy { !$0.isSlot } } ?? false
        asciiLiterals =
            elements.allSatisfy { $0.isSlot || $0.literalByte != 0 }
            && blocks.allSatisfy { block in
                guard case .words(let words) = block.rule else { return true }
                return words.joined().allSatisfy { $0.utf8.count == 1 && $0.isASCII }
            }
        readsRenderedTextByElement =
            asciiLiterals && blocks.isEmpty && repeatingSlot == nil
            && elements.count < Program.maximumCells && !elements.contains { $0.literal == "\r" }
        let definedASCII = definedASCII
        readingBound = ReadingBound(elements, hasBlocks: !blocks.isEmpty) { slotClass, byte in
            if case .defined(let i) = slotClass {
                let stored = Program.stored(in: definedASCII, definition: Int(i), byte: byte)
                return stored == 0 ? nil : stored
            }
            return byte.fit(slotClass, letterCase)
        }
        var classes: [SlotClass] = []
        for element in elements {
            if let c = element.slotClass, !classes.contains(c) { classes.append(c) }
        }
        slotClasses = classes
        let fitting = (0..<128).map { b in
            classes.contains { slotClass in
                if case .defined(let i) = slotClass {
                    return Program.stored(in: definedASCII, definition: Int(i), byte: UInt8(b)) != 0
                }
                return UInt8(b).fit(slotClass, letterCase) != nil
            }
        }
        bytesFittingSomeSlot = fitting
        // The byte path never holds a byte over 0x7F; the table covers them so that no lookup needs a check.
        fitsByte = (0..<256).map { $0 < 128 && fitting[$0] ? 1 : 0 }
        let literalBytes = elements.map { element in element.literal.map { Array($0.utf8) } ?? [] }
        var utf8Before = [0], extractedBefore = [0]
        var flat: [UInt8] = [], extracted: [UInt8] = []
        for (element, bytes) in zip(elements, literalBytes) {
            utf8Before.append(utf8Before.last! + bytes.count)
            extractedBefore.append(extractedBefore.last! + (element.isExtracted ? bytes.count : 0))
            flat += bytes
            if element.isExtracted { extracted += bytes }
        }
        literalUTF8Before = utf8Before
        extractedUTF8Before = extractedBefore
        literalUTF8 = flat
        extractedUTF8 = extracted
        var missing = [Int](repeating: 0, count: elements.count + 1)
        var next = [SlotKind?](repeating: nil, count: elements.count + 1)
        var reached = elements.count
        if let r = repeatingSlot, !onlyLiteralsAfterRepeat { reached = r + 1 }
        reachableEnd = reached
        // What follows a `…` slot with slots after it is never reached: it is neither missing nor drawn.
        for e in stride(from: reached - 1, through: 0, by: -1) {
            let element = elements[e]
            missing[e] = missing[e + 1] + ((element.isRequiredSlot || element.isExtracted) ? 1 : 0)
            next[e] = Program.kind(of: element.slotClass, definitions) ?? next[e + 1]
        }
        missingFrom = missing
        nextFrom = next
        // The placeholder drawn from each element on is a suffix of the one drawn from the first.
        var tails = [String](repeating: "", count: elements.count + 1)
        if elements.count <= Program.precomputedTailLimit {
            var drawn: [UInt8] = [], drawnFrom: [Int] = []
            let placeholderBytes = Array(placeholderChar.utf8)
            for e in 0..<reached {
                drawnFrom.append(drawn.count)
                if !elements[e].isSlot {
                    drawn += literalBytes[e]
                } else if !elements[e].repeats {
                    drawn += placeholderBytes
                }
            }
            for e in 0..<reached { tails[e] = String(decoding: drawn[drawnFrom[e]...], as: UTF8.self) }
        }
        placeholderFrom = tails
        let required = elements[..<reached].filter { $0.isRequiredSlot || $0.isExtracted }
        let digitsOnly = required.allSatisfy { Program.kind(of: $0.slotClass, definitions) == .digit }
        // One sentence per count, each made with one concatenation: every thread formatting lines compiles every
        // preset it meets.
        let one = digitsOnly ? " more digit needed" : " more character needed"
        let many = digitsOnly ? " more digits needed" : " more characters needed"
        missingProblems = (0...required.count).map { n in [String(n) + (n == 1 ? one : many)] }
    }

    /// The most characters a field holds, even with a `…` slot: a field is a line a person types,
    /// and every keystroke's cost (and a `regex` check) is linear in it.
    static let maximumCells = 4096

    /// The cursor after an entered character in element `e`: a `…` slot keeps it.
    @inline(__always)
    func cursor(after e: Int) -> Int { slotInfo[e].repeats ? e : e + 1 }

    /// Whether `c` would fit some slot of this mask (it is then overflow, not rejected, when cut).
    @inline(__always)
    func fitsSomeSlot<U: FieldUnit>(_ c: U) -> Bool {
        if let byte = c.asciiByte { return bytesFittingSomeSlot[Int(byte)] }
        return slotClasses.contains { fitted(c, $0) != nil }
    }

    /// What a slot of `slotClass` stores for `c`, or nil when it does not fit.
    @inline(__always)
    func fitted<U: FieldUnit>(_ c: U, _ slotClass: SlotClass) -> U? {
        if case .defined(let i) = slotClass { return fittedDefined(c, Int(i)) }
        guard let stored = c.fit(slotClass, letterCase) else { return nil }
        return !asciiOnly || stored.isASCII ? stored : nil
    }

    private func fittedDefined<U: FieldUnit>(_ c: U, _ i: Int) -> U? {
        if let byte = c.asciiByte {
            let stored = Program.stored(in: definedASCII, definition: i, byte: byte)
            return stored == 0 ? nil : U.ascii(stored)
        }
        guard let stored = definitions[i].fit(c.character, letterCase: letterCase) else { return nil }
        return !asciiOnly || stored.isASCII ? U.unit(stored) : nil
    }

    /// What definition `i` stores for the ASCII byte `byte` (0: nothing), in the flat `definedASCII`.
    @inline(__always)
    private static func stored(in definedASCII: [UInt8], definition i: Int, byte: UInt8) -> UInt8 {
        definedASCII[i &* 128 &+ Int(byte)]
    }

    /// The kind `next` reports for a slot of `slotClass`.
    static func kind(of slotClass: SlotClass, _ definitions: [SlotDefinition]) -> SlotKind {
        if case .defined(let i) = slotClass { return definitions[Int(i)].kind }
        return slotClass.kind
    }

    /// The kind of an element's slot class; nil for a literal. (Spelled out rather than as `Optional.map` with a
    /// closure: Swift 6.3.1's release optimizer crashes on that form here.)
    static func kind(of slotClass: SlotClass?, _ definitions: [SlotDefinition]) -> SlotKind? {
        guard let slotClass else { return nil }
        if case .defined(let i) = slotClass { return definitions[Int(i)].kind }
        return slotClass.kind
    }

    /// No `{}` literal is part of the value: it is the cells' characters.
    var extractsNoLiterals: Bool { extractedUTF8.isEmpty }

    /// The problems list for `count` missing required slots: one sentence.
    func missingProblem(_ count: Int) -> [String] { missingProblems[min(count, missingProblems.count - 1)] }
}

/// One entered character and the element it fills.
struct Cell<U: FieldUnit>: Hashable {
    var char: U
    var element: Int
}

extension Cell: Sendable where U: Sendable {}

/// A field's state: the entered characters and where the text ends.
///
/// `end` is the mask cursor at the end of the text: literals between the last cell and `end`
/// are shown (they were typed, or the mask ran out); `Program.settle` applies `eager`.
struct Layout<U: FieldUnit>: Hashable {
    var cells: [Cell<U>] = []
    var end: Int = 0
}

// MARK: - Reading and placing

extension Program {
    /// What reading one character did.
    enum Step {
        /// It filled a slot (the cell was appended).
        case cell
        /// It was consumed as the literal just before the new cursor.
        case literal
        /// It fits nowhere here.
        case rejected
        /// The mask ended; `walked` says whether literals were shown on the way.
        case overflow(walked: Bool)
    }

    /// Reads one character from mask cursor `cursor`, as typing does.
    ///
    /// At a literal, an equal character is consumed; any other makes the literal appear and is
    /// tried on what follows. At a slot, a fitting character fills it; an optional slot it does
    /// not fit is skipped; a required one refuses it. Past the mask's end the character is cut,
    /// and the literals it walked over stay shown.
    /// - Parameter strict: enforce the blocks' rules (reading typed or pasted text); false when text
    ///   already in a field is read, which takes it as it stands (but for padding a partial range value
    ///   when the literal after it comes: `4/25` is `04/25`).
    @inline(__always)
    func step<U: FieldUnit>(_ c: U, cursor: inout Int, into cells: inout [Cell<U>], strict: Bool = true) -> Step {
        if cells.count >= Program.maximumCells { return fitsSomeSlot(c) ? .overflow(walked: false) : .rejected }
        var e = cursor
        var walkedLiteral = false
        let count = elements.count
        WorkCounter.count()
        while e < count {
            WorkCounter.count()
            let info = slotInfo[e]
            switch info.slotClass {
            case nil:
                if c.matches(literalByte: info.literalByte, elements[e]) {
                    cursor = e + 1
                    return .literal
                }
                walkedLiteral = true
                e += 1
            case let slotClass?:
                if info.block >= 0 {
                    switch readIntoBlock(
                        c, at: e, block: Int(info.block), slotClass: slotClass, into: &cells,
                        strict: strict)
                    {
                    case .cell(let next):
                        cursor = next
                        return .cell
                    case .literal(let next):
                        cursor = next
                        return .literal
                    case .padded(let next):
                        e = next
                        continue
                    case .skip:
                        e += 1
                        continue
                    case .refused:
                        return .rejected
                    case .bySlotClass:
                        break
                    }
                }
                if let stored = fitted(c, slotClass) {
                    cells.append(Cell(char: stored, element: e))
                    cursor = info.repeats ? e : e + 1
                    return .cell
                }
                // Past the last optional slot the character walks to the mask's end (and is cut there, into
                // `overflow`, so nothing typed is lost silently); only slots after a `…`, never reached, refuse it.
                guard info.isOptional, e + 1 < reachableEnd || reachableEnd == count else { return .rejected }
                e += 1
            }
        }
        guard fitsSomeSlot(c) else { return .rejected }
        if walkedLiteral { cursor = e }
        return .overflow(walked: walkedLiteral)
    }

    /// What reading a run of characters did.
    struct ReadOutcome<U: FieldUnit> {
        /// The mask cursor after the last character read in.
        var cursor: Int
        /// Whether anything was read in (a slot filled, a literal consumed, or literals shown
        /// because the mask ran out).
        var accepted = false
        /// The last character read in was consumed as a literal (the person stepped over it).
        var endedOnLiteral = false
        /// What was refused and cut, the rest after reading stopped not yet sorted.
        var cuts = Cuts<U>()
    }

    /// Reads `chars` into `cells` from mask cursor `start`, one `step` each, until the mask has
    /// ended or the field is full; the rest is left in `cuts`, to be sorted into overflow and rejected.
    /// - Parameter runs: the runs of `chars` other programs refused (`RefusedRuns`), for the alternatives of a `oneOf`.
    func read<U: FieldUnit>(_ chars: [U], from start: Int, into cells: inout [Cell<U>], runs: RefusedRuns? = nil)
        -> ReadOutcome<U>
    {
        var outcome = ReadOutcome<U>(cursor: start)
        var rejected: [U] = [], overflow: [U] = []
        var i = 0
        var run = RefusedRun()
        while i < chars.count, !isFull(cursor: outcome.cursor, cells: cells.count) {
            let c = chars[i]
            i += 1
            let step = step(c, cursor: &outcome.cursor, into: &cells)
            switch step {
            case .cell:
                outcome.accepted = true
                outcome.endedOnLiteral = false
            case .literal:
                outcome.accepted = true
                outcome.endedOnLiteral = true
            case .rejected: rejected.append(c)
            case .overflow(let walked):
                overflow.append(c)
                if walked { outcome.accepted = true }
            }
            if let runs, let end = run.next(step, c, at: i - 1, cursor: outcome.cursor, in: self, runs: runs) {
                rejected.append(contentsOf: chars[i..<end])
                i = end
            }
        }
        if let runs { run.ended(at: i, in: self, runs: runs) }
        outcome.cuts = Cuts(rejectedUnits: rejected, overflowUnits: overflow)
        if i < chars.count { outcome.cuts.leave(chars[i...], for: self) }
        return outcome
    }

    /// Whether reading has stopped for good: the mask has ended (literals after the last slot were
    /// shown), or the field holds `maximumCells`. No character can then be read in, so a long paste
    /// costs one pass over its rest, however long the field and the text before it.
    @inline(__always)
    func isFull(cursor: Int, cells: Int) -> Bool {
        cursor >= elements.count || cells >= Program.maximumCells
    }

    /// Sorts characters that can no longer be read in: those that fit some slot are cut into
    /// `overflow`, the others are `rejected`, as `step` would report each of them.
    func sortUnread<U: FieldUnit>(_ rest: ArraySlice<U>) -> (rejected: String, overflow: String) {
        WorkCounter.count(rest.count)
        let sorted = U.split(rest, fitsByte: fitsByte, fits: { fitsSomeSlot($0) })
        return (sorted.others, sorted.fitting)
    }

    /// Places already-entered characters into the slots from `start`, as re-flow does.
    ///
    /// Unlike `read`, a character is never matched against a literal: literals appear by
    /// themselves. A character that fits no slot left is cut into the returned overflow.
    /// - Returns: the cursor after the last placed character, and what was cut.
    func place<U: FieldUnit, C: Collection>(_ chars: C, from start: Int, into cells: inout [Cell<U>])
        -> (cursor: Int, overflow: String) where C.Element == U
    {
        var cursor = start
        var overflow = ""
        let count = elements.count, reachableEnd = reachableEnd
        // Over a buffer: a mid-field backspace re-flows every cell after it, each walking the elements to its slot.
        slotInfo.withUnsafeBufferPointer { slotInfo in
            for c in chars {
                var e = cursor
                var placed = false
                WorkCounter.count()
                while e < count, cells.count < Program.maximumCells {
                    WorkCounter.count()
                    let info = slotInfo[e]
                    guard let slotClass = info.slotClass else {
                        e &+= 1
                        continue
                    }
                    if let stored = fitted(c, slotClass) {
                        cells.append(Cell(char: stored, element: e))
                        cursor = info.repeats ? e : e &+ 1
                        placed = true
                        break
                    }
                    if info.isOptional, e &+ 1 < reachableEnd {
                        e &+= 1
                        continue
                    }
                    break
                }
                if !placed { overflow.append(c.character) }
            }
        }
        return (cursor, overflow)
    }

    /// Applies `eager` and drops a cursor that points inside the cells.
    func settle<U>(_ layout: inout Layout<U>) {
        if showsOnlyEagerTrailingLiterals { layout.end = layout.cells.last.map { $0.element + 1 } ?? 0 }
        if let last = layout.cells.last {
            layout.end = max(layout.end, last.element + 1)
        }
        // `eager` shows the literals that follow the last entered character. Literals the person typed
        // past an optional slot left empty (`a[9]b` with `ab` typed) end the text where the typing ended:
        // what follows them appears when typed, so the text is the same whether it was typed key by key or
        // pasted.
        // Literals after a `…` that slots follow are never reached, so they never show: reading does not
        // walk to them either, and a text showing them would not format to itself.
        let base = layout.cells.last.map { $0.element + 1 } ?? 0
        if eager, !elements[base..<min(layout.end, elements.count)].contains(where: \.isSlot) {
            // A `…` slot counts as filled once a character is in the field, so the literals after it
            // (a unit such as ` kg`) show from the first character on.
            while layout.end < reachableEnd,
                !elements[layout.end].isSlot
                    || (elements[layout.end].repeats && onlyLiteralsAfterRepeat && !layout.cells.isEmpty)
            {
                layout.end += 1
            }
        }
    }

    /// The element just past the text: everything before it is shown.
    @inline(__always)
    func limit<U>(of layout: Layout<U>) -> Int {
        max(layout.end, (layout.cells.last?.element ?? -1) + 1)
    }

    /// The text offset of a mask cursor that has `cellCount` cells before it.
    @inline(__always)
    func textOffset(cursor: Int, cellCount: Int) -> Int {
        literalsBefore[min(cursor, elements.count)] + cellCount
    }

    /// The text offset just after cell `index`.
    @inline(__always)
    func textOffset<U>(afterCell index: Int, in cells: [Cell<U>]) -> Int {
        literalsBefore[cells[index].element] + index + 1
    }
}

// MARK: - Output

extension Program {
    /// The text and the extracted value of a layout, each written once into its own storage.
    func render<U>(_ layout: Layout<U>) -> (text: String, value: String) {
        (text(of: layout), value(of: layout.cells, limit: limit(of: layout)))
    }

    /// The formatted text of a layout.
    func text<U>(of layout: Layout<U>) -> String {
        let limit = limit(of: layout)
        WorkCounter.count(limit + layout.cells.count)
        return layout.cells.withUnsafeBufferPointer { cells in
            String(unsafeUninitializedCapacity: literalUTF8Before[limit] + Program.utf8Count(cells)) { buffer in
                Program.write(cells, limit: limit, literals: literalUTF8, before: literalUTF8Before, into: buffer)
            }
        }
    }

    /// Appends the formatted text of a layout to `output` as UTF-8, with no string made.
    func appendText<U>(of layout: Layout<U>, to output: inout [UInt8]) {
        Program.append(
            layout.cells, limit: limit(of: layout), literals: literalUTF8, before: literalUTF8Before, to: &output)
    }

    /// Appends the extracted value of `cells` (`value(of:limit:)`) to `output` as UTF-8, with no string made.
    func appendValue<U>(of cells: [Cell<U>], limit: Int, to output: inout [UInt8]) {
        Program.append(cells, limit: limit, literals: extractedUTF8, before: extractedUTF8Before, to: &output)
    }

    /// `write`'s bytes appended to `output`.
    @inline(__always)
    private static func append<U: FieldUnit>(
        _ cells: [Cell<U>], limit: Int, literals: [UInt8], before: [Int], to output: inout [UInt8]
    ) {
        cells.withUnsafeBufferPointer { cells in
            // Written on the stack, then copied: an array made at a length known only now looked up its type's
            // metadata at run time on every call.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: before[limit] + utf8Count(cells)) { buffer in
                let count = write(cells, limit: limit, literals: literals, before: before, into: buffer)
                output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
            }
        }
    }

    /// The formatted text of a layout on the byte path, its bytes also written to `units` (resized to them).
    func text(of layout: Layout<UInt8>, keepingBytesIn units: inout [UInt8]) -> String {
        let limit = limit(of: layout)
        WorkCounter.count(limit + layout.cells.count)
        let count = literalUTF8Before[limit] + layout.cells.count
        if units.count > count {
            units.removeLast(units.count - count)
        } else {
            // A keystroke adds a byte or two: room for a whole field is made once.
            if units.capacity < count {
                units.reserveCapacity(max(count, literalUTF8Before[elements.count] + elements.count))
            }
            while units.count < count { units.append(0) }
        }
        return layout.cells.withUnsafeBufferPointer { cells in
            String(unsafeUninitializedCapacity: count) { buffer in
                let written = Program.write(
                    cells, limit: limit, literals: literalUTF8, before: literalUTF8Before,
                    into: buffer)
                if written > 0 {
                    units.withUnsafeMutableBufferPointer { units in
                        units.baseAddress!.update(from: buffer.baseAddress!, count: written)
                    }
                }
                return written
            }
        }
    }

    /// The extracted value of `cells` (a layout's, which ends at element `limit`): the entered characters
    /// plus the `{}` literals shown.
    func value<U>(of cells: [Cell<U>], limit: Int) -> String {
        WorkCounter.count(limit + cells.count)
        return cells.withUnsafeBufferPointer { cells in
            String(unsafeUninitializedCapacity: extractedUTF8Before[limit] + Program.utf8Count(cells)) { buffer in
                Program.write(cells, limit: limit, literals: extractedUTF8, before: extractedUTF8Before, into: buffer)
            }
        }
    }

    /// The extracted value: the entered characters plus the `{}` literals shown.
    func value<U>(of layout: Layout<U>) -> String { value(of: layout.cells, limit: limit(of: layout)) }

    @inline(__always)
    private static func utf8Count<U: FieldUnit>(_ cells: UnsafeBufferPointer<Cell<U>>) -> Int {
        if U.self == UInt8.self { return cells.count }
        var count = 0
        for cell in cells { count += cell.char.utf8Count }
        return count
    }

    /// Writes `cells` with the literal bytes between and after them up to element `limit`: element `e`'s
    /// literal is `literals[before[e]..<before[e + 1]]` (empty for a slot, or a literal left out), so the
    /// literals from one cell to the next are one run, and a keystroke's cost is its cells and literal bytes.
    /// - Returns: the bytes written.
    @inline(__always)
    private static func write<U: FieldUnit>(
        _ cells: UnsafeBufferPointer<Cell<U>>, limit: Int, literals: [UInt8],
        before: [Int], into buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        literals.withUnsafeBufferPointer { literals in
            before.withUnsafeBufferPointer { before in
                var n = 0
                var next = 0  // the first element whose literal is not written yet
                for cell in cells {
                    let e = cell.element
                    // The cells of a `…` slot share its element: only the first has literals before it.
                    if e >= next {
                        for i in before[next]..<before[e] {
                            buffer[n] = literals[i]
                            n &+= 1
                        }
                        next = e &+ 1
                    }
                    n = cell.char.writeUTF8(into: buffer, at: n)
                }
                if limit > next {
                    for i in before[next]..<before[limit] {
                        buffer[n] = literals[i]
                        n &+= 1
                    }
                }
                return n
            }
        }
    }

    /// Whether `layout` renders exactly as `chars`.
    func renders<U: FieldUnit>(_ layout: Layout<U>, as chars: [U]) -> Bool {
        let limit = limit(of: layout)
        guard literalsBefore[limit] + layout.cells.count == chars.count else { return false }
        var i = 0, ci = 0
        for e in 0..<limit {
            let element = elements[e]
            if element.isSlot {
                while ci < layout.cells.count, layout.cells[ci].element == e {
                    if layout.cells[ci].char != chars[i] { return false }
                    ci += 1
                    i += 1
                }
            } else {
                if chars[i].character != element.literal { return false }
                i += 1
            }
        }
        return true
    }

    /// What is still to fill after the text: the count of required slots and `{}` literals, the
    /// next slot's kind, and the placeholder tail.
    func tail<U>(of layout: Layout<U>) -> (missing: Int, next: SlotKind?, placeholder: String) {
        let limit = limit(of: layout)
        var next = nextFrom[limit]
        // A `…` slot not yet passed still takes characters, even when eager literals follow it.
        if let r = repeatingSlot, r < limit, (layout.cells.last?.element ?? -1) <= r {
            next = Program.kind(of: elements[r].slotClass, definitions)
        }
        return (missingFrom[limit], next, placeholder(from: limit))
    }

    /// How many required slots and `{}` literals are still to fill after the text: `tail`'s `missing`, alone.
    func missingCount<U>(of layout: Layout<U>) -> Int { missingFrom[limit(of: layout)] }

    /// Masks longer than this build their placeholder per call instead of keeping every tail.
    static let precomputedTailLimit = 512

    private func placeholder(from limit: Int) -> String {
        if elements.count <= Program.precomputedTailLimit { return placeholderFrom[limit] }
        var tail = ""
        for e in limit..<max(reachableEnd, limit) {
            switch elements[e].kind {
            case .literal(let c): tail.append(c)
            case .slot: if !elements[e].repeats { tail.append(placeholderChar) }
            }
        }
        return tail
    }

    /// How many required slots and `{}` literals are still to fill.
    func missing<U>(in layout: Layout<U>) -> Int {
        var count = 0
        for e in limit(of: layout)..<max(reachableEnd, limit(of: layout))
        where elements[e].isRequiredSlot || elements[e].isExtracted {
            count += 1
        }
        return count
    }
}
