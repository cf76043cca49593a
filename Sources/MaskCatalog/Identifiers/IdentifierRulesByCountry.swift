import MaskEngine

/// The rules of single identifiers, continued: national numbers whose check or embedded date no family
/// expresses. Each takes the compact number's ASCII bytes, its length and per-place alphabet already
/// checked, and has a twin of the same name in `scripts/identifier_metadata.py`, verified against stdnum.
extension IdentifierRules {
    /// The rules of this file by name.
    static let countryRules: [String: Rule] = [
        "fr.nir.check": { chars in frenchNIR(chars) },
        "fr.siret.check": { chars in frenchSIRET(chars) },
        "fr.tva.check": { chars in frenchTVA(chars) },
        "es.nif.check": { chars in spanishNIF(chars) },
        "it.iva.province": { chars in italianProvince(chars) },
        "it.codicefiscale.check": { chars in italianFiscalCode(chars) },
        "luhn36": { chars in luhn(chars[...], alphabet: alnum36) },
        "gb.vat.check": { chars in britishVAT(chars) },
        "be.vat.check": { chars in belgianVAT(chars) },
        "fi.hetu.check": { chars in finnishHETU(chars) },
        "cl.rut.check": { chars in chileanRUT(chars) },
        "co.nit.check": { chars in colombianNIT(chars) },
        "za.idnr.date": { chars in date(chars, century: 2000) },
        "kr.rrn.date": { chars in koreanRRNDate(chars) },
        "cn.ric.date": { chars in chineseRICDate(chars) },
        "cn.ric.place": { chars in ChineseCounties.assigned(chars) },
        "nl.btw.check": { chars in dutchBTW(chars) },
        "isin.check": { chars in isinCheck(chars) },
        "iso6346.check": { chars in containerCheck(chars) },
        "isbn.check": { chars in isbnCheck(chars) },
        "ismn.check": { chars in eanCheck(chars.count == 10 ? Array("9790".utf8) + chars[1...] : chars) },
        "mx.curp.date": { chars in mexicanCURPDate(chars) },
        "mx.curp.check": { chars in mexicanCURPCheck(chars) },
    ]

    static func value(_ chars: [UInt8], _ start: Int, _ count: Int) -> Int {
        CheckDigits.number(chars, start, count)
    }

    private static func isDigits(_ chars: ArraySlice<UInt8>) -> Bool {
        chars.allSatisfy { CheckDigits.digit($0) != nil }
    }

    private static let alnum36: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    /// Luhn over an alphabet of any size: from the right, every second value doubled and its digits in base n added.
    static func luhn(_ chars: ArraySlice<UInt8>, alphabet: [UInt8]) -> Bool {
        let n = alphabet.count
        var sum = 0
        for (i, b) in chars.reversed().enumerated() {
            guard var v = alphabet.firstIndex(of: b) else { return false }
            if i % 2 == 1 { v *= 2; v = v / n + v % n }
            sum += v
        }
        return sum % n == 0
    }

    /// YYMMDD from the start is a date of the century `century`.
    private static func date(_ chars: [UInt8], century: Int) -> Bool {
        CheckDigits.isDate(year: century + value(chars, 0, 2), month: value(chars, 2, 2), day: value(chars, 4, 2))
    }

    /// French NIR: 97 minus the first 13 characters modulo 97 (Corsica's 2A and 2B read as 19 and 18) is the last two.
    static func frenchNIR(_ chars: [UInt8]) -> Bool {
        var body = Array(chars[0..<13])
        if !isDigits(chars[5..<7]) {
            guard chars[5] == UInt8(ascii: "2"), chars[6] == UInt8(ascii: "A") || chars[6] == UInt8(ascii: "B") else {
                return false
            }
            body[5] = UInt8(ascii: "1")
            body[6] = chars[6] == UInt8(ascii: "A") ? UInt8(ascii: "9") : UInt8(ascii: "8")
        }
        guard let r = CheckDigits.remainder(body[...], 97) else { return false }
        return value(chars, 13, 2) == 97 - r
    }

    /// French SIRET: Luhn, except La Poste's establishments (356000000, not the head office), whose digits sum to a multiple of 5.
    static func frenchSIRET(_ chars: [UInt8]) -> Bool {
        if chars.starts(with: Array("356000000".utf8)), chars != Array("35600000000048".utf8) {
            return chars.reduce(0) { $0 + Int($1) - 48 } % 5 == 0
        }
        return CheckDigits.luhn(chars[...])
    }

