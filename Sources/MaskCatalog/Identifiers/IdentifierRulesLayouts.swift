/// The rules of per-country IBANs, zero-padded numbers, numbers whose validity stdnum reads from the clock, the
/// German Leitweg-ID and the French RCS number. Each takes the compact number's ASCII bytes, its length and per-place alphabet already checked, and
/// has a twin of the same name in `scripts/identifier_formats_layouts.py`, verified against stdnum.
extension IdentifierRules {
    /// The rules of this file by name.
    static let layoutsRules: [String: Rule] = [
        "iban.check": { chars in CheckDigits.mod97_10((chars[4...] + chars[0..<4])[...]) },
        "be.iban.check": { chars in
            let account = CheckDigits.remainder(chars[4..<(chars.count - 2)], 97) ?? -1
            return value(chars, chars.count - 2, 2) == (account == 0 ? 97 : account)
        },
        "es.iban.ccc": { chars in spanishCCC(Array(chars[4...])) == nil },
        "no.iban.kontonr": { chars in
            // The account's postgiro bank code 0000 is dropped, as stdnum compacts an account number.
            let account = chars[4..<8].allSatisfy { $0 == UInt8(ascii: "0") } ? chars[8...] : chars[4...]
            return norwegianAccount(Array(account)) == nil
        },
        "no.kontonr.check": { chars in norwegianAccountCheck(chars) },
        "ch.esr.check": { chars in swissESRCheck(chars) },
        "sg.uen.check": { chars in singaporeUEN(chars) },
        "ro.onrc.check": { chars in romanianONRC(chars) },
        "de.leitweg.check": { chars in germanLeitweg(chars) },
        "fr.rcs.check": { chars in
            // RCS or rcs (the places take either case), the town, A or B, and a SIREN: Luhn over its nine digits.
            (chars.starts(with: Array("RCS".utf8)) || chars.starts(with: Array("rcs".utf8)))
                && CheckDigits.luhn(chars.suffix(9))
        },
    ]

    /// The checks an IBAN's account runs (`IdentifierFormat.valueProblem`): the data and rules of their own presets,
    /// not copies.
    private static let spanishCCC = IdentifierCatalog.format(named: "es.ccc")!.valueProblem()
    private static let norwegianAccount = IdentifierCatalog.format(named: "no.kontonr")!.valueProblem()

    /// Norwegian account number: seven digits by Luhn, or eleven weighted 6 7 8 9 4 5 6 7 8 9 modulo 11 (a remainder
    /// of 10 never matches).
    static func norwegianAccountCheck(_ chars: [UInt8]) -> Bool {
        if chars.count == 7 { return CheckDigits.luhn(chars[...]) }
        let weights = [6, 7, 8, 9, 4, 5, 6, 7, 8, 9]
        let sum = zip(weights, chars).reduce(0) { $0 + $1.0 * (Int($1.1) - 48) }
        return sum % 11 == Int(chars[10]) - 48
    }

