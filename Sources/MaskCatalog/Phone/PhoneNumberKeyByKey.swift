import MaskEngine

/// Reading a national number a key at a time, for a field's as-you-type state (`PhoneFieldAsYouType.swift`).
///
/// `PhoneNumber(keys:home:)` runs the region's number patterns (the general one and each type's)
/// over the whole number, twice (with and without its national prefix), on every key. A number typed
/// nationally holds, instead, each pattern's digit-automaton state after the number and after the
/// number less its national prefix: a key is then one step of each, and the verdicts read the states.
/// The result is the stateless reading's (`PhoneKeyByKeyTests` compares them at every step).
extension PhoneNumber {
    /// The automaton states after the digits read so far; `KeyByKeyReading()` is "nothing read".
    struct KeyByKeyReading: Sendable {
        /// How many digits the states are after (-1: none yet).
        fileprivate var count = -1
        /// No longer number can start with an international prefix (the field's region's, `00` in GB).
        fileprivate var national = false
        /// Where the national prefix set apart ends, and whether every longer number has it end there.
        fileprivate var prefixEnd = 0
        fileprivate var prefixSettled = false
        /// Each of the region's `descriptions`' state after the whole number, then each one's after the
        /// number less its national prefix.
        fileprivate var states: [Int32] = []
    }

    /// `PhoneNumber(keys: keys, home: home)`, updating `reading`, which is `KeyByKeyReading()` or what this left
    /// for the keys before the last.
    static func read(_ keys: [UInt8], home: PhoneRegion?, reading: inout KeyByKeyReading) -> PhoneNumber {
        if let home, keys.first != UInt8(ascii: "+"), home.readsKeyByKey, let automata = home.numberAutomata,
            let number = readNationally(keys, home: home, automata: automata, reading: &reading)
        {
            return number
        }
        // International, a region whose patterns or prefix rule need the whole reading, or an international
        // prefix typed nationally.
        reading = KeyByKeyReading()
        return PhoneNumber(keys: keys, home: home)
    }

    /// `read` of a number typed nationally in `home`, whose number automata are `automata`; nil when the keys
    /// start with an international prefix.
    private static func readNationally(
        _ keys: [UInt8], home: PhoneRegion, automata: PhoneRegion.NumberAutomata,
        reading: inout KeyByKeyReading
    ) -> PhoneNumber? {
        let count = keys.count
        let resumes = reading.count >= 0 && reading.count == count - 1
        if !(resumes && reading.national) {
            let (end, settled) = internationalPrefix(keys[...], home)
            guard end == nil else { return nil }
            reading.national = settled
        }
        // As `strippingNationalPrefix`: no prefix set apart (end 0) leaves the number as it is.
        var end = reading.prefixEnd
        if !(resumes && reading.prefixSettled) {
            let (found, settled) =
                keys.isEmpty
                ? (nil, false)
                : home.nationalPrefixForParsing?.matchEndSettled(keys[...]) ?? (nil, true)
            end = found ?? 0
            reading.prefixSettled = settled
        }
        let n = automata.starts.count
        if resumes, reading.prefixEnd == end {
            automata.step(&reading.states, digit: keys[count - 1])
        } else {
            // Made anew in the states' own storage (one allocation for a number, not one each time).
            reading.states.removeAll(keepingCapacity: true)
            reading.states.reserveCapacity(2 * n)
            reading.states.append(contentsOf: automata.starts)
            reading.states.append(contentsOf: automata.starts)
            automata.step(&reading.states, over: keys[...], first: n)
            automata.step(&reading.states, over: keys[end...], from: n)
            reading.prefixEnd = end
        }
        reading.count = count
        return reading.states.withUnsafeBufferPointer { states in
            automata.accepting.withUnsafeBufferPointer { accepting in
                @inline(__always) func accepts(_ state: Int32) -> Bool { state >= 0 && accepting[Int(state)] }
                let keeps = Self.keepsNationalPrefix(
                    strippedLength: count - end, home,
                    generalTakesNumber: accepts(states[0]), generalTakesStripped: accepts(states[n]),
                    typeOfNumber: { home.type(length: count) { accepts(states[$0]) } })
                let (offset, length) = keeps ? (0, count) : (n, count - end)
                return PhoneNumber(region: home, nationalLength: length) {
                    home.type(length: length) { accepts(states[offset + $0]) }
                }
            }
        }
    }

    /// A national number of `region` of `nationalLength` digits, whose type (asked only when its length is
    /// possible) is `type()`.
    @inline(__always)
    private init(region: PhoneRegion, nationalLength: Int, type: () -> PhoneType?) {
        self.region = region
        self.nationalLength = nationalLength
        lengthCheck = Self.checkLength(nationalLength, region)
        if lengthCheck == .possible { self.type = type() }
    }
}
