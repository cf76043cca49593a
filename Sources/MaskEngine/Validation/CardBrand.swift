/// A payment card brand, as the `card` preset reports it in `brand`, decided by the
/// number's leading digits.
///
/// Prefix ranges (IIN ranges) and lengths follow the brands' published tables. Where two
/// brands' published ranges overlap, the table below gives the range to one brand only, so
/// detection never has to rank brands at run time:
/// - 622126 to 622925 (cards issued by UnionPay that the Discover network also accepts) is
///   UnionPay, like the rest of 62: the card carries the UnionPay brand, and this way a
///   person sees the brand after two digits instead of six.
/// - Maestro's 6220 range, listed by some tables, is left to UnionPay for the same reason.
/// - 2200 to 2204 is Mir and 2221 to 2720 Mastercard; they do not overlap, but share
///   the first two digits, so `2` and `22` decide nothing.
public enum CardBrand: String, CaseIterable, Hashable, Sendable {
    /// Visa: 4.
    case visa
    /// Mastercard: 51 to 55 and 2221 to 2720.
    case mastercard
    /// American Express: 34 and 37.
    case amex
    /// Diners Club International: 300 to 305, 3095, 36, 38 and 39.
    case diners
    /// Discover: 6011, 644 to 649 and 65.
    case discover
    /// JCB: 3528 to 3589.
    case jcb
    /// China UnionPay: 62 and 81.
    case unionpay
    /// Maestro: 50, 56 to 58, 6304, 639, 6759, 6761 to 6763, 676770 and 676774.
    case maestro
    /// Mir: 2200 to 2204.
    case mir

    /// Groups for a number whose brand is not known yet: 4-4-4-4 and up to 19 digits 4-4-4-4-3.
    public static let defaultGroups = [4, 4, 4, 4, 3]
    /// The longest card number of any brand, the capacity while the brand is not known.
    public static let defaultMaxLength = 19

    /// One prefix range: every number whose first `digits` digits lie in `low...high`.
    struct PrefixRange {
        let digits: Int
        let low: Int
        let high: Int
        let brand: CardBrand
    }

    /// The prefix ranges of every brand, disjoint by construction (see the type's comment).
    static let ranges: [PrefixRange] = [
        PrefixRange(digits: 1, low: 4, high: 4, brand: .visa),
        PrefixRange(digits: 2, low: 51, high: 55, brand: .mastercard),
        PrefixRange(digits: 4, low: 2221, high: 2720, brand: .mastercard),
        PrefixRange(digits: 2, low: 34, high: 34, brand: .amex),
        PrefixRange(digits: 2, low: 37, high: 37, brand: .amex),
        PrefixRange(digits: 3, low: 300, high: 305, brand: .diners),
        PrefixRange(digits: 4, low: 3095, high: 3095, brand: .diners),
        PrefixRange(digits: 2, low: 36, high: 36, brand: .diners),
        PrefixRange(digits: 2, low: 38, high: 39, brand: .diners),
        PrefixRange(digits: 4, low: 6011, high: 6011, brand: .discover),
        PrefixRange(digits: 3, low: 644, high: 649, brand: .discover),
        PrefixRange(digits: 2, low: 65, high: 65, brand: .discover),
        PrefixRange(digits: 4, low: 3528, high: 3589, brand: .jcb),
        PrefixRange(digits: 2, low: 62, high: 62, brand: .unionpay),
        PrefixRange(digits: 2, low: 81, high: 81, brand: .unionpay),
        PrefixRange(digits: 2, low: 50, high: 50, brand: .maestro),
        PrefixRange(digits: 2, low: 56, high: 58, brand: .maestro),
        PrefixRange(digits: 4, low: 6304, high: 6304, brand: .maestro),
        PrefixRange(digits: 3, low: 639, high: 639, brand: .maestro),
        PrefixRange(digits: 4, low: 6759, high: 6759, brand: .maestro),
        PrefixRange(digits: 4, low: 6761, high: 6763, brand: .maestro),
        PrefixRange(digits: 6, low: 676770, high: 676770, brand: .maestro),
        PrefixRange(digits: 6, low: 676774, high: 676774, brand: .maestro),
        PrefixRange(digits: 4, low: 2200, high: 2204, brand: .mir),
    ]

    /// The longest prefix any range looks at; later digits never change the brand.
    static let longestPrefix = 6

    /// The brand the digits typed so far decide, or nil while none or several are possible.
    ///
    /// A brand is possible when some number starting with the typed digits falls in one of
    /// its ranges; so `3` (Amex, Diners or JCB) gives nil, `34` gives Amex, and `30` gives
    /// Diners because no other brand starts with 30. Only ASCII digits count; anything else
    /// (the spaces of a formatted number) is skipped, so the field's text works as well.
    public static func detect(_ digits: some StringProtocol) -> CardBrand? {
        detect(digits: digits.utf8)
    }

