/// Runs of one text's characters that a reading refused one after another at one place of its mask, kept so that
/// the other programs of a `oneOf` reading the same text skip them instead of reading them again.
///
/// At a mask cursor with no block or `…` slot before the next required slot, a character is refused exactly when
/// none of the elements up to that slot takes it (`Program.acceptedASCII`), and refusing it changes nothing. A run
/// of ASCII characters one program refused is then refused by any program whose place takes none of them, which
/// skips it unread. The alternatives of a multi-length identifier start with places alike (an `RF` wanted, a `B` or
/// an `E`), and a long paste that none of them takes is read once, not once per alternative: the cost stays linear
/// in the paste, whatever the number of alternatives.
///
/// One value serves the readings of one text: the caller makes it for that text and drops it with it.
final class RefusedRuns {
    /// A program reads this many characters of a run before it looks the run up, and shorter runs are not kept:
    /// reading them costs less than looking them up.
    static let shortest = 32

    /// The runs found so far, by the program that found them (whose runs never overlap), each in order of their
    /// starts: the text offsets it starts at and ends before, and the characters it holds.
    private var runs: [ObjectIdentifier: [(range: Range<Int>, holding: ASCIISet)]] = [:]

    /// Where a run holding the character at `offset` ends, when it holds none of `accepted`.
    func end(covering offset: Int, acceptingNone accepted: ASCIISet) -> Int? {
        WorkCounter.count()
        var end: Int? = nil
        for found in runs.values {
            // The last run starting at or before `offset`.
            var low = 0, high = found.count
            while low < high {
                let mid = (low + high) / 2
                if found[mid].range.lowerBound <= offset { low = mid + 1 } else { high = mid }
            }
            guard low > 0 else { continue }
            let run = found[low - 1]
            if run.range.contains(offset), run.holding.isDisjoint(with: accepted) {
                end = max(end ?? 0, run.range.upperBound)
            }
        }
        return end
    }

    /// Keeps `run`, which `program` refused and which holds the characters `holding`, when it is long enough to be
    /// worth it.
    func record(_ run: Range<Int>, holding: ASCIISet, by program: Program) {
        guard run.count >= Self.shortest else { return }
        runs[ObjectIdentifier(program), default: []].append((run, holding))
    }
}

/// A set of ASCII characters, one bit for each byte (NUL is never in a run, so never asked about).
struct ASCIISet: Hashable, Sendable {
    var low: UInt64 = 0
    var high: UInt64 = 0

    mutating func insert(_ byte: UInt8) {
        if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
    }

    func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte - 64)) != 0
    }

    func isDisjoint(with other: ASCIISet) -> Bool { low & other.low == 0 && high & other.high == 0 }
}

extension Program {
    /// The ASCII characters `step` does not refuse at `cursor`, when that depends on the elements up to the next
    /// required slot alone: no block and no `…` slot on the way, and that slot is reached. Nil otherwise.
    func acceptedASCII(at cursor: Int) -> ASCIISet? {
        var accepted = ASCIISet()
        var e = cursor
        while e < reachableEnd {
            let element = elements[e]
            if element.repeats || element.block >= 0 { return nil }
            WorkCounter.count()
            for byte in UInt8(1)..<0x80 {
                if let slotClass = element.slotClass {
                    if fitted(byte, slotClass) != nil { accepted.insert(byte) }
                } else if byte.matches(element) {
                    accepted.insert(byte)
                }
            }
            if element.isRequiredSlot { return accepted }
            e += 1
        }
        return nil
    }
}

/// Where one reading stands in a run of refused ASCII characters: it looks the run up once it is
/// `RefusedRuns.shortest` long, and keeps it when it ends unless another program had found it.
struct RefusedRun {
    /// The offset of the run's first character, or -1 outside a run.
    private var start = -1
    /// The characters of the run read so far.
    private var holding = ASCIISet()
    private var lookedUp = false
    private var found = false

    /// After `step` read `unit`, the character at `offset`, at the cursor `cursor` (which a refusal leaves): where
    /// the run this character continues ends, when another program found that run (the caller refuses the
    /// characters up to there unread, and reads on from there).
    mutating func next<U: FieldUnit>(
        _ step: Program.Step, _ unit: U, at offset: Int, cursor: Int, in program: Program, runs: RefusedRuns
    ) -> Int? {
        guard case .rejected = step, let byte = unit.asciiByte, byte != 0 else {
            ended(at: offset, in: program, runs: runs)
            return nil
        }
        if start < 0 {
            start = offset
            holding = ASCIISet()
            lookedUp = false
            found = false
        }
        holding.insert(byte)
        guard !lookedUp, offset + 1 - start == RefusedRuns.shortest else { return nil }
        lookedUp = true
        // Another program's run is refused here too when this place takes none of its characters.
        guard let accepted = program.acceptedASCII(at: cursor),
            let end = runs.end(covering: offset + 1, acceptingNone: accepted)
        else { return nil }
        found = true
        return end
    }

    /// The run, if any, ends before `offset` (a character not refused, one not ASCII, or the text's end): it is
    /// kept for the others.
    mutating func ended(at offset: Int, in program: Program, runs: RefusedRuns) {
        guard start >= 0 else { return }
        if !found { runs.record(start..<offset, holding: holding, by: program) }
        start = -1
    }
}
