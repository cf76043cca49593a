import MaskEngine

/// The national prefix written in brackets after a calling code, as in `+44 (0) 20 7946 0958`
/// (`Protocol/presets.md`, "`phone`"): libphonenumber's `parse` reads it as the national prefix it
/// is and drops it, where the as-you-type formatter would keep the `0` and give up grouping
/// (`+4402079460958`). The field drops it as `parse` does.
///
/// What counts is the closing `)`: typed key by key, the `(` has been dropped with the rest of the
/// punctuation before the prefix's digits come, so typing `+44 (0) 2079460958` and pasting it give
/// the same field only if the `)` alone decides. A `)` ends such a prefix when the keys before it
/// are an international prefix (`+`, or the field's region's own: `00` in GB; an international
/// field needs none), a calling code, and exactly the national prefix of that code's regions (`0`
/// in GB, `1` in NANPA, `8` in RU, `06` in HU). Regions without a national prefix (IT, ES) keep
/// the digit, as `parse` does: `+39 (0) 6` is `+39 06`.
extension PhoneField {
    /// Whether `character` closes a bracket (`)` or its full-width form).
    static func closesBracket(_ character: Character) -> Bool {
        character == ")" || character == "）"
    }

    /// How many of the last of `keys` (the field's keys read before a `)`) are a national prefix that
    /// `)` closes, right after a calling code; 0 when they are not.
    func bracketedNationalPrefix(before keys: ArraySlice<UInt8>) -> Int {
        // An international prefix (at most a few digits), a calling code (three) and a national prefix
        // (two): a longer run of keys is never one, and is not read.
        guard keys.count <= 12 else { return 0 }
        var digits = keys
        if digits.first == UInt8(ascii: "+") {
            digits = digits.dropFirst()
        } else if let home {
            guard let end = PhoneNumber.internationalPrefixEnd(digits, home) else { return 0 }
            digits = digits.dropFirst(end)
        }
        guard let (code, length) = AsYouTypeFormatter.callingCode(at: digits),
            let main = PhoneMetadata.mainRegion(forCallingCode: code)
        else { return 0 }
        let prefix = main.nationalPrefix.utf8
        guard !prefix.isEmpty, digits.dropFirst(length).elementsEqual(prefix) else { return 0 }
        return prefix.count
    }
}
