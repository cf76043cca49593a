/// Room to format texts in, lent by a caller that formats many one after another (`maskd format`, one per
/// thread) to `Mask.formatted(utf8:appendingTextTo:reusing:)`: each text's units, its readings' cells and its value
/// go into arrays kept from text to text, so that once they have grown to the longest text, formatting one
/// allocates none of them.
public struct FormattingScratch {
    var units: [UInt8] = []
    var cells = CellArrays<UInt8>()
    var value: [UInt8] = []

    public init() {}

    /// The units array, holding `bytes`. It is the caller's until it sets `units` back.
    mutating func takeUnits(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &units)
        taken.removeAll(keepingCapacity: true)
        taken.append(contentsOf: bytes)
        return taken
    }
}

/// The arrays a text's readings put their cells in: a reading takes one and gives it back once it is dropped. A
/// text is read by at most two readings at once (the best so far, and a `oneOf` alternative beside it).
struct CellArrays<U: FieldUnit> {
    private var spare: [Cell<U>] = []
    private var other: [Cell<U>] = []

    /// An empty array, with the room of the larger one given back (none if none was).
    mutating func take() -> [Cell<U>] {
        var taken: [Cell<U>] = []
        if spare.capacity >= other.capacity { swap(&taken, &spare) } else { swap(&taken, &other) }
        taken.removeAll(keepingCapacity: true)
        return taken
    }

    /// Keeps `cells`, a dropped reading's (still referenced until the reading's variables end), for the next `take`.
    mutating func give(_ cells: [Cell<U>]) {
        if spare.capacity == 0 {
            spare = cells
        } else if other.capacity == 0 {
            other = cells
        }
    }
}
