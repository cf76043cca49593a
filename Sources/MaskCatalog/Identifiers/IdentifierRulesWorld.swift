import MaskEngine

/// The rules of single identifiers of the Americas, Africa, Asia and Oceania that no check family expresses.
/// Each takes the compact number's ASCII bytes, its length and per-place alphabet already checked, and has a
/// twin of the same name in `scripts/identifier_formats_world.py`, verified against stdnum.
extension IdentifierRules {
    /// The rules of this file by name.
    static let worldRules: [String: Rule] = [
        "cn.uscc.check": { chars in chineseUSCC(chars) },
        "cu.ni.date": { chars in cubanNIDate(chars) },
        "do.rnc.check": { chars in dominicanRNC(chars) },
        "do.ncf.type": { chars in dominicanNCFType(chars) },
        "ec.ruc.check": { chars in ecuadorianRUC(chars) },
        "gt.nit.check": { chars in guatemalanNIT(chars) },
        "kr.brn.parts": { chars in koreanBRN(chars) },
        "ma.ice.check": { chars in CheckDigits.remainder(chars[...], 97) == 0 },
        "mu.nid.date": { chars in
            CheckDigits.isDate(year: 2000 + value(chars, 5, 2), month: value(chars, 3, 2), day: value(chars, 1, 2))
        },
        "mx.rfc.date": { chars in mexicanRFCDate(chars) },
        // stdnum tries the 1900s, then the 2000s: a day of either is a day of the 2000s (1900 was no leap year).
        "my.nric.date": { chars in
            CheckDigits.isDate(year: 2000 + value(chars, 0, 2), month: value(chars, 2, 2), day: value(chars, 4, 2))
        },
        "nz.ird.check": { chars in newZealandIRD(chars) },
        "pe.cui.check": { chars in peruvianCUI(chars) },
        "py.ruc.check": { chars in paraguayanRUC(chars) },
        "sn.ninea.check": { chars in senegaleseNINEA(chars) },
        "sv.nit.check": { chars in salvadoranNIT(chars) },
        "tn.mf.establishment": { chars in
            chars.count == 8 || chars[9] == UInt8(ascii: "E") || value(chars, 10, 3) == 0
        },
        "tr.vkn.check": { chars in turkishVKN(chars) },
        "tw.ubn.check": { chars in taiwaneseUBN(chars) },
        "ve.rif.check": { chars in venezuelanRIF(chars) },
    ]

    /// The weighted sum of the digits from `start` (as many as there are weights; the alphabet made them digits).
    /// New Zealand IRD number: between 10,000,000 and 150,000,000; the digits before the check, padded to eight,
    /// weighted 3 2 7 6 5 4 3 2 and negated modulo 11 give it, or, for 10, weighted 7 4 3 2 5 2 7 6.
    static func newZealandIRD(_ chars: [UInt8]) -> Bool {
        let number = value(chars, 0, chars.count)
        guard number > 10_000_000 && number < 150_000_000 else { return false }
        let body = [UInt8](repeating: UInt8(ascii: "0"), count: 9 - chars.count) + chars.dropLast()
        var check = CheckDigits.modulo(-CheckDigits.digitSum(body, weights: [3, 2, 7, 6, 5, 4, 3, 2]), 11)
        if check == 10 {
            check = CheckDigits.modulo(-CheckDigits.digitSum(body, weights: [7, 4, 3, 2, 5, 2, 7, 6]), 11)
        }
        return check < 10 && value(chars, chars.count - 1, 1) == check
    }

    /// Peruvian CUI: eight digits alone, or a ninth check character, a digit or its letter, by the sum weighted
    /// 3 2 7 6 5 4 3 2 modulo 11.
    static func peruvianCUI(_ chars: [UInt8]) -> Bool {
        guard chars.count == 9 else { return true }
        let r = CheckDigits.digitSum(chars, weights: [3, 2, 7, 6, 5, 4, 3, 2]) % 11
        return chars[8] == Array("65432110987".utf8)[r] || chars[8] == Array("KJIHGFEDCBA".utf8)[r]
    }

    /// Paraguayan RUC: weights 2, 3, 4, ... from the right before the check digit; minus the sum modulo 11, then
    /// modulo 10.
    static func paraguayanRUC(_ chars: [UInt8]) -> Bool {
        let total = chars.dropLast().reversed().enumerated().reduce(0) { $0 + ($1.offset + 2) * (Int($1.element) - 48) }
        return value(chars, chars.count - 1, 1) == CheckDigits.modulo(-total, 11) % 10
    }

