import MaskEngine

/// The rules of single identifiers of the Americas, Africa, Asia and Oceania that no check family expresses.
/// Each takes the compact number's ASCII bytes, its length and per-place alphabet already checked, and has a
/// twin of the same name in `scripts/identifier_formats_world.py`, verified against stdnum.
extension IdentifierRules {
    /// The rules of this file by name, or nil for a name none has.
    static func worldRule(_ name: String, _ chars: [UInt8]) -> Bool? {
        switch name {
        case "cn.uscc.check": return chineseUSCC(chars)
        case "cu.ni.date": return cubanNIDate(chars)
        case "do.rnc.check": return dominicanRNC(chars)
        case "do.ncf.type": return dominicanNCFType(chars)
        case "ec.ruc.check": return ecuadorianRUC(chars)
        case "gt.nit.check": return guatemalanNIT(chars)
        case "kr.brn.parts": return koreanBRN(chars)
        case "ma.ice.check": return CheckDigits.remainder(chars[...], 97) == 0
        case "mu.nid.date":
            return CheckDigits.isDate(
                year: 2000 + value(chars, 5, 2), month: value(chars, 3, 2), day: value(chars, 1, 2))
        case "mx.rfc.date": return mexicanRFCDate(chars)
        default: return nil
        }
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
