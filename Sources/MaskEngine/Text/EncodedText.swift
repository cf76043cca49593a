/// The encodings in which LSP positions count characters.
public enum PositionEncoding: String, Hashable, Sendable, CaseIterable {
    case utf8 = "utf-8"
    case utf16 = "utf-16"
    case utf32 = "utf-32"
}

/// Converts between character (grapheme cluster) offsets and code-unit offsets of one string.
///
/// Lookups are linear in the string's length: fields are short, and documents use their own index.
public struct EncodedText: Sendable {
    /// The code-unit offset at which each character starts, plus the total length, per encoding;
    /// empty for a text of `singleByteCount` characters.
    private let utf8Starts: [Int]
    private let utf16Starts: [Int]
    private let utf32Starts: [Int]
    /// The length of an ASCII text without `\r` (one byte, one unit, one character each: `\r\n` is
    /// one cluster), whose offsets are the same in every encoding and need no tables.
    private let singleByteCount: Int?

    public init(_ string: String) {
        var string = string
        if string.withUTF8(Self.isSingleByte) {
            singleByteCount = string.utf8.count
            utf8Starts = []
            utf16Starts = []
            utf32Starts = []
            return
        }
        singleByteCount = nil
        var u8 = [0], u16 = [0], u32 = [0]
        u8.reserveCapacity(string.utf8.count + 1)
        var a = 0, b = 0, c = 0
        for character in string {
            for scalar in character.unicodeScalars {
                a += UTF8.width(scalar)
                b += UTF16.width(scalar)
                c += 1
            }
            u8.append(a)
            u16.append(b)
            u32.append(c)
        }
        utf8Starts = u8
        utf16Starts = u16
        utf32Starts = u32
    }

    /// Whether `bytes` are ASCII without `\r`, so that each byte is one character (`\r\n` is one cluster).
    ///
    /// Eight bytes are tested at a time: a pasted megabyte is looked at in a fraction of a millisecond.
    public static func isSingleByte(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let high: UInt64 = 0x8080_8080_8080_8080, ones: UInt64 = 0x0101_0101_0101_0101
        let carriageReturns: UInt64 = 0x0D0D_0D0D_0D0D_0D0D
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            // A byte of `word ^ carriageReturns` is zero where `word` has a `\r`; the subtraction borrows into
            // the high bit of the first zero byte (the classic has-a-zero-byte test, exact for the whole word).
            let crossed = word ^ carriageReturns
            if (word & high) != 0 || ((crossed &- ones) & ~crossed & high) != 0 { return false }
            offset += 8
        }
        while offset < bytes.count {
            if bytes[offset] >= 0x80 || bytes[offset] == 0x0D { return false }
            offset += 1
        }
        return true
    }

    /// Whether every character is one byte (ASCII without `\r`): then character offsets are code-unit
    /// offsets in every encoding, and a byte is a character.
    public var isSingleByte: Bool { singleByteCount != nil }

    /// The number of characters.
    public var characterCount: Int { singleByteCount ?? utf8Starts.count - 1 }

    /// The length in code units of `encoding`.
    public func length(in encoding: PositionEncoding) -> Int { singleByteCount ?? starts(encoding).last! }

    /// The code-unit offset where character `index` starts (the length for the end).
    /// - Precondition: `0 <= index <= characterCount`.
    public func unitOffset(ofCharacter index: Int, in encoding: PositionEncoding) -> Int {
        if singleByteCount != nil { return index }
        return starts(encoding)[index]
    }

    /// The character offset of a code-unit offset, or nil when it lies past the end.
    ///
    /// - Parameters:
    ///   - roundUp: an offset inside a grapheme cluster moves to the cluster's end when true,
    ///     to its start when false, so no position ever splits a cluster or a surrogate pair.
    public func characterOffset(ofUnit offset: Int, in encoding: PositionEncoding, roundUp: Bool = false) -> Int? {
        if let count = singleByteCount { return offset >= 0 && offset <= count ? offset : nil }
        let table = starts(encoding)
        guard offset >= 0, offset <= table.last! else { return nil }
        // Binary search for the last start <= offset.
        var low = 0, high = table.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if table[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        if table[low] == offset || !roundUp { return low }
        return low + 1
    }

    private func starts(_ encoding: PositionEncoding) -> [Int] {
        switch encoding {
        case .utf8: return utf8Starts
        case .utf16: return utf16Starts
        case .utf32: return utf32Starts
        }
    }
}
