/// A slot character of a mask's own (`"definitions": {"H": "[0-9A-F]"}`): one character class of the
/// `regex` subset, optional when the definition ends in `?`.
///
/// A typed character is normalised as for every slot (decimal digits of any script become ASCII) and
/// converted by the mask's `case` option before the class is tested, so `[0-9A-F]` with `"case":
/// "upper"` takes `a` as `A`.
package struct SlotDefinition: Hashable, Sendable {
    /// The character that stands for the slot inside `[]` (and in a `pattern`).
    let name: Character
    let set: ScalarSet
    let isOptional: Bool
    /// What `next` reports for the slot: the narrowest of digit, letter, alnum that holds the class.
    let kind: SlotKind

    /// The slot characters of the notation, which a definition may not take.
    static let reserved: Set<Character> = ["0", "9", "A", "a", "_", "-", "*", "X", "…", "[", "]", "{", "}", "\\"]

    /// Reads `"[0-9A-F]"` or `"[a-z]?"`.
    /// - Throws: `MaskError` with the offset in the definition's text.
    init(name: Character, _ text: String) throws {
        if Self.reserved.contains(name) {
            throw MaskError("definitions: '\(name)' is a built-in slot character and cannot be redefined")
        }
        if name.isWhitespace || name.isNewline {
            throw MaskError("definitions: a definition is named by a visible character, not white space")
        }
        var parser = RegexParser(text)
        let node: RegexNode
        do {
            node = try parser.parse()
        } catch let error as MaskError {
            throw MaskError("definitions.\(name): \(error.message)", offset: error.offset)
        }
        let index: Int
        switch node {
        case .set(let i):
            index = i
            isOptional = false
        case .repetition(.set(let i), min: 0, max: 1, offset: _):
            index = i
            isOptional = true
        default:
            throw MaskError(
                "definitions.\(name): '\(text)' is not one character class such as [0-9A-F], "
                    + "optionally followed by '?'", offset: 0)
        }
        let set = parser.sets[index]
        if set.isEmpty { throw MaskError("definitions.\(name): the class '\(text)' takes no character", offset: 0) }
        self.name = name
        self.set = set
        let ascii = (UInt8(0)..<128).filter { set.contains(Unicode.Scalar($0)) }
        let onlyASCII = set.ranges.allSatisfy { $0.upperBound < 128 }
        func all(_ test: (UInt8) -> Bool) -> Bool { onlyASCII && ascii.allSatisfy(test) }
        let isDigit = { (b: UInt8) in (0x30...0x39).contains(b) }
        let isLetter = { (b: UInt8) in (0x41...0x5A).contains(b & ~0x20) }
        if all(isDigit) {
            kind = .digit
        } else if all(isLetter) {
            kind = .letter
        } else if all({ isLetter($0) || isDigit($0) }) {
            kind = .alnum
        } else {
            kind = .any
        }
    }

    /// What the slot stores for `c`, or nil when it does not fit.
    func fit(_ c: Character, letterCase: LetterCase?) -> Character? {
        if c.isNewline { return nil }
        var stored = c
        if let digit = asciiDigit(c) {
            stored = digit
        } else if c.isLetter, let letterCase {
            let converted = letterCase == .upper ? c.uppercased() : c.lowercased()
            if converted.count == 1 { stored = Character(converted) }
        }
        let scalars = stored.unicodeScalars
        guard scalars.count == 1, let scalar = scalars.first, set.contains(scalar) else { return nil }
        // A slot holds one cluster: one that would merge with the character before it is refused.
        guard scalar.isASCII || SlotClass.any.standsAlone(stored) else { return nil }
        return stored
    }

    /// `fit` for each ASCII byte (0: it does not fit), for the byte path. Worked out on the byte, as `fit` treats
    /// an ASCII character, since every program compiles one per definition: a line break fits nothing, a digit
    /// stays itself, a letter takes the case, and the class decides.
    func asciiTable(letterCase: LetterCase?) -> [UInt8] {
        (0..<128).map { b in
            var byte = UInt8(b)
            guard byte != 0, !(0x0A...0x0D).contains(byte) else { return 0 }
            if let letterCase, (0x41...0x5A).contains(byte & ~0x20) {
                byte = letterCase == .upper ? byte & ~0x20 : byte | 0x20
            }
            return set.contains(Unicode.Scalar(byte)) ? byte : 0
        }
    }

    /// `asciiTable` as `fit` gives it, character by character (tests).
    func asciiTableByCharacter(letterCase: LetterCase?) -> [UInt8] {
        (0..<128).map { b in
            guard b != 0, let stored = fit(Character(Unicode.Scalar(UInt8(b))), letterCase: letterCase),
                let ascii = stored.asciiValue
            else { return 0 }
            return ascii
        }
    }
}
