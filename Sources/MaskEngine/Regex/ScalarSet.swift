/// A set of Unicode scalars, kept as sorted, disjoint, non-adjacent ranges of scalar values.
///
/// Every class a pattern can spell (`.`, `\d`, `[^a-z]`) becomes one of these, so membership is one
/// lookup and emptiness is exact: the regex knows when a class can never match.
package struct ScalarSet: Hashable, Sendable {
    /// The ranges of scalar values, sorted and merged; surrogate code points never appear.
    private(set) var ranges: [ClosedRange<UInt32>]
    /// Bit `v` set when ASCII scalar `v` (0-63) is a member: the common case needs no search.
    private var asciiLow: UInt64 = 0
    /// Bit `v - 64` set when ASCII scalar `v` (64-127) is a member.
    private var asciiHigh: UInt64 = 0

    /// The largest scalar value.
    static let maxScalar: UInt32 = 0x10FFFF
    /// The surrogate code points, which are never scalars.
    static let surrogates: ClosedRange<UInt32> = 0xD800...0xDFFF

    /// Builds the union of `ranges`, in any order, overlapping or not.
    init(_ ranges: [ClosedRange<UInt32>]) {
        let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = []
        for range in sorted {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        var clean: [ClosedRange<UInt32>] = []
        for range in merged {
            if range.upperBound < Self.surrogates.lowerBound || range.lowerBound > Self.surrogates.upperBound {
                clean.append(range)
                continue
            }
            if range.lowerBound < Self.surrogates.lowerBound {
                clean.append(range.lowerBound...(Self.surrogates.lowerBound - 1))
            }
            if range.upperBound > Self.surrogates.upperBound {
                clean.append((Self.surrogates.upperBound + 1)...range.upperBound)
            }
        }
        self.ranges = clean
        for range in clean where range.lowerBound < 128 {
            for v in range.lowerBound...min(range.upperBound, 127) {
                if v < 64 { asciiLow |= 1 << UInt64(v) } else { asciiHigh |= 1 << UInt64(v - 64) }
            }
        }
    }

    /// The set of exactly one scalar.
    package init(scalar: Unicode.Scalar) {
        self.init([scalar.value...scalar.value])
    }

    /// Every scalar not in this set.
    var inverted: ScalarSet {
        var gaps: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in ranges {
            if range.lowerBound > next { gaps.append(next...(range.lowerBound - 1)) }
            next = range.upperBound + 1
        }
        if next <= Self.maxScalar { gaps.append(next...Self.maxScalar) }
        return ScalarSet(gaps)
    }

    /// The union of this set and `other`.
    func union(_ other: ScalarSet) -> ScalarSet {
        ScalarSet(ranges + other.ranges)
    }

    /// No scalar is a member: a class such as `[^\s\S]`.
    var isEmpty: Bool { ranges.isEmpty }

    /// Whether `scalar` is a member.
    package func contains(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 64 { return asciiLow & (1 << UInt64(v)) != 0 }
        if v < 128 { return asciiHigh & (1 << UInt64(v - 64)) != 0 }
        var low = 0, high = ranges.count
        while low < high {
            let mid = (low + high) / 2
            if ranges[mid].upperBound < v {
                low = mid + 1
            } else if ranges[mid].lowerBound > v {
                high = mid
            } else {
                return true
            }
        }
        return false
    }

    /// `\d`: the ASCII digits only (values are normalised to ASCII before they are matched).
    static let digits = ScalarSet([0x30...0x39])
    /// `\w`: ASCII letters, digits and `_`, as in ECMAScript.
    static let word = ScalarSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    /// `\s`: ECMAScript's white space and line terminators.
    static let space = ScalarSet([
        0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A,
        0x2028...0x2029, 0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF,
    ])
    /// `.`: every scalar but the ECMAScript line terminators.
    static let dot = ScalarSet([0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029]).inverted
}
