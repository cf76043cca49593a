/// What a typed phone number is, read as libphonenumber's `parse` reads it: its calling code, its
/// national significant number, the region it belongs to, its type, whether its length is
/// possible and whether it is valid.
struct PhoneNumber {
    /// The region the number is of; nil while it is unknown (no calling code yet).
    var region: PhoneRegion?
    /// The national significant number.
    var nationalNumber: [UInt8] = []
    var type: PhoneType?
    var lengthCheck: LengthCheck = .tooShort
    /// A `+` was typed and what follows starts with no calling code.
    var unknownCallingCode: String?

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
            if let prefix = home.internationalPrefix, let end = prefix.matchEnd(digits, whole: false), end > 0,
               digits.count > end, digits[digits.startIndex + end] != UInt8(ascii: "0") {
                digits = digits.dropFirst(end)
                international = true
            } else {
                region = home
                nationalNumber = Self.strippingNationalPrefix(Array(digits), home)
                check()
                return
            }
        }
        guard international else { return }
        guard let (code, length) = AsYouTypeFormatter.callingCode(at: digits) else {
            if digits.count >= 3 { unknownCallingCode = String(decoding: digits.prefix(3), as: UTF8.self) }
            return
        }
        guard let main = PhoneMetadata.mainRegion(forCallingCode: code) else { return }
        nationalNumber = Self.strippingNationalPrefix(Array(digits.dropFirst(length)), main)
        region = Self.region(of: nationalNumber, callingCode: code) ?? main
        check()
    }

    /// Sets the length verdict and the type.
    private mutating func check() {
        guard let region else { return }
        lengthCheck = Self.checkLength(nationalNumber.count, region)
        if lengthCheck == .possible { type = region.type(of: nationalNumber[...]) }
    }

    /// libphonenumber's test of a national significant number's length against a region's.
    static func checkLength(_ length: Int, _ region: PhoneRegion) -> LengthCheck {
        let possible = region.possibleLengths
        guard let shortest = possible.first, let longest = possible.last else { return .invalidLength }
        if region.general?.localLengths.contains(length) ?? false { return .possibleLocalOnly }
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
        if general?.matches(number[...], whole: true) ?? false, !(general?.matches(stripped[...], whole: true) ?? false),
           region.type(of: number[...]) != nil {
            return number
        }
        if checkLength(stripped.count, region) == .possible { return stripped }
        return region.type(of: number[...]) == nil ? stripped : number
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
