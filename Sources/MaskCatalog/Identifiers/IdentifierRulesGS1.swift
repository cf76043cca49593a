import MaskEngine

/// The rule of GS1-128 data: a run of application identifiers (AIs), each followed by its value, with no group
/// separator. It has a twin of the same name in `scripts/identifier_formats_gs1.py`, verified against stdnum's
/// `gs1_128.is_valid`; the AI table it reads is generated into `GS1ApplicationIdentifiers.swift`.
extension IdentifierRules {
    /// The rules of this file by name.
    static let gs1Rules: [String: Rule] = [
        "gs1_128.check": { chars in gs1Data(chars) }
    ]

    /// How stdnum reads the value of an application identifier.
    enum GS1Reading: Sendable {
        /// Any characters.
        case text
        /// A GTIN, as stdnum's `ean` reads it: spaces and hyphens dropped, then 8, 12, 13 or 14 digits with their
        /// check digit.
        case gtin
        /// An IBAN, as stdnum's `iban` reads it: spaces, hyphens and dots dropped and letters upper-cased.
        case iban
        /// A number as Python's `int()` reads one.
        case integer
        /// A number as Python's `Decimal()` reads one, the AI's last digit its decimal places, after `textFirst`
        /// characters read as text.
        case decimal(textFirst: Int)
        /// A date: six characters `YYMMDD` (day `00` the month's last), else a date and time of as many characters
        /// of `YYMMDDhhmmss`. With `pairs`, twelve characters are two dates; without `written`, stdnum cannot
        /// write a single date of the format back, so only such a pair is valid.
        case date(pairs: Bool, written: Bool)
    }

    /// A range of application identifiers of one format.
    struct GS1ApplicationIdentifier: Sendable {
        /// The first and last AI of the range, of one length.
        let low: [UInt8]
        let high: [UInt8]
        /// The most characters of a value (-1: stdnum cannot read the format, and the AIs are never valid).
        let longest: Int
        let reading: GS1Reading

        init(_ low: String, _ high: String, longest: Int, reading: GS1Reading) {
            (self.low, self.high, self.longest, self.reading) = (Array(low.utf8), Array(high.utf8), longest, reading)
        }

        /// Whether the AI `ai` (as long as `low`) is in the range.
        func contains(_ ai: ArraySlice<UInt8>) -> Bool {
            !ai.lexicographicallyPrecedes(low) && !high.lexicographicallyPrecedes(ai)
        }
    }

    /// GS1-128 data as stdnum reads it without a separator: from the start, the AI the table knows, then its value
    /// (as many characters as its format allows, or what is left), read as the AI's reading says; no space at
    /// either end (stdnum's `compact` strips them).
    static func gs1Data(_ chars: [UInt8]) -> Bool {
        let space = UInt8(ascii: " ")
        guard let first = chars.first, first != space, chars.last != space else { return false }
        var i = 0
        while i < chars.count {
            guard
                let entry = gs1ApplicationIdentifiers.first(where: {
                    i + $0.low.count <= chars.count && $0.contains(chars[i..<(i + $0.low.count)])
                }), entry.longest >= 0
            else { return false }
            let start = i + entry.low.count
            let end = min(chars.count, start + entry.longest)
            guard gs1Value(chars[start..<end], of: chars[i..<start], entry.reading) else { return false }
            i = end
        }
        return true
    }

