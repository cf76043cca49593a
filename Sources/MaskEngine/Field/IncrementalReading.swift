/// A slot program's reading of a field's text, held by a `MaskField` so the next edit reads only what changed.
///
/// It holds the field's text as bytes and a reading of a text that starts with `shared` of them (the
/// text before the last edit); `read` resumes it there. A value held in place by the handle, so its arrays
/// change in place (a copied handle's arrays are copied when one of them changes). Unchecked: the reading's
/// `Cuts` box is the one reference that is not an array, and it too is copied before it changes when shared.
struct IncrementalReading: FieldReading, @unchecked Sendable {
    /// The field's text, as bytes.
    private(set) var units: [UInt8] = []
    /// The string `units` holds, as it was given: the handle passes it back with the next edit, and a string
    /// with the same storage compares equal at once, so the text is not compared byte by byte again.
    private var text = ""
    /// The program `decomposition` was read with (the card brand's, the IBAN country's); nil before any.
    private var program: Program?
    private var decomposition = Program.Decomposition<UInt8>(layout: Layout())
    /// How many of `units` the text `decomposition` was read from starts with.
    private var shared = 0
    /// `decomposition.trace` is the one of a rendered text read element by element with `program`
    /// (`Program.readsRenderedTextByElement`): the next such text's trace only grows or shrinks at its end.
    private var traceByElement = false
    /// The last edit's inserted bytes (`units(inserted:)`).
    private var inserted: [UInt8] = []
    /// The cells the last edit made: the next builds its own in the same room once the result holding
    /// them is gone.
    private var spare: [Cell<UInt8>] = []
    /// The last program a dynamic mask chose, and for what: most keystrokes leave the first letters
    /// and digits as they were, and choosing (the card brand's ranges) costs more than comparing.
    private var lastChoice: (dynamic: DynamicProgram, prefix: AlnumPrefix, program: Program, brand: String?)?

    /// A field whose text is `text`, or nil when it is not ASCII (the byte path cannot hold it).
    init?(_ text: String) {
        guard take(text) else { return nil }
    }

    /// Makes `text` the field's text, keeping the reading of what its start shares with the one before.
    /// - Returns: false when `text` is not ASCII (no reading is then worth resuming).
    mutating func take(_ text: String) -> Bool {
        if text == self.text { return true }
        var text = text
        let fitted = text.withUTF8 { take($0) }
        if fitted { self.text = text }
        return fitted
    }