    /// Senegalese NINEA: its seven- or nine-digit number (before a COFI code), padded to nine, weighted 1 2 1 2 ...
    /// without adding the products' digits, sums to a multiple of 10.
    static func senegaleseNINEA(_ chars: [UInt8]) -> Bool {
        let count = chars.count == 9 || chars.count == 12 ? 9 : 7
        let body = [UInt8](repeating: UInt8(ascii: "0"), count: 9 - count) + chars.prefix(count)
        return CheckDigits.digitSum(body, weights: [1, 2, 1, 2, 1, 2, 1, 2, 1]) % 10 == 0
    }

    /// Salvadoran NIT: with a serial up to 100 the weights run 14 down to 2 and the sum modulo 11, then 10, is the
    /// check digit; above, the weights are 2 7 6 5 4 3 2 7 6 5 4 3 2 and the sum is negated first.
    static func salvadoranNIT(_ chars: [UInt8]) -> Bool {
        let check = value(chars, 13, 1)
        if value(chars, 10, 3) <= 100 {
            return check == CheckDigits.digitSum(chars, weights: Array((2...14).reversed())) % 11 % 10
        }
        return check == CheckDigits.modulo(
            -CheckDigits.digitSum(chars, weights: [2, 7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2]), 11) % 10
    }

    /// Turkish VKN: from the right of the first nine digits, each digit d at place i (from 1) adds
    /// ((d + i) mod 10) 2^i mod 9 (9 for a multiple of 9) unless (d + i) mod 10 is 0; minus the sum modulo 10 is
    /// the tenth digit.
    static func turkishVKN(_ chars: [UInt8]) -> Bool {
        var total = 0
        for (i, b) in chars.prefix(9).reversed().enumerated() {
            let place = i + 1
            let shifted = (Int(b) - 48 + place) % 10
            if shifted != 0 {
                let term = shifted * (1 << place) % 9
                total += term == 0 ? 9 : term
            }
        }
        return value(chars, 9, 1) == CheckDigits.modulo(-total, 10)
    }

    /// Taiwanese UBN: weights 1 2 1 2 1 2 4 1, each product's digits added; the sum is a multiple of 10, or one
    /// less when the seventh digit is 7.
    static func taiwaneseUBN(_ chars: [UInt8]) -> Bool {
        var total = 0
        for (w, b) in zip([1, 2, 1, 2, 1, 2, 4, 1], chars) {
            let product = w * (Int(b) - 48)
            total += product / 10 + product % 10
        }
        return total % 10 == 0 || (total % 10 == 9 && chars[6] == UInt8(ascii: "7"))
    }

    /// Venezuelan RIF: the type letter's value (V 4, E 8, J 12, P 16, G 20) plus the eight digits weighted
    /// 3 2 7 6 5 4 3 2, modulo 11, names the check digit.
    static func venezuelanRIF(_ chars: [UInt8]) -> Bool {
        guard let type = Array("VEJPG".utf8).firstIndex(of: chars[0]) else { return false }
        let total = 4 * (type + 1) + CheckDigits.digitSum(chars[1...], weights: [3, 2, 7, 6, 5, 4, 3, 2])
        return chars[9] == Array("00987654321".utf8)[total % 11]
    }

    private static let usccAlphabet: [UInt8] = Array("0123456789ABCDEFGHJKLMNPQRTUWXY".utf8)

