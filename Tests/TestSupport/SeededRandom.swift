// A seeded generator shared by the Swift tests and the soak client (reliability/soak compiles this file).

/// SplitMix64: small, fast and reproducible, so a failing run can be repeated from its seed.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`, which must not be empty.
    public mutating func int(_ range: Range<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// A number in `0..<bound`, which must not be empty.
    public mutating func int(below bound: Int) -> Int { int(0..<bound) }

    /// True `percent` times in a hundred.
    public mutating func chance(_ percent: Int) -> Bool { int(0..<100) < percent }

    /// One of `items`, which must not be empty.
    public mutating func pick<T>(_ items: [T]) -> T { items[int(0..<items.count)] }

    /// `text` with a character dropped, doubled, or a separator put in, at one to three random places.
    public mutating func mutated(_ text: String) -> String {
        var chars = Array(text)
        for _ in 0..<Int.random(in: 1...3, using: &self) {
            let at = Int.random(in: 0...chars.count, using: &self)
            switch Int.random(in: 0..<3, using: &self) {
            case 0 where at < chars.count: chars.remove(at: at)
            case 1 where at < chars.count: chars.insert(chars[at], at: at)
            default: chars.insert([" ", "-", ".", "/", "x"].randomElement(using: &self)!, at: at)
            }
        }
        return String(chars)
    }
}
