/// A check that a complete extracted value must pass, named as the `validate` option names it.
///
/// Each check takes the value a mask extracts (entered characters plus `{}` literals) and
/// answers with the first problem it finds, worded for the person typing, so `problems` can
/// show it as is. Checks only look at complete values: an incomplete field is already
/// reported as incomplete, and a half-typed number failing its check digit is no news.
public enum Validator: String, CaseIterable, Hashable, Sendable {
    /// The Luhn (mod 10) check digit of card and bank-card numbers.
    case luhn
    /// The 18-character resident identity number of mainland China (GB 11643-1999).
    case idCN = "id.cn"
    /// An International Bank Account Number (ISO 13616, SWIFT registry lengths, mod 97).
    case iban
    /// A Gregorian calendar date, `YYYY-MM-DD` or `YYYYMMDD`.
    case date
    /// A time of day on the 24-hour clock, `HH:MM` or `HHMM`.
    case time
    /// A card expiry month, `MM/YY` or `MMYY`.
    case expiry

    /// Checks a complete value: nil when it passes, else one short sentence saying why not.
    public func check(_ value: String) -> String? {
        // Card numbers are checked on every keystroke once complete: skip the characters.
        if self == .luhn, let sum = Checks.luhnSum(asciiDigits: value.utf8) {
            return sum % 10 == 0 ? nil : Checks.luhnMismatch
        }
        let chars = Array(value)
        switch self {
        case .luhn: return Checks.luhn(chars)
        case .idCN: return Checks.chineseID(chars)
        case .iban: return Checks.iban(chars)
        case .date: return Checks.date(chars)
        case .time: return Checks.time(chars)
        case .expiry: return Checks.expiry(chars)
        }
    }
}

/// The algorithms behind `Validator`, on arrays of characters so positions are plain indexes.
package enum Checks {
    /// The value of an ASCII digit, nil for anything else (full-width digits are normalised
    /// to ASCII by the mask before a value exists, so they never reach a check).
    static func digit(_ c: Character) -> Int? {
        guard let a = c.asciiValue, a >= 48, a <= 57 else { return nil }
        return Int(a - 48)
    }

    /// The number spelled by `count` ASCII digits from `start`, nil if any is not a digit.
    static func number(_ chars: [Character], _ start: Int, _ count: Int) -> Int? {
        var n = 0
        for i in start..<(start + count) {
            guard let d = digit(chars[i]) else { return nil }
            n = n * 10 + d
        }
        return n
    }

    /// The first character that is not an ASCII digit, quoted for a problem sentence.
    static func firstNonDigit(_ chars: [Character], from start: Int = 0) -> Character? {
        chars[start...].first { digit($0) == nil }
    }

    // MARK: Luhn

    /// Luhn: from the right, every second digit is doubled (9 subtracted past 9), and the
    /// sum must end in 0. This catches every single mistyped digit and most swaps of two
    /// neighbours, which is why card numbers carry it.
    static func luhn(_ chars: [Character]) -> String? {
        if chars.isEmpty { return "no digits to check" }
        if let bad = firstNonDigit(chars) { return "'\(bad)' is not a digit" }
        return luhnSum(chars) % 10 == 0 ? nil : luhnMismatch
    }

    /// Luhn's problem with a value of digits whose sum does not end in 0.
    static let luhnMismatch = "check digit does not match"

    /// The Luhn sum of UTF-8 bytes that are all ASCII digits, or nil when they are not (or none).
    static func luhnSum<C: BidirectionalCollection>(asciiDigits bytes: C) -> Int? where C.Element == UInt8 {
        if bytes.isEmpty { return nil }
        var sum = 0
        var doubled = false
        for b in bytes.reversed() {
            guard b >= 48, b <= 57 else { return nil }
            var d = Int(b - 48)
            if doubled {
                d *= 2
                if d > 9 { d -= 9 }
            }
            sum += d
            doubled.toggle()
        }
        return sum
    }

    /// The Luhn sum of an all-digit value (the caller has checked the digits).
    static func luhnSum(_ chars: [Character]) -> Int {
        luhnSum(asciiDigits: String(chars).utf8) ?? 0
    }
}
