/// What a field's text is made of while the engine works on it.
///
/// Positions count grapheme clusters, so the general unit is `Character`. Nearly every field
/// is ASCII, though, and there one byte is one cluster: the same generic code then runs over
/// `UInt8`, without grapheme breaking or per-character strings, which keeps a keystroke well
/// under a microsecond. `Mask` picks the unit per call; results are identical.
protocol FieldUnit: Hashable {
    /// The units of `text`, or nil when this unit cannot hold it (non-ASCII for bytes).
    static func units(of text: String) -> [Self]?
    /// The text of `units`.
    static func string<C: Collection>(_ units: C) -> String where C.Element == Self
    /// `units` in text order as two texts: those `fits` accepts, and the others. Bytes are looked up
    /// in `fitsByte` instead (indexed by the byte; 1 when it fits), with no call per byte.
    static func split(_ units: ArraySlice<Self>, fitsByte: [UInt8], fits: (Self) -> Bool)
        -> (fitting: String, others: String)
    /// The unit as a character, for `rejected` and `overflow`.
    var character: Character { get }
    /// The unit a slot of `slotClass` stores for this one, or nil when it does not fit.
    func fit(_ slotClass: SlotClass, _ letterCase: LetterCase?) -> Self?
    /// Whether this unit, typed at literal element `element`, is consumed as that literal.
    func matches(_ element: Element) -> Bool
    /// `matches(element)`, where `literalByte` is the element's: a byte compares with it, and reads no element.
    func matches(literalByte: UInt8, _ element: @autoclosure () -> Element) -> Bool
    /// Appends the unit's UTF-8 bytes.
    func appendUTF8(to bytes: inout [UInt8])
    /// The unit's length in UTF-8.
    var utf8Count: Int { get }
    /// Writes the unit's UTF-8 bytes at `offset`.
    /// - Returns: the offset after them.
    func writeUTF8(into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int
    /// The unit as an ASCII digit or upper-case ASCII letter, or nil: what dynamic masks
    /// (the card brand, the IBAN country) decide by.
    var asciiAlnum: UInt8? { get }
    /// Whether the unit is ASCII (for programs that store nothing else, such as the IBAN's).
    var isASCII: Bool { get }
    /// The unit as an ASCII byte where the byte path's tables can answer for it (a `Character` of one ASCII
    /// byte but `\r`); nil otherwise.
    var asciiByte: UInt8? { get }
    /// The digit `0`, which range blocks pad with.
    static var zero: Self { get }
    /// The unit for `c`, or nil when this unit cannot hold it (a word of an enum block).
    static func unit(_ c: Character) -> Self?
    /// The unit for an ASCII byte (every unit holds one): a slot's stored byte, without making a `Character`.
    static func ascii(_ byte: UInt8) -> Self
    /// The value of a stored ASCII digit, or nil.
    var digitValue: Int? { get }
    /// A result's value written from `cells` (a layout's, which ends at element `limit`) when it is read.
    static func deferredValue(_ program: Program, _ cells: [Cell<Self>], limit: Int) -> DeferredValue
}

extension FieldUnit {
    /// The first letters or digits of `units` (at most `AlnumPrefix.capacity`), as ASCII.
    static func alnumPrefix<C: Collection>(_ units: C) -> AlnumPrefix where C.Element == Self {
        var prefix = AlnumPrefix()
        for unit in units {
            if let a = unit.asciiAlnum {
                prefix.append(a)
                if prefix.count == AlnumPrefix.capacity { break }
            }
        }
        return prefix
    }
}

/// Up to eight ASCII letters or digits packed in one word: what decides a dynamic mask's
/// program, kept off the heap because it is computed on every keystroke.
///
/// Its reading is inlinable: the catalogue's card brands read it a character at a time, and a call into another
/// module for each would allocate a coroutine frame per character.
package struct AlnumPrefix: RandomAccessCollection, Hashable {
    static let capacity = 8
    @usableFromInline var packed: UInt64 = 0
    package private(set) var count = 0

    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { count }

    @inlinable package subscript(position: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: packed >> (8 * UInt64(position)))
    }

    mutating func append(_ byte: UInt8) {
        packed |= UInt64(byte) << (8 * UInt64(count))
        count += 1
    }
}

extension Character: FieldUnit {
    static func units(of text: String) -> [Character]? { Array(text) }

    static func string<C: Collection>(_ units: C) -> String where C.Element == Character { String(units) }

    static func split(_ units: ArraySlice<Character>, fitsByte: [UInt8], fits: (Character) -> Bool)
        -> (fitting: String, others: String)
    {
        // Gathered as UTF-8 and made into strings once: appending a `Character` to a string costs several times more.
        var fitting: [UInt8] = [], others: [UInt8] = []
        for c in units {
            if fits(c) { fitting.append(contentsOf: c.utf8) } else { others.append(contentsOf: c.utf8) }
        }
        return (String(decoding: fitting, as: UTF8.self), String(decoding: others, as: UTF8.self))
    }

    var character: Character { self }

    func fit(_ slotClass: SlotClass, _ letterCase: LetterCase?) -> Character? {
        slotClass.fit(self, letterCase: letterCase)
    }

    func matches(_ element: Element) -> Bool { normalizedForLiteral(self) == element.literal }

