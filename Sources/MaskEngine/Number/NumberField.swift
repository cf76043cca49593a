/// A number field: `{"number": {"group": ",", "decimal": ".", "fraction": 2, ...}}`, typed as a person types.
///
/// A number's state is its sign, its integer digits, whether it has a decimal mark, and its
/// fraction digits; the text is always derived from that state. The digits and the mark are the
/// *entered elements*; the minus sign, the group separators and an implied `0` are shown around them.
///
/// **Reading text** (typing, pasting, formatting): every Unicode decimal digit (full-width `１`,
/// Arabic-Indic `٣`) is read as its ASCII digit; the decimal mark (`decimal`, or its full-width
/// form) is read as the mark; characters of `group` (and, when `group` holds a space, U+00A0 and
/// U+202F) are dropped silently, since the field shows its own; `-` (also U+2212 and `－`) toggles
/// the sign and `+` (also `＋`) makes the number positive, wherever they are typed, when
/// `negative` is true (otherwise both are rejected); anything else is reported in `rejected`.
/// The prefix and suffix are recognised whole before their characters are read (`NumberAffix`), so
/// the `.` of a prefix `Rs.` is never a decimal mark; a character of one found alone is dropped.
///
/// **Affixes** frame a number that has a sign, a digit or a mark: the sign, then the prefix, the
/// number, the suffix (`-$1,234.5 USD`). In an empty field the beginning of the prefix typed so far
/// stays shown, so that the prefix can be typed key by key; typed where an affix stands, a character
/// equal to the one at the caret steps over it.
///
/// **Limits.** Only the first decimal mark counts: another one typed while the number has one is
/// rejected. When `fraction` is 0 a decimal mark ends what is read: the mark and the digits read
/// after it in the same text are cut into `overflow` (`12.50` pasted gives `12`). At most
/// `maxInteger` integer digits and `fraction` fraction digits are kept; what is beyond is cut into
/// `overflow`: the digits just read first (from the right), so typing into a full part changes
/// nothing; then, if still too many, the rightmost digits already there. That happens only when an
/// edit moves digits across the mark: typing the mark at `1234|567` with 2 decimals gives
/// `1,234.56` and cuts `7`; deleting the mark of `12.34` with `maxInteger` 3 gives `123` and cuts `4`.
///
/// **Zeros, as a calculator does.** Leading zeros of the integer part are dropped without being
/// reported (`0` then `5` gives `5`, `007` gives `7`); an integer part of zeros alone is one `0`.
/// Before the decimal mark an integer part with no digit shows an implied `0`: typing the mark
/// in an empty field gives `0.`, deleting the `1` of `1.5` gives `0.5`. The implied `0` is not
/// an entered digit: a digit typed at either side of it replaces it, and deleting it moves the
/// caret over it without changing the text.
///
/// **Grouping** from the right in threes, as the person types: `1234567` shows `1,234,567`;
/// `group` may be empty (no grouping) or several characters.
///
/// **The caret** keeps its count of entered elements (digits and the mark, and the sign when it
/// stands after the caret) to its right, and sits as far left as that allows: right after the
/// element to its left, before any separator that follows it. After typing it is right after what
/// was typed. A typed text that changes nothing (rejected, or cut because the field is full)
/// leaves the caret where it was.
///
/// **Deleting** removes the entered elements and the sign inside the range (a collapsed caret:
/// the character before it for backspace, after it for forward delete). A range holding only
/// group separators removes the nearest digit before it (after it, for forward delete), so the key
/// never sticks on a separator. Removing the decimal mark joins the fraction digits to the
/// integer part.
///
/// **State.** `value` is the text without group separators and with `.` as the decimal mark
/// (`-1234567.5`, `0.`, `-`); `complete` (and `valid`) when there is at least one digit and the
/// text does not end with the decimal mark; `problems` says why not; `next` is `.digit` unless
/// a digit typed at the end could not be kept and neither could a decimal mark (the fraction is
/// full, or the integer part is full and `fraction` is 0); `placeholder` is the missing fraction
/// digits as `placeholderChar` once a decimal mark is shown, else empty; `mask` is
/// `number(group: ",", decimal: ".", fraction: 2, negative: false, maxInteger: 12)` (no
/// `maxInteger` when unlimited); `brand` is nil. Positions are `Character` offsets.
package final class NumberField: Sendable {
    /// The settings this field was built from.
    let spec: NumberSpec
    /// How a missing fraction digit is shown in `placeholder`.
    let placeholderChar: Character
    /// The characters that count as group separators when read.
    private let groupCharacters: Set<Character>
    /// How each ASCII byte is read, for the byte path of `read`.
    private let asciiKinds: [ReadKind]
    /// The characters of the prefix and suffix, dropped when read (the field shows its own).
    private let affixCharacters: Set<Character>
    /// The prefix and suffix, recognised whole in a text before its characters are read.
    private let affix: NumberAffix

    /// Builds a field; `validate` the spec first, since a field takes any spec as it is.
    init(_ spec: NumberSpec, placeholderChar: Character = "_") {
        self.spec = spec
        self.placeholderChar = placeholderChar
        var group = Set(spec.group)
        if group.contains(" ") {
            group.insert("\u{A0}")
            group.insert("\u{202F}")
        }
        self.groupCharacters = group
        let affix = Set(spec.prefix + spec.suffix)
        self.affixCharacters = affix
        self.affix = NumberAffix(prefix: spec.prefix, suffix: spec.suffix)
        asciiKinds = (0..<128).map {
            Self.kind(of: Character(Unicode.Scalar(UInt8($0))), decimal: spec.decimal, group: group, affix: affix)
        }
    }

    /// Checks that a spec can be read unambiguously.
    /// - Throws: `MaskError` (with no offset) naming the problem.
    static func validate(_ spec: NumberSpec) throws {
        let signs: Set<Character> = ["-", "+", "\u{2212}", "\u{FF0D}", "\u{FF0B}"]
        if digitValue(spec.decimal) != nil {
            throw MaskError("number: the decimal mark '\(spec.decimal)' is a digit")
        }
        if signs.contains(spec.decimal) {
            throw MaskError("number: the decimal mark '\(spec.decimal)' is a sign")
        }
        for character in spec.group {
            if digitValue(character) != nil {
                throw MaskError("number: the group separator \"\(spec.group)\" contains a digit")
            }
            // Without `negative` a sign is never read as one, so it may separate groups (`1-234-567`).
            if spec.negative, signs.contains(folded(character)) {
                throw MaskError(
                    "number: the group separator \"\(spec.group)\" contains a sign, which `negative` reads as one")
            }
            if character == spec.decimal || folded(character) == folded(spec.decimal) {
                throw MaskError("number: the group separator \"\(spec.group)\" contains the decimal mark")
            }
        }
        // A field holds at most `Program.maximumCells` characters; larger bounds would only let one
        // request allocate without limit (a placeholder of `fraction` characters).
        let limit = Program.maximumCells
        if spec.fraction < 0 || spec.fraction > limit {
            throw MaskError("number: fraction must be between 0 and \(limit)")
        }
        if let maxInteger = spec.maxInteger, maxInteger < 1 || maxInteger > limit {
            throw MaskError("number: maxInteger must be between 1 and \(limit)")
        }
        if let min = spec.min, let max = spec.max, min > max {
            throw MaskError("number: min (\(plain(min))) is greater than max (\(plain(max)))")
        }
        let groupCharacters = Set(spec.group)
        /// Whether a character is one a number's own text is made of: a digit, the mark (or an alias), a group separator.
        func isNumberCharacter(_ c: Character) -> Bool {
            digitValue(c) != nil || c == spec.decimal || folded(c) == spec.decimal || spec.decimalAliases.contains(c)
                || groupCharacters.contains(c)
        }
        for (name, affix) in [("prefix", spec.prefix), ("suffix", spec.suffix)] {
            if affix.contains(where: { signs.contains(folded($0)) || $0.isNewline }) {
                throw MaskError("number: the \(name) \"\(affix)\" must not contain signs or line breaks")
            }
            if affix.count > limit { throw MaskError("number: the \(name) is longer than \(limit) characters") }
        }
        // An affix is recognised whole wherever it stands only if it cannot begin inside the number's own
        // characters: the prefix begins with none of them, the suffix with no digit or mark and holds some other
        // character (a space before a unit, `1 234 kg`, is fine).
        if let first = spec.prefix.first, isNumberCharacter(first) {
            throw MaskError(
                "number: the prefix \"\(spec.prefix)\" must not begin with a digit, the decimal mark or a group separator"
            )
        }
        if let first = spec.suffix.first {
            if digitValue(first) != nil || first == spec.decimal || folded(first) == spec.decimal
                || spec.decimalAliases.contains(first)
            {
                throw MaskError("number: the suffix \"\(spec.suffix)\" must not begin with a digit or the decimal mark")
            }
            if spec.suffix.allSatisfy(isNumberCharacter) {
                throw MaskError(
                    "number: the suffix \"\(spec.suffix)\" must hold a character other than digits and separators")
            }
        }
        for alias in spec.decimalAliases where digitValue(alias) != nil || signs.contains(alias) || alias.isNewline {
            throw MaskError("number: the decimal alias '\(alias)' is a digit, a sign or a line break")
        }
    }

    /// The canonical description reported as `mask`.
    var notation: String {
        /// `s` in double quotes, with `"` and `\` escaped.
        func quoted(_ s: String) -> String {
            var out = "\""
            for c in s {
                if c == "\"" || c == "\\" { out.append("\\") }
                out.append(c)
            }
            return out + "\""
        }
        var text = "number(group: \(quoted(spec.group)), decimal: \(quoted(String(spec.decimal))), "
        text += "fraction: \(spec.fraction), negative: \(spec.negative)"
        if let maxInteger = spec.maxInteger { text += ", maxInteger: \(maxInteger)" }
        if spec.grouping != .thousand { text += ", grouping: \(quoted(spec.grouping.rawValue))" }
        if let min = spec.min { text += ", min: \(Self.plain(min))" }
        if let max = spec.max { text += ", max: \(Self.plain(max))" }
        if !spec.prefix.isEmpty { text += ", prefix: \(quoted(spec.prefix))" }
        if !spec.suffix.isEmpty { text += ", suffix: \(quoted(spec.suffix))" }
        if !spec.decimalAliases.isEmpty {
            text += ", decimalAliases: [" + spec.decimalAliases.map { quoted(String($0)) }.joined(separator: ", ") + "]"
        }
        if spec.padFraction { text += ", padFraction: true" }
        return text + ")"
    }

    // MARK: Reading

    /// Where an entered element came from in an edit: kept before the edit point, read in, or kept after it.
    enum Origin: Hashable {
        case before, inserted, after
    }

    /// One entered element: a digit (0-9) or the decimal mark, and where it came from.
    struct Element: Hashable {
        /// The digit, or nil for the decimal mark.
        var digit: UInt8?
        /// Where it came from.
        var origin: Origin
        /// Its character offset in the text it was read from.
        var position: Int
        /// The decimal mark.
        var isMark: Bool { digit == nil }
    }

    /// A number's state after reading, with what was refused or cut along the way.
    struct State {
        /// A minus sign is shown.
        var negative = false
        /// Integer digits: no leading zero, except one `0` alone when there is no decimal mark.
        var integer: [Element] = []
        /// The decimal mark, when there is one.
        var mark: Element?
        /// Fraction digits, at most `fraction` of them.
        var fraction: [Element] = []
        /// Offsets of the read `-` signs that took effect.
        var signPositions: [Int] = []
        /// Offsets of read leading zeros that were dropped.
        var droppedZeros: [Int] = []
        /// Characters read that fit nowhere.
        var rejected = ""
        /// Characters read that were cut by a limit.
        var overflow = ""
        /// With no number (no sign, digit or mark): how many leading characters of the prefix the person has
        /// typed, shown as typed so the prefix can be typed key by key (never all of it: a bare prefix is an empty field).
        var prefixTyped = 0

        /// Every entered element, in order.
        var elements: [Element] { integer + (mark.map { [$0] } ?? []) + fraction }
    }

    /// The ASCII value of a Unicode decimal digit, or nil.
    @inlinable package static func digitValue(_ character: Character) -> UInt8? {
        if let ascii = character.asciiValue { return (0x30...0x39).contains(ascii) ? ascii - 0x30 : nil }
        let scalars = character.unicodeScalars
        guard scalars.count == 1, let scalar = scalars.first,
            scalar.properties.numericType == .decimal,
            let value = scalar.properties.numericValue, value >= 0, value <= 9
        else { return nil }
        return UInt8(value)
    }

    /// The character of a digit 0-9.
    @inline(__always)
    static func character(_ digit: UInt8) -> Character { Character(Unicode.Scalar(0x30 + digit)) }

    /// The ASCII character a full-width form stands for (`．` is `.`), or the character itself.
    @inlinable package static func folded(_ character: Character) -> Character {
        let scalars = character.unicodeScalars
        guard scalars.count == 1, let scalar = scalars.first else { return character }
        if (0xFF01...0xFF5E).contains(scalar.value), let ascii = Unicode.Scalar(scalar.value - 0xFEE0) {
            return Character(ascii)
        }
        if scalar.value == 0x2212 { return "-" }
        return character
    }

    /// What a character read into the field is.
    enum ReadKind {
        case digit(UInt8), mark, group, minus, plus, other
    }

    /// How `character` is read.
    private func kind(of character: Character) -> ReadKind {
        Self.kind(of: character, decimal: spec.decimal, group: groupCharacters, affix: affixCharacters)
    }

    /// How `character` is read with the decimal mark `decimal` and the group characters `group`; a
    /// character of the prefix or suffix (`affix`) is dropped as a group separator is.
    private static func kind(
        of character: Character, decimal: Character, group: Set<Character>,
        affix: Set<Character>
    ) -> ReadKind {
        if let digit = digitValue(character) { return .digit(digit) }
        let folded = folded(character)
        if character == decimal || folded == decimal { return .mark }
        if group.contains(character) || group.contains(folded) || affix.contains(character) { return .group }
        switch folded {
        case "-": return .minus
        case "+": return .plus
        default: return .other
        }
    }

    /// The decimal aliases that act as the mark in an edit's text: all of them in a key press; in a
    /// longer text (a paste) only those that are not also group separators, which a pasted
    /// `1,234.50` is full of.
    private func aliases(forInserted text: String) -> Set<Character> {
        guard !spec.decimalAliases.isEmpty else { return [] }
        // One character, found without counting the characters of a long paste.
        if !text.isEmpty, text.index(after: text.startIndex) == text.endIndex { return Set(spec.decimalAliases) }
        return Set(spec.decimalAliases.filter { if case .group = kind(of: $0) { return false } else { return true } })
    }

    /// A bound written as a person reads it: `100`, `2.5`.
    static func plain(_ bound: Double) -> String {
        if bound == bound.rounded(), abs(bound) < 1e15 { return String(Int(bound)) }
        return String(bound)
    }

    /// A bound with the field's decimal mark.
    private func written(_ bound: Double) -> String {
        String(Self.plain(bound).map { $0 == "." ? spec.decimal : $0 })
    }

    /// Reads a field's own text (or any text read into an empty field) from its start: the prefix is
    /// stepped over or found whole, the suffix found whole; a beginning of the prefix alone is kept as typed.
    private func readWhole(_ text: String, aliases: Set<Character> = []) -> State {
        let skips = affix.skips(in: text, steppingFrom: 0)
        var state = read(
            before: [], inserted: text, after: [], negative: false, aliases: aliases, skipped: skips.ranges)
        if state.elements.isEmpty, !state.negative, skips.prefixReached < affix.prefix.count {
            state.prefixTyped = skips.prefixReached
        }
        return state
    }

    /// Reads `inserted` (its characters' offsets, plus `offset`, are their positions) between the kept
    /// elements `before` and `after`, and applies the limits and the zero rules; a character of
    /// `aliases` is read as the decimal mark; the characters in `skipped` (character offsets of `inserted`,
    /// in order: a prefix or suffix recognised whole) are not read.
    private func read(
        before: [Element], inserted: String, offset: Int = 0, after: [Element], negative: Bool,
        aliases: Set<Character> = [], skipped: [Range<Int>] = []
    ) -> State {
        var state = State()
        // Overflow pieces cut by a limit, with a sort key: (index in the joined sequence, 0); each a digit, or nil
        // for the decimal mark. Those cut while reading are `reading.cutWhileReading`, placed by `reading.cutKey`.
        var cut: [((Int, Int), UInt8?)] = []
        // A field holds at most `Program.maximumCells` entered elements: what is read beyond them is cut.
        var reading = Reading(
            spec: spec, decimalUTF8: Array(spec.decimal.utf8), keptBefore: before.count,
            room: Program.maximumCells - before.count - after.count, negative: negative,
            markSeen: before.contains(where: \.isMark) || after.contains(where: \.isMark),
            onlyZeros: before.allSatisfy { $0.digit == 0 })
        WorkCounter.count(before.count + after.count)
        var rejected: [UInt8] = []
        // An ASCII text without `\r` (nearly every paste) is read byte by byte: a byte is a character there.
        var inserted = inserted
        let readAsBytes = inserted.withUTF8 { bytes -> Bool in
            guard EncodedText.isSingleByte(bytes) else { return false }
            var kinds = asciiKinds
            for alias in aliases where alias.utf8.count == 1 {
                if let byte = alias.asciiValue { kinds[Int(byte)] = .mark }
            }
            var start = 0
            for skip in skipped + [bytes.count..<bytes.count] {
                if skip.lowerBound > start {
                    reading.take(
                        bytes: UnsafeBufferPointer(rebasing: bytes[start..<skip.lowerBound]), kinds: kinds,
                        offset: offset + start, rejected: &rejected)
                }
                start = max(start, skip.upperBound)
            }
            return true
        }
        if !readAsBytes {
            var skip = 0
            for (position, character) in inserted.enumerated() {
                while skip < skipped.count, skipped[skip].upperBound <= position { skip += 1 }
                if skip < skipped.count, skipped[skip].contains(position) { continue }
                let kind = aliases.contains(character) ? .mark : kind(of: character)
                if reading.take(kind, at: offset + position) { rejected.append(contentsOf: character.utf8) }
            }
        }
        state.rejected = String(decoding: rejected, as: UTF8.self)
        state.negative = reading.negative
        state.signPositions = reading.signPositions
        state.droppedZeros = reading.droppedZeros
        let readIn = reading.readIn

        let sequence = (before + readIn + after).enumerated().map { (offset: $0.offset, element: $0.element) }
        let markIndex = sequence.firstIndex { $0.element.isMark }
        var integer = Array(sequence[..<(markIndex ?? sequence.count)])
        var fraction = markIndex.map { Array(sequence[($0 + 1)...]) } ?? []
        state.mark = markIndex.map { sequence[$0].element }

        /// Drops leading zeros, keeping one `0` alone when there is no decimal mark.
        func dropLeadingZeros() {
            var zeros = 0
            while zeros < integer.count, integer[zeros].element.digit == 0 { zeros += 1 }
            if zeros == integer.count, state.mark == nil { zeros = max(0, zeros - 1) }
            state.droppedZeros += integer[..<zeros].map(\.element.position)
            integer.removeFirst(zeros)
        }

        /// Cuts `part` to `limit` elements: elements read in first (from the right), then the rightmost.
        func limit(_ part: inout [(offset: Int, element: Element)], to count: Int) {
            var excess = part.count - count
            guard excess > 0 else { return }
            var keep = [Bool](repeating: true, count: part.count)
            for index in part.indices.reversed() where excess > 0 && part[index].element.origin == .inserted {
                keep[index] = false
                excess -= 1
            }
            for index in part.indices.reversed() where excess > 0 && keep[index] {
                keep[index] = false
                excess -= 1
            }
            var kept: [(offset: Int, element: Element)] = []
            for (index, item) in part.enumerated() {
                if keep[index] {
                    kept.append(item)
                } else {
                    cut.append(((item.offset, 0), item.element.digit ?? 0))
                }
            }
            part = kept
        }

        dropLeadingZeros()
        if let maxInteger = spec.maxInteger {
            limit(&integer, to: maxInteger)
            dropLeadingZeros()
        }
        limit(&fraction, to: spec.fraction)

        state.integer = integer.map(\.element)
        state.fraction = fraction.map(\.element)
        cut.sort { $0.0 < $1.0 }
        var overflow: [UInt8] = []
        overflow.reserveCapacity(cut.count + reading.cutWhileReading.count)
        func write(_ digit: UInt8?) {
            if let digit { overflow.append(0x30 + digit) } else { overflow.append(contentsOf: reading.decimalUTF8) }
        }
        let beforeReadingCut = cut.firstIndex { $0.0.0 > reading.cutKey } ?? cut.endIndex
        for (_, digit) in cut[..<beforeReadingCut] { write(digit) }
        overflow.append(contentsOf: reading.cutWhileReading)
        for (_, digit) in cut[beforeReadingCut...] { write(digit) }
        state.overflow = String(decoding: overflow, as: UTF8.self)
        return state
    }

    // MARK: Showing

    /// A state shown: the text, and for each character whether it is counted by the caret rule.
    private struct Shown {
        var characters: [Character] = []
        /// Digits (the implied `0` too), the mark and the sign are counted; separators are not.
        var counted: [Bool] = []
        /// Where the implied `0` stands, if one is shown.
        var impliedZero: Int?
        /// 1 when a minus sign is shown (first, before the prefix), else 0.
        var signLength = 0
        /// How many characters of the prefix are shown (all, none, or those typed into an empty field).
        var prefixLength = 0
        /// Where the number starts: after the sign and the prefix.
        var lead: Int { signLength + prefixLength }
        /// How many characters of the suffix are shown (all or none).
        var suffixLength = 0
    }

    /// Whether a group separator stands before a digit that has `right` digits after it in the integer part.
    private func separatorBefore(digitsToItsRight right: Int) -> Bool {
        switch spec.grouping {
        case .thousand: return right % 3 == 0
        case .wan: return right % 4 == 0
        case .lakh: return right == 3 || (right > 3 && (right - 3) % 2 == 0)
        case .none: return false
        }
    }

    /// Lays out a state's text.
    private func show(_ state: State) -> Shown {
        var shown = Shown()
        // The prefix and suffix frame a number once there is anything of it (a sign, a digit, a mark).
        let framed = state.negative || !state.integer.isEmpty || state.mark != nil
        // The sign stands before the prefix: `-$1,234.5`.
        if state.negative {
            shown.characters.append("-")
            shown.counted.append(true)
            shown.signLength = 1
        }
        let prefixShown = framed ? spec.prefix.count : state.prefixTyped
        for c in spec.prefix.prefix(prefixShown) {
            shown.characters.append(c)
            shown.counted.append(false)
        }
        shown.prefixLength = prefixShown
        var digits = state.integer.map { Self.character($0.digit ?? 0) }
        if digits.isEmpty, state.mark != nil {
            shown.impliedZero = shown.characters.count
            digits = ["0"]
        }
        for (index, digit) in digits.enumerated() {
            if index > 0, separatorBefore(digitsToItsRight: digits.count - index) {
                for separator in spec.group {
                    shown.characters.append(separator)
                    shown.counted.append(false)
                }
            }
            shown.characters.append(digit)
            shown.counted.append(true)
        }
        if state.mark != nil {
            shown.characters.append(spec.decimal)
            shown.counted.append(true)
            for element in state.fraction {
                shown.characters.append(Self.character(element.digit ?? 0))
                shown.counted.append(true)
            }
        }
        if framed {
            for c in spec.suffix {
                shown.characters.append(c)
                shown.counted.append(false)
            }
            shown.suffixLength = spec.suffix.count
        }
        return shown
    }

    /// The leftmost position after the sign and the prefix with `right` counted characters to its
    /// right, or the start when the caret stands before the sign.
    ///
    /// `right` larger than what is shown (leading zeros to the right of the caret were dropped)
    /// gives the position right after the sign.
    private func position(in shown: Shown, right: Int, beforeSign: Bool = false) -> Int {
        if beforeSign { return 0 }
        var suffix = [Int](repeating: 0, count: shown.characters.count + 1)
        for index in shown.characters.indices.reversed() {
            suffix[index] = suffix[index + 1] + (shown.counted[index] ? 1 : 0)
        }
        if right >= suffix[shown.lead] { return shown.lead }
        for index in shown.lead...shown.characters.count where suffix[index] == right {
            return index
        }
        return shown.characters.count - shown.suffixLength
    }

    /// The result for a state, with the caret or selection given as positions.
    /// The value of a state: the number with `.` as the mark and no separators (`-1234567.5`, `0.`, `-`).
    private func value(of state: State) -> String {
        var value = state.negative ? "-" : ""
        value +=
            state.integer.isEmpty && state.mark != nil
            ? "0" : String(state.integer.map { Self.character($0.digit ?? 0) })
        if state.mark != nil {
            value += "." + String(state.fraction.map { Self.character($0.digit ?? 0) })
        }
        return value
    }

    /// Whether `value` lies beyond a bound that more digits cannot bring it back from: above `max`
    /// when `max` >= 0, below `min` when `min` <= 0. A key that would take it there is refused.
    private func isPastFarBound(_ value: String) -> Bool {
        guard spec.min != nil || spec.max != nil, let v = Double(value) else { return false }
        if let max = spec.max, max >= 0, v > max { return true }
        if let min = spec.min, min <= 0, v < min { return true }
        return false
    }

    private func result(_ state: State, _ shown: Shown, selection: Range<Int>) -> FieldResult {
        let value = value(of: state)
        let hasDigit = !state.integer.isEmpty || !state.fraction.isEmpty
        var problems: [String] = []
        if !hasDigit {
            problems.append("no digits")
        } else if state.mark != nil, state.fraction.isEmpty {
            problems.append("no digit after the decimal mark")
        }
        let significant = state.integer.count == 1 && state.integer[0].digit == 0 ? 0 : state.integer.count
        let integerFull = spec.maxInteger.map { significant >= $0 } ?? false
        let full = state.mark != nil ? state.fraction.count >= spec.fraction : (integerFull && spec.fraction == 0)
        let placeholder =
            state.mark != nil
            ? String(repeating: placeholderChar, count: max(0, spec.fraction - state.fraction.count)) : ""
        let complete = problems.isEmpty
        if complete, spec.min != nil || spec.max != nil, let v = Double(value) {
            // Under a positive `min` (or over a negative `max`) the person may still be typing: a problem, not a refusal.
            if let min = spec.min, v < min { problems.append("must be at least \(written(min))") }
            if let max = spec.max, v > max { problems.append("must be at most \(written(max))") }
        }
        return FieldResult(
            text: String(shown.characters), selection: selection, value: value,
            complete: complete, valid: problems.isEmpty, problems: problems,
            next: full ? nil : .digit, placeholder: placeholder, mask: notation, brand: nil,
            rejected: state.rejected, overflow: state.overflow)
    }

    // MARK: Formatting and editing

    /// Reads `text` into an empty field, carrying `selection` through (nil: the end of the text).
    ///
    /// Each end of the selection keeps its count of entered elements (and the sign) to its right.
    ///
    /// With `padFraction`, a number with a digit or a mark gets its fraction filled with zeros (`12.5` is
    /// `12.50`, `12` is `12.00`, `0.` is `0.00`); a caret at the end of the number stays at its end.
    /// - Parameter padding: whether to pad; nil follows `padFraction`.
    func format(_ text: String, selection: Range<Int>? = nil, padding: Bool? = nil) -> FieldResult {
        var state = readWhole(text, aliases: aliases(forInserted: text))
        let bodyEnd = (state.elements.map(\.position).max() ?? -1) + 1
        // A mark alone shows its implied `0` (`0.`): a number too.
        if padding ?? spec.padFraction, spec.fraction > 0,
            !state.integer.isEmpty || !state.fraction.isEmpty || state.mark != nil
        {
            // Padding stands right of every caret but one at the end: position `Int.max`.
            if state.mark == nil { state.mark = Element(digit: nil, origin: .inserted, position: Int.max) }
            while state.fraction.count < spec.fraction {
                state.fraction.append(Element(digit: 0, origin: .inserted, position: Int.max))
            }
        }
        let shown = show(state)
        let elements = state.elements
        let signAt = state.negative ? state.signPositions.first : nil
        /// Where an offset of `text` lands in the formatted text.
        func carry(_ offset: Int) -> Int {
            let right = offset >= bodyEnd && offset > 0 ? 0 : elements.filter { $0.position >= offset }.count
            return position(in: shown, right: right, beforeSign: signAt.map { offset <= $0 } ?? false)
        }
        let end = shown.characters.count - shown.suffixLength
        let range = selection.map { carry($0.lowerBound)..<carry($0.upperBound) } ?? (end..<end)
        return result(state, shown, selection: range)
    }

    /// Applies one edit a person made to a field whose text is `text` (normally formatted by this field).
    ///
    /// Characters of `text` that are not part of a formatted number are dropped and reported, as
    /// `format` does. Text typed or pasted inside the shown prefix or suffix (or into an empty field)
    /// first steps over the affix characters it repeats, as at a slot mask's literals; then the affixes
    /// it holds whole are skipped (`NumberAffix`).
    func apply(_ edit: FieldEdit, to text: String) -> FieldResult {
        let old = readWhole(text)
        let count = text.count
        var range = min(max(edit.range.lowerBound, 0), count)..<min(max(edit.range.upperBound, 0), count)
        let pressed = range
        let elements = old.elements
        let oldShown = show(old)
        let noNumber = elements.isEmpty && !old.negative

        if noNumber, edit.text.isEmpty, old.prefixTyped > 0 {
            // Deleting in a prefix being typed: what is left of it is what stands before the deletion.
            var cut = range
            if cut.isEmpty {
                cut = edit.direction == .backward ? max(cut.lowerBound - 1, 0)..<cut.lowerBound : cut
            }
            var state = old
            state.prefixTyped = min(cut.lowerBound, old.prefixTyped)
            let caret = cut.isEmpty ? min(range.lowerBound, state.prefixTyped) : state.prefixTyped
            return result(state, show(state), selection: caret..<caret)
        }

        // Where reading the typed text starts inside an affix: the prefix index, or the suffix index.
        var prefixFrom: Int?
        var suffixFrom: Int?
        if !edit.text.isEmpty {
            let formatted = String(oldShown.characters) == text
            let at = range.lowerBound
            if noNumber {
                prefixFrom = min(at, old.prefixTyped)
            } else if formatted, at >= oldShown.signLength, at < oldShown.lead {
                prefixFrom = at - oldShown.signLength
            } else if formatted, range.isEmpty, oldShown.suffixLength > 0, at >= count - oldShown.suffixLength,
                at < count
            {
                suffixFrom = at - (count - oldShown.suffixLength)
            }
        }
        let skips =
            edit.text.isEmpty
            ? NumberAffix.Skips()
            : affix.skips(in: edit.text, steppingFrom: prefixFrom, suffixFrom: suffixFrom)
        if !noNumber, range.isEmpty, skips.stepped > 0, skips.stepped == edit.text.count {
            // Only affix characters, typed where they stand: the caret steps over them.
            let caret = range.lowerBound + skips.stepped
            return result(old, oldShown, selection: caret..<caret)
        }

        var deleted = Set<Int>()  // positions of deleted elements
        var signDeleted = false
        if edit.text.isEmpty {
            if range.isEmpty {
                switch edit.direction {
                case .backward where range.lowerBound > 0: range = (range.lowerBound - 1)..<range.lowerBound
                case .forward where range.upperBound < count: range = range.lowerBound..<(range.upperBound + 1)
                default: return formatKeepingCaret(old, caret: pressed.lowerBound)
                }
            }
            let inside = elements.filter { range.contains($0.position) }
            signDeleted = old.signPositions.contains(where: range.contains) && old.negative
            if !inside.isEmpty || signDeleted {
                deleted = Set(inside.map(\.position))
            } else if old.droppedZeros.contains(where: range.contains), old.mark != nil, old.integer.isEmpty {
                // The implied `0`: deleting it moves the caret over it.
                let shown = show(old)
                let zero = shown.impliedZero ?? shown.lead
                let caret = edit.direction == .backward ? zero : zero + 1
                return result(old, shown, selection: caret..<caret)
            } else if edit.direction == .backward,
                let nearest = elements.last(where: { $0.position < range.lowerBound })
            {
                deleted = [nearest.position]
            } else if edit.direction == .forward,
                let nearest = elements.first(where: { $0.position >= range.upperBound })
            {
                deleted = [nearest.position]
            } else if edit.direction == .backward, old.negative,
                old.signPositions.contains(where: { $0 < range.lowerBound })
            {
                // Backspace on the prefix after the sign (`-$|12`) removes the sign, the nearest thing to its left.
                signDeleted = true
            } else {
                // On the prefix or the suffix alone the key changes nothing, as at a slot mask's leading literals.
                return formatKeepingCaret(
                    old, caret: edit.direction == .backward ? pressed.upperBound : pressed.lowerBound)
            }
        } else {
            deleted = Set(elements.filter { range.contains($0.position) }.map(\.position))
            signDeleted = old.signPositions.contains(where: range.contains) && old.negative
        }

        var before: [Element] = []
        var after: [Element] = []
        for var element in elements where !deleted.contains(element.position) {
            if element.position < range.lowerBound {
                element.origin = .before
                before.append(element)
            } else {
                element.origin = .after
                after.append(element)
            }
        }
        var state = read(
            before: before, inserted: edit.text, after: after,
            negative: old.negative && !signDeleted, aliases: aliases(forInserted: edit.text),
            skipped: skips.ranges)
        state.rejected = old.rejected + state.rejected
        state.overflow = old.overflow + state.overflow
        if isPastFarBound(value(of: state)), !isPastFarBound(value(of: old)) {
            // Past `max` (or below a negative `min`): the key is refused, text and caret stay.
            var kept = formatKeepingCaret(old, caret: 0)
            kept.text = text
            let caret = edit.direction == .forward ? pressed.lowerBound : pressed.upperBound
            kept.selection = edit.text.isEmpty ? caret..<caret : pressed
            kept.rejected = edit.text
            kept.overflow = ""
            return kept
        }
        if state.elements.isEmpty, !state.negative, !edit.text.isEmpty {
            // No number: the prefix typed so far stays shown (a whole prefix alone is an empty field).
            var typed =
                skips.stepped > 0 ? skips.prefixReached : (noNumber ? min(range.lowerBound, old.prefixTyped) : 0)
            if noNumber, range.isEmpty { typed = max(typed, old.prefixTyped) }
            if typed >= spec.prefix.count { typed = 0 }
            state.prefixTyped = typed
            let caret = skips.stepped > 0 ? min(skips.prefixReached, typed) : min(range.lowerBound, typed)
            return result(state, show(state), selection: caret..<caret)
        }
        let shown = show(state)
        if state.elements.isEmpty, state.negative, !old.negative {
            // A sign typed into an empty field: the caret stands after it, before the prefix, which may be typed next.
            return result(state, shown, selection: shown.signLength..<shown.signLength)
        }

        let keptRead = state.elements.contains { $0.origin == .inserted }
        if range.isEmpty, !keptRead, state.negative == old.negative {
            // Nothing typed was kept: the text and the caret stay.
            let caret = min(range.lowerBound, shown.characters.count)
            return result(state, shown, selection: caret..<caret)
        }
        // The sign always shows first, so what was typed before it lands after it: only the kept
        // elements count.
        let caret = position(in: shown, right: state.elements.filter { $0.origin == .after }.count)
        return result(state, shown, selection: caret..<caret)
    }

    /// The old field reformatted, with the caret where it was (clamped to the text).
    private func formatKeepingCaret(_ state: State, caret: Int) -> FieldResult {
        let shown = show(state)
        let caret = min(max(caret, 0), shown.characters.count)
        return result(state, shown, selection: caret..<caret)
    }
}
