/// The syntax tree of a pattern in the subset `LinearRegex` supports.
indirect enum RegexNode: Sendable {
    /// Matches the empty string (an empty alternative or group).
    case empty
    /// Matches one scalar in `sets[index]`.
    case set(Int)
    /// Matches its parts one after another.
    case concat([RegexNode])
    /// Matches any one of its alternatives.
    case alternation([RegexNode])
    /// Matches `node` between `min` and `max` times (`max` nil: without limit); `offset` is the quantifier's.
    case repetition(RegexNode, min: Int, max: Int?, offset: Int)
    /// Matches `node` and records where (group `index`, from 1); only in capturing mode.
    case capture(RegexNode, index: Int)
    /// Matches the empty string at the end of the input (`$`); only in capturing mode.
    case endOfInput
}

/// Reads a pattern into a `RegexNode` tree, refusing every feature outside the supported subset.
///
/// The pattern is read as Unicode scalars; error offsets are given in `Character`s of the pattern,
/// as every `MaskError` offset is.
struct RegexParser {
    /// The pattern's scalars.
    private let scalars: [Unicode.Scalar]
    /// For each scalar index (and one past the end), the character offset it falls in.
    private let characterOffsets: [Int]
    /// The next scalar to read.
    private var index = 0
    /// How many groups enclose the reading position.
    private var depth = 0
    /// The classes the tree's `.set` nodes refer to.
    private(set) var sets: [ScalarSet] = []
    /// Capturing mode (for prefix matching, `CapturingRegex`): `( )` groups capture and `$` at the
    /// end of a top-level alternative asserts the end of the input instead of being a no-op.
    private let capturing: Bool
    /// The capturing groups read so far.
    private(set) var groupCount = 0

    /// The deepest group nesting accepted; deeper patterns are refused rather than risk the stack.
    static let maxDepth = 200
    /// The largest count a `{n,m}` quantifier may name.
    static let maxCount = 1000

    /// Prepares to read `pattern`, in capturing mode when `capturing` is true.
    init(_ pattern: String, capturing: Bool = false) {
        self.capturing = capturing
        var scalars: [Unicode.Scalar] = []
        var offsets: [Int] = []
        var offset = 0
        for character in pattern {
            for scalar in character.unicodeScalars {
                scalars.append(scalar)
                offsets.append(offset)
            }
            offset += 1
        }
        offsets.append(offset)
        self.scalars = scalars
        self.characterOffsets = offsets
    }

    /// Reads the whole pattern.
    /// - Throws: `MaskError` naming the first problem and its character offset in the pattern.
    mutating func parse() throws -> RegexNode {
        let node = try parseAlternation(topLevel: true)
        if index < scalars.count {
            throw error("unbalanced ')'", at: index)
        }
        return node
    }

    /// A `MaskError` at scalar index `at`.
    private func error(_ message: String, at scalarIndex: Int) -> MaskError {
        MaskError(message, offset: characterOffsets[min(scalarIndex, characterOffsets.count - 1)])
    }

