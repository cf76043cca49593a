import MaskEngine

/// libphonenumber's written forms of a whole number (its `format_number`): E.164, RFC 3966, NATIONAL and
/// INTERNATIONAL, the last three with the extension when there is one.
public struct PhoneForms: Hashable, Sendable {
    /// `+12015550123`: never the extension.
    public var e164: String
    /// `tel:+1-201-555-0123;ext=45`.
    public var rfc3966: String
    /// `(201) 555-0123 ext. 45`.
    public var national: String
    /// `+1 201-555-0123 ext. 45`.
    public var international: String
    /// The extension's digits, nil when there is none.
    public var `extension`: String?
}

extension PhoneForms {
    /// The forms of the number `keys` make (`+` first or not, then ASCII digits) typed in a field for `home`
    /// (nil: international), with the extension's `digits`; nil when the keys name no calling code. The caller
    /// decides whether the number is far enough along to have them (the field: once its length is possible).
    init?(keys: ArraySlice<UInt8>, home: PhoneRegion?, extension digits: [UInt8]) {
        guard let (code, national) = Self.significant(keys, home: home),
            let region = PhoneMetadata.mainRegion(forCallingCode: code)
        else { return nil }
        let written = String(ascii: national)
        let ext = digits.isEmpty ? nil : String(ascii: digits)
        // The extension as NATIONAL and INTERNATIONAL write it: the region's own prefix, else ` ext. `.
        let extensionText = ext.map { (region.preferredExtensionPrefix ?? " ext. ") + $0 } ?? ""
        e164 = "+\(code)\(written)"
        self.national = String(ascii: region.written(national, international: false)) + extensionText
        let intl = region.written(national, international: true)
        international = "+\(code) " + String(ascii: intl) + extensionText
        // RFC 3966: the international grouping joined by `-`, leading punctuation dropped.
        var body: [UInt8] = []
        for byte in intl {
            if (byte &- 0x30) < 10 {
                body.append(byte)
            } else if !body.isEmpty, body.last != UInt8(ascii: "-") {
                body.append(UInt8(ascii: "-"))
            }
        }
        if body.last == UInt8(ascii: "-") { body.removeLast() }
        rfc3966 = "tel:+\(code)-" + String(ascii: body) + (ext.map { ";ext=" + $0 } ?? "")
        self.extension = ext
    }

    /// The calling code and national significant number `keys` make, read as `PhoneNumber` reads them.
    static func significant(_ keys: ArraySlice<UInt8>, home: PhoneRegion?) -> (code: Int, national: [UInt8])? {
        var digits = keys
        if digits.first == UInt8(ascii: "+") {
            digits = digits.dropFirst()
        } else if let home {
            guard let end = PhoneNumber.internationalPrefixEnd(digits, home) else {
                return (home.callingCode, PhoneNumber.strippingNationalPrefix(Array(digits), home))
            }
            digits = digits.dropFirst(end)
        } else {
            return nil
        }
        guard let (code, length) = AsYouTypeFormatter.callingCode(at: digits),
            let main = PhoneMetadata.mainRegion(forCallingCode: code)
        else { return nil }
        return (code, PhoneNumber.strippingNationalPrefix(Array(digits.dropFirst(length)), main))
    }
}

extension PhoneRegion {
    /// `format_number`'s grouping of a national significant number: the first of the region's formats
    /// (its international ones for INTERNATIONAL, when it has any) whose last leading-digits pattern
    /// starts the number and whose pattern takes all of it; NATIONAL adds the national prefix as the
    /// format's rule says (`0$1`, `($1)`). The number as it is when no format takes it.
    func written(_ number: [UInt8], international: Bool) -> [UInt8] {
        let formats = international && !internationalFormats.isEmpty ? internationalFormats : nationalFormats
        for format in formats {
            if let leading = format.leadingDigits.last, !leading.matches(number[...], whole: false) { continue }
            guard format.pattern.matches(number[...], whole: true) else { continue }
            var template = format.format
            if !international, let rule = format.nationalPrefixRule, !rule.isEmpty,
                let at = template.indices.first(where: {
                    template[$0] == UInt8(ascii: "$") && $0 + 1 < template.count && (template[$0 + 1] &- 0x30) < 10
                })
            {
                // The first group reference becomes the rule, whose `$1` stands for that group.
                let group = template[at + 1]
                var replaced: [UInt8] = []
                let ruleBytes = Array(rule.utf8)
                var i = 0
                while i < ruleBytes.count {
                    if ruleBytes[i] == UInt8(ascii: "$"), i + 1 < ruleBytes.count, ruleBytes[i + 1] == UInt8(ascii: "1")
                    {
                        replaced += [UInt8(ascii: "$"), group]
                        i += 2
                    } else {
                        replaced.append(ruleBytes[i])
                        i += 1
                    }
                }
                template.replaceSubrange(at..<(at + 2), with: replaced)
            }
            return format.pattern.substitute(number[...], template: template)
        }
        return number
    }
}

extension PhoneField {
    /// The forms of the number `text` holds, read as the field reads it (punctuation dropped, an extension
    /// after a label); nil when its length is not possible yet (or never: too long, no calling code).
    func forms(_ text: String) -> PhoneForms? {
        let result = format(text)
        guard result.complete else { return nil }
        let keys = Array(result.value.utf8)
        let mark = keys.firstIndex(of: Self.extensionMark)
        return PhoneForms(
            keys: keys[..<(mark ?? keys.count)], home: home,
            extension: mark.map { Array(keys[($0 + 1)...]) } ?? [])
    }
}

extension Mask {
    /// The `phone` preset's forms of the number in `text` (`maskd format --output e164`): nil for a text
    /// that is no number of a possible length, and for masks of other kinds (`isPhone` tells them apart).
    public func phoneForms(_ text: String) -> PhoneForms? {
        (customField as? PhoneField)?.forms(text)
    }

    /// Whether the mask is the `phone` preset's, whose values have `phoneForms`.
    public var isPhone: Bool { customField is PhoneField }
}

extension FieldResult {
    /// The field is a `phone` preset's, whose state has `region` and `type`.
    public var isPhone: Bool { mask == PhoneField.international || mask.hasPrefix(PhoneField.national) }
}
