/// Reading the catalogue's packed tables (`IdentifierData.swift`) over their UTF-8 bytes: splitting a long table
/// `String` by `Character`s cost a hundred times more, paid when a number is first checked (a bulk run's first line
/// of a Chinese ID read the county table for 15 ms).
enum TableText {
    /// The bytes of a table.
    static func bytes(_ table: String) -> ArraySlice<UInt8> { Array(table.utf8)[...] }

    /// The pieces of `bytes` between the `separator`s, empty ones left out unless `keepingEmpty`.
    static func pieces(
        _ bytes: ArraySlice<UInt8>, _ separator: Unicode.Scalar, maxSplits: Int = .max, keepingEmpty: Bool = false
    ) -> [ArraySlice<UInt8>] {
        bytes.split(separator: UInt8(ascii: separator), maxSplits: maxSplits, omittingEmptySubsequences: !keepingEmpty)
    }

    /// The number `digits` write in `radix` (digits, then letters of either case), or nil when there are none or
    /// one is no digit of the radix.
    static func number(_ digits: ArraySlice<UInt8>, radix: Int = 10) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for b in digits {
            let digit: Int
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(b) - 48
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): digit = Int(b) - 55
            case UInt8(ascii: "a")...UInt8(ascii: "z"): digit = Int(b) - 87
            default: return nil
            }
            guard digit < radix else { return nil }
            value = value * radix + digit
        }
        return value
    }
}