    /// Chinese USCC: the weighted sum of the first 17 characters (as places in the 31-character alphabet without
    /// I, O, S, V, Z), negated modulo 31, names the last.
    static func chineseUSCC(_ chars: [UInt8]) -> Bool {
        let weights = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28]
        var sum = 0
        for (w, b) in zip(weights, chars) {
            guard let v = usccAlphabet.firstIndex(of: b) else { return false }
            sum += w * v
        }
        return chars[17] == usccAlphabet[CheckDigits.modulo(-sum, 31)]
    }

    /// Cuban NI: YYMMDD, the seventh digit giving the century (9 the 1800s, 0 to 5 the 1900s, 6 to 8 the 2000s).
    static func cubanNIDate(_ chars: [UInt8]) -> Bool {
        let c = chars[6]
        let century = c == UInt8(ascii: "9") ? 1800 : c <= UInt8(ascii: "5") ? 1900 : 2000
        return CheckDigits.isDate(
            year: century + value(chars, 0, 2), month: value(chars, 2, 2), day: value(chars, 4, 2))
    }

    /// Numbers the Dominican tax office lists as valid although their check digit does not match.
    private static let dominicanRNCWhitelist: Set<[UInt8]> = Set(
        [
            "101581601", "101582245", "101595422", "101595785", "131188691", "401007374", "501341601", "501378067",
            "501620371", "501651319", "501651823", "501651845", "501651926", "501656006", "501658167", "501670785",
            "501676936", "501680158", "504654542", "504680029", "504681442", "505038691",
        ].map { Array($0.utf8) })

    /// Dominican RNC: weights 7 9 8 6 5 4 3 2, the sum modulo 11 as r, the check digit (10 - r) mod 9 + 1.
    static func dominicanRNC(_ chars: [UInt8]) -> Bool {
        if dominicanRNCWhitelist.contains(chars) { return true }
        guard
            let sum = CheckDigits.weightedSum(
                chars, start: 0, weights: [7, 9, 8, 6, 5, 4, 3, 2], values: .dec, fold: false)
        else { return false }
        return value(chars, 8, 1) == (10 - sum % 11) % 9 + 1
    }

    /// Dominican NCF: the document type, after the B of a paper receipt or the E of an electronic one, or at
    /// places 10 and 11 of a 19-character one, is one of the types issued for it.
    static func dominicanNCFType(_ chars: [UInt8]) -> Bool {
        let paper = [1, 2, 3, 4, 11, 12, 13, 14, 15, 16, 17]
        switch chars.count {
        case 13: return [31, 32, 33, 34, 41, 43, 44, 45, 46, 47].contains(value(chars, 1, 2))
        case 11: return paper.contains(value(chars, 1, 2))
        default: return paper.contains(value(chars, 9, 2))
        }
    }

    /// Ecuadorian RUC by its third digit: a person's (below 6) is a cedula and a nonzero establishment; a public
    /// body's (6) has weights 3 2 7 6 5 4 3 2 1 summing to a multiple of 11 and a nonzero four-digit establishment,
    /// or else is read as a person's; a company's (9) is a public body's, or has weights 4 3 2 7 6 5 4 3 2 1
    /// and a nonzero establishment.
    static func ecuadorianRUC(_ chars: [UInt8]) -> Bool {
        func weighted(_ weights: [Int]) -> Bool {
            CheckDigits.weightedSum(chars, start: 0, weights: weights, values: .dec, fold: false).map { $0 % 11 == 0 }
                ?? false
        }
        let zeros3 = value(chars, 10, 3) == 0
        let natural =
            !zeros3
            && CheckDigits.weightedSum(
                chars, start: 0, weights: [2, 1, 2, 1, 2, 1, 2, 1, 2, 1],
                values: .dec, fold: true
            ).map { $0 % 10 == 0 } == true
        let isPublic = value(chars, 9, 4) != 0 && weighted([3, 2, 7, 6, 5, 4, 3, 2, 1])
        switch chars[2] {
        case ..<UInt8(ascii: "6"): return natural
        case UInt8(ascii: "6"): return isPublic || natural
        default: return isPublic || (!zeros3 && weighted([4, 3, 2, 7, 6, 5, 4, 3, 2, 1]))
        }
    }

    /// Guatemalan NIT: weights 2, 3, 4, ... from the right before the check character; minus the sum modulo 11
    /// is the check digit, K for 10.
    static func guatemalanNIT(_ chars: [UInt8]) -> Bool {
        var sum = 0
        for (i, b) in chars.dropLast().reversed().enumerated() {
            guard let d = CheckDigits.digit(b) else { return false }
            sum += (i + 2) * d
        }
        return chars.last == Array("0123456789K".utf8)[CheckDigits.modulo(-sum, 11)]
    }

    /// South Korean BRN: a tax office from 101, a type other than 00 and a serial other than 0000.
    static func koreanBRN(_ chars: [UInt8]) -> Bool {
        value(chars, 0, 3) >= 101 && value(chars, 3, 2) != 0 && value(chars, 5, 4) != 0
    }

    /// Mexican RFC: the YYMMDD after the three letters of a company or the four of a person is a date of the
    /// 2000s (stdnum reads every year so).
    static func mexicanRFCDate(_ chars: [UInt8]) -> Bool {
        let at = chars.count == 12 ? 3 : 4
        return CheckDigits.isDate(
            year: 2000 + value(chars, at, 2), month: value(chars, at + 2, 2), day: value(chars, at + 4, 2))
    }
}
