import MaskEngine

/// The named masks of `Protocol/presets.md`: what people ask for instead of writing a mask.
///
/// A preset is a base spec plus, for `card` and `iban`, a rule that picks the program from the
/// characters entered so far. Options given beside `"preset"` apply on top of the base.
public enum Presets {
    /// Every preset name, in the order `initialize` and `maskd presets` list them.
    public static let names =
        [
            "phone", "phone.cn", "phone.us", "card", "bankcard.cn", "id.cn", "iban", "date", "time",
            "datetime", "expiry", "amount", "postal",
        ] + IdentifierCatalog.names

    /// The regions the `phone` preset's `region` option takes (ISO 3166-1 alpha-2), sorted.
    public static var phoneRegions: [String] { PhoneMetadata.regionCodes }

    /// The regions the `postal` preset's `region` option takes (ISO 3166-1 alpha-2), sorted.
    public static var postalRegions: [String] { PostalMetadata.regionCodes }

    /// A one-line description of each preset, for `maskd presets` and hovers.
    public static let summaries: [String: String] = [
        "phone":
            "phone number of any region as libphonenumber formats it as you type (option region: GB gives 0121 234 5678; none: +44 121 234 5678)",
        "phone.cn": "Chinese mobile number, 3-4-4: 138 0013 8000",
        "phone.us": "US phone number: +1 (555) 123-4567",
        "card": "payment card; brand by prefix, grouping and length by brand, Luhn check",
        "bankcard.cn": "Chinese bank card, 16 to 19 digits in fours, Luhn check",
        "id.cn":
            "Chinese resident ID (cn.ric) shown 6-8-4, GB 11643 check character, province and birth date from 1900",
        "iban": "IBAN, upper case in fours, length by country, ISO 13616 mod-97 check",
        "date":
            "date YYYY-MM-DD (order ymd, dmy or mdy; min, max); months and days that cannot be, or outside min to max, are refused as typed",
        "time":
            "time HH:MM, 00:00 to 23:59 (options seconds, clock 12: 10:30 PM); other hours and minutes are refused as typed",
        "datetime": "date and time YYYY-MM-DD HH:MM (options of date and time, min and max as YYYY-MM-DDTHH:MM)",
        "expiry": "card expiry MM/YY, month 01 to 12 (4 gives 04)",
        "amount": "amount with , groups and . and two decimals: 1,234,567.89",
        "postal":
            "postal code of a region as Google's address data describes it (option region: GB gives SW1A 1AA, BR 40301-110)",
    ].merging(IdentifierCatalog.names.map { ($0, IdentifierCatalog.summary($0)!) }) { builtIn, _ in builtIn }

    /// The spec a preset stands for, with `options` (the user's spec) laid on top.
    static func expand(_ name: String, options: MaskSpec) throws -> MaskSpec {
        var base: MaskSpec
        switch name {
        case "phone.cn": base = MaskSpec(.groups([3, 4, 4]))
        case "phone.us": base = MaskSpec(.notation("+1 ([000]) [000]-[0000]"))
        case "card": base = MaskSpec(.groups(CardBrand.defaultGroups), validate: ["luhn"])
        case "bankcard.cn": base = MaskSpec(.groups([4, 4, 4, 4, 3]), minLength: 16, maxLength: 19, validate: ["luhn"])
        case "id.cn": base = MaskSpec(.groups([6, 8, 4]), validate: ["id.cn"])
        case "iban":
            base = MaskSpec(
                .groups([4]), accept: .alnum, maxLength: 34, repeat: true, letterCase: .upper,
                validate: ["iban"])
        // Built on range blocks by `calendarProgram`; the notation is what the program writes back.
        case "date": base = MaskSpec(.notation("[0000]{-}[00]{-}[00]"))
        case "time": base = MaskSpec(.notation("[00]{:}[00]"))
        case "datetime": base = MaskSpec(.notation("[0000]{-}[00]{-}[00]{ }[00]{:}[00]"))
        case "expiry": base = MaskSpec(.notation("[00]{/}[00]"))
        case "amount": base = MaskSpec(.number(NumberSpec(group: ",", decimal: ".", fraction: 2)))
        default:
            throw MaskError("unknown preset '\(name)'; known presets: \(names.joined(separator: ", "))")
        }
        base.slot = options.slot ?? base.slot
        base.accept = options.accept ?? base.accept
        base.separator = options.separator ?? base.separator
        base.minLength = options.minLength ?? base.minLength
        base.maxLength = options.maxLength ?? base.maxLength
        base.repeat = options.repeat ?? base.repeat
        base.eager = options.eager ?? base.eager
        base.letterCase = options.letterCase ?? base.letterCase
        base.regex = options.regex ?? base.regex
        base.placeholderChar = options.placeholderChar ?? base.placeholderChar
        base.order = options.order ?? base.order
        base.overwrite = options.overwrite ?? base.overwrite
        base.min = options.min ?? base.min
        base.max = options.max ?? base.max
        base.seconds = options.seconds ?? base.seconds
        base.clock = options.clock ?? base.clock
        if let extra = options.validate {
            base.validate = (base.validate ?? []) + extra.filter { !(base.validate ?? []).contains($0) }
        }
        return base
    }

