/// Compiles bracket notation (`+1 ([000]) [000]-[0000]`) into elements.
///
/// `[...]` holds slots (`0 9 A a _ - * X`, and `…` last to repeat the last kind; `[…]` alone is
/// letters or digits without limit), `{...}` holds literals that belong to the value, `\` escapes
/// the next character, anything else is a literal. Adjacent `[]` blocks form one block, except after
/// a block ending in `…`; inside a block each run of one kind keeps its required slots before its
/// optional ones. Linear in the notation's length.
enum NotationCompiler {
    /// - Parameter definitions: the mask's own slot characters, by the character, with their class's index.
    static func compile(_ notation: String, definitions: [Character: (index: UInt8, optional: Bool)] = [:])
        throws -> [Element]
    {
        let chars = Array(notation)
        if chars.isEmpty { throw MaskError("empty mask", offset: 0) }
        var elements: [Element] = []
        var block: [Element] = []  // slots of the current block, before reordering
        var blockRepeat: (offset: Int, found: Bool) = (0, false)
        var i = 0

        func flushBlock() throws {
            guard !block.isEmpty else { return }
            elements.append(contentsOf: reorderRuns(block))
            if blockRepeat.found, let last = block.last {
                var repeating = last
                repeating.isOptional = true
                repeating.repeats = true
                repeating.offset = blockRepeat.offset
                elements.append(repeating)
            }
            block.removeAll()
            blockRepeat = (0, false)
        }

        while i < chars.count {
            let c = chars[i]
            switch c {
            case "[":
                let open = i
                // A block that ends in `…` ends there: slots after it (`[0…][AAA]`) are a block of their own.
                if blockRepeat.found { try flushBlock() }
                if i + 2 < chars.count, chars[i + 1] == "…", chars[i + 2] == "]" {
                    // `[…]` alone: letters or digits without limit (RedMadRobot's wildcard).
                    try flushBlock()
                    elements.append(Element(kind: .slot(.alnum), isOptional: true, repeats: true, offset: i + 1))
                    i += 3
                    continue
                }
                i += 1
                var sawSlot = false
                while i < chars.count, chars[i] != "]" {
                    let s = chars[i]
                    if blockRepeat.found {
                        throw MaskError("'…' must be the last character of its block", offset: blockRepeat.offset)
                    }
                    if s == "…" {
                        blockRepeat = (i, true)
                    } else if let slot = slotElement(s, offset: i) {
                        block.append(slot)
                    } else if let defined = definitions[s] {
                        block.append(
                            Element(kind: .slot(.defined(defined.index)), isOptional: defined.optional, offset: i))
                    } else if s == "[" {
                        throw MaskError("'[' inside a slot block (unclosed '[' at offset \(open))", offset: i)
                    } else {
                        throw MaskError("unknown slot character '\(s)'", offset: i)
                    }
                    sawSlot = true
                    i += 1
                }
                if i >= chars.count { throw MaskError("unclosed '['", offset: open) }
                if !sawSlot { throw MaskError("empty slot block '[]'", offset: open) }
                i += 1  // past "]"
            case "{":
                try flushBlock()
                let open = i
                i += 1
                var sawLiteral = false
                while i < chars.count, chars[i] != "}" {
                    var l = chars[i]
                    if l == "\\" {
                        i += 1
                        guard i < chars.count else { throw MaskError("'\\' at the end of the mask", offset: i - 1) }
                        l = chars[i]
                    }
                    elements.append(Element(kind: .literal(l), isExtracted: true, offset: i))
                    sawLiteral = true
                    i += 1
                }
                if i >= chars.count { throw MaskError("unclosed '{'", offset: open) }
                if !sawLiteral { throw MaskError("empty literal block '{}'", offset: open) }
                i += 1
            case "]":
                throw MaskError("unmatched ']'", offset: i)
            case "}":
                throw MaskError("unmatched '}'", offset: i)
            case "\\":
                try flushBlock()
                guard i + 1 < chars.count else { throw MaskError("'\\' at the end of the mask", offset: i) }
                elements.append(Element(kind: .literal(chars[i + 1]), offset: i + 1))
                i += 2
            default:
                try flushBlock()
                elements.append(Element(kind: .literal(c), offset: i))
                i += 1
            }
        }
        try flushBlock()
        return elements
    }

