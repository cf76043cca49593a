/// A slot program's reading of a field's text, kept by a `MaskField` so the next edit reads only what changed.
///
/// It holds the field's text as bytes and a reading of a text that starts with `shared` of them (the
/// text before the last edit); `read` resumes it there. A class, so the handle passes it without
/// copying its arrays, which change in place; `MaskField` copies it before changing a shared one.
final class KeptReading: @unchecked Sendable {
    /// The field's text, as bytes.
    private(set) var units: [UInt8]
    /// The program `decomposition` was read with (the card brand's, the IBAN country's); nil before any.
    private var program: Program?
    private var decomposition = Program.Decomposition<UInt8>(layout: Layout())
    /// How many of `units` the text `decomposition` was read from starts with.
    private var shared = 0
    /// The last edit's inserted bytes (`units(inserted:)`).
    private var inserted: [UInt8] = []
    /// The last program a dynamic mask chose, and for what: most keystrokes leave the first letters
    /// and digits as they were, and choosing (the card brand's ranges) costs more than comparing.
    private var lastChoice: (dynamic: DynamicProgram, prefix: AlnumPrefix, program: Program, brand: String?)?

    /// A field whose text is `text`, or nil when it is not ASCII (the byte path cannot hold it).
    init?(_ text: String) {
        units = []
        guard take(text) else { return nil }
    }

    private init(copying other: KeptReading) {
        units = other.units
        program = other.program
        decomposition = other.decomposition
        shared = other.shared
        lastChoice = other.lastChoice
    }

    /// Another reading of the same text, to change without changing this one.
    func copy() -> KeptReading { KeptReading(copying: self) }

    /// Makes `text` the field's text, keeping what its start shares with the one before.
    /// - Returns: false when `text` is not ASCII (nothing is then kept worth resuming).
    func take(_ text: String) -> Bool {
        if let fitted = text.utf8.withContiguousStorageIfAvailable({ take($0) }) { return fitted }
        return Array(text.utf8).withUnsafeBufferPointer { take($0) }
    }

    private func take(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Worked on as a local, so each access is not checked for exclusivity and the array stays unique.
        var units: [UInt8] = []
        swap(&units, &self.units)
        defer { swap(&units, &self.units) }
        let common = min(units.count, bytes.count)
        var p = 0
        while p < common, units[p] == bytes[p] { p += 1 }
        // `UInt8.units(of:)`'s rule: ASCII without a carriage return (`\r\n` is one cluster of two bytes).
        for b in bytes[p...] where b >= 0x80 || b == 0x0D { return false }
        units.removeLast(units.count - p)
        units.append(contentsOf: bytes[p...])
        shared = min(shared, p)
        return true
    }

    /// The bytes of an edit's inserted text, or nil when it is not ASCII; in one buffer kept from key to
    /// key, which is no longer shared by then, so typing allocates no array for it.
    func units(inserted text: String) -> [UInt8]? {
        if text.isEmpty { return [] }
        var buffer: [UInt8] = []
        swap(&buffer, &inserted)
        // A paste's buffer is not kept: only a keystroke's few bytes are worth the room.
        defer { inserted = buffer.count <= 64 ? buffer : [] }
        buffer.removeAll(keepingCapacity: true)
        if text.utf8.withContiguousStorageIfAvailable({ buffer.append(contentsOf: $0) }) == nil {
            buffer.append(contentsOf: text.utf8)
        }
        for b in buffer where b >= 0x80 || b == 0x0D { return nil }
        return buffer
    }

    /// Reads `units` with `program`, resuming the kept reading when it is `program`'s.
    func read(with program: Program) -> Program.Decomposition<UInt8> {
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
        return decomposition
    }

    /// `dynamic.program(forPrefix: prefix)`, remembered for the next keystroke.
    func program(of dynamic: DynamicProgram, forPrefix prefix: AlnumPrefix) -> (Program, brand: String?) {
        if let last = lastChoice, last.dynamic === dynamic, last.prefix == prefix { return (last.program, last.brand) }
        let (program, brand) = dynamic.program(forPrefix: prefix)
        lastChoice = (dynamic, prefix, program, brand)
        return (program, brand)
    }
}
