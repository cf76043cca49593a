// maskd: LSP positions in the negotiated encoding, and their conversion to scalar columns.
import MaskEngine

/// An LSP position: a line and a character offset counted in the negotiated encoding.
public struct Position: Hashable, Sendable, Comparable {
    public var line: Int
    public var character: Int

    public init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    public static func < (a: Position, b: Position) -> Bool {
        (a.line, a.character) < (b.line, b.character)
    }
}

/// An LSP range: `[start, end)`.
public struct TextRange: Hashable, Sendable {
    public var start: Position
    public var end: Position

    public init(start: Position, end: Position) {
        self.start = start
        self.end = end
    }
}

/// An LSP `TextEdit`.
public struct TextEdit: Hashable, Sendable {
    public var range: TextRange
    public var newText: String

    public init(range: TextRange, newText: String) {
        self.range = range
        self.newText = newText
    }
}

/// A position inside the daemon: a line and a column counted in Unicode scalars.
struct ScalarPosition: Hashable, Sendable, Comparable {
    var line: Int
    var column: Int

    static func < (a: ScalarPosition, b: ScalarPosition) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// A change inside the daemon: `[start, end)` replaced by `text`.
struct ScalarChange: Hashable, Sendable {
    var start: ScalarPosition
    var end: ScalarPosition
    var text: String
}

extension PositionEncoding {
    /// The width of one scalar in this encoding's code units.
    func width(_ scalar: Unicode.Scalar) -> Int {
        switch self {
        case .utf8: return UTF8.width(scalar)
        case .utf16: return UTF16.width(scalar)
        case .utf32: return 1
        }
    }

    /// The width in this encoding's code units of the scalar whose UTF-8 encoding starts with `lead`.
    func width(lead: UInt8) -> Int {
        switch self {
        case .utf8: return lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        case .utf16: return lead < 0xF0 ? 1 : 2
        case .utf32: return 1
        }
    }

    /// The scalar column of code-unit offset `units` in `text`, or nil when it lies past the end.
    ///
    /// An offset inside a scalar (a UTF-8 continuation byte, the second half of a surrogate
    /// pair) moves to that scalar's start, or to its end when `roundUp` is true.
    func scalarColumn(ofUnits units: Int, in text: String, roundUp: Bool = false) -> Int? {
        text.withUTF8Bytes { scalarColumn(ofUnits: units, inUTF8: $0, isASCII: false, roundUp: roundUp) }
    }

    /// As ``scalarColumn(ofUnits:in:roundUp:)``, over a text's UTF-8 bytes; `isASCII` (when known) skips the scan.
    func scalarColumn(
        ofUnits units: Int, inUTF8 bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool,
        roundUp: Bool = false
    ) -> Int? {
        guard units >= 0 else { return nil }
        if isASCII { return units <= bytes.count ? units : nil }
        if self == .utf32 {
            return units <= UTF8Scan.scalarCount(bytes) ? units : nil
        }
        var consumed = 0
        var column = 0
        for byte in bytes where UTF8Scan.isScalarStart(byte) {
            if consumed >= units { break }
            let w = width(lead: byte)
            if consumed + w > units {
                return roundUp ? column + 1 : column
            }
            consumed += w
            column += 1
        }
        return consumed >= units ? column : nil
    }

    /// The code-unit offset of scalar column `column` in `text`.
    /// - Precondition: `0 <= column <= text.unicodeScalars.count`.
    func units(ofScalarColumn column: Int, in text: String) -> Int {
        if self == .utf32 { return column }
        return text.withUTF8Bytes { units(ofScalarColumn: column, inUTF8: $0) }
    }

    /// As ``units(ofScalarColumn:in:)``, over a text's UTF-8 bytes.
    func units(ofScalarColumn column: Int, inUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
        if self == .utf32 { return column }
        var result = 0
        var remaining = column
        for byte in bytes where UTF8Scan.isScalarStart(byte) {
            if remaining == 0 { break }
            result += width(lead: byte)
            remaining -= 1
        }
        return result
    }

    /// The length of `text` in this encoding's code units.
    func length(of text: String) -> Int {
        switch self {
        case .utf8: return text.utf8.count
        case .utf16: return text.utf16.count
        case .utf32: return text.scalarCount
        }
    }
}

extension String {
    /// The scalar offset of character (grapheme) offset `index` (linear).
    func scalarOffset(ofCharacter index: Int) -> Int {
        if index >= 0, isOneScalarPerCharacter { return min(index, utf8.count) }
        var result = 0
        var remaining = index
        for character in self {
            if remaining == 0 { break }
            result += character.unicodeScalars.count
            remaining -= 1
        }
        return result
    }

    /// The character offset of scalar offset `offset`, rounded to a grapheme boundary (linear).
    func characterOffset(ofScalar offset: Int, roundUp: Bool) -> Int {
        if offset >= 0, isOneScalarPerCharacter { return min(offset, utf8.count) }
        var scalars = 0
        var characters = 0
        for character in self {
            if scalars >= offset { break }
            let n = character.unicodeScalars.count
            if scalars + n > offset { return roundUp ? characters + 1 : characters }
            scalars += n
            characters += 1
        }
        return characters
    }
}
