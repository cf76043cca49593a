import MaskEngine

/// What a typed phone number is, read as libphonenumber's `parse` reads it: its calling code, its
/// national significant number, the region it belongs to, its type, whether its length is
/// possible and whether it is valid.
struct PhoneNumber {
    /// The region the number is of; nil while it is unknown (no calling code yet).
    var region: PhoneRegion?
    /// The national significant number's length.
    var nationalLength = 0
    var type: PhoneType?
    var lengthCheck: LengthCheck = .tooShort
    /// A `+` was typed and what follows starts with no calling code: its first three digits (ASCII).
    var unknownCallingCode: (UInt8, UInt8, UInt8)?

    /// libphonenumber's verdicts on a length.
    enum LengthCheck {
        case possible, possibleLocalOnly, tooShort, tooLong, invalidLength
    }

    /// Reads `keys` (`+` first or not, then ASCII digits) as typed in a field for the region
    /// `home` (nil: international input only).
    init(keys: [UInt8], home: PhoneRegion?) {
        var digits = keys[...]
        var international = false
        if digits.first == UInt8(ascii: "+") {
            digits = digits.dropFirst()
            international = true
        } else if let home {
            // An international prefix (00 in GB) typed nationally, followed by a calling code.
            if let end = Self.internationalPrefixEnd(digits, home) {
                digits = digits.dropFirst(end)
                international = true
            } else {
                region = home
                check(Self.strippingNationalPrefix(Array(digits), home))
                return
            }
        }
        guard international else { return }
        guard let (code, length) = AsYouTypeFormatter.callingCode(at: digits) else {
            if digits.count >= 3 {
                let first = digits.startIndex
                unknownCallingCode = (digits[first], digits[first + 1], digits[first + 2])
            }
            return
        }
        guard let main = PhoneMetadata.mainRegion(forCallingCode: code) else { return }
        let nationalNumber = Self.strippingNationalPrefix(Array(digits.dropFirst(length)), main)
        region = Self.region(of: nationalNumber, callingCode: code) ?? main
        check(nationalNumber)
    }

    /// Where an international prefix (00 in GB) typed nationally in `home` ends, when a calling code
    /// follows it; nil when the digits are a national number.
    static func internationalPrefixEnd(_ digits: ArraySlice<UInt8>, _ home: PhoneRegion) -> Int? {
        internationalPrefix(digits, home).end
    }

    /// `internationalPrefixEnd`, and whether every longer number starting with `digits` has the same answer.
    static func internationalPrefix(_ digits: ArraySlice<UInt8>, _ home: PhoneRegion) -> (end: Int?, settled: Bool) {
        guard let prefix = home.internationalPrefix else { return (nil, true) }
        let (end, settled) = prefix.matchEndSettled(digits)
        guard let end, end > 0 else { return (nil, settled) }
        guard digits.count > end else { return (nil, false) }
        return digits[digits.startIndex + end] != UInt8(ascii: "0") ? (end, settled) : (nil, settled)
    }

    /// Sets the national number's length, the length verdict and the type.
    private mutating func check(_ nationalNumber: [UInt8]) {
        nationalLength = nationalNumber.count
        guard let region else { return }
        lengthCheck = Self.checkLength(nationalNumber.count, region)
        if lengthCheck == .possible { type = region.type(of: nationalNumber[...]) }
    }

    /// libphonenumber's test of a national significant number's length against a region's (made once per
    /// region and length: `PhoneRegion.lengthChecks`).
    @inline(__always)
    static func checkLength(_ length: Int, _ region: PhoneRegion) -> LengthCheck {
        length < region.lengthChecks.count ? region.lengthChecks[length] : checkLength(length, of: region.general)
    }

    /// `checkLength` against the general description `general`.
    static func checkLength(_ length: Int, of general: PhoneRegion.Description?) -> LengthCheck {
        let possible = general?.lengths ?? []
        guard let shortest = possible.first, let longest = possible.last else { return .invalidLength }
        if general?.localLengths.contains(length) ?? false { return .possibleLocalOnly }
        if length < shortest { return .tooShort }
        if length > longest { return .tooLong }
        return possible.contains(length) ? .possible : .invalidLength
    }

    /// The number with the national prefix (and carrier code) set apart, as `parse` does, with
    /// one difference for numbers still being typed: the prefix stays only when the number with
    /// it is a valid number and without it is not (`parse` also keeps it while what is left is too
    /// short, which would call `0121 234` a possible 7-digit number). Transformed where the region
    /// says so (AR's `15` mobile token).
    static func strippingNationalPrefix(_ number: [UInt8], _ region: PhoneRegion) -> [UInt8] {
        guard let parsing = region.nationalPrefixForParsing, !number.isEmpty else { return number }
        let groups = parsing.groupCount
        var stripped: [UInt8]
        if let rule = region.transformRule, !rule.isEmpty, groups > 0 {
            guard let match = parsing.match(number[...], whole: false) else { return number }
            if match[2 * groups] >= 0 {
                stripped = []
                CapturingRegex.expand(rule, slots: match, in: number[...], into: &stripped)
                stripped += number[match[1]...]
            } else {
                stripped = Array(number[match[1]...])
            }
        } else {
            // No transform rule: only where the prefix ends matters, not its groups.
            guard let end = parsing.matchEnd(number[...], whole: false) else { return number }
            stripped = Array(number[end...])
        }
        let general = region.general?.pattern
        let keeps = keepsNationalPrefix(
            strippedLength: stripped.count, region,
            generalTakesNumber: general?.matches(number[...], whole: true) ?? false,
            generalTakesStripped: general?.matches(stripped[...], whole: true) ?? false,
            typeOfNumber: { region.type(of: number[...]) })
        return keeps ? number : stripped
    }

    /// Whether the number stays whole rather than losing its national prefix (see `strippingNationalPrefix`):
    /// `generalTakes...`, whether the region's general pattern matches the number and the number without it.
    @inline(__always)
    static func keepsNationalPrefix(
        strippedLength: Int, _ region: PhoneRegion, generalTakesNumber: Bool,
        generalTakesStripped: Bool, typeOfNumber: () -> PhoneType?
    ) -> Bool {
        if generalTakesNumber, !generalTakesStripped, typeOfNumber() != nil { return true }
        if checkLength(strippedLength, region) == .possible { return false }
        return typeOfNumber() != nil
    }

    /// Which of the calling code's regions a national number belongs to: the first whose leading
    /// digits it starts with, or, for regions without them, whose numbers it is one of.
    static func region(of number: [UInt8], callingCode: Int) -> PhoneRegion? {
        let keys = PhoneMetadata.regions(forCallingCode: callingCode)
        if keys.count == 1 { return PhoneMetadata.region(keys[0] == "001" ? "001-\(callingCode)" : keys[0]) }
        for key in keys {
            guard let region = PhoneMetadata.region(key) else { continue }
            if let leading = region.leadingDigits {
                if leading.matches(number[...], whole: false) { return region }
            } else if region.type(of: number[...]) != nil {
                return region
            }
        }
        return nil
    }
}
