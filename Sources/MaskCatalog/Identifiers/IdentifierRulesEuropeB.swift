import MaskEngine

/// The rules of European identifiers, Iceland to Ukraine, and of international schemes. Each takes the compact
/// number's ASCII bytes, its length and per-place alphabet already checked, and has a twin of the same name in
/// `scripts/identifier_formats_europe_b.py`, verified against stdnum.
extension IdentifierRules {
    /// The rules of this file by name.
    static let europeBRules: [String: Rule] = [
        "is.kennitala.date": { chars in icelandicKennitalaDate(chars) },
        "it.aic.check": { chars in italianAIC(chars) },
        "lt.asmens.date": { chars in lithuanianAsmensDate(chars) },
        "lt.pvm.type": { chars in chars[chars.count - 2] == UInt8(ascii: "1") },
        "lu.tva.check": { chars in CheckDigits.remainder(chars[0..<6], 89) == value(chars, 6, 2) },
        "lv.pvn.check": { chars in latvianPVN(chars) },
        "mc.tva.check": { chars in frenchTVA(Array(chars[2...])) },
        "nl.onderwijsnummer.check": { chars in
            modulo(CheckDigits.digitSum(chars, weights: [9, 8, 7, 6, 5, 4, 3, 2, -1]), 11) == 5
        },
        "no.fodselsnummer.date": { chars in norwegianBirthDate(chars) },
        "pl.regon.long": { chars in polishREGONLong(chars) },
        "pt.cc.check": { chars in portugueseCCCheck(chars) },
        "ro.cnp.date": { chars in romanianCNPDate(chars) },
        "ro.cui.check": { chars in romanianCUICheck(chars) },
        "se.personnummer.date": { chars in swedishPersonnummerDate(chars) },
        "se.personnummer.check": { chars in
            CheckDigits.luhn((chars[(chars.count - 11)..<(chars.count - 5)] + chars.suffix(4))[...])
        },
        "si.emso.date": { chars in slovenianEMSODate(chars) },
        "sk.dph.check": { chars in
            (czechBirthNumberDate(chars) && czechBirthNumberCheck(chars))
                || (chars[0] != UInt8(ascii: "0") && Array("234789".utf8).contains(chars[2])
                    && CheckDigits.remainder(chars[...], 11) == 0)
        },
        "sm.coe.low": { chars in chars.count >= 3 || sanMarinoLowNumbers.contains(value(chars, 0, chars.count)) },
        "ua.edrpou.check": { chars in ukrainianEDRPOUCheck(chars) },
        "securities.check": { chars in securitiesCheck(chars) },
        "casrn.check": { chars in casRegistryCheck(chars) },
    ]

    /// The weighted sum of the digits from the start (as many as there are weights).
    /// Icelandic kennitala: DDMMYY (organisations add 40 to the day), the last digit the century (9: 1900s, 0: 2000s).
    static func icelandicKennitalaDate(_ chars: [UInt8]) -> Bool {
        let day = value(chars, 0, 2)
        let year = value(chars, 4, 2) + (chars[9] == UInt8(ascii: "9") ? 1900 : 2000)
        return CheckDigits.isDate(year: year, month: value(chars, 2, 2), day: day >= 40 ? day - 40 : day)
    }

    private static let aicBase32: [UInt8] = Array("0123456789BCDFGHJKLMNPQRSTUVWXYZ".utf8)

    /// Italian AIC: nine digits starting with 0, the last the sum of the others weighted 1, 2 (products' digits
    /// added) modulo 10; the six-character form is the same number in base 32.
    static func italianAIC(_ chars: [UInt8]) -> Bool {
        var digits = chars
        if chars.count == 6 {
            var n = 0
            for b in chars {
                guard let v = aicBase32.firstIndex(of: b) else { return false }
                n = n * 32 + v
            }
            guard n < 1_000_000_000 else { return false }
            digits = []
            for _ in 0..<9 { digits.insert(UInt8(48 + n % 10), at: 0); n /= 10 }
        }
        guard digits.count == 9, digits[0] == UInt8(ascii: "0") else { return false }
        var sum = 0
        for (i, b) in digits.prefix(8).enumerated() {
            let p = (i % 2 == 0 ? 1 : 2) * (Int(b) - 48)
            sum += p / 10 + p % 10
        }
        return Int(digits[8]) - 48 == sum % 10
    }