    /// Swiss ESR reference: modulo 10, recursive, each digit moving the carry through a fixed table.
    static func swissESRCheck(_ chars: [UInt8]) -> Bool {
        let table = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5]
        var carry = 0
        for b in chars.dropLast() { carry = table[(Int(b) - 48 + carry) % 10] }
        return Int(chars[chars.count - 1]) - 48 == (10 - carry) % 10
    }

    private static let uenEntityTypes: Set<[UInt8]> = Set(
        [
            "CC", "CD", "CH", "CL", "CM", "CP", "CS", "CX", "DP", "FB", "FC", "FM", "FN", "GA", "GB", "GS", "HS", "LL",
            "LP", "MB", "MC", "MD", "MH", "MM", "MQ", "NB", "NR", "PA", "PB", "PF", "RF", "RP", "SM", "SS", "TC", "TU",
            "VH", "XL",
        ].map { Array($0.utf8) })
    private static let uenOtherAlphabet = Array("ABCDEFGHJKLMNPQRSTUVWX0123456789".utf8)

    /// Singapore UEN: a business (eight digits and a check letter), a local company (the year of registration, up to
    /// 2099 whatever today is, five digits and a check letter), or another entity (R, S or T, a two-digit year, the
    /// entity type, four digits and a check character).
    static func singaporeUEN(_ chars: [UInt8]) -> Bool {
        func isDigits(_ range: Range<Int>) -> Bool { chars[range].allSatisfy { CheckDigits.digit($0) != nil } }
        func weighted(_ weights: [Int], _ v: (UInt8) -> Int) -> Int {
            zip(weights, chars).reduce(0) { $0 + $1.0 * v($1.1) }
        }
        if chars.count == 9 {
            guard isDigits(0..<8) else { return false }
            let s = weighted([10, 4, 9, 3, 8, 2, 7, 1]) { Int($0) - 48 }
            return chars[8] == Array("XMKECAWLJDB".utf8)[s % 11]
        }
        if CheckDigits.digit(chars[0]) != nil {
            guard isDigits(0..<9), value(chars, 0, 4) <= 2099 else { return false }
            let s = weighted([10, 8, 6, 4, 9, 7, 5, 3, 1]) { Int($0) - 48 }
            return chars[9] == Array("ZKCMDNERGWH".utf8)[s % 11]
        }
        guard Array("RST".utf8).contains(chars[0]), isDigits(1..<3), uenEntityTypes.contains(Array(chars[3..<5])),
            isDigits(5..<9)
        else { return false }
        let s = weighted([4, 3, 5, 3, 10, 2, 2, 5, 7]) { uenOtherAlphabet.firstIndex(of: $0) ?? 0 }
        return chars[9] == uenOtherAlphabet[CheckDigits.modulo(s - 5, 11)]
    }

    /// German Leitweg-ID: the coarse part (two to twelve digits, the first two a state's code, 01 to 16, or the
    /// federation's, 99), the fine part (a dash and up to thirty letters and digits, or nothing), a dash and two check
    /// digits: ISO 7064 mod 97-10 over the whole without its dashes.
    static func germanLeitweg(_ chars: [UInt8]) -> Bool {
        let dash = UInt8(ascii: "-")
        let parts = chars[..<(chars.count - 3)].split(separator: dash, omittingEmptySubsequences: false)
        guard parts.count <= 2, (2...12).contains(parts[0].count),
            parts[0].allSatisfy({ CheckDigits.digit($0) != nil })
        else { return false }
        if parts.count == 2 && parts[1].count > 30 { return false }
        let state = value(chars, 0, 2)
        return ((1...16).contains(state) || state == 99) && CheckDigits.mod97_10(chars.filter { $0 != dash }[...])
    }

    private static let onrcCounties: Set<Int> = Set(1...40).union([51, 52])

    /// Romanian ONRC: the old form (county, serial and year between slashes, the year from 1990 to 2024), or the new
    /// one (the year from 1990 up to 2099 whatever today is, six digits, the county, 0 from 2025 on and either in
    /// 2024, and a check digit: the sum of the others, the letter counting its code's last digit, modulo 10).
    static func romanianONRC(_ chars: [UInt8]) -> Bool {
        let slash = UInt8(ascii: "/")
        if chars.contains(slash) {
            let parts = chars[1...].split(separator: slash, omittingEmptySubsequences: false)
            guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { CheckDigits.digit($0) != nil } })
            else { return false }
            let county = value(Array(parts[0]), 0, parts[0].count)
            let year = value(Array(parts[2]), 0, parts[2].count)
            return parts[0].count == 2 && onrcCounties.contains(county) && parts[1].count <= 5 && parts[2].count == 4
                && (1990...2024).contains(year)
        }
        guard chars.count == 14, chars[1...].allSatisfy({ CheckDigits.digit($0) != nil }) else { return false }
        let year = value(chars, 1, 4), county = value(chars, 11, 2)
        guard (1990...2099).contains(year) else { return false }
        if year < 2024 && !onrcCounties.contains(county) { return false }
        if year == 2024 && county != 0 && !onrcCounties.contains(county) { return false }
        if year > 2024 && county != 0 { return false }
        let sum = chars[1..<13].reduce(Int(chars[0]) % 10) { $0 + Int($1) - 48 }
        return Int(chars[13]) - 48 == sum % 10
    }
}
