/// What one slot of a compiled mask accepts.
///
/// Each bracket character names one class: `0`/`9` digit, `A`/`a` letter, `_`/`-` alnum,
/// `X` digitX, `*` any; a mask's own `definitions` are `defined(i)`, the program's definition `i`
/// (`Program.fitted` asks it). Classification has an ASCII fast path because nearly all input is ASCII.
package enum SlotClass: Hashable, Sendable {
    case digit, letter, alnum, digitX, any
    /// The program's definition at this index (`Program.definitions`).
    case defined(UInt8)

    init(_ accept: CharacterClass) {
        switch accept {
        case .digits: self = .digit
        case .letters: self = .letter
        case .alnum: self = .alnum
        case .digitsX: self = .digitX
        case .any: self = .any
        }
    }

    /// The kind `next` reports for this class (a definition's is `Program.kind(of:)`).
    var kind: SlotKind {
        switch self {
        case .digit, .digitX: return .digit
        case .letter: return .letter
        case .alnum: return .alnum
        case .any, .defined: return .any
        }
    }

    /// The character a slot of this class stores for `c`, or nil when `c` does not fit.
    ///
    /// Decimal digits of every script become ASCII digits, `x` becomes `X` in digitX slots, and
    /// letters follow the mask's `case` option.
    @inline(__always)
    func fit(_ c: Character, letterCase: LetterCase?) -> Character? {
        if let ascii = c.asciiValue, c.utf8.count == 1 {
            switch ascii {
            case 0x30...0x39:
                return self == .letter || self.isDefined ? nil : c
            case 0x41...0x5A, 0x61...0x7A:
                switch self {
                case .digit, .defined: return nil
                case .digitX: return (ascii == 0x58 || ascii == 0x78) ? "X" : nil
                case .letter, .alnum, .any: return Self.applyCase(ascii, letterCase)
                }
            case 0x0A, 0x0D:
                return nil
            default:
                return self == .any ? c : nil
            }
        }
        return fitSlow(c, letterCase: letterCase)
    }

    /// A definition's class, which only its program can test.
    var isDefined: Bool {
        if case .defined = self { return true }
        return false
    }

    private func fitSlow(_ c: Character, letterCase: LetterCase?) -> Character? {
        if c.isNewline || isDefined { return nil }
        if let digit = asciiDigit(c) {
            return self == .letter ? nil : digit
        }
        if c.isLetter {
            switch self {
            case .digit, .digitX, .defined: return nil
            case .letter, .alnum, .any:
                // A slot holds one character: a letter whose other case is longer (ß, "SS") stays.
                let converted: String
                switch letterCase {
                case .upper?: converted = c.uppercased()
                case .lower?: converted = c.lowercased()
                case nil: return c
                }
                return converted.count == 1 ? Character(converted) : c
            }
        }
        return self == .any && standsAlone(c) ? c : nil
    }

    /// Whether `c` stays its own grapheme cluster after any character: not a combining mark,
    /// joiner, variation selector, emoji modifier or tag, nor a lone regional indicator (two of
    /// those in a row make one flag). A slot holds one cluster, so one that would merge with the
    /// character before it would break every position after it.
    func standsAlone(_ c: Character) -> Bool {
        let scalars = c.unicodeScalars
        guard let first = scalars.first else { return false }
        switch first.value {
        case 0x200C, 0x200D, 0xFE00...0xFE0F, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F, 0xE0100...0xE01EF:
            return false
        case 0x1F1E6...0x1F1FF:
            return scalars.count > 1
        default:
            switch first.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: return false
            default: return true
            }
        }
    }

    @inline(__always)
    private static func applyCase(_ ascii: UInt8, _ letterCase: LetterCase?) -> Character {
        switch letterCase {
        case .upper?: return Character(Unicode.Scalar(ascii & ~0x20))
        case .lower?: return Character(Unicode.Scalar(ascii | 0x20))
        case nil: return Character(Unicode.Scalar(ascii))
        }
    }
}

/// The ASCII digit for a decimal digit of any script (`１` and `٣` included), or nil.
@inline(__always)
func asciiDigit(_ c: Character) -> Character? {
    if let ascii = c.asciiValue, c.utf8.count == 1 {
        return (0x30...0x39).contains(ascii) ? c : nil
    }
    let scalars = c.unicodeScalars
    guard let first = scalars.first, scalars.count == 1,
        first.properties.numericType == .decimal,
        let value = first.properties.numericValue, value >= 0, value <= 9
    else { return nil }
    return Character(Unicode.Scalar(UInt8(0x30 + Int(value))))
}

/// `c` with decimal digits of every script folded to ASCII, for comparing against literals.
@inline(__always)
func normalizedForLiteral(_ c: Character) -> Character {
    if c.utf8.count == 1 { return c }
    return asciiDigit(c) ?? c
}