    /// The program of a preset whose shape does not follow the entered characters.
    static func program(_ name: String, _ spec: MaskSpec) throws -> Program {
        var elements = try elements(spec)
        if name == "id.cn", let last = elements.lastIndex(where: \.isSlot) {
            // The 18th character is the GB 11643 check character: a digit or X.
            elements[last].kind = .slot(.digitX)
        }
        try ProgramChecks.check(elements, letterCase: spec.letterCase)
        return MaskCompiler.makeProgram(elements, spec)
    }

    private static func elements(_ spec: MaskSpec) throws -> [Element] {
        try MaskCompiler.elements(spec)
    }
}

extension DynamicProgram {
    /// The `card` preset: Amex and JCB's 15 digits 4-6-5, Diners 4-6-4, UATP 4-5-6, others 4-4-4-4-3,
    /// each capped at its length.
    static func card(_ spec: MaskSpec) throws -> DynamicProgram {
        func make(_ groups: [Int], min: Int, max: Int) throws -> Program {
            var s = spec
            s.form = .groups(groups)
            s.minLength = min
            s.maxLength = max
            s.repeat = true
            return try Presets.program("card", s)
        }
        let broad = try make(CardBrand.defaultGroups, min: 16, max: CardBrand.defaultMaxLength)
        // In `allCases` order, found by the brand's index: a dictionary would hash the brand's name per keystroke.
        let programs = try CardBrand.allCases.map { brand in
            try make(brand.groups, min: brand.minLength, max: brand.maxLength)
        }
        // By the brand's index, made once: `lengths` builds an array and the problems a dictionary hashes per key.
        let lengths = CardBrand.allCases.map(\.lengths)
        let problemsOfLength = CardBrand.allCases.map { lengthProblems[$0]! }
        return DynamicProgram(
            broad: broad,
            all: [broad] + programs,
            select: { prefix in
                guard let brand = CardBrand.detect(leading: prefix) else { return (broad, nil) }
                return (programs[CardBrand.allCases.firstIndex(of: brand)!], brand.name)
            },
            problems: { prefix, count, brandName in
                // The brand again from the digits: one name (`jcb`) stands for two layouts.
                guard brandName != nil, let detected = CardBrand.detect(leading: prefix),
                    let brand = CardBrand.allCases.firstIndex(of: detected)
                else {
                    let start = String(decoding: Array(prefix.prefix(2)), as: UTF8.self)
                    return count == 0 ? [] : ["no card brand starts with \(start)"]
                }
                return lengths[brand].contains(count) ? [] : problemsOfLength[brand]
            })
    }

    /// "Visa numbers have 13, 16 or 19 digits", built once per brand.
    private static let lengthProblems: [CardBrand: [String]] = {
        var problems: [CardBrand: [String]] = [:]
        for brand in CardBrand.allCases {
            let list = brand.lengths.map(String.init)
            let spelled = list.count == 1 ? list[0] : list.dropLast().joined(separator: ", ") + " or " + list.last!
            problems[brand] = ["\(brand.displayName) numbers have \(spelled) digits"]
        }
        return problems
    }()

    /// The `iban` preset: two letters, two check digits, then letters or digits in fours up to
    /// the country's length (34 while the country is not known), ASCII only.
    static func iban(_ spec: MaskSpec) throws -> DynamicProgram {
        /// A program of `length` characters; `bban` gives the class of each after the four first (the
        /// country's BBAN layout from the IBAN registry), else letters or digits.
        func make(_ length: Int, bban: [SlotClass] = []) throws -> Program {
            var s = spec
            s.form = .groups([4])
            s.maxLength = length
            s.minLength = spec.minLength ?? length
            s.repeat = true
            var elements = try MaskCompiler.elements(s)
            var slot = 0
            for i in elements.indices where elements[i].isSlot {
                if slot < 2 {
                    elements[i].kind = .slot(.letter)
                } else if slot < 4 {
                    elements[i].kind = .slot(.digit)
                } else if slot - 4 < bban.count {
                    elements[i].kind = .slot(bban[slot - 4])
                }
                slot += 1
            }
            try ProgramChecks.check(elements, letterCase: s.letterCase)
            // ISO 13616: an IBAN is ASCII A-Z and 0-9; other letters are rejected.
            return MaskCompiler.makeProgram(elements, s, asciiOnly: true)
        }
        let broad = try make(spec.maxLength ?? 34)
        // Keyed by the two country letters packed in a word, so a keystroke builds no string.
        var byCountry: [UInt16: Program] = [:]
        for (country, length) in Checks.ibanLengths {
            let bban = IBANLayouts.slotClasses(country: country)
            let bytes = Array(country.utf8)
            byCountry[UInt16(bytes[0]) << 8 | UInt16(bytes[1])] = try make(
                bban.isEmpty ? length : 4 + bban.count, bban: bban)
        }
        let programs = byCountry
        return DynamicProgram(
            broad: broad,
            all: [broad] + Array(byCountry.values),
            select: { prefix in
                guard prefix.count >= 2, let program = programs[UInt16(prefix[0]) << 8 | UInt16(prefix[1])] else {
                    return (broad, nil)
                }
                return (program, nil)
            },
            problems: { _, _, _ in [] })
    }
}