    /// `detect` over UTF-8 bytes (ASCII digits count; anything else is skipped).
    static func detect<C: Collection>(digits: C) -> CardBrand? where C.Element == UInt8 {
        // Fast path: four digits decide every brand but where a six-digit range lies beyond them.
        var value4 = 0, count4 = 0
        for unit in digits where unit >= 48 && unit <= 57 {
            value4 = value4 * 10 + Int(unit - 48)
            count4 += 1
            if count4 == 4 { break }
        }
        if count4 == 4 {
            // A flat table: a dictionary would hash a key on every keystroke.
            let decided = decidedByFourDigits[value4]
            if decided == decidesNone { return nil }
            if decided != needsMoreDigits { return allCases[Int(decided) - 2] }
        }
        return detectByRanges(digits: digits)
    }

    private static let needsMoreDigits: UInt8 = 0, decidesNone: UInt8 = 1

    /// For each four-digit prefix, `needsMoreDigits` when a longer range lies beneath it, else the
    /// brand it decides as 2 + its index in `allCases`, or `decidesNone`.
    private static let decidedByFourDigits: [UInt8] = {
        var table = [UInt8](repeating: needsMoreDigits, count: 10_000)
        for value in 0..<10_000 {
            let longer = ranges.contains { range in
                guard range.digits > 4 else { return false }
                var cut = range.low
                for _ in 0..<(range.digits - 4) { cut /= 10 }
                return cut == value
            }
            if longer { continue }
            var digits: [UInt8] = []
            var v = value
            for _ in 0..<4 {
                digits.insert(UInt8(48 + v % 10), at: 0)
                v /= 10
            }
            table[value] = detectByRanges(digits: digits).map { UInt8(2 + allCases.firstIndex(of: $0)!) } ?? decidesNone
        }
        return table
    }()

    /// The brand by checking every range: what the fast path's table is built from.
    private static func detectByRanges<C: Collection>(digits: C) -> CardBrand? where C.Element == UInt8 {
        // The value of the first 1...6 digits, so each range compares without dividing.
        var byLength = (0, 0, 0, 0, 0, 0, 0)
        var prefix = 0
        var count = 0
        for unit in digits where unit >= 48 && unit <= 57 {
            prefix = prefix * 10 + Int(unit - 48)
            count += 1
            switch count {
            case 1: byLength.1 = prefix
            case 2: byLength.2 = prefix
            case 3: byLength.3 = prefix
            case 4: byLength.4 = prefix
            case 5: byLength.5 = prefix
            default: byLength.6 = prefix
            }
            if count == longestPrefix { break }
        }
        func value(_ length: Int) -> Int {
            switch length {
            case 1: return byLength.1
            case 2: return byLength.2
            case 3: return byLength.3
            case 4: return byLength.4
            case 5: return byLength.5
            default: return byLength.6
            }
        }
        var found: CardBrand?
        for range in ranges {
            let admitted: Bool
            if count >= range.digits {
                let cut = value(range.digits)
                admitted = range.low <= cut && cut <= range.high
            } else {
                let scale = powersOfTen[range.digits - count]
                let first = prefix * scale
                admitted = first <= range.high && range.low <= first + scale - 1
            }
            guard admitted else { continue }
            if let other = found, other != range.brand { return nil }
            found = range.brand
        }
        return found
    }

    private static let powersOfTen = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

    /// How the number is shown: Amex 4-6-5, Diners 4-6-4, every other brand 4-4-4-4-3.
    /// Diners numbers longer than 14 digits repeat the last group size up to `maxLength`
    /// (the `groups` form's `repeat`), since they have no group pattern of their own.
    public var groups: [Int] {
        switch self {
        case .amex: return [4, 6, 5]
        case .diners: return [4, 6, 4]
        default: return CardBrand.defaultGroups
        }
    }

    /// Every length a number of this brand can have, shortest first.
    public var lengths: [Int] {
        switch self {
        case .visa: return [13, 16, 19]
        case .mastercard: return [16]
        case .amex: return [15]
        case .diners: return Array(14...19)
        case .discover, .jcb, .unionpay, .mir: return Array(16...19)
        case .maestro: return Array(12...19)
        }
    }

    /// The shortest valid length: the field is complete from here on.
    public var minLength: Int { lengths[0] }

    /// The longest valid length: the field's capacity once the brand is known.
    public var maxLength: Int { lengths[lengths.count - 1] }

    /// The brand's name as printed on cards and in payment forms.
    public var displayName: String {
        switch self {
        case .visa: return "Visa"
        case .mastercard: return "Mastercard"
        case .amex: return "American Express"
        case .diners: return "Diners Club"
        case .discover: return "Discover"
        case .jcb: return "JCB"
        case .unionpay: return "UnionPay"
        case .maestro: return "Maestro"
        case .mir: return "Mir"
        }
    }
}

extension CardBrand.PrefixRange {
    /// Whether some number beginning with the `count` digits of `prefix` falls in the range:
    /// a prefix at least as long as the range's is cut to its length and compared; a shorter
    /// one stands for every number it begins, an interval that must meet the range.
    func admits(_ prefix: Int, count: Int) -> Bool {
        if count >= digits {
            var cut = prefix
            for _ in 0..<(count - digits) { cut /= 10 }
            return low <= cut && cut <= high
        }
        var scale = 1
        for _ in 0..<(digits - count) { scale *= 10 }
        let first = prefix * scale
        let last = first + scale - 1
        return first <= high && low <= last
    }
}
