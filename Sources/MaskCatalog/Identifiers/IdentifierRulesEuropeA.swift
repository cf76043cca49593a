import MaskEngine

/// The rules of European identifiers, Andorra to Ireland, and of the EU's own numbers. Each takes the compact
/// number's ASCII bytes, its length and per-place alphabet already checked, and has a twin of the same name in
/// `scripts/identifier_formats_europe_a.py`, verified against stdnum.
extension IdentifierRules {
    /// The rules of this file by name.
    static let europeARules: [String: Rule] = [
        "ad.nrt.range": { chars in andorranNRTRange(chars) },
        "be.mod97": { chars in belgianMod97(chars) },
        "be.nn.check": { chars in belgianNationalNumberCheck(chars) },
        "bg.egn.date": { chars in bulgarianEGNDate(chars) },
        "bg.vat.check": { chars in bulgarianVAT(chars) },
        "cy.vat.check": { chars in cypriotVAT(chars) },
        "cz.rc.date": { chars in czechBirthNumberDate(chars) },
        "cz.rc.check": { chars in chars.count == 9 || czechBirthNumberCheck(chars) },
        "cz.dic.check": { chars in czechDIC(chars) },
        "dk.cpr.date": { chars in danishCPRDate(chars) },
        "ee.ik.date": { chars in estonianIKDate(chars) },
        "baltic.check": { chars in balticCheck(chars) },
        "de.stnr.region": { chars in germanTaxNumberRegion(chars) },
        "es.ccc.check": { chars in spanishBankAccountCheck(chars) },
        "es.cups.check": { chars in spanishCUPSCheck(chars) },
        "es.referenciacatastral.check": { chars in spanishCadastralCheck(chars) },
        "fi.associationid.low": { chars in
            chars.count >= 3 || finnishLowAssociations.contains(value(chars, 0, chars.count))
        },
        "fr.nif.check": { chars in frenchNIFCheck(chars) },
        "gb.sedol.digits": { chars in
            CheckDigits.digit(chars[0]) == nil || chars.allSatisfy { CheckDigits.digit($0) != nil }
        },
        "gb.upn.check": { chars in britishUPNCheck(chars) },
        "gr.amka.date": { chars in greekAMKADate(chars) },
        "ie.pps.check": { chars in irishPPSCheck(chars) },
        "ie.vat.check": { chars in irishVATCheck(chars) },
        "eu.ecnumber.check": { chars in ecNumberCheck(chars) },
        "eu.eic.check": { chars in energyIdentificationCheck(chars) },
        "eu.banknote.check": { chars in euroBanknoteCheck(chars) },
    ]

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
            let r2000 = CheckDigits.remainder([UInt8(ascii: "2")] + chars[0..<9], 97)
        else { return false }
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
            var s = CheckDigits.digitSum(chars[0..<8], weights: Array(1...8)) % 11
            if s == 10 { s = CheckDigits.digitSum(chars[0..<8], weights: Array(3...10)) % 11 }
            return isDigit(chars[8], s % 10)
        }
        if bulgarianEGNDate(chars),
            isDigit(chars[9], CheckDigits.digitSum(chars[0..<9], weights: [2, 4, 8, 5, 10, 9, 7, 3, 6]) % 11 % 10)
        {
            return true
        }
        if isDigit(chars[9], CheckDigits.digitSum(chars[0..<9], weights: [21, 19, 17, 13, 11, 9, 7, 3, 1]) % 10) {
            return true
        }
        return isDigit(
            chars[9],
            CheckDigits.modulo(11 - CheckDigits.digitSum(chars[0..<9], weights: [4, 3, 2, 7, 6, 5, 4, 3, 2]), 11))
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
            let s = CheckDigits.digitSum(chars[0..<7], weights: [8, 7, 6, 5, 4, 3, 2])
            let check = CheckDigits.modulo(11 - s, 11)
            return isDigit(chars[7], (check == 0 ? 1 : check) % 10)
        }
        if chars.count == 9, chars[0] == UInt8(ascii: "6") {
            let s = CheckDigits.digitSum(chars[1..<8], weights: [8, 7, 6, 5, 4, 3, 2]) % 11
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
        return CheckDigits.isDate(
            year: century + value(chars, 1, 2), month: value(chars, 3, 2), day: value(chars, 5, 2))
    }

    /// The Estonian and Lithuanian check digit: weights 1 to 9, 1, ... modulo 11; a 10 is taken again with weights
    /// 3 to 9, 1, 2, ...
    static func balticCheck(_ chars: [UInt8]) -> Bool {
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
        return chars[0] == UInt8(ascii: "5") || chars[0] == UInt8(ascii: "9")
            || germanStates.contains(value(chars, 0, 2))
    }

    /// Spanish bank account (CCC): each check digit weights its ten digits (bank and office after two zeros,
    /// then the account) by 1, 2, 4, 8, ... modulo 11, and is 11 minus that (0 and 1 stay as they are).
    static func spanishBankAccountCheck(_ chars: [UInt8]) -> Bool {
        func check(_ digits: [UInt8]) -> Int {
            var s = 0
            for (i, b) in digits.enumerated() { s += (Int(b) - 48) << i }
            s %= 11
            return s < 2 ? s : 11 - s
        }
        let zero = UInt8(ascii: "0")
        return isDigit(chars[8], check([zero, zero] + chars[0..<8])) && isDigit(chars[9], check(Array(chars[10..<20])))
    }

    private static let spanishLetters: [UInt8] = Array("TRWAGMYFPDXBNJZSQVHLCKE".utf8)

    /// Spanish CUPS: the sixteen digits modulo 529, in base 23, are the two check letters.
    static func spanishCUPSCheck(_ chars: [UInt8]) -> Bool {
        guard let r = CheckDigits.remainder(chars[2..<18], 529) else { return false }
        return chars[18] == spanishLetters[r / 23] && chars[19] == spanishLetters[r % 23]
    }

    private static let cadastralLetters: [UInt8] = Array("MQWERTYUIOPASDFGHJKLBZX".utf8)

    /// Spanish cadastral reference: a check letter for the plot and one for the sheet, each of eleven characters
    /// (the part and the four of the property) weighted, letters counted from A = 1 with Ñ after N.
    static func spanishCadastralCheck(_ chars: [UInt8]) -> Bool {
        func check(_ part: [UInt8]) -> UInt8 {
            let weights = [13, 15, 12, 5, 4, 17, 9, 21, 3, 7, 1]
            var s = 0
            for (w, b) in zip(weights, part) {
                let v = CheckDigits.digit(b) ?? (Int(b) - 64 + (b > UInt8(ascii: "N") ? 1 : 0))
                s += w * v
            }
            return cadastralLetters[s % 23]
        }
        return chars[18] == check(Array(chars[0..<7] + chars[14..<18])) && chars[19] == check(Array(chars[7..<18]))
    }

    private static let finnishLowAssociations: Set<Int> = [
        1, 6, 7, 9, 12, 14, 15, 16, 18, 22, 23, 24, 27, 28, 29, 35, 36, 38, 40, 41, 42, 43, 45, 46,
        50, 52, 55, 58, 60, 64, 65, 68, 72, 75, 76, 77, 78, 83, 84, 85, 89, 92,
    ]

    /// French tax number (NIF): the first ten digits modulo 511 are the last three.
    static func frenchNIFCheck(_ chars: [UInt8]) -> Bool {
        guard let r = CheckDigits.remainder(chars[0..<10], 511) else { return false }
        return value(chars, 10, 3) == r
    }

    private static let upnAlphabet: [UInt8] = Array("ABCDEFGHJKLMNPQRTUVWXYZ0123456789".utf8)

    /// British UPN: the twelve characters after the check letter weighted 2 to 13, modulo 23, pick it.
    static func britishUPNCheck(_ chars: [UInt8]) -> Bool {
        var s = 0
        for (i, b) in chars.dropFirst().enumerated() {
            guard let v = upnAlphabet.firstIndex(of: b) else { return false }
            s += (i + 2) * v
        }
        return chars[0] == upnAlphabet[s % 23]
    }

    /// Greek AMKA: DDMMYY, a date of the 1900s or else of the 2000s.
    static func greekAMKADate(_ chars: [UInt8]) -> Bool {
        let day = value(chars, 0, 2), month = value(chars, 2, 2), year = 1900 + value(chars, 4, 2)
        return CheckDigits.isDate(year: year, month: month, day: day)
            || CheckDigits.isDate(year: year + 100, month: month, day: day)
    }

    private static let irishLetters: [UInt8] = Array("WABCDEFGHIJKLMNOPQRSTUV".utf8)

    /// The Irish check letter: seven digits weighted 8 to 2, and the letter after the check letter (none or W is
    /// 0, A 1, ...) weighted 9, modulo 23.
    private static func irishCheck(_ digits: [UInt8], _ extra: UInt8?) -> UInt8 {
        let body = [UInt8](repeating: UInt8(ascii: "0"), count: max(0, 7 - digits.count)) + digits
        var s = CheckDigits.digitSum(body, weights: [8, 7, 6, 5, 4, 3, 2])
        if let extra { s += 9 * (irishLetters.firstIndex(of: extra) ?? 0) }
        return irishLetters[s % 23]
    }

    /// Irish PPS number: the check letter of the seven digits, and of the letter after it when that is A, B or H.
    static func irishPPSCheck(_ chars: [UInt8]) -> Bool {
        let extra = chars.count == 9 && Array("ABH".utf8).contains(chars[8]) ? chars[8] : nil
        return chars[7] == irishCheck(Array(chars[0..<7]), extra)
    }

    /// Irish VAT: seven digits with their check letter (and the letter after it), or the old form whose second
    /// character is a letter, + or *, checked as its five digits with the first after them.
    static func irishVATCheck(_ chars: [UInt8]) -> Bool {
        if chars[0..<7].allSatisfy({ CheckDigits.digit($0) != nil }) {
            return chars[7] == irishCheck(Array(chars[0..<7]), chars.count == 9 ? chars[8] : nil)
        }
        guard CheckDigits.digit(chars[1]) == nil else { return false }
        return chars[7] == irishCheck(Array(chars[2..<7]) + [chars[0]], nil)
    }

    /// EC number: the six digits weighted 1 to 6, modulo 11, give the last (10 is shown as its first digit, 1).
    static func ecNumberCheck(_ chars: [UInt8]) -> Bool {
        let digits = chars.filter { CheckDigits.digit($0) != nil }
        let s = CheckDigits.digitSum(digits[0..<6], weights: [1, 2, 3, 4, 5, 6]) % 11
        return isDigit(digits[6], s == 10 ? 1 : s)
    }

    private static let eicAlphabet: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-".utf8)

    /// Energy Identification Code: the fifteen characters (0-9, A-Z, `-`) weighted 16 down to 2 give the last.
    static func energyIdentificationCheck(_ chars: [UInt8]) -> Bool {
        var s = 0
        for (i, b) in chars.prefix(15).enumerated() {
            guard let v = eicAlphabet.firstIndex(of: b) else { return false }
            s += (16 - i) * v
        }
        return chars[15] == eicAlphabet[36 - CheckDigits.modulo(s - 1, 37)]
    }

    /// Euro banknote serial number: its digits and its letters' character codes add up to a multiple of 9.
    static func euroBanknoteCheck(_ chars: [UInt8]) -> Bool {
        chars.reduce(0) { $0 + (CheckDigits.digit($1) ?? Int($1)) } % 9 == 0
    }
}
