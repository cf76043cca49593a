/// One step of a compiled mask: a literal to show or a slot for the person to fill.
///
/// A mask compiles to a flat array of these; a mask cursor is an index into that array.
/// Elements are immutable, so one compiled program serves every field that uses it.
package struct Element: Hashable, Sendable {
    package enum Kind: Hashable, Sendable {
        /// Shown by itself; typed, it is consumed rather than duplicated.
        case literal(Character)
        /// Filled by the person with a character of the class.
        case slot(SlotClass)
    }

    package var kind: Kind {
        didSet { literalByte = Element.byte(of: kind) }
    }
    /// A slot that may stay empty (`9`, `a`, `-`, and every slot after `minLength`).
    var isOptional: Bool = false
    /// A `{}` literal: part of the extracted value, and needed for completeness.
    var isExtracted: Bool = false
    /// The `…` slot: it takes characters without limit and the cursor stays on it.
    var repeats: Bool = false
    /// Where the element came from in the mask's notation, in characters, for error messages.
    var offset: Int = 0
    /// The index of the program's block this slot belongs to (`Program.blocks`), or -1.
    var block: Int32 = -1
    /// An ASCII literal's byte, for the byte path of the engine; 0 for slots and other literals.
    private(set) var literalByte: UInt8 = 0

    package init(
        kind: Kind, isOptional: Bool = false, isExtracted: Bool = false, repeats: Bool = false, offset: Int = 0,
        block: Int32 = -1
    ) {
        self.kind = kind
        self.isOptional = isOptional
        self.isExtracted = isExtracted
        self.repeats = repeats
        self.offset = offset
        self.block = block
        self.literalByte = Element.byte(of: kind)
    }

    private static func byte(of kind: Kind) -> UInt8 {
        guard case .literal(let c) = kind, let ascii = c.asciiValue, c.utf8.count == 1, ascii != 0 else { return 0 }
        return ascii
    }

    package var isSlot: Bool {
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
