/// The rules of European identifiers, Andorra to Ireland, and of the EU's own numbers. Each takes the compact
/// number's ASCII bytes, its length and per-place alphabet already checked, and has a twin of the same name in
/// `scripts/identifier_formats_europe_a.py`, verified against stdnum.
extension IdentifierRules {
    /// The rules of this file by name, or nil for a name none has.
    static func europeARule(_ name: String, _ chars: [UInt8]) -> Bool? {
        switch name {
        case "ad.nrt.range": return andorranNRTRange(chars)
        case "be.mod97": return belgianMod97(chars)
        case "be.nn.check": return belgianNationalNumberCheck(chars)
        case "bg.egn.date": return bulgarianEGNDate(chars)
        case "bg.vat.check": return bulgarianVAT(chars)
        case "cy.vat.check": return cypriotVAT(chars)
        case "cz.rc.date": return czechBirthNumberDate(chars)
        case "cz.rc.check": return chars.count == 9 || czechBirthNumberCheck(chars)
        case "cz.dic.check": return czechDIC(chars)
        case "dk.cpr.date": return danishCPRDate(chars)
        case "ee.ik.date": return estonianIKDate(chars)
        case "ee.ik.check": return estonianCheck(chars)
        case "de.stnr.region": return germanTaxNumberRegion(chars)
        default: return nil
        }
    }

    private static func digitSum(_ chars: ArraySlice<UInt8>, _ weights: [Int]) -> Int {
        zip(weights, chars).reduce(0) { $0 + $1.0 * (Int($1.1) - 48) }
    }

    private static func isDigit(_ b: UInt8, _ d: Int) -> Bool { Int(b) - 48 == d }

    /// Andorran NRT: an F (company) is numbered up to 699999; an A or L from 700000 to 799999.
    static func andorranNRTRange(_ chars: [UInt8]) -> Bool {
        let n = value(chars, 1, 6)
        switch chars[0] {
        case UInt8(ascii: "F"): return n <= 699_999
        case UInt8(ascii: "A"), UInt8(ascii: "L"): return n >= 700_000 && n < 800_000
        default: return true
        }
    }

    /// Belgian eID card number, structured payment reference: the first ten digits modulo 97 (97 for 0) are the last two.
    static func belgianMod97(_ chars: [UInt8]) -> Bool {
        guard let r = CheckDigits.remainder(chars[0..<10], 97) else { return false }
        return (r == 0 ? 97 : r) == value(chars, 10, 2)
    }

    /// Belgian national and BIS number: 97 minus the first nine digits modulo 97 are the last two; for births
    /// from 2000 the nine digits are read with a 2 before them.
    static func belgianNationalNumberCheck(_ chars: [UInt8]) -> Bool {
        guard let r1900 = CheckDigits.remainder(chars[0..<9], 97),
              let r2000 = CheckDigits.remainder([UInt8(ascii: "2")] + chars[0..<9], 97) else { return false }
        let check = value(chars, 9, 2)
        return 97 - r1900 == check || 97 - r2000 == check
    }

    /// Bulgarian EGN: YYMMDD, the month + 20 for the 1800s and + 40 for the 2000s.
    static func bulgarianEGNDate(_ chars: [UInt8]) -> Bool {
        var year = 1900 + value(chars, 0, 2)
        var month = value(chars, 2, 2)
        if month > 40 { year += 100; month -= 40 } else if month > 20 { year -= 100; month -= 20 }
        return CheckDigits.isDate(year: year, month: month, day: value(chars, 4, 2))
    }

    /// Bulgarian VAT: a company's nine digits (weights 1 to 8, or 3 to 10 when that leaves 10), else ten digits
    /// that are an EGN, a foreigner's PNF or another person's number (weights 4 3 2 7 6 5 4 3 2).
    static func bulgarianVAT(_ chars: [UInt8]) -> Bool {
        if chars.count == 9 {
            var s = digitSum(chars[0..<8], Array(1...8)) % 11
            if s == 10 { s = digitSum(chars[0..<8], Array(3...10)) % 11 }
            return isDigit(chars[8], s % 10)
        }
        if bulgarianEGNDate(chars), isDigit(chars[9], digitSum(chars[0..<9], [2, 4, 8, 5, 10, 9, 7, 3, 6]) % 11 % 10) {
            return true
        }
        if isDigit(chars[9], digitSum(chars[0..<9], [21, 19, 17, 13, 11, 9, 7, 3, 1]) % 10) { return true }
        return isDigit(chars[9], CheckDigits.modulo(11 - digitSum(chars[0..<9], [4, 3, 2, 7, 6, 5, 4, 3, 2]), 11))
    }