    private static let frenchTVAAlphabet: [UInt8] = Array("0123456789ABCDEFGHJKLMNPQRSTUVWXYZ".utf8)

    /// French TVA: the SIREN's Luhn (not for Monaco's 000), then the two check characters: digits from the
    /// SIREN modulo 97, or the newer scheme of letters.
    static func frenchTVA(_ chars: [UInt8]) -> Bool {
        if chars[2..<5] != Array("000".utf8)[...], !CheckDigits.luhn(chars[2...]) { return false }
        guard let a = frenchTVAAlphabet.firstIndex(of: chars[0]), let b = frenchTVAAlphabet.firstIndex(of: chars[1]),
            let siren = CheckDigits.remainder(chars[2...], 97), let siren11 = CheckDigits.remainder(chars[2...], 11)
        else { return false }
        if a < 10 && b < 10 { return a * 10 + b == (siren * 100 + 12) % 97 }
        let check = a < 10 ? a * 24 + b - 10 : a * 34 + b - 100
        return (siren11 + 1 + check / 11) % 11 == check % 11
    }

    private static let dniLetters: [UInt8] = Array("TRWAGMYFPDXBNJZSQVHLCKE".utf8)

    /// Spanish NIF: a DNI (digits first), K, L or M with the DNI letter of the seven digits, an NIE (X, Y, Z), else a CIF.
    static func spanishNIF(_ chars: [UInt8]) -> Bool {
        let first = chars[0]
        if CheckDigits.digit(first) != nil || Array("KLM".utf8).contains(first) {
            let body = CheckDigits.digit(first) != nil ? chars[0..<8] : chars[1..<8]
            guard let r = CheckDigits.remainder(body, 23) else { return false }
            return chars[8] == dniLetters[r]
        }
        if Array("XYZ".utf8).contains(first) { return spanishNIECheck(chars) }
        return Array("ABCDEFGHJNPQRSUVW".utf8).contains(first) && spanishCIFCheck(chars)
    }

    /// Italian VAT number: the province code in digits 8 to 10 is 001 to 100, 120, 121, 888 or 999.
    static func italianProvince(_ chars: [UInt8]) -> Bool {
        let p = value(chars, 7, 3)
        return (1...100).contains(p) || [120, 121, 888, 999].contains(p)
    }

    private static let fiscalDigits: [UInt8] = Array("0123456789LMNPQRSTUV".utf8)
    private static let fiscalMonths: [UInt8] = Array("ABCDEHLMPRST".utf8)
    private static let fiscalOdd = [
        1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23,
    ]

    /// Italian codice fiscale: a company's 11 digits as a VAT number; a person's 16 characters with the check
    /// letter of the first 15 (odd places by a table) and a birth date (years 1920 to 2019, women's day + 40).
    static func italianFiscalCode(_ chars: [UInt8]) -> Bool {
        if chars.count == 11 {
            return chars[0..<7].contains { $0 != UInt8(ascii: "0") } && italianProvince(chars)
                && CheckDigits.luhn(chars[...])
        }
        var sum = 0
        for (i, b) in chars.prefix(15).enumerated() {
            let v = CheckDigits.digit(b) ?? Int(b) - 65
            sum += i % 2 == 0 ? fiscalOdd[v] : v
        }
        guard chars[15] == UInt8(65 + sum % 26) else { return false }
        func digit(_ i: Int) -> Int { (fiscalDigits.firstIndex(of: chars[i]) ?? 0) % 10 }
        var year = digit(6) * 10 + digit(7)
        year += year >= 20 ? 1900 : 2000
        let day = (digit(9) * 10 + digit(10)) % 40
        guard let month = fiscalMonths.firstIndex(of: chars[8]) else { return false }
        return CheckDigits.isDate(year: year, month: month + 1, day: day)
    }

    /// British VAT: a government department (GD, under 500) or health authority (HA, 500 up), else weights
    /// 8 to 2, 10, 1 whose sum modulo 97 is 0 (or 42 or 55 for numbers from 100).
    static func britishVAT(_ chars: [UInt8]) -> Bool {
        func authority(_ n: Int) -> Bool {
            (chars[0] == UInt8(ascii: "G") && chars[1] == UInt8(ascii: "D") && n < 500)
                || (chars[0] == UInt8(ascii: "H") && chars[1] == UInt8(ascii: "A") && n >= 500)
        }
        if chars.count == 5 { return authority(value(chars, 2, 3)) }
        if chars.count == 11 {
            let n = value(chars, 6, 3)
            return authority(n) && n % 97 == value(chars, 9, 2)
        }
        guard
            let sum = CheckDigits.weightedSum(
                chars, start: 0, weights: [8, 7, 6, 5, 4, 3, 2, 10, 1], values: .dec, fold: false)
        else { return false }
        return value(chars, 0, 3) >= 100 ? [0, 42, 55].contains(sum % 97) : sum % 97 == 0
    }