    /// The element a character inside `[]` stands for, or nil for an unknown one.
    static func slotElement(_ c: Character, offset: Int) -> Element? {
        let (slotClass, optional): (SlotClass, Bool)
        switch c {
        case "0": (slotClass, optional) = (.digit, false)
        case "9": (slotClass, optional) = (.digit, true)
        case "A": (slotClass, optional) = (.letter, false)
        case "a": (slotClass, optional) = (.letter, true)
        case "_": (slotClass, optional) = (.alnum, false)
        case "-": (slotClass, optional) = (.alnum, true)
        case "*": (slotClass, optional) = (.any, false)
        case "X": (slotClass, optional) = (.digitX, false)
        default: return nil
        }
        return Element(kind: .slot(slotClass), isOptional: optional, offset: offset)
    }

    /// Within each run of one kind, required slots come before optional ones (`[90]` is `[09]`).
    static func reorderRuns(_ block: [Element]) -> [Element] {
        var result: [Element] = []
        result.reserveCapacity(block.count)
        var start = 0
        while start < block.count {
            let kind = block[start].slotClass
            var end = start
            while end < block.count, block[end].slotClass == kind { end += 1 }
            for i in start..<end where !block[i].isOptional { result.append(block[i]) }
            for i in start..<end where block[i].isOptional { result.append(block[i]) }
            start = end
        }
        return result
    }
}

extension Program {
    /// The canonical bracket notation of `elements`: slots grouped in `[]`, value literals in
    /// `{}`, specials escaped. Compiling it again gives the same elements.
    // Not optimised: Swift 6.3.1's CopyPropagation pass crashes on this function in release builds ("Found outside
    // of lifetime use"), and it runs once per compiled mask, never per keystroke.
    @_optimize(none)
    static func canonicalNotation(_ elements: [Element], definitions: [SlotDefinition] = []) -> String {
        var out = ""
        var i = 0
        while i < elements.count {
            let element = elements[i]
            if element.isSlot {
                out.append("[")
                var previous: Element? = nil
                while i < elements.count, elements[i].isSlot {
                    let slot = elements[i]
                    i += 1
                    guard slot.repeats else {
                        out.append(slotCharacter(slot, definitions))
                        previous = slot
                        continue
                    }
                    // `…` repeats the slot before it; with none of its kind, it is `[…]` (letters or digits).
                    // (Compared without binding `previous`: `if let` here crashed the release compiler, Swift 6.3.1.)
                    let sameKind = previous?.slotClass == slot.slotClass
                    out += sameKind || previous == nil ? "…" : "][…"
                    // Slots after a `…` stand in a block of their own, never reached.
                    break
                }
                out.append("]")
            } else if element.isExtracted {
                out.append("{")
                while i < elements.count, let c = elements[i].literal, elements[i].isExtracted {
                    if c == "}" || c == "\\" { out.append("\\") }
                    out.append(c)
                    i += 1
                }
                out.append("}")
            } else {
                let c = element.literal!
                if "[]{}\\".contains(c) { out.append("\\") }
                out.append(c)
                i += 1
            }
        }
        return out
    }

    private static func slotCharacter(_ slot: Element, _ definitions: [SlotDefinition]) -> Character {
        switch (slot.slotClass!, slot.isOptional) {
        case (.defined(let i), _): return definitions[Int(i)].name
        case (.digit, false): return "0"
        case (.digit, true): return "9"
        case (.letter, false): return "A"
        case (.letter, true): return "a"
        case (.alnum, false): return "_"
        case (.alnum, true): return "-"
        case (.any, _): return "*"
        case (.digitX, _): return "X"
        }
    }
}
