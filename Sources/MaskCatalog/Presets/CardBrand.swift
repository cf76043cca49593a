import MaskEngine

/// A payment card brand, as the `card` preset reports it in `brand`, decided by the
/// number's leading digits.
///
/// Prefix ranges (IIN ranges), lengths and groupings follow the networks' published tables. Where
/// ranges overlap, the longest prefix wins: Elo's `401178` inside Visa's `4`, Dankort's `5019`
/// inside Maestro's `50`, Verve's and Elo's six-digit ranges inside Discover's `65`, JCB's `1800`
/// inside UATP's `1`, Hipercard's inside RuPay's `60`, Diners' `38` and InstaPayment's `637`.
/// Ranges of one length never overlap across brands; where two networks publish the same one, the
/// table gives it to one:
/// - 622126 to 622925 (cards issued by UnionPay that the Discover network also accepts) is
///   UnionPay, like the rest of 62: the card carries the UnionPay brand, and this way a
///   person sees the brand after two digits instead of six. Maestro's 6220 is left to it too.
/// - RuPay's 65 (Discover co-brands), 81 (UnionPay's too) and 353 and 356 (JCB co-brands, inside
///   JCB's 3528 to 3589) stay with those networks; RuPay keeps 60, 82 and 508.
/// - 639 is InstaPayment's (637 to 639), not Maestro's; Visa/Dankort co-brands (4571) stay Visa.
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
    /// JCB: 3528 to 3589, 16 to 19 digits.
    case jcb
    /// China UnionPay: 62 and 81.
    case unionpay
    /// Maestro: 50, 56 to 58, 6304, 6759, 6761 to 6763, 676770 and 676774.
    case maestro
    /// Mir: 2200 to 2204.
    case mir
    /// UATP (Universal Air Travel Plan): 1, 15 digits grouped 4-5-6.
    case uatp
    /// Dankort: 5019.
    case dankort
    /// InstaPayment: 637 to 639.
    case instapayment
    /// JCB's 15-digit numbers: 2131 and 1800, grouped 4-6-5; reported as `jcb`.
    case jcb15
    /// RuPay: 60, 82 and 508.
    case rupay
    /// Elo: its six-digit ranges (401178, 504175, 509000 to 509999, 650031 to 650033, ...).
    case elo
    /// Troy: 9792.
    case troy
    /// Hipercard (with Hiper): 384100, 384140, 384160, 606282, 637095, 637568, 637599, 637609, 637612.
    case hipercard
    /// Verve: 506099 to 506198, 507865 to 507964, 650002 to 650027.
    case verve

    /// The name reported in `brand`: the case's name, but `jcb` for JCB's 15-digit numbers too.
    public var name: String { self == .jcb15 ? "jcb" : rawValue }

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

    /// The prefix ranges of every brand; ranges of one length never overlap across brands.
    static let ranges: [PrefixRange] = {
        var ranges = [
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
            PrefixRange(digits: 4, low: 6759, high: 6759, brand: .maestro),
            PrefixRange(digits: 4, low: 6761, high: 6763, brand: .maestro),
            PrefixRange(digits: 6, low: 676770, high: 676770, brand: .maestro),
            PrefixRange(digits: 6, low: 676774, high: 676774, brand: .maestro),
            PrefixRange(digits: 4, low: 2200, high: 2204, brand: .mir),
            PrefixRange(digits: 1, low: 1, high: 1, brand: .uatp),
            PrefixRange(digits: 4, low: 5019, high: 5019, brand: .dankort),
            PrefixRange(digits: 3, low: 637, high: 639, brand: .instapayment),
            PrefixRange(digits: 4, low: 2131, high: 2131, brand: .jcb15),
            PrefixRange(digits: 4, low: 1800, high: 1800, brand: .jcb15),
            PrefixRange(digits: 2, low: 60, high: 60, brand: .rupay),
            PrefixRange(digits: 2, low: 82, high: 82, brand: .rupay),
            PrefixRange(digits: 3, low: 508, high: 508, brand: .rupay),
            PrefixRange(digits: 4, low: 9792, high: 9792, brand: .troy),
            PrefixRange(digits: 6, low: 506099, high: 506198, brand: .verve),
            PrefixRange(digits: 6, low: 507865, high: 507964, brand: .verve),
            PrefixRange(digits: 6, low: 650002, high: 650027, brand: .verve),
        ]
        let elo: [(Int, Int)] = [
            (401178, 401179), (431274, 431274), (438935, 438935), (451416, 451416), (457393, 457393),
            (457631, 457632), (504175, 504175), (506699, 506778), (509000, 509999), (627780, 627780),
            (636297, 636297), (636368, 636368), (650031, 650033), (650035, 650051), (650405, 650439),
            (650485, 650538), (650541, 650598), (650700, 650718), (650720, 650727), (650901, 650978),
            (651652, 651679), (655000, 655019), (655021, 655058),
        ]
        ranges += elo.map { PrefixRange(digits: 6, low: $0.0, high: $0.1, brand: .elo) }
        let hipercard = [384100, 384140, 384160, 606282, 637095, 637568, 637599, 637609, 637612]
        ranges += hipercard.map { PrefixRange(digits: 6, low: $0, high: $0, brand: .hipercard) }
        return ranges
    }()

    /// The longest prefix any range looks at; later digits never change the brand.
    static let longestPrefix = 6

    /// The brand the digits typed so far decide, or nil while none or several are possible.
    ///
    /// The brand of the longest range the digits already hold wins (`4` is Visa until `401178`
    /// makes it Elo). While they hold none, a brand is possible when some number starting with
    /// them falls in one of its ranges; so `3` (Amex, Diners or JCB) gives nil, `34` gives Amex,
    /// and `30` gives Diners because no other brand starts with 30. Only ASCII digits count; anything else
    /// (the spaces of a formatted number) is skipped, so the field's text works as well.
    public static func detect(_ digits: some StringProtocol) -> CardBrand? {
        detect(digits: digits.utf8)
    }

    /// `detect` over a dynamic mask's leading characters, read through a collection of this module: the generic
    /// reading then specialises fully, where the engine's collection would be called into for every character.
    static func detect(leading prefix: AlnumPrefix) -> CardBrand? {
        detect(digits: LeadingBytes(prefix: prefix))
    }

    private struct LeadingBytes: RandomAccessCollection {
        let prefix: AlnumPrefix
        var startIndex: Int { 0 }
        var endIndex: Int { prefix.count }
        subscript(position: Int) -> UInt8 { prefix[position] }
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
        } else if count4 > 0 {
            // The first keys of every number: fewer digits than any range needs decide by what lies beneath.
            let decided = decidedByFewerDigits[fewerDigitsStart[count4] + value4]
            return decided == decidesNone ? nil : allCases[Int(decided) - 2]
        }
        return detectByRanges(digits: digits)
    }

    /// For each prefix of one to three digits, at `fewerDigitsStart[its length] + its value`, the brand it
    /// decides as in `decidedByFourDigits`, or `decidesNone`.
    private static let decidedByFewerDigits: [UInt8] = {
        var table: [UInt8] = []
        for length in 1...3 {
            for value in 0..<powersOfTen[length] {
                let digits = (0..<length).map { UInt8(48 + value / powersOfTen[length - 1 - $0] % 10) }
                table.append(
                    detectByRanges(digits: digits).map { UInt8(2 + allCases.firstIndex(of: $0)!) } ?? decidesNone)
            }
        }
        return table
    }()

    private static let fewerDigitsStart = [0, 0, 10, 110]

    private static let needsMoreDigits: UInt8 = 0, decidesNone: UInt8 = 1

    /// For each four-digit prefix, `needsMoreDigits` when a longer range lies beneath it, else the
    /// brand it decides as 2 + its index in `allCases`, or `decidesNone`.
    ///
    /// Four digits hold every range of up to four, so the brand is that of the longest range holding the
    /// prefix (the first listed among equals), as `detectByRanges` decides it; the table is marked range by
    /// range, each over the prefixes it holds, rather than by asking every range of every prefix.
    private static let decidedByFourDigits: [UInt8] = {
        var table = [UInt8](repeating: decidesNone, count: 10_000)
        var heldDigits = [Int](repeating: 0, count: 10_000)
        for range in ranges where range.digits <= 4 {
            let scale = powersOfTen[4 - range.digits]
            let brand = UInt8(2 + allCases.firstIndex(of: range.brand)!)
            for value in range.low * scale..<(range.high + 1) * scale where range.digits > heldDigits[value] {
                heldDigits[value] = range.digits
                table[value] = brand
            }
        }
        for range in ranges where range.digits > 4 {
            let scale = powersOfTen[range.digits - 4]
            for value in range.low / scale...range.high / scale { table[value] = needsMoreDigits }
        }
        return table
    }()

    /// The brand by checking every range: what the fast path's table is built from.
    static func detectByRanges<C: Collection>(digits: C) -> CardBrand? where C.Element == UInt8 {
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
        // The longest range the digits already hold decides; while they hold none, the one brand
        // whose ranges some number beginning with them falls in, if there is only one.
        var held: PrefixRange?
        var possible: CardBrand?
        var several = false
        for range in ranges {
            if count >= range.digits {
                let cut = value(range.digits)
                if range.low <= cut, cut <= range.high, range.digits > held?.digits ?? 0 { held = range }
            } else {
                let scale = powersOfTen[range.digits - count]
                let first = prefix * scale
                guard first <= range.high, range.low <= first + scale - 1 else { continue }
                if let other = possible, other != range.brand { several = true }
                possible = range.brand
            }
        }
        if let held { return held.brand }
        return several ? nil : possible
    }

    private static let powersOfTen = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

    /// How the number is shown: Amex and JCB's 15 digits 4-6-5, Diners 4-6-4, UATP 4-5-6, every
    /// other brand 4-4-4-4-3.
    /// Diners numbers longer than 14 digits repeat the last group size up to `maxLength`
    /// (the `groups` form's `repeat`), since they have no group pattern of their own.
    public var groups: [Int] {
        switch self {
        case .amex, .jcb15: return [4, 6, 5]
        case .diners: return [4, 6, 4]
        case .uatp: return [4, 5, 6]
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
        case .uatp, .jcb15: return [15]
        case .dankort, .instapayment, .rupay, .elo, .troy: return [16]
        case .hipercard: return [16, 19]
        case .verve: return [16, 18, 19]
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
        case .uatp: return "UATP"
        case .dankort: return "Dankort"
        case .instapayment: return "InstaPayment"
        case .jcb15: return "JCB"
        case .rupay: return "RuPay"
        case .elo: return "Elo"
        case .troy: return "Troy"
        case .hipercard: return "Hipercard"
        case .verve: return "Verve"
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