    /// Belgian VAT: not zero, and the first eight digits plus the last two are a multiple of 97.
    static func belgianVAT(_ chars: [UInt8]) -> Bool {
        guard chars.contains(where: { $0 != UInt8(ascii: "0") }), let r = CheckDigits.remainder(chars[0..<8], 97) else {
            return false
        }
        return (r + value(chars, 8, 2)) % 97 == 0
    }

    private static let hetuCheck: [UInt8] = Array("0123456789ABCDEFHJKLMNPRSTUVWXY".utf8)

    /// Finnish HETU: DDMMYY with the century sign (+ 1800s, - and Y to U 1900s, A to F 2000s), an individual
    /// number 002 to 899, and the check character of the nine digits modulo 31.
    static func finnishHETU(_ chars: [UInt8]) -> Bool {
        let sign = chars[6]
        let century = sign == UInt8(ascii: "+") ? 1800 : Array("-YXWVU".utf8).contains(sign) ? 1900 : 2000
        guard
            CheckDigits.isDate(year: century + value(chars, 4, 2), month: value(chars, 2, 2), day: value(chars, 0, 2)),
            (2...899).contains(value(chars, 7, 3)),
            let r = CheckDigits.remainder(chars[0..<6] + chars[7..<10], 31)
        else { return false }
        return chars[10] == hetuCheck[r]
    }

    /// Chilean RUT: weights 2 to 7 from the right of the digits, sum modulo 11 picks 0 to 9 or K.
    static func chileanRUT(_ chars: [UInt8]) -> Bool {
        var sum = 0
        for (i, b) in chars.dropLast().reversed().enumerated() { sum += (Int(b) - 48) * (4 + (5 - i % 6 + 6) % 6) }
        return chars.last == Array("0123456789K".utf8)[sum % 11]
    }

    /// Colombian NIT: prime weights from the right of the digits, sum modulo 11 picks the check digit.
    static func colombianNIT(_ chars: [UInt8]) -> Bool {
        let weights = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71]
        var sum = 0
        for (w, b) in zip(weights, chars.dropLast().reversed()) { sum += w * (Int(b) - 48) }
        return chars.last == Array("01987654321".utf8)[sum % 11]
    }

    /// Korean RRN: YYMMDD whose century the seventh digit tells (1, 2, 5, 6: 1900s; 3, 4, 7, 8: 2000s; else 1800s).
    static func koreanRRNDate(_ chars: [UInt8]) -> Bool {
        let sex = chars[6]
        let century = Array("1256".utf8).contains(sex) ? 1900 : Array("3478".utf8).contains(sex) ? 2000 : 1800
        return date(chars, century: century)
    }

    /// Chinese RIC: the birth date YYYYMMDD after the six-digit place.
    static func chineseRICDate(_ chars: [UInt8]) -> Bool {
        let year = value(chars, 6, 4)
        return year > 0 && CheckDigits.isDate(year: year, month: value(chars, 10, 2), day: value(chars, 12, 2))
    }
}

extension IdentifierRules {
    /// Dutch BTW: the nine digits pass the BSN's eleven test, or `NL` and the whole number pass ISO 7064 mod 97-10.
    static func dutchBTW(_ chars: [UInt8]) -> Bool {
        if let sum = CheckDigits.weightedSum(
            chars, start: 0, weights: [9, 8, 7, 6, 5, 4, 3, 2, -1], values: .dec, fold: false),
            CheckDigits.modulo(sum, 11) == 0
        {
            return true
        }
        return CheckDigits.mod97_10((Array("NL".utf8) + chars)[...])
    }

    /// ISIN: letters read as 10 to 35, the digits so spelled pass Luhn.
    static func isinCheck(_ chars: [UInt8]) -> Bool {
        var digits: [UInt8] = []
        for b in chars {
            guard let v = CheckDigits.alnum36(b) else { return false }
            if v >= 10 { digits.append(UInt8(48 + v / 10)) }
            digits.append(UInt8(48 + v % 10))
        }
        return CheckDigits.luhn(digits[...])
    }