    /// Lithuanian asmens kodas: 1 to 8 give the century (1800s for 1 and 2, and so on), then YYMMDD; 9 has no date.
    static func lithuanianAsmensDate(_ chars: [UInt8]) -> Bool {
        let first = Int(chars[0]) - 48
        if first == 9 { return true }
        guard first >= 1 else { return false }
        let year = 1800 + (first - 1) / 2 * 100 + value(chars, 1, 2)
        return CheckDigits.isDate(year: year, month: value(chars, 3, 2), day: value(chars, 5, 2))
    }

    /// Latvian PVN: a legal entity's (first digit over 3) weighted sum modulo 11 is 3; a person's DDMMYY with a
    /// century digit (0: 1800s) is a date, except after 32, and its check digit follows.
    static func latvianPVN(_ chars: [UInt8]) -> Bool {
        if chars[0] > UInt8(ascii: "3") {
            return CheckDigits.digitSum(chars, weights: [9, 1, 4, 8, 3, 10, 2, 5, 7, 6, 1]) % 11 == 3
        }
        if !(chars[0] == UInt8(ascii: "3") && chars[1] == UInt8(ascii: "2")) {
            let year = 1800 + (Int(chars[6]) - 48) * 100 + value(chars, 4, 2)
            guard CheckDigits.isDate(year: year, month: value(chars, 2, 2), day: value(chars, 0, 2)) else {
                return false
            }
        }
        let s = 1 + CheckDigits.digitSum(chars, weights: [10, 5, 8, 4, 2, 1, 6, 3, 7, 9])
        return Int(chars[10]) - 48 == s % 11 % 10
    }

    private static func modulo(_ a: Int, _ m: Int) -> Int { CheckDigits.modulo(a, m) }

    /// Norwegian fødselsnummer: DDMMYY (D-numbers add 40 to the day, H-numbers to the month; FH-numbers from day
    /// 80 carry no date), the century read from the individual number and the year.
    static func norwegianBirthDate(_ chars: [UInt8]) -> Bool {
        var day = value(chars, 0, 2)
        var month = value(chars, 2, 2)
        var year = value(chars, 4, 2)
        let individual = value(chars, 6, 3)
        guard day < 80 else { return false }
        if day > 40 { day -= 40 }
        if month > 40 { month -= 40 }
        if individual < 500 {
            year += 1900
        } else if individual < 750 && year >= 54 {
            year += 1800
        } else if year < 40 {
            year += 2000
        } else if individual >= 900 {
            year += 1900
        } else {
            return false
        }
        return CheckDigits.isDate(year: year, month: month, day: day)
    }

    /// Polish REGON of 14 digits: its last digit checks the first 13 (weights 2 4 8 5 0 9 7 3 6 1 2 4 8, mod 11, mod 10).
    static func polishREGONLong(_ chars: [UInt8]) -> Bool {
        guard chars.count == 14 else { return true }
        return Int(chars[13]) - 48 == CheckDigits.digitSum(chars, weights: [2, 4, 8, 5, 0, 9, 7, 3, 6, 1, 2, 4, 8]) % 11
            % 10
    }

    /// Portuguese citizen card: from the right, before the check digit, every other value (letters 10 to 35)
    /// doubled, less 9 past 9; the check digit brings the sum to a multiple of 10.
    static func portugueseCCCheck(_ chars: [UInt8]) -> Bool {
        var sum = 0
        for (i, b) in chars.dropLast().reversed().enumerated() {
            guard var v = CheckDigits.alnum36(b) else { return false }
            if i % 2 == 0 { v *= 2; if v > 9 { v -= 9 } }
            sum += v
        }
        return Int(chars[chars.count - 1]) - 48 == (10 - sum % 10) % 10
    }

    /// Romanian CNP: the first digit gives the century (1, 2: 1900s; 3, 4: 1800s; 5, 6: 2000s; others read as
    /// 1900s), then YYMMDD.
    static func romanianCNPDate(_ chars: [UInt8]) -> Bool {
        let centuries: [UInt8: Int] = [49: 1900, 50: 1900, 51: 1800, 52: 1800, 53: 2000, 54: 2000]
        let year = (centuries[chars[0]] ?? 1900) + value(chars, 1, 2)
        return CheckDigits.isDate(year: year, month: value(chars, 3, 2), day: value(chars, 5, 2))
    }

