// maskd: field ids to slots and back, the daemon's own ids kept as numbers.

/// Which slot holds each field id, and each slot's id.
///
/// Compact for bench row 5 (peak memory with 100,000 fields, at most 3x the document), which a `[String: Int32]`
/// and the ids as strings would take past its goal: an id "f<n>", as the daemon makes them, is kept as its number
/// n, without a string, and the index is open addressing over the slots, four bytes an entry.
struct FieldIDIndex {
    /// Each slot's id: n >= 0 for "f<n>", else `-1 - i` for `names[i]`.
    private var stored: [Int32] = []
    /// The ids not of the form "f<n>"; `freeNames` are places to reuse.
    private var names: [String] = []
    private var freeNames: [Int32] = []
    /// Open addressing by id: each entry a slot, -1 when empty.
    private var entries: [Int32] = []
    private var count = 0

    /// The slot of `id`, or nil.
    func slot(of id: String) -> Int32? {
        guard !entries.isEmpty else { return nil }
        let number = FieldIDIndex.madeNumber(id)
        let mask = entries.count - 1
        var position = Int(FieldIDIndex.hash(id, number: number)) & mask
        while true {
            let slot = entries[position]
            if slot < 0 { return nil }
            if has(slot: slot, id: id, number) { return slot }
            position = (position + 1) & mask
        }
    }

    /// The id of `slot`. - Precondition: `slot` has one.
    func id(of slot: Int32) -> String {
        let id = stored[Int(slot)]
        return id >= 0 ? "f\(id)" : names[Int(-1 - id)]
    }

    /// Whether `slot` has id `id`.
    func slot(_ slot: Int32, has id: String) -> Bool { has(slot: slot, id: id, FieldIDIndex.madeNumber(id)) }

    /// Gives `slot` (which has none) the id `id` (which no slot has).
    mutating func insert(_ id: String, slot: Int32) {
        if Int(slot) >= stored.count {
            stored.append(contentsOf: repeatElement(0, count: Int(slot) + 1 - stored.count))
        }
        stored[Int(slot)] = storedID(id)
        // At most four fifths full: 100,000 fields fit in 131,072 entries.
        if (count + 1) * 5 > entries.count * 4 { grow() }
        place(slot)
        count += 1
    }

    /// Takes `slot`'s id away.
    mutating func remove(slot: Int32) {
        removeEntry(slot)
        let id = stored[Int(slot)]
        if id < 0 {
            names[Int(-1 - id)] = ""
            freeNames.append(-1 - id)
        }
        stored[Int(slot)] = 0
    }

    /// The number n of an id "f<n>" as the daemon makes them (n in decimal, no leading zero, below 2^31), nil for
    /// any other id: only those are kept as numbers, so each id has one form and reads back the same.
    private static func madeNumber(_ id: String) -> Int32? {
        let utf8 = id.utf8
        guard utf8.count >= 2, utf8.count <= 11, utf8.first == UInt8(ascii: "f") else { return nil }
        var value = 0
        var first = true
        for byte in utf8.dropFirst() {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            if first, byte == UInt8(ascii: "0"), utf8.count > 2 { return nil }
            first = false
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value <= Int(Int32.max) ? Int32(value) : nil
    }

    /// `id` as `stored` keeps it: its number, or the place of its string in `names` (taken here).
    private mutating func storedID(_ id: String) -> Int32 {
        if let number = FieldIDIndex.madeNumber(id) { return number }
        if let place = freeNames.popLast() {
            names[Int(place)] = id
            return -1 - place
        }
        names.append(id)
        return -1 - Int32(names.count - 1)
    }

    /// Whether `slot` has id `id`, whose `madeNumber` is `number`.
    private func has(slot: Int32, id: String, _ number: Int32?) -> Bool {
        let stored = stored[Int(slot)]
        if stored >= 0 { return stored == number }
        return number == nil && names[Int(-1 - stored)] == id
    }

    /// The hash of an id as a slot stores it: a made id's number mixed (no string is hashed for it), another id's
    /// string hashed. - Parameter number: `madeNumber(id)`.
    private static func hash(_ id: String, number: Int32?) -> UInt32 {
        if let number { return mix(UInt32(bitPattern: number)) }
        var hasher = Hasher()
        hasher.combine(id)
        return UInt32(truncatingIfNeeded: hasher.finalize())
    }

    /// The hash of `slot`'s id, as `hash(_:number:)` gives it.
    private func hash(slot: Int32) -> UInt32 {
        let id = stored[Int(slot)]
        return id >= 0 ? FieldIDIndex.mix(UInt32(bitPattern: id)) : FieldIDIndex.hash(names[Int(-1 - id)], number: nil)
    }

    /// SplitMix64's mixing of `value`, cut to 32 bits.
    private static func mix(_ value: UInt32) -> UInt32 {
        var z = UInt64(value) &* 0x9E37_79B9_7F4A_7C15 &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt32(truncatingIfNeeded: z ^ (z >> 31))
    }

    private mutating func place(_ slot: Int32) {
        let mask = entries.count - 1
        var position = Int(hash(slot: slot)) & mask
        while entries[position] >= 0 { position = (position + 1) & mask }
        entries[position] = slot
    }

    private mutating func grow() {
        let old = entries
        entries = Array(repeating: -1, count: max(16, old.count * 2))
        for slot in old where slot >= 0 { place(slot) }
    }

    /// Removes the entry of `slot`, shifting back the entries after it (no tombstones).
    private mutating func removeEntry(_ slot: Int32) {
        guard !entries.isEmpty else { return }
        let mask = entries.count - 1
        var hole = Int(hash(slot: slot)) & mask
        while true {
            let entry = entries[hole]
            if entry < 0 { return }
            if entry == slot { break }
            hole = (hole + 1) & mask
        }
        count -= 1
        var position = hole
        while true {
            position = (position + 1) & mask
            let entry = entries[position]
            if entry < 0 { break }
            // The entry may fill the hole unless its home lies cyclically in (hole, position].
            let home = Int(hash(slot: entry)) & mask
            let stays = hole <= position ? (hole < home && home <= position) : (hole < home || home <= position)
            if !stays {
                entries[hole] = entry
                hole = position
            }
        }
        entries[hole] = -1
    }
}
