extension Checks {
    /// The GB 11643-1999 weights, 2^(17-i) mod 11 for positions 0 to 16.
    static let idWeights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    /// The check character for each weighted sum mod 11 (ISO 7064 MOD 11-2, 10 written `X`).
    static let idCheckChars: [Character] = ["1", "0", "X", "9", "8", "7", "6", "5", "4", "3", "2"]

    /// Whether the first two digits are a province-level region: the 34 codes in use
    /// (mainland provinces, Taiwan 71, Hong Kong 81, Macau 82) and 91 for residents abroad.
    static func isProvince(_ code: Int) -> Bool {
        switch code {
        case 11...15, 21...23, 31...37, 41...46, 50...54, 61...65, 71, 81, 82, 91: return true
        default: return false
        }
    }

    /// A resident identity number: region, birth date `YYYYMMDD`, sequence, check character.
    /// The check character comes last so a person learns first about mistakes they can see.
    static func chineseID(_ chars: [Character]) -> String? {
        if chars.count != 18 { return "ID number has 18 characters, not \(chars.count)" }
        if let bad = firstNonDigit(Array(chars[0..<17])) { return "'\(bad)' is not a digit" }
        let last = chars[17] == "x" ? "X" : chars[17]
        guard last == "X" || digit(last) != nil else {
            return "the last character must be a digit or X"
        }
        let region = number(chars, 0, 2) ?? 0
        if !isProvince(region) {
            let code = String(chars[0..<2])
            return "no province has the code \(code)"
        }
        let year = number(chars, 6, 4) ?? 0
        if year < 1900 { return "birth year must be 1900 or later" }
        if let problem = dayProblem(
            year: year, month: number(chars, 10, 2) ?? 0,
            day: number(chars, 12, 2) ?? 0)
        {
            return "birth date: " + problem
        }
        return idCheckCharacter(chars) == last ? nil : "check character does not match"
    }

    /// The check character the first 17 digits call for. MOD 11-2 weighs each position by a
    /// power of 2 that is never 0 mod 11, and 11 is prime, so any one wrong character shows.
    static func idCheckCharacter(_ chars: [Character]) -> Character {
        var sum = 0
        for i in 0..<17 { sum += (digit(chars[i]) ?? 0) * idWeights[i] }
        return idCheckChars[sum % 11]
    }
}