    /// ISO 6346 container code: values (A = 10, skipping 11, 22, 33) times powers of 2, modulo 11, then 10.
    static func containerCheck(_ chars: [UInt8]) -> Bool {
        let alphabet = Array("0123456789A BCDEFGHIJK LMNOPQRSTU VWXYZ".utf8)
        var sum = 0
        for (i, b) in chars.prefix(10).enumerated() {
            guard let v = alphabet.firstIndex(of: b) else { return false }
            sum += v << i
        }
        return Int(chars[10]) - 48 == sum % 11 % 10
    }

    /// ISBN: ten characters weighted 1 to 9 modulo 11 (X for 10), or thirteen digits by the EAN check.
    static func isbnCheck(_ chars: [UInt8]) -> Bool {
        guard chars.count == 10 else { return eanCheck(chars) }
        var sum = 0
        for (i, b) in chars.prefix(9).enumerated() { sum += (i + 1) * (Int(b) - 48) }
        return chars[9] == (sum % 11 == 10 ? UInt8(ascii: "X") : UInt8(48 + sum % 11))
    }

    /// Mexican CURP: YYMMDD whose century the 17th character tells (a digit: 1900s, a letter: 2000s).
    static func mexicanCURPDate(_ chars: [UInt8]) -> Bool {
        let century = CheckDigits.digit(chars[16]) != nil ? 1900 : 2000
        return CheckDigits.isDate(
            year: century + value(chars, 4, 2), month: value(chars, 6, 2), day: value(chars, 8, 2))
    }

    /// Mexican CURP: the first 17 characters (0-9, A-N, Ñ, O-Z) weighted 18 down to 2; the last digit completes the sum to a multiple of 10.
    static func mexicanCURPCheck(_ chars: [UInt8]) -> Bool {
        var sum = 0
        for (i, b) in chars.prefix(17).enumerated() {
            guard var v = CheckDigits.alnum36(b) else { return false }
            if v > 23 { v += 1 }  // Ñ stands after N
            sum += v * (18 - i)
        }
        return Int(chars[17]) - 48 == (10 - sum % 10) % 10
    }
}

/// The county codes of China's resident IDs with the years each was assigned, from the generated table.
enum ChineseCounties {
    /// The year ranges of every code, one after another (a range's first and last year, 0 for an open end), and
    /// where each code's run of them starts and how many it holds.
    private static let table = read(IdentifierCatalog.chineseCounties)

    /// Reads the generated table in one pass over its bytes (it is thousands of codes, read once per process on
    /// the first Chinese ID): codes apart by spaces, each alone (assigned every year) or followed by `:` and its
    /// ranges apart by `|`, a range `LOW-HIGH` with an open end left out. A code listed twice keeps its last ranges.
    static func read(_ text: String) -> (runs: [Int: (start: Int, count: Int)], years: [(low: Int, high: Int)]) {
        var runs: [Int: (start: Int, count: Int)] = [:]
        var years: [(low: Int, high: Int)] = []
        let bytes = Array(text.utf8)
        var i = 0
        /// The number of the digits from `i` on (0 for none), `i` left after them.
        func number() -> Int {
            var value = 0
            while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
                value = value * 10 + Int(bytes[i] - UInt8(ascii: "0"))
                i += 1
            }
            return value
        }
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: " ") {
                i += 1
                continue
            }
            let before = i
            let code = number()
            // (A byte the table never holds is passed over.)
            if i == before {
                i += 1
                continue
            }
            let start = years.count
            if i < bytes.count, bytes[i] == UInt8(ascii: ":") {
                repeat {
                    i += 1  // the `:` or `|` before the range
                    let low = number()
                    var high = 0
                    if i < bytes.count, bytes[i] == UInt8(ascii: "-") {
                        i += 1
                        high = number()
                    }
                    years.append((low, high))
                } while i < bytes.count && bytes[i] == UInt8(ascii: "|")
            } else {
                years.append((0, 0))
            }
            runs[code] = (start, years.count - start)
        }
        return (runs, years)
    }

    /// Whether the six-digit place names a county that had that code in the year of birth.
    static func assigned(_ chars: [UInt8]) -> Bool {
        guard let run = table.runs[CheckDigits.number(chars, 0, 6)] else { return false }
        let year = CheckDigits.number(chars, 6, 4)
        return table.years[run.start..<run.start + run.count].contains { (low, high) in
            (low == 0 || year >= low) && (high == 0 || year <= high)
        }
    }
}