    /// Romanian CUI: weights 7 5 3 2 1 7 5 3 2 under the last nine digits before the check digit; ten times the
    /// sum, modulo 11, modulo 10.
    static func romanianCUICheck(_ chars: [UInt8]) -> Bool {
        let body = [UInt8](repeating: 48, count: max(0, 10 - chars.count)) + chars.dropLast()
        return Int(chars[chars.count - 1]) - 48 == 10
            * CheckDigits.digitSum(body, weights: [7, 5, 3, 2, 1, 7, 5, 3, 2]) % 11 % 10
    }

    /// Swedish personnummer: YYYYMMDD-NNNN, or YYMMDD-NNNN within the last hundred years (+ for a hundred more).
    /// Read at any date of the 2000s the short form's leap years are those of the 2000s, but for 00 with +, 1900.
    static func swedishPersonnummerDate(_ chars: [UInt8]) -> Bool {
        if chars.count == 13 {
            let year = value(chars, 0, 4)
            return year > 0 && CheckDigits.isDate(year: year, month: value(chars, 4, 2), day: value(chars, 6, 2))
        }
        let yy = value(chars, 0, 2)
        let year = yy == 0 && chars[6] == UInt8(ascii: "+") ? 1900 : 2000 + yy
        return CheckDigits.isDate(year: year, month: value(chars, 2, 2), day: value(chars, 4, 2))
    }

    /// Slovenian EMŠO: DDMM and the year's last three digits (below 800: 2000s, else 1000 added).
    static func slovenianEMSODate(_ chars: [UInt8]) -> Bool {
        let y = value(chars, 4, 3)
        return CheckDigits.isDate(year: y + (y < 800 ? 2000 : 1000), month: value(chars, 2, 2), day: value(chars, 0, 2))
    }

    /// San Marino's COE numbers below 100 that were issued.
    private static let sanMarinoLowNumbers: Set<Int> = [
        2, 4, 6, 7, 8, 9, 10, 11, 13, 16, 18, 19, 20, 21, 25, 26, 30, 32, 33, 35, 36, 37, 38, 39, 40, 42, 45, 47, 49,
        51, 52, 55, 56, 57, 58, 59, 61, 62, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 79, 80, 81, 84, 85,
        87, 88, 91, 92, 94, 95, 96, 97, 99,
    ]

    /// Ukrainian EDRPOU: weights 1 to 7 (7, 1 to 6 after a first digit 3, 4 or 5) modulo 11; a 10 is taken again
    /// with each weight 2 more, modulo 11 and 10.
    static func ukrainianEDRPOUCheck(_ chars: [UInt8]) -> Bool {
        let weights =
            (UInt8(ascii: "3")...UInt8(ascii: "5")).contains(chars[0]) ? [7, 1, 2, 3, 4, 5, 6] : [1, 2, 3, 4, 5, 6, 7]
        var s = CheckDigits.digitSum(chars, weights: weights) % 11
        if s == 10 { s = CheckDigits.digitSum(chars, weights: weights.map { $0 + 2 }) % 11 % 10 }
        return Int(chars[7]) - 48 == s
    }

    private static let securitiesAlphabet: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ*@#".utf8)

    /// CUSIP and FIGI: values 0-9, A-Z as 10 to 35 (and *, @, # as 36 to 38), every second doubled; the decimal
    /// digits of all are summed, and the check digit brings the sum to a multiple of 10.
    static func securitiesCheck(_ chars: [UInt8]) -> Bool {
        var sum = 0
        for (i, b) in chars.dropLast().enumerated() {
            guard let v = securitiesAlphabet.firstIndex(of: b) else { return false }
            var p = v * (i % 2 == 0 ? 1 : 2)
            while p > 0 { sum += p % 10; p /= 10 }
        }
        return Int(chars[chars.count - 1]) - 48 == (10 - sum % 10) % 10
    }

    /// CAS Registry Number: the digits before the check digit, weighted 1, 2, 3, ... from the right, modulo 10.
    static func casRegistryCheck(_ chars: [UInt8]) -> Bool {
        let digits = chars.filter { $0 != UInt8(ascii: "-") }
        var sum = 0
        for (i, b) in digits.dropLast().reversed().enumerated() { sum += (i + 1) * (Int(b) - 48) }
        return Int(chars[chars.count - 1]) - 48 == sum % 10
    }
}
