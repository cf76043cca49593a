/// One step of a compiled mask: a literal to show or a slot for the person to fill.
///
/// A mask compiles to a flat array of these; a mask cursor is an index into that array.
/// Elements are immutable, so one compiled program serves every field that uses it.
struct Element: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        /// Shown by itself; typed, it is consumed rather than duplicated.
        case literal(Character)
        /// Filled by the person with a character of the class.
        case slot(SlotClass)
    }

    var kind: Kind
    /// A slot that may stay empty (`9`, `a`, `-`, and every slot after `minLength`).
    var isOptional: Bool = false
    /// A `{}` literal: part of the extracted value, and needed for completeness.
    var isExtracted: Bool = false
    /// The `…` slot: it takes characters without limit and the cursor stays on it.
    var repeats: Bool = false
    /// Where the element came from in the mask's notation, in characters, for error messages.
    var offset: Int = 0

    var isSlot: Bool {
        if case .slot = kind { return true }
        return false
    }

    var slotClass: SlotClass? {
        if case .slot(let c) = kind { return c }
        return nil
    }

    var literal: Character? {
        if case .literal(let c) = kind { return c }
        return nil
    }

    /// A slot nothing can skip: required and not repeating.
    var isRequiredSlot: Bool { isSlot && !isOptional && !repeats }
}
