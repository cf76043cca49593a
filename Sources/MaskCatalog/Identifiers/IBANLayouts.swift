import MaskEngine

/// The BBAN layout of each IBAN country (the IBAN registry's structure, as python-stdnum carries it):
/// what the `iban` preset lets be typed at each place after the country and check digits.
enum IBANLayouts {
    /// The slot class of each BBAN character of `country` (`n` digit, `a` letter, `c` either), or none.
    static func slotClasses(country: String) -> [SlotClass] {
        guard let layout = IdentifierCatalog.ibanLayouts[country] else { return [] }
        return layout.map { kind in
            switch kind {
            case "n": return .digit
            case "a": return .letter
            default: return .alnum
            }
        }
    }
}