    /// The scalar at `index + ahead`, or nil past the end.
    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        index + ahead < scalars.count ? scalars[index + ahead] : nil
    }

    /// Adds a class to `sets` and returns the node matching it.
    private mutating func setNode(_ set: ScalarSet) -> RegexNode {
        sets.append(set)
        return .set(sets.count - 1)
    }

    /// Reads alternatives separated by `|` up to a `)` or the end.
    private mutating func parseAlternation(topLevel: Bool) throws -> RegexNode {
        var alternatives = [try parseSequence(topLevel: topLevel)]
        while peek() == "|" {
            index += 1
            alternatives.append(try parseSequence(topLevel: topLevel))
        }
        return alternatives.count == 1 ? alternatives[0] : .alternation(alternatives)
    }

    /// Reads quantified atoms up to a `|`, a `)` or the end.
    ///
    /// `^` is accepted only first and `$` only last in a top-level alternative, where they are
    /// no-ops: the whole value is always matched.
    private mutating func parseSequence(topLevel: Bool) throws -> RegexNode {
        var items: [RegexNode] = []
        while let c = peek(), c != "|", c != ")" {
            let start = index
            let atom: RegexNode
            switch c {
            case "^":
                guard topLevel, items.isEmpty else {
                    throw error(
                        "unsupported regex feature: '^' other than at the start of the pattern (the whole value is always matched)",
                        at: start)
                }
                index += 1
                continue
            case "$":
                index += 1
                // Last in the pattern inside a group, the group is what is wrong: it is never closed.
                if !topLevel, peek() == nil { continue }
                guard topLevel, peek() == nil || peek() == "|" else {
                    throw error(
                        "unsupported regex feature: '$' other than at the end of the pattern (the whole value is always matched)",
                        at: start)
                }
                if capturing { items.append(.endOfInput) }
                continue
            case "*", "+", "?":
                throw error("nothing to repeat before '\(c)'", at: start)
            case "{":
                if try readCounts() != nil {
                    throw error("nothing to repeat before '{'", at: start)
                }
                throw braceError(at: start)
            case "(":
                atom = try parseGroup()
            case "[":
                atom = setNode(try parseClass())
            case ".":
                index += 1
                atom = setNode(.dot)
            case "\\":
                switch try parseEscape(inClass: false) {
                case .scalar(let scalar): atom = setNode(ScalarSet(scalar: scalar))
                case .set(let set): atom = setNode(set)
                }
            default:
                index += 1
                atom = setNode(ScalarSet(scalar: c))
            }
            items.append(try parseQuantifier(atom))
        }
        switch items.count {
        case 0: return .empty
        case 1: return items[0]
        default: return .concat(items)
        }
    }

    /// The error for a `{` that does not start a well-formed counted repetition.
    private func braceError(at start: Int) -> MaskError {
        error("'{' must start a counted repetition {n}, {n,} or {n,m} (escape a literal brace as '\\{')", at: start)
    }

    /// Reads the quantifier after `atom`, if any, and wraps the atom in it.
    private mutating func parseQuantifier(_ atom: RegexNode) throws -> RegexNode {
        guard let c = peek() else { return atom }
        let start = index
        let counts: (Int, Int?)
        switch c {
        case "*": counts = (0, nil); index += 1
        case "+": counts = (1, nil); index += 1
        case "?": counts = (0, 1); index += 1
        case "{":
            guard let read = try readCounts() else { throw braceError(at: start) }
            counts = read
        default:
            return atom
        }
        if peek() == "?" {
            // A lazy quantifier matches the same strings as a greedy one; only whole matches count here.
            index += 1
        } else if peek() == "+" {
            throw error("unsupported regex feature: possessive quantifier", at: index)
        }
        if let next = peek(), next == "*" || next == "+" || next == "?" || next == "{" {
            throw error("nothing to repeat before '\(next)' (a quantifier cannot follow a quantifier)", at: index)
        }
        return .repetition(atom, min: counts.0, max: counts.1, offset: characterOffsets[start])
    }

    /// Reads `{n}`, `{n,}` or `{n,m}` at the reading position, or returns nil (reading nothing)
    /// when the brace does not start one.
    /// - Throws: `MaskError` for counts out of order or beyond `maxCount`.
    private mutating func readCounts() throws -> (Int, Int?)? {
        let start = index
        var j = index + 1
        /// Reads a run of ASCII digits at `j`, saturating just above `maxCount`; nil when there is none.
        func number() -> Int? {
            var value: Int?
            while j < scalars.count, let digit = Self.asciiDigit(scalars[j]) {
                value = min((value ?? 0) * 10 + digit, Self.maxCount + 1)
                j += 1
            }
            return value
        }
        guard let low = number() else { return nil }
        var high: Int? = low
        if j < scalars.count, scalars[j] == "," {
            j += 1
            high = number()
        }
        guard j < scalars.count, scalars[j] == "}" else { return nil }
        if low > Self.maxCount || (high ?? 0) > Self.maxCount {
            throw error("counted repetition above \(Self.maxCount)", at: start)
        }
        if let high, high < low {
            throw error("counted repetition {\(low),\(high)} has its counts out of order", at: start)
        }
        index = j + 1
        return (low, high)
    }

    /// The value of an ASCII digit scalar.
    private static func asciiDigit(_ scalar: Unicode.Scalar) -> Int? {
        scalar.value >= 0x30 && scalar.value <= 0x39 ? Int(scalar.value - 0x30) : nil
    }

    /// Reads `( ... )` or `(?: ... )`.
    private mutating func parseGroup() throws -> RegexNode {
        let open = index
        index += 1
        var captureIndex: Int?
        if capturing, peek() != "?" {
            groupCount += 1
            captureIndex = groupCount
        }
        if peek() == "?" {
            let feature: String
            switch peek(1) {
            case ":":
                feature = ""
            case "=": feature = "lookahead '(?='"
            case "!": feature = "negative lookahead '(?!'"
            case "<":
                if peek(2) == "=" {
                    feature = "lookbehind '(?<='"
                } else if peek(2) == "!" {
                    feature = "negative lookbehind '(?<!'"
                } else {
                    feature = "named group '(?<name>'"
                }
            case "P", "'": feature = "named group"
            case ">": feature = "atomic group '(?>'"
            case "#": feature = "comment group '(?#'"
            case "|": feature = "branch reset group '(?|'"
            case "(": feature = "conditional group '(?('"
            default: feature = "inline options or other '(?' group syntax"
            }
            guard feature.isEmpty else {
                throw error("unsupported regex feature: \(feature)", at: open)
            }
            index += 2
        }
        depth += 1
        if depth > Self.maxDepth {
            throw error("groups nested more than \(Self.maxDepth) deep", at: open)
        }
        let inner = try parseAlternation(topLevel: false)
        depth -= 1
        guard peek() == ")" else {
            throw error("unbalanced '('", at: open)
        }
        index += 1
        if let captureIndex { return .capture(inner, index: captureIndex) }
        return inner
    }

    /// What an escape denotes: one scalar (usable as a range end) or a class.
    private enum Escape {
        case scalar(Unicode.Scalar)
        case set(ScalarSet)
    }

    /// Reads one escape starting at the backslash.
    private mutating func parseEscape(inClass: Bool) throws -> Escape {
        let start = index
        guard let c = peek(1) else {
            throw error("pattern ends with an unfinished escape '\\'", at: start)
        }
        index += 2
        switch c {
        case "d": return .set(.digits)
        case "D": return .set(ScalarSet.digits.inverted)
        case "w": return .set(.word)
        case "W": return .set(ScalarSet.word.inverted)
        case "s": return .set(.space)
        case "S": return .set(ScalarSet.space.inverted)
        case "t": return .scalar("\t")
        case "n": return .scalar("\n")
        case "r": return .scalar("\r")
        case "f": return .scalar("\u{0C}")
        case "v": return .scalar("\u{0B}")
        case "0":
            if let next = peek(), Self.asciiDigit(next) != nil {
                throw error("unsupported regex feature: octal escape", at: start)
            }
            return .scalar("\u{0}")
        case "1", "2", "3", "4", "5", "6", "7", "8", "9":
            throw error("unsupported regex feature: backreference", at: start)
        case "k", "g":
            throw error("unsupported regex feature: backreference", at: start)
        case "x", "u":
            return .scalar(try parseHexEscape(start: start, fixedDigits: c == "x" ? 2 : 4))
        case "b":
            if inClass {
                throw error(
                    "unsupported regex feature: '\\b' in a character class (write '\\x08' for a backspace)", at: start)
            }
            throw error("unsupported regex feature: word boundary '\\b'", at: start)
        case "B":
            throw error("unsupported regex feature: word boundary '\\B'", at: start)
        case "A", "z", "Z", "G":
            throw error("unsupported regex feature: anchor '\\\(c)' (the whole value is always matched)", at: start)
        case "p", "P":
            throw error("unsupported regex feature: Unicode property '\\\(c)'", at: start)
        case "c":
            throw error("unsupported regex feature: control escape '\\c'", at: start)
        case "Q", "E":
            throw error("unsupported regex feature: quoting '\\Q...\\E'", at: start)
        case "K":
            throw error("unsupported regex feature: match reset '\\K'", at: start)
        default:
            if c.isASCII, c.properties.isAlphabetic {
                throw error("unknown escape '\\\(c)'", at: start)
            }
            return .scalar(c)
        }
    }

    /// Reads the digits of `\xHH`, `\uHHHH`, `\x{H...}` or `\u{H...}`; the reading position is after the letter.
    private mutating func parseHexEscape(start: Int, fixedDigits: Int) throws -> Unicode.Scalar {
        let malformed = error("malformed escape (expected \\xHH, \\uHHHH or \\u{H...})", at: start)
        var value: UInt32 = 0
        if peek() == "{" {
            index += 1
            var count = 0
            while let c = peek(), let digit = Self.hexDigit(c) {
                value = min(value * 16 + digit, 0x110000)
                count += 1
                index += 1
            }
            guard count > 0, peek() == "}" else { throw malformed }
            index += 1
        } else {
            for _ in 0..<fixedDigits {
                guard let c = peek(), let digit = Self.hexDigit(c) else { throw malformed }
                value = value * 16 + digit
                index += 1
            }
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error("escape names no Unicode scalar", at: start)
        }
        return scalar
    }

    /// The value of a hexadecimal digit scalar.
    private static func hexDigit(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar.value {
        case 0x30...0x39: return scalar.value - 0x30
        case 0x41...0x46: return scalar.value - 0x41 + 10
        case 0x61...0x66: return scalar.value - 0x61 + 10
        default: return nil
        }
    }

    /// Reads `[...]` or `[^...]`, starting at the `[`.
    private mutating func parseClass() throws -> ScalarSet {
        let open = index
        index += 1
        var negated = false
        if peek() == "^" {
            negated = true
            index += 1
        }
        if peek() == "]" {
            throw error("empty character class '[]' (escape a literal ']' as '\\]')", at: open)
        }
        var ranges: [ClosedRange<UInt32>] = []
        while true {
            guard let c = peek() else {
                throw error("unbalanced '['", at: open)
            }
            if c == "]" {
                index += 1
                break
            }
            let itemStart = index
            let item = try parseClassItem()
            guard peek() == "-", let after = peek(1), after != "]" else {
                switch item {
                case .scalar(let scalar): ranges.append(scalar.value...scalar.value)
                case .set(let set): ranges += set.ranges
                }
                continue
            }
            guard case .scalar(let low) = item else {
                throw error("a class escape cannot start a range", at: itemStart)
            }
            index += 1
            let highStart = index
            guard case .scalar(let high) = try parseClassItem() else {
                throw error("a class escape cannot end a range", at: highStart)
            }
            guard low.value <= high.value else {
                throw error("character class range out of order", at: itemStart)
            }
            ranges.append(low.value...high.value)
        }
        let set = ScalarSet(ranges)
        return negated ? set.inverted : set
    }

    /// Reads one member of a class: a scalar or an escape.
    private mutating func parseClassItem() throws -> Escape {
        guard let c = peek() else { throw error("unbalanced '['", at: index) }
        switch c {
        case "\\":
            return try parseEscape(inClass: true)
        case "[":
            throw error(
                "unsupported regex feature: nested class or POSIX class in '[...]' (escape '[' as '\\[')", at: index)
        case "&" where peek(1) == "&":
            throw error("unsupported regex feature: class intersection '&&'", at: index)
        default:
            index += 1
            return .scalar(c)
        }
    }
}
