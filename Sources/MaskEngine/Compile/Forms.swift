/// Builds the elements of the object forms that are not bracket notation.
///
/// `pattern`, `groups` and `separatorAt` are other spellings of the same slots and literals, so
/// they compile to the same elements and get a canonical bracket notation for free.
package enum FormCompiler {
    /// The most slots a `groups` mask with `repeat` and no `maxLength` may hold.
    static let unboundedRepeatLimit = 64

    /// `{"pattern": "+1 (###) ###-####", "slot": "#", "accept": "digits"}`, with named `blocks`.
    ///
    /// At each place of the pattern the longest block name that stands there wins; then the slot
    /// character; anything else is a literal.
    /// - Parameter definitions: the mask's own slot characters: each stands for a slot of its class.
    static func pattern(
        _ pattern: String, slot: Character, accept: SlotClass, blocks named: [String: BlockSpec] = [:],
        definitions: [Character: (SlotClass, Bool)] = [:]
    ) throws -> (elements: [Element], blocks: [Block]) {
        if pattern.isEmpty { throw MaskError("empty pattern", offset: 0) }
        let names = named.keys.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
        if names.contains(where: \.isEmpty) { throw MaskError("blocks: a block name must not be empty") }
        let chars = Array(pattern)
        let nameChars = names.map { Array($0) }
        var elements: [Element] = []
        var blocks: [Block] = []
        var used = Set<String>()
        var i = 0
        while i < chars.count {
            if let n = nameChars.firstIndex(where: {
                i + $0.count <= chars.count && Array(chars[i..<(i + $0.count)]) == $0
            }) {
                let name = names[n]
                used.insert(name)
                let block = try Self.block(name, named[name]!, start: elements.count, index: blocks.count, offset: i)
                elements += block.slots
                blocks.append(block.block)
                i += nameChars[n].count
            } else if chars[i] == slot {
                elements.append(Element(kind: .slot(accept), offset: i))
                i += 1
            } else if let (slotClass, optional) = definitions[chars[i]] {
                elements.append(Element(kind: .slot(slotClass), isOptional: optional, offset: i))
                i += 1
            } else {
                elements.append(Element(kind: .literal(chars[i]), offset: i))
                i += 1
            }
        }
        if let unused = names.first(where: { !used.contains($0) }) {
            throw MaskError("blocks: the block '\(unused)' does not occur in the pattern")
        }
        return (elements, blocks)
    }

    /// The slots of one named block, and the block they point at.
    private static func block(_ name: String, _ spec: BlockSpec, start: Int, index: Int, offset: Int) throws
        -> (slots: [Element], block: Block)
    {
        let tag = Int32(index)
        switch spec.rule {
        case .range(let low, let high):
            guard low >= 0, low <= high else {
                throw MaskError(
                    "blocks: '\(name)': a range is [min, max] with 0 <= min <= max, got [\(low), \(high)]",
                    offset: offset)
            }
            let width = String(high).count
            guard width <= Block.maximumRangeDigits else {
                throw MaskError(
                    "blocks: '\(name)': a range has at most \(Block.maximumRangeDigits) digits", offset: offset)
            }
            let slots = (0..<width).map { _ in Element(kind: .slot(.digit), offset: offset, block: tag) }
            return (
                slots,
                Block(
                    rule: .range(min: low, max: high), pad: spec.pad ?? true, label: name, start: start,
                    width: width)
            )
        case .words(let words):
            guard !words.isEmpty else {
                throw MaskError("blocks: '\(name)': an enum needs at least one word", offset: offset)
            }
            let spelled = words.map { Array($0) }
            if spelled.contains(where: { $0.isEmpty || $0.contains(where: \.isNewline) }) {
                throw MaskError("blocks: '\(name)': an enum word must be a non-empty line", offset: offset)
            }
            var seen = Set<String>()
            for word in words where !seen.insert(word.lowercased()).inserted {
                throw MaskError("blocks: '\(name)': the word '\(word)' is listed twice", offset: offset)
            }
            let width = spelled.map(\.count).max()!, shortest = spelled.map(\.count).min()!
            if width > ProgramChecks.maximumElements {
                throw MaskError(
                    "blocks: '\(name)': a word has more than \(ProgramChecks.maximumElements) characters",
                    offset: offset)
            }
            let slotClass = Block.slotClass(of: spelled)
            let slots = (0..<width).map {
                Element(kind: .slot(slotClass), isOptional: $0 >= shortest, offset: offset, block: tag)
            }
            return (slots, Block(rule: .words(spelled), pad: false, label: name, start: start, width: width))
        }
    }

    /// `{"groups": [4, 4, 4, 4, 3], "separator": " ", "minLength": 16, "maxLength": 19}`.
    static func groups(
        _ sizes: [Int], separator: String, accept: SlotClass, minLength: Int?,
        maxLength: Int?, repeats: Bool
    ) throws -> [Element] {
        if sizes.isEmpty { throw MaskError("'groups' needs at least one group size") }
        if let bad = sizes.firstIndex(where: { $0 < 1 }) {
            throw MaskError("group sizes must be positive; group \(bad) is \(sizes[bad])")
        }
        if let bad = sizes.firstIndex(where: { $0 > ProgramChecks.maximumElements }) {
            throw MaskError("group \(bad) is too large: \(sizes[bad]) slots, at most \(ProgramChecks.maximumElements)")
        }
        if sizes.count > ProgramChecks.maximumElements {
            throw MaskError("too many groups: \(sizes.count), at most \(ProgramChecks.maximumElements)")
        }
        try checkLengths(minLength: minLength, maxLength: maxLength)
        var groupSizes = sizes
        if repeats {
            let limit = maxLength ?? unboundedRepeatLimit
            var total = groupSizes.reduce(0, +)
            while total < limit {
                groupSizes.append(sizes.last!)
                total += sizes.last!
            }
        }
        let capacity = min(groupSizes.reduce(0, +), maxLength ?? Int.max)
        var elements: [Element] = []
        var slots = 0
        outer: for (g, size) in groupSizes.enumerated() {
            if g > 0 {
                for c in separator { elements.append(Element(kind: .literal(c))) }
            }
            for _ in 0..<size {
                if slots == capacity { break outer }
                let optional = minLength.map { slots >= $0 } ?? false
                elements.append(Element(kind: .slot(accept), isOptional: optional))
                slots += 1
            }
        }
        // A cap that falls on a group boundary leaves a dangling separator.
        while let last = elements.last, !last.isSlot { elements.removeLast() }
        return elements
    }

    /// `{"separatorAt": [3, 8], "separator": "-", "maxLength": 11}`: the separator stands at those
    /// 0-based offsets of the formatted text. Without `maxLength` the digits after the last
    /// separator are unlimited.
    static func separatorAt(
        _ positions: [Int], separator: String, accept: SlotClass, minLength: Int?,
        maxLength: Int?
    ) throws -> [Element] {
        if positions.isEmpty && maxLength == nil {
            throw MaskError("'separatorAt' needs at least one position or a 'maxLength'")
        }
        if let bad = positions.first(where: { $0 < 0 }) {
            throw MaskError("separator positions must not be negative; got \(bad)")
        }
        if let bad = positions.first(where: { $0 > ProgramChecks.maximumElements }) {
            throw MaskError(
                "separator position \(bad) is past the longest mask (\(ProgramChecks.maximumElements) elements)")
        }
        if separator.isEmpty { throw MaskError("'separator' must not be empty") }
        try checkLengths(minLength: minLength, maxLength: maxLength)
        let wanted = Set(positions)
        let lastPosition = positions.max() ?? -1
        var elements: [Element] = []
        var offset = 0
        var slots = 0
        while true {
            if let maxLength, slots >= maxLength { break }
            if maxLength == nil, offset > lastPosition { break }
            if wanted.contains(offset) {
                if slots == 0 && offset == 0 {
                    // A separator before any slot is a leading literal; allowed, if odd.
                }
                for c in separator { elements.append(Element(kind: .literal(c))) }
                offset += separator.count
                continue
            }
            let optional = minLength.map { slots >= $0 } ?? false
            elements.append(Element(kind: .slot(accept), isOptional: optional))
            slots += 1
            offset += 1
        }
        if maxLength == nil {
            // The digits after the last separator: at least one, then as many as typed.
            elements.append(Element(kind: .slot(accept), isOptional: minLength.map { slots >= $0 } ?? false))
            elements.append(Element(kind: .slot(accept), isOptional: true, repeats: true))
        }
        while let last = elements.last, !last.isSlot { elements.removeLast() }
        return elements
    }

    private static func checkLengths(minLength: Int?, maxLength: Int?) throws {
        if let maxLength, maxLength < 1 { throw MaskError("'maxLength' must be at least 1") }
        if let maxLength, maxLength > Program.maximumCells {
            throw MaskError("'maxLength' must be at most \(Program.maximumCells)")
        }
        if let minLength, minLength < 0 { throw MaskError("'minLength' must not be negative") }
        if let minLength, let maxLength, minLength > maxLength {
            throw MaskError("'minLength' (\(minLength)) is greater than 'maxLength' (\(maxLength))")
        }
    }
}