    func matches(literalByte: UInt8, _ element: @autoclosure () -> Element) -> Bool { matches(element()) }

    func appendUTF8(to bytes: inout [UInt8]) { bytes.append(contentsOf: utf8) }

    var utf8Count: Int { utf8.count }

    func writeUTF8(into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        var n = offset
        for b in utf8 {
            buffer[n] = b
            n += 1
        }
        return n
    }

    var isASCII: Bool { utf8.allSatisfy { $0 < 0x80 } }

    /// A character of one ASCII byte is answered by the byte path's tables (a long paste with one `é` in it
    /// sorts its rest by table too): `fit` takes it exactly as that byte, but for `\r`, which the byte path never
    /// holds and no slot takes as a character.
    var asciiByte: UInt8? {
        guard let byte = asciiValue, byte != 0x0D, utf8.count == 1 else { return nil }
        return byte
    }

    static var zero: Character { "0" }

    static func unit(_ c: Character) -> Character? { c }

    static func ascii(_ byte: UInt8) -> Character { Character(Unicode.Scalar(byte)) }

    var digitValue: Int? {
        guard let a = asciiValue, utf8.count == 1, a >= 0x30, a <= 0x39 else { return nil }
        return Int(a - 0x30)
    }

    static func deferredValue(_ program: Program, _ cells: [Cell<Character>], limit: Int) -> DeferredValue {
        .characters(program, cells, limit: limit)
    }

    var asciiAlnum: UInt8? {
        if let digit = asciiDigit(self) { return digit.asciiValue }
        guard utf8.count == 1, let a = asciiValue else { return nil }
        return a.asciiAlnum
    }
}

extension UInt8: FieldUnit {
    /// The bytes of an ASCII text without a carriage return (`\r\n` is one cluster of two bytes).
    static func units(of text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { EncodedText.isSingleByte($0) ? Array($0) : nil }
    }

    static func string<C: Collection>(_ units: C) -> String where C.Element == UInt8 {
        String(decoding: units, as: UTF8.self)
    }

    /// Counts the fitting bytes, then writes each byte to both texts and advances only the one it
    /// belongs to: one pass with no branch per byte (both are sized one byte over for that last write).
    static func split(_ units: ArraySlice<UInt8>, fitsByte: [UInt8], fits: (UInt8) -> Bool)
        -> (fitting: String, others: String)
    {
        precondition(fitsByte.count == 256)
        return units.withUnsafeBufferPointer { bytes in
            fitsByte.withUnsafeBufferPointer { table in
                var fittingCount = 0
                for b in bytes { fittingCount &+= Int(table[Int(b)]) }
                var others = ""
                let fitting = String(unsafeUninitializedCapacity: fittingCount + 1) { fitting in
                    others = String(unsafeUninitializedCapacity: bytes.count - fittingCount + 1) { other in
                        var f = 0, o = 0
                        for b in bytes {
                            let fits = Int(table[Int(b)])
                            fitting[f] = b
                            other[o] = b
                            f &+= fits
                            o &+= 1 &- fits
                        }
                        return o
                    }
                    return fittingCount
                }
                return (fitting, others)
            }
        }
    }

    var character: Character { Character(Unicode.Scalar(self)) }

    @inline(__always)
    func fit(_ slotClass: SlotClass, _ letterCase: LetterCase?) -> UInt8? {
        switch self {
        case 0x30...0x39:
            return slotClass == .letter || slotClass.isDefined ? nil : self
        case 0x41...0x5A, 0x61...0x7A:
            switch slotClass {
            case .digit, .defined: return nil
            case .digitX: return (self == 0x58 || self == 0x78) ? 0x58 : nil
            case .letter, .alnum, .any:
                switch letterCase {
                case .upper?: return self & ~0x20
                case .lower?: return self | 0x20
                case nil: return self
                }
            }
        case 0x0A:
            return nil
        default:
            return slotClass == .any ? self : nil
        }
    }

    @inline(__always)
    func matches(_ element: Element) -> Bool { element.literalByte == self }

    @inline(__always)
    func matches(literalByte: UInt8, _ element: @autoclosure () -> Element) -> Bool { literalByte == self }

    @inline(__always)
    func appendUTF8(to bytes: inout [UInt8]) { bytes.append(self) }

    var utf8Count: Int { 1 }

    @inline(__always)
    func writeUTF8(into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        buffer[offset] = self
        return offset + 1
    }

    @inline(__always)
    var isASCII: Bool { self < 0x80 }

    @inline(__always)
    var asciiByte: UInt8? { self < 0x80 ? self : nil }

    static var zero: UInt8 { 0x30 }

    static func unit(_ c: Character) -> UInt8? { c.utf8.count == 1 ? c.asciiValue : nil }

    static func ascii(_ byte: UInt8) -> UInt8 { byte }

    var digitValue: Int? { self >= 0x30 && self <= 0x39 ? Int(self - 0x30) : nil }

    static func deferredValue(_ program: Program, _ cells: [Cell<UInt8>], limit: Int) -> DeferredValue {
        .bytes(program, cells, limit: limit)
    }

    var asciiAlnum: UInt8? {
        switch self {
        case 0x30...0x39, 0x41...0x5A: return self
        case 0x61...0x7A: return self & ~0x20
        default: return nil
        }
    }
}