    private static let cypriotOdd = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21]

    /// Cypriot VAT: the eight digits, those in odd places by a table, summed modulo 26 give the letter.
    static func cypriotVAT(_ chars: [UInt8]) -> Bool {
        var s = 0
        for (i, b) in chars.prefix(8).enumerated() { s += i % 2 == 0 ? cypriotOdd[Int(b) - 48] : Int(b) - 48 }
        return chars[8] == UInt8(65 + s % 26)
    }

    /// Czech birth number: YYMMDD (women's month + 50, either's + 20 when a day ran out of numbers); nine digits
    /// up to 1953, ten from 1954.
    static func czechBirthNumberDate(_ chars: [UInt8]) -> Bool {
        var year = 1900 + value(chars, 0, 2)
        if chars.count == 9 {
            if year >= 1980 { year -= 100 }
            if year > 1953 { return false }
        } else if year < 1954 {
            year += 100
        }
        return CheckDigits.isDate(year: year, month: value(chars, 2, 2) % 50 % 20, day: value(chars, 4, 2))
    }

    /// Czech birth number of ten digits: the first nine modulo 11, then 10, are the last.
    static func czechBirthNumberCheck(_ chars: [UInt8]) -> Bool {
        guard let r = CheckDigits.remainder(chars[0..<9], 11) else { return false }
        return isDigit(chars[9], r % 10)
    }

    /// Czech DIČ: a company's eight digits (weights 8 to 2), nine from 6 for special cases, else a birth number.
    static func czechDIC(_ chars: [UInt8]) -> Bool {
        if chars.count == 8 {
            let s = digitSum(chars[0..<7], [8, 7, 6, 5, 4, 3, 2])
            let check = CheckDigits.modulo(11 - s, 11)
            return isDigit(chars[7], (check == 0 ? 1 : check) % 10)
        }
        if chars.count == 9, chars[0] == UInt8(ascii: "6") {
            let s = digitSum(chars[1..<8], [8, 7, 6, 5, 4, 3, 2]) % 11
            return isDigit(chars[8], (8 - (10 - s) % 11) % 10)
        }
        return czechBirthNumberDate(chars) && (chars.count == 9 || czechBirthNumberCheck(chars))
    }

    /// Danish CPR: DDMMYY whose century the seventh digit and the year tell.
    static func danishCPRDate(_ chars: [UInt8]) -> Bool {
        var year = value(chars, 4, 2)
        let seventh = chars[6]
        if Array("5678".utf8).contains(seventh) && year >= 58 {
            year += 1800
        } else if Array("0123".utf8).contains(seventh) || (Array("49".utf8).contains(seventh) && year >= 37) {
            year += 1900
        } else {
            year += 2000
        }
        return CheckDigits.isDate(year: year, month: value(chars, 2, 2), day: value(chars, 0, 2))
    }

    /// Estonian personal code: the first digit tells the century (1, 2: 1800s; 3, 4: 1900s; 5, 6: 2000s; 7, 8: 2100s), then YYMMDD.
    static func estonianIKDate(_ chars: [UInt8]) -> Bool {
        let century = 1800 + (Int(chars[0]) - 49) / 2 * 100
        return CheckDigits.isDate(year: century + value(chars, 1, 2), month: value(chars, 3, 2), day: value(chars, 5, 2))
    }

    /// Estonian check digit: weights 1 to 9, 1, ...; a sum of 10 modulo 11 is taken again with weights 3 to 9, 1, 2, ...
    static func estonianCheck(_ chars: [UInt8]) -> Bool {
        let body = chars.dropLast()
        var s = 0
        for (i, b) in body.enumerated() { s += (i % 9 + 1) * (Int(b) - 48) }
        s %= 11
        if s == 10 {
            s = 0
            for (i, b) in body.enumerated() { s += ((i + 2) % 9 + 1) * (Int(b) - 48) }
            s %= 11
        }
        return isDigit(chars[chars.count - 1], s % 10)
    }

    private static let germanStates: Set<Int> = [28, 11, 30, 24, 22, 26, 40, 23, 27, 10, 32, 31, 21, 41]

    /// German tax number: the 13-digit national form starts with a state's two digits (Bavaria's 9 and North
    /// Rhine-Westphalia's 5 with a digit of the office) and has a 0 after the four. (A 0 of the layout there
    /// would be a literal in the middle of a `oneOf` of lengths, which the shorter layouts' slots take first.)
    static func germanTaxNumberRegion(_ chars: [UInt8]) -> Bool {
        guard chars.count == 13 else { return true }
        guard chars[4] == UInt8(ascii: "0") else { return false }
        return chars[0] == UInt8(ascii: "5") || chars[0] == UInt8(ascii: "9") || germanStates.contains(value(chars, 0, 2))
    }
}