    /// Whether stdnum reads `value` of the AI `ai` as `reading` says.
    private static func gs1Value(_ value: ArraySlice<UInt8>, of ai: ArraySlice<UInt8>, _ reading: GS1Reading) -> Bool {
        switch reading {
        case .text:
            return true
        case .gtin:
            let digits = value.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "-") }
            return [8, 12, 13, 14].contains(digits.count) && digits.allSatisfy { CheckDigits.digit($0) != nil }
                && eanCheck(digits)
        case .iban:
            return gs1IBAN(value)
        case .integer:
            return pythonInteger(trimmingSpaces(value))
        case let .decimal(textFirst):
            var number = Array(value.dropFirst(textFirst))
            let places = Int(ai[ai.endIndex - 1]) - 48
            if places > 0 { number.insert(UInt8(ascii: "."), at: max(0, number.count - places)) }
            return pythonDecimal(trimmingSpaces(number[...]).filter { $0 != UInt8(ascii: "_") })
        case let .date(pairs, written):
            let date = Array(value)
            if date.count == 12 && pairs { return gs1Day(date[0..<6]) && gs1Day(date[6...]) }
            guard written else { return false }
            if date.count == 6 { return gs1Day(date[...]) }
            // The first characters of `%y%m%d%H%M%S` as strptime's format: an odd count ends in a stray `%`.
            return date.count % 2 == 0 && strptime(date[...], Array("ymdHMS".utf8).prefix(date.count / 2))
        }
    }

    /// An IBAN as stdnum's `iban` checks one: the IBAN registry's layout of its country, the ISO 7064 mod 97-10 check
    /// (the `iban.check` rule), and the country's own IBAN preset where there is one (`be.iban`: stdnum's `iban`
    /// runs the country's module).
    private static func gs1IBAN(_ value: ArraySlice<UInt8>) -> Bool {
        let number = value.compactMap { b -> UInt8? in
            if b == UInt8(ascii: " ") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") { return nil }
            return b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z") ? b - 32 : b
        }
        guard number.count >= 4,
            let layout = IdentifierCatalog.ibanLayouts[String(decoding: number[0..<2], as: UTF8.self)],
            number.count == 4 + layout.utf8.count
        else { return false }
        func isLetter(_ b: UInt8) -> Bool { b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") }
        func isDigit(_ b: UInt8) -> Bool { CheckDigits.digit(b) != nil }
        guard number[2..<4].allSatisfy({ isLetter($0) || isDigit($0) }) else { return false }
        for (b, kind) in zip(number[4...], layout.utf8) {
            switch kind {
            case UInt8(ascii: "n"): if !isDigit(b) { return false }
            case UInt8(ascii: "a"): if !isLetter(b) { return false }
            default: if !isLetter(b) && !isDigit(b) { return false }
            }
        }
        guard layoutsRules["iban.check"]?(number) == true else { return false }
        let own = String(decoding: number[0..<2], as: UTF8.self).lowercased() + ".iban"
        guard IdentifierCatalog.byName[own] != nil else { return true }
        let text = String(decoding: number, as: UTF8.self)
        guard let mask = try? Mask.compile(MaskSpec(.preset(own))) else { return false }
        let r = mask.format(text)
        return r.complete && r.value == text && r.valid
    }

    /// Six characters of a date: `YYMMDD`, or `YYMM00` for the month's last day.
    private static func gs1Day(_ date: ArraySlice<UInt8>) -> Bool {
        if date.suffix(2).elementsEqual("00".utf8) { return strptime(date.prefix(4), Array("ym".utf8)[...]) }
        return strptime(date, Array("ymd".utf8)[...])
    }

    /// The patterns of strptime's directives: alternatives tried in order, each a run of character sets.
    private static let strptimePatterns: [UInt8: [[String]]] = [
        UInt8(ascii: "y"): [["0123456789", "0123456789"]],
        UInt8(ascii: "m"): [["1", "012"], ["0", "123456789"], ["123456789"]],
        UInt8(ascii: "d"): [
            ["3", "01"], ["12", "0123456789"], ["0", "123456789"], ["123456789"], [" ", "123456789"],
        ],
        UInt8(ascii: "H"): [["2", "0123"], ["01", "0123456789"], ["0123456789"]],
        UInt8(ascii: "M"): [["012345", "0123456789"], ["0123456789"]],
        UInt8(ascii: "S"): [["6", "01"], ["012345", "0123456789"], ["0123456789"]],
    ]

    /// Whether Python's strptime reads all of `text` with `directives` (`ymd` for `%y%m%d`) as a valid date and time.
    /// Its pattern is not anchored at the end: the first match, alternatives tried in order, must take every
    /// character (`2513` is no `%y%m`: the month matches `1`, and `3` is left).
    private static func strptime(_ text: ArraySlice<UInt8>, _ directives: ArraySlice<UInt8>) -> Bool {
        /// The values of the first match of `directives` from `at`, and where it ends.
        func firstMatch(_ directives: ArraySlice<UInt8>, at: Int) -> (values: [Int], end: Int)? {
            guard let directive = directives.first else { return ([], at) }
            for alternative in strptimePatterns[directive] ?? [] where at + alternative.count <= text.endIndex {
                let piece = text[at..<(at + alternative.count)]
                guard zip(piece, alternative).allSatisfy({ b, set in set.utf8.contains(b) }) else { continue }
                if let rest = firstMatch(directives.dropFirst(), at: at + alternative.count) {
                    // A day's leading space reads as nothing, as int() reads it.
                    let value = piece.reduce(0) { $1 == UInt8(ascii: " ") ? $0 : $0 * 10 + Int($1) - 48 }
                    return ([value] + rest.values, rest.end)
                }
            }
            return nil
        }
        guard let match = firstMatch(directives, at: text.startIndex), match.end == text.endIndex else { return false }
        var read: [UInt8: Int] = [:]
        for (directive, value) in zip(directives, match.values) { read[directive] = value }
        // Two-digit years: 69 to 99 are the 1900s, 00 to 68 the 2000s; a time's seconds are 0 to 59.
        let y = read[UInt8(ascii: "y")] ?? 0
        return (read[UInt8(ascii: "S")] ?? 0) <= 59
            && CheckDigits.isDate(
                year: y <= 68 ? 2000 + y : 1900 + y, month: read[UInt8(ascii: "m")] ?? 1,
                day: read[UInt8(ascii: "d")] ?? 1)
    }

    /// `chars` without the spaces at either end.
    private static func trimmingSpaces(_ chars: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let space = UInt8(ascii: " ")
        guard let first = chars.firstIndex(where: { $0 != space }), let last = chars.lastIndex(where: { $0 != space })
        else { return [] }
        return chars[first...last]
    }

    /// Python's `int()` of a text without spaces around: a sign, then digits with single underscores between them.
    private static func pythonInteger(_ chars: ArraySlice<UInt8>) -> Bool {
        var rest = chars
        if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { rest = rest.dropFirst() }
        guard let first = rest.first, let last = rest.last, CheckDigits.digit(first) != nil,
            CheckDigits.digit(last) != nil
        else { return false }
        var underscore = false
        for b in rest {
            if b == UInt8(ascii: "_") {
                if underscore { return false }
                underscore = true
            } else if CheckDigits.digit(b) != nil {
                underscore = false
            } else {
                return false
            }
        }
        return true
    }

    /// Python's `Decimal()` of a text without spaces around and underscores: a sign, then digits with a decimal point
    /// and an exponent, an infinity, or a NaN with digits (letters in any case).
    private static func pythonDecimal(_ chars: [UInt8]) -> Bool {
        var rest = chars[...]
        if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { rest = rest.dropFirst() }
        let lower = rest.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }
        if lower.elementsEqual("inf".utf8) || lower.elementsEqual("infinity".utf8) { return true }
        for nan in ["nan", "snan"] where lower.starts(with: nan.utf8) {
            return lower.dropFirst(nan.utf8.count).allSatisfy { CheckDigits.digit($0) != nil }
        }
        func digits() -> Int {
            let n = rest.prefix { CheckDigits.digit($0) != nil }.count
            rest = rest.dropFirst(n)
            return n
        }
        var count = digits()
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            count += digits()
        }
        guard count > 0 else { return false }
        if let e = rest.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { rest = rest.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return rest.isEmpty
    }
}
