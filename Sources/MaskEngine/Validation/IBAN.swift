extension Checks {
    /// Every country of the SWIFT IBAN registry (89 of them, as of 2025) with its IBAN's total
    /// length. Territories that use their parent's code (Åland: FI; Guernsey, Jersey, Isle
    /// of Man: GB; the French overseas territories: FR) have no entry of their own, because
    /// their IBANs begin with the parent's code.
    package static let ibanLengths: [String: Int] = [
        "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22,
        "BH": 22, "BI": 27, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24,
        "DE": 22, "DJ": 27, "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18,
        "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27,
        "GT": 28, "HN": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
        "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20,
        "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20,
        "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23, "PK": 24,
        "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24,
        "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25,
        "SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
        "YE": 30,
    ]

    /// An uppercase ASCII letter's IBAN value, A = 10 to Z = 35; nil for anything else.
    static func ibanLetter(_ c: Character) -> Int? {
        guard let a = c.asciiValue, a >= 65, a <= 90 else { return nil }
        return Int(a - 65) + 10
    }

    /// An IBAN without spaces: country, two check digits, then the BBAN. The problems come
    /// in the order a person can act on them: characters, country, length, check digits.
    static func iban(_ chars: [Character]) -> String? {
        if chars.count < 4 { return "IBAN is too short" }
        for c in chars where digit(c) == nil && ibanLetter(c) == nil {
            return "'\(c)' is not an uppercase letter or digit"
        }
        let country = String(chars[0..<2])
        guard ibanLetter(chars[0]) != nil, ibanLetter(chars[1]) != nil else {
            return "IBAN must start with a country code"
        }
        guard let length = ibanLengths[country] else {
            return "no such country code '\(country)'"
        }
        if chars.count != length {
            return "IBAN for \(country) has \(length) characters, not \(chars.count)"
        }
        guard let check = number(chars, 2, 2) else { return "characters 3 and 4 must be digits" }
        // ISO 7064 MOD 97-10 only ever produces 02 to 98; 00, 01 and 99 can pass the sum by
        // accident (they are 97 away from a real check), so they are refused outright.
        if check < 2 || check > 98 { return "check digits must be 02 to 98" }
        return ibanRemainder(chars) == 1 ? nil : "check digits do not match"
    }

    /// The IBAN as a number mod 97, after moving its first four characters to the end and
    /// spelling letters as two digits. Folding one character at a time keeps the running
    /// remainder below 97, so no big-number arithmetic is needed for 34 characters.
    static func ibanRemainder(_ chars: [Character]) -> Int {
        var rest = 0
        for i in 0..<chars.count {
            let c = chars[(i + 4) % chars.count]
            if let d = digit(c) {
                rest = (rest * 10 + d) % 97
            } else if let v = ibanLetter(c) {
                rest = (rest * 100 + v) % 97
            }
        }
        return rest
    }
}
