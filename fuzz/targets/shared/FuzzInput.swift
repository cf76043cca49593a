// Shared by every fuzz target (fuzz/run compiles it into each): reading the fuzzer's bytes, and the switch that
// steps around known bugs.

#if canImport(Glibc)
    import Glibc
#endif

/// Draws numbers from the fuzzer's bytes, then zeros once they run out (`isEmpty`).
struct ByteSource {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isEmpty: Bool { index >= bytes.count }

    mutating func byte() -> Int { Int(uint8()) }

    mutating func uint8() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// Eight bytes, the first the most significant.
    mutating func uint64() -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(uint8()) }
        return value
    }

    /// The bytes not drawn yet.
    mutating func rest() -> [UInt8] {
        defer { index = bytes.count }
        return index < bytes.count ? Array(bytes[index...]) : []
    }

    mutating func pick<T>(_ items: [T]) -> T { items[byte() % items.count] }

    mutating func chance(_ in256: Int) -> Bool { byte() < in256 }
}

/// Whether steps that would hit a known bug are skipped (MASKD_FUZZ_KNOWN_BUGS=skip).
let skipKnownBugs: Bool = {
    guard let value = getenv("MASKD_FUZZ_KNOWN_BUGS") else { return false }
    return String(cString: value) == "skip"
}()