    private mutating func take(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // `UInt8.units(of:)`'s rule: ASCII without a carriage return (`\r\n` is one cluster of two bytes).
        guard EncodedText.isSingleByte(bytes) else { return false }
        let common = units.withUnsafeBufferPointer { old in
            var p = 0
            let end = min(old.count, bytes.count)
            while p < end, old[p] == bytes[p] { p &+= 1 }
            return p
        }
        if units.count > common { units.removeLast(units.count - common) }
        if bytes.count - common > 8 {
            units.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[common...]))
        } else {
            // Byte by byte: the few a keystroke changes cost less than `append(contentsOf:)`'s setting up.
            units.reserveCapacity(bytes.count)
            for i in common..<bytes.count { units.append(bytes[i]) }
        }
        shared = min(shared, common)
        return true
    }

    /// The bytes of an edit's inserted text, or nil when it is not ASCII: a keystroke's byte is an array made
    /// once, a longer text's go in one buffer held from edit to edit (no longer shared by then), so typing
    /// allocates no array for them.
    mutating func units(inserted text: String) -> [UInt8]? {
        let utf8 = text.utf8
        let count = utf8.count
        if count == 1 {
            // A keystroke: one byte, whose array is made once.
            let byte = utf8[utf8.startIndex]
            guard byte < 0x80, byte != 0x0D else { return nil }
            return Self.singleBytes[Int(byte)]
        }
        if count == 0 { return [] }
        // A paste's buffer is not held on to: only a few bytes are worth the room.
        if inserted.count > 64 { inserted = [] }
        inserted.removeAll(keepingCapacity: true)
        var text = text
        let ascii = text.withUTF8 { bytes in
            guard EncodedText.isSingleByte(bytes) else { return false }
            inserted.append(contentsOf: bytes)
            return true
        }
        return ascii ? inserted : nil
    }

    /// `[b]` for every ASCII byte `b`.
    private static let singleBytes: [[UInt8]] = (0..<128).map { [UInt8($0)] }

    /// Reads `units` with `program`, resuming the reading held when it is `program`'s.
    mutating func read(with program: Program) {
        // The edit before left the reading of its own text, which is this one.
        if program === self.program, shared == units.count, shared == decomposition.trace.count { return }
        if program === self.program {
            program.decompose(units, resuming: &decomposition, sharing: shared)
        } else {
            self.program = program
            var d = program.decompose(units)
            // Room for a whole field, so the keystrokes to come append without growing the arrays.
            let room = min(program.elements.count + 1, Program.maximumCells)
            d.layout.cells.reserveCapacity(room)
            d.trace.reserveCapacity(room)
            decomposition = d
        }
        shared = units.count
        // Each character read moves the cursor one element or more (no `…` slot keeps it), and only a character
        // refused or cut moves it none: a text read whole that ends at its own length's element was read element
        // by element.
        traceByElement =
            program.readsRenderedTextByElement && decomposition.cuts.isEmpty
            && decomposition.layout.end == units.count && decomposition.trace.count == units.count
    }

    /// Reads `units` with `program` and applies `edit` to the reading, in place (no copy of it is held, so
    /// `took` changes its arrays without copying them); the new cells are built in the spare array.
    mutating func edit(
        _ edit: FieldEdit, inserted: [UInt8], with program: Program, replayable: Bool, runs: RefusedRuns?
    ) -> Program.EditOutcome<UInt8> {
        read(with: program)
        var cells: [Cell<UInt8>] = []
        swap(&cells, &spare)
        return program.edit(
            edit, inserted: inserted, chars: units, decomposition: decomposition, cells: cells,
            replayable: replayable, runs: runs)
    }

    var layout: Layout<UInt8> { decomposition.layout }

    /// Renders the edit's layout, which is the field's text now. A text that reads back element by element
    /// is held with its reading, made from the layout without reading (the next edit reads nothing); another is
    /// taken while what it shares with the last is known, and read where it differs by the next edit.
    mutating func took(_ program: Program, _ layout: Layout<UInt8>) -> String {
        let limit = program.limit(of: layout)
        guard program.readsRenderedTextByElement, layout.cells.count + program.literalsBefore[limit] == limit else {
            let text = program.text(of: layout)
            _ = take(text)
            spare = layout.cells
            return text
        }
        let text = program.text(of: layout, keepingBytesIn: &units)
        self.text = text
        // Character `i` is element `i`: after it the cursor is `i + 1`, with the slots before that as cells.
        if !(traceByElement && program === self.program) { decomposition.trace.removeAll(keepingCapacity: true) }
        let traced = decomposition.trace.count
        if traced > limit {
            decomposition.trace.removeLast(traced - limit)
        } else if traced < limit {
            program.literalsBefore.withUnsafeBufferPointer { literalsBefore in
                for i in traced..<limit {
                    decomposition.trace.append((Int32(i &+ 1), Int32(i &+ 1 &- literalsBefore[i &+ 1])))
                }
            }
        }
        // The edit's cells are the reading's; the reading's own go spare, for the next edit to build in.
        swap(&spare, &decomposition.layout.cells)
        decomposition.layout.cells = layout.cells
        decomposition.layout.end = limit
        if !decomposition.cuts.isEmpty { decomposition.cuts = Cuts<UInt8>() }
        if !decomposition.outputStart.isEmpty { decomposition.outputStart = [] }
        self.program = program
        shared = limit
        traceByElement = true
        return text
    }

    /// `dynamic.program(forPrefix: prefix)`, remembered for the next keystroke.
    mutating func program(of dynamic: DynamicProgram, forPrefix prefix: AlnumPrefix) -> (Program, brand: String?) {
        if let last = lastChoice, last.dynamic === dynamic, last.prefix == prefix { return (last.program, last.brand) }
        let (program, brand) = dynamic.program(forPrefix: prefix)
        lastChoice = (dynamic, prefix, program, brand)
        return (program, brand)
    }
}