/// Checks every compiled program must pass, whatever its form.
package enum ProgramChecks {
    /// The most elements a mask may compile to; a field is a line a person types, not a file.
    static let maximumElements = 4096

    package static func check(_ elements: [Element], letterCase: LetterCase? = nil, definitions: [SlotDefinition] = [])
        throws
    {
        guard elements.contains(where: \.isSlot) else {
            throw MaskError("the mask has no slot to fill", offset: 0)
        }
        if elements.count > maximumElements {
            throw MaskError(
                "the mask is too long: \(elements.count) elements, at most \(maximumElements)",
                offset: elements[maximumElements].offset)
        }
        try checkAmbiguity(elements, letterCase: letterCase, definitions: definitions)
    }

    /// Refuses an optional slot followed, through optional slots only, by a required slot that
    /// takes some of the same characters: reading such a mask again would not be idempotent.
    static func checkAmbiguity(
        _ elements: [Element], letterCase: LetterCase? = nil,
        definitions: [SlotDefinition] = []
    ) throws {
        func fits(_ c: Character, _ slotClass: SlotClass) -> Bool {
            if case .defined(let i) = slotClass { return definitions[Int(i)].fit(c, letterCase: letterCase) != nil }
            return slotClass.fit(c, letterCase: letterCase) != nil
        }
        // A literal that an optional (or `…`) slot before it takes, with only optional slots
        // between: shown, it would be read back into the slot (`[9a]ab`, `[A…]x`).
        for i in elements.indices {
            guard let slotClass = elements[i].slotClass, elements[i].isOptional else { continue }
            var j = i + 1
            while j < elements.count, elements[j].isSlot, elements[j].isOptional { j += 1 }
            if j < elements.count, let literal = elements[j].literal, fits(literal, slotClass) {
                throw MaskError(
                    "ambiguous mask: the optional slot at offset \(elements[i].offset) takes the literal '\(literal)' at "
                        + "offset \(elements[j].offset) that follows it; make the slot required or escape the choice "
                        + "with a different literal",
                    offset: elements[i].offset)
            }
        }
        for i in elements.indices {
            let first = elements[i]
            guard let firstClass = first.slotClass, first.isOptional, !first.repeats else { continue }
            var j = i + 1
            while j < elements.count, let laterClass = elements[j].slotClass {
                let later = elements[j]
                if !later.isOptional {
                    if overlap(firstClass, laterClass, definitions: definitions, fits: fits) {
                        throw MaskError(
                            "ambiguous mask: the optional slot at offset \(first.offset) is followed by a required "
                                + "slot at offset \(later.offset) that takes the same characters; put a literal "
                                + "between them or make the first one required",
                            offset: first.offset)
                    }
                    break
                }
                j += 1
            }
        }
    }

    static func overlap(
        _ a: SlotClass, _ b: SlotClass, definitions: [SlotDefinition] = [],
        fits: (Character, SlotClass) -> Bool
    ) -> Bool {
        if a == b || a == .any || b == .any { return true }
        if a.isDefined || b.isDefined {
            // A definition meets another class when some ASCII character fits both; past ASCII, a digit is
            // stored as ASCII, so only a letter or another character could meet, and that is assumed.
            if (0x21..<0x7F).contains(where: {
                fits(Character(Unicode.Scalar(UInt8($0))), a)
                    && fits(Character(Unicode.Scalar(UInt8($0))), b)
            }) {
                return true
            }
            func asciiOnly(_ c: SlotClass) -> Bool {
                if case .defined(let i) = c { return definitions[Int(i)].set.ranges.allSatisfy { $0.upperBound < 128 } }
                return false
            }
            if asciiOnly(a) || asciiOnly(b) { return false }
            return a != .digit && b != .digit && a != .digitX && b != .digitX
        }
        switch (a, b) {
        // `X` is a letter, so only plain digits and letters never meet.
        case (.letter, .digit), (.digit, .letter): return false
        default: return true
        }
    }
}
