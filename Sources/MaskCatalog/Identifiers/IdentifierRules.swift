import MaskEngine

/// The rules of single identifiers that no check family expresses, listed in one place. Each takes
/// the compact number's UTF-8 bytes (its length and alphabet already checked; ASCII but for the
/// register number's court, which may hold umlauts) and answers whether it passes; the generator
/// holds a twin of each, verified against stdnum.
enum IdentifierRules {
    /// A rule: whether the compact number passes.
    typealias Rule = @Sendable ([UInt8]) -> Bool

    /// The rule called `name`, or nil for a name no rule has. A preset looks its rules up once, when its format is
    /// prepared (`IdentifierCheck.prepared`), not on every number it checks.
    static func rule(named name: String) -> Rule? { all[name] }

    /// Every rule by name: those of this file and of each region's file.
    private static let all: [String: Rule] = [
        sharedRules, countryRules, worldRules, europeARules, europeBRules, tablesRules, layoutsRules, registerRules,
        gs1Rules,
    ]
    .reduce(into: [:]) { all, rules in all.merge(rules) { first, _ in first } }

    /// Rules that several formats share or that no region owns.
    static let sharedRules: [String: Rule] = [
        "de.idnr.digits": { chars in germanTaxIDDigits(chars) },
        "pl.pesel.date": { chars in peselDate(chars) },
        "es.cif.check": { chars in spanishCIFCheck(chars) },
        "es.nie.check": { chars in spanishNIECheck(chars) },
        "notPalindrome": { chars in chars != Array(chars.reversed()) },
        "ean.check": { chars in eanCheck(chars) },
        "au.tfn.check": { chars in australianTFN(chars) },
        "imei.check": { chars in chars.count != 15 || CheckDigits.luhn(chars[...]) },
    ]

    /// German IdNr: among the first ten digits exactly one appears more than once, two or three times.
    static func germanTaxIDDigits(_ chars: [UInt8]) -> Bool {
        var counts = [Int](repeating: 0, count: 256)
        for b in chars.prefix(10) { counts[Int(b)] += 1 }
        let repeated = counts.filter { $0 > 1 }
        return repeated.count == 1 && (repeated[0] == 2 || repeated[0] == 3)
    }

    /// PESEL: YYMMDD, the month carrying the century (+20 for the 2000s, +40 the 2100s, +60 the 2200s, +80 the 1800s).
    static func peselDate(_ chars: [UInt8]) -> Bool {
        let month = CheckDigits.number(chars, 2, 2)
        let centuries = [1900, 2000, 2100, 2200, 1800]
        guard month / 20 < centuries.count else { return false }
        let year = CheckDigits.number(chars, 0, 2) + centuries[month / 20]
        return CheckDigits.isDate(year: year, month: month % 20, day: CheckDigits.number(chars, 4, 2))
    }

    /// Spanish CIF: the last character is the Luhn check digit of the seven digits, or its letter (J, A to I).
    static func spanishCIFCheck(_ chars: [UInt8]) -> Bool {
        let digits = Array(chars[1..<8])
        for check in UInt8(ascii: "0")...UInt8(ascii: "9") where CheckDigits.luhn((digits + [check])[...]) {
            let letter = Array("JABCDEFGHI".utf8)[Int(check - 48)]
            return chars[8] == check || chars[8] == letter
        }
        return false
    }

    /// Spanish NIE: X, Y, Z stand for 0, 1, 2, and the DNI letter of the eight digits follows.
    static func spanishNIECheck(_ chars: [UInt8]) -> Bool {
        guard let lead = Array("XYZ".utf8).firstIndex(of: chars[0]),
            let r = CheckDigits.remainder([UInt8(48 + lead)] + chars[1..<8], 23)
        else { return false }
        return chars[8] == Array("TRWAGMYFPDXBNJZSQVHLCKE".utf8)[r]
    }

    /// EAN (GTIN) of any length: weights 3, 1 from the right before the check digit, sum to a multiple of 10.
    static func eanCheck(_ chars: [UInt8]) -> Bool {
        var sum = 0
        for (i, b) in chars.dropLast().reversed().enumerated() {
            guard let d = CheckDigits.digit(b) else { return false }
            sum += (i % 2 == 0 ? 3 : 1) * d
        }
        return chars.last.map { Int($0) - 48 == (10 - sum % 10) % 10 } ?? false
    }

    /// Australian TFN: weights 1 4 3 7 5 8 6 9 (10 for a ninth digit), sum a multiple of 11.
    static func australianTFN(_ chars: [UInt8]) -> Bool {
        let weights = [1, 4, 3, 7, 5, 8, 6, 9, 10]
        var sum = 0
        for (w, b) in zip(weights, chars) {
            guard let d = CheckDigits.digit(b) else { return false }
            sum += w * d
        }
        return sum % 11 == 0
    }
}
