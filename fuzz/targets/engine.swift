// Fuzz target `engine`: a random mask (valid or not) and a random editing session (Sources/MaskEngine).
//
// Built by `fuzz/run engine SECONDS` against the engine built for testing, so the engine's internals
// (`Program.decompose`, the elements) can count entered characters without a test-only API; presets compile
// through MaskCatalog.
// The input's bytes choose a mask spec (notation with `[…]` and `[0…][AAA]`, pattern with range and enum blocks,
// groups, separatorAt, oneOf, a preset with `order`, a number with every option, and options),
// then a sequence of steps: typing, pasting, backspace, forward delete, selecting, edits with ranges out of
// bounds, formatting arbitrary text, and switching to a second mask (re-flow). A mask that does not compile is
// fine; then the input ends there. After every step:
// - the selection lies inside the text, and maps to a code-unit offset and back in every encoding (a position
//   never splits a cluster);
// - formatting is idempotent: `mask.format(r.text).text == r.text`;
// - no fitting character is lost unreported: for an insertion at a collapsed caret whose characters equal no
//   literal of the mask, entered characters after == before + inserted - rejected - overflow (a mark that joins
//   the character before it counts as one with it);
// - nothing is lost by a deletion: it removes the entered characters in its range (or the one nearest to it, when
//   the range holds only literals), and whatever else re-flow cuts is reported in overflow;
// - a long text (a piece repeated to up to about 50,000 characters) pasted or opened leaves a field no longer than its
//   size, every character kept or reported (or read as presets.md says a number field reads signs, separators,
//   affixes and leading zeros);
// - for a single-program mask whose literals fit none of its slots, typing the text key by key gives the same text
//   as pasting it, unless its `regex` option refused the paste whole. (Where a literal also fits a slot, as the `1`
//   of `+1 ([000])`, an eager field steps over it when typed, by engine.md's rule, so the two may differ.)
//
// The bugs this target found are checked at start-up and fail the run like any other (see `regressions`). With
// MASKD_FUZZ_KNOWN_BUGS=skip in the environment their classes are stepped around, so that a long run can look for
// new bugs while one is open: `oneOf` masks and masks with a literal an earlier slot accepts are only checked for
// crashes and bounds, characters that merge with what precedes them are not typed, and sizes at the edges of `Int`
// are not drawn.

#if canImport(Glibc)
    import Glibc
#endif
import MaskCatalog
@testable import MaskEngine

// `ByteSource` and `skipKnownBugs` are in fuzz/targets/shared/FuzzInput.swift.

func fail(_ message: String) -> Never {
    fatalError("engine: " + message)
}

// MARK: - Masks

/// Pieces of bracket notation: syntax, slot characters, literals, and characters that are hard to handle.
let notationPieces: [String] = [
    "[", "]", "[", "]", "{", "}", "0", "0", "9", "A", "a", "_", "-", "*", "X", "…", "\\", " ", "(", ")", "+", ".",
    "/", ":", "1", "x", "é", "😀", "#", "[000]", "[99]", "{.}", "[0…]", "[A…]", "+1 (", "[…]", "[0…][AAA]",
]

/// Characters typed and pasted: digits of several scripts, letters, literals, combining marks, ZWJ, flags'
/// halves, line breaks, NUL.
let typeable: [String] = [
    "1", "2", "0", "7", "5", "a", "B", "x", "X", "z", "é", "e\u{301}", "１", "٣", "?", "😀", "👍🏽", "\u{301}",
    "\u{200D}", "🇫", "🇷", "\r\n", "\n", "\t", " ", "-", "(", ")", "+", ".", "/", ":", "ß", "ǅ", "\u{0}", "#", "_",
    "\u{FE0F}", "ﬁ", "İ",
]

/// What typing and pasting draw from: without the characters that merge (`mayMerge`) when skipping known bugs.
let keys: [String] = skipKnownBugs ? typeable.filter { !$0.contains(where: mayMerge) } : typeable

let regexes: [String] = [
    "^\\d*$", "^(a+)+$", "^[0-9]{3}-?[0-9]*$", "^4\\d*", "a|b|\\d+", "^(\\d\\d)+$", "^\\w{0,5}$", "[", "(a", "a{2,1}",
    "\\1", "(?=a)", ".*", "^$", "^[^5]*$", "x*y*z*",
]

func makeNotation(_ source: inout ByteSource) -> String {
    var notation = ""
    for _ in 0..<(1 + source.byte() % 16) { notation += source.pick(notationPieces) }
    return notation
}

/// Sizes, positions and lengths: small ones mostly, now and then one at the edges of `Int` (they can overflow or
/// expand into enormous masks, which the engine must refuse; left out when skipping known bugs).
func makeCount(_ source: inout ByteSource, below limit: Int, from lowest: Int = 0) -> Int {
    let edges = [Int.max, Int.max / 2 + 1, 1 << 40, 1_000_000_000, -1, Int.min]
    let byte = source.byte()
    if !skipKnownBugs, byte == 0xFF { return source.pick(edges) }
    return lowest + byte % limit
}

/// Named blocks for a pattern: ranges (some at the edges: a 15-digit max, min above max, negative) and word lists
/// (some refused: empty, a word twice).
func makeBlocks(_ source: inout ByteSource) -> [String: BlockSpec] {
    var blocks: [String: BlockSpec] = [:]
    for name in ["MM", "YY", "D", "hh"] where source.chance(140) {
        if source.chance(180) {
            let high = source.pick([1, 9, 12, 23, 31, 59, 99, 255, 2099, 9999, 999_999_999_999_999, 5])
            let low = source.pick([0, 1, 5, 13, 100, 1900, -1])
            blocks[name] = BlockSpec(.range(min: low, max: high), pad: source.chance(128) ? nil : source.chance(128))
        } else {
            blocks[name] = BlockSpec(
                .words(
                    source.pick([["AM", "PM"], ["Jan", "June", "July"], ["x1", "y"], [], ["a", "A"], ["é", "ß"]])))
        }
    }
    return blocks
}

func makeForm(_ source: inout ByteSource, nested: Bool) -> MaskSpec.Form {
    switch source.byte() % 9 {
    case 0:
        var pattern = ""
        for _ in 0..<(1 + source.byte() % 12) {
            pattern += source.pick(["#", "#", "#", " ", "-", "(", "9", "MM", "/", "YY", "D", "hh"])
        }
        return .pattern(pattern)
    case 1:
        var sizes: [Int] = []
        for _ in 0..<(source.byte() % 5) { sizes.append(makeCount(&source, below: 7)) }
        return .groups(sizes)
    case 2:
        var positions: [Int] = []
        for _ in 0..<(source.byte() % 4) { positions.append(makeCount(&source, below: 14, from: -1)) }
        return .separatorAt(positions)
    case 3:
        let name = source.pick(["card", "phone.us", "phone.cn", "date", "time", "expiry", "iban", "number", "phone"])
        guard name == "number" else { return .preset(name) }
        var number = NumberSpec(
            group: source.pick([",", " ", "", "'"]), decimal: source.pick([".", ","]),
            fraction: makeCount(&source, below: 4), negative: source.chance(128),
            maxInteger: source.chance(128) ? nil : makeCount(&source, below: 16))
        if source.chance(128) {
            number.grouping = source.pick(NumberSpec.Grouping.allCases)
            number.min = source.pick([nil, 0, 100, -100, -0.5])
            number.max = source.pick([nil, 1000, 10, -5, 99.99])
            number.prefix = source.pick(["", "$", "USD ", "1", "-"])
            number.suffix = source.pick(["", " ₽", " kg", "."])
            number.decimalAliases = source.pick([[], [","], ["."], [",", "x"]])
            number.padFraction = source.chance(128)
        }
        return .number(number)
    case 8:
        // `pattern` with named blocks: ranges and word lists.
        var pattern = ""
        for _ in 0..<(1 + source.byte() % 6) {
            pattern += source.pick(["MM", "/", "YY", " ", "D", "hh", "#", ":", "-"])
        }
        return .pattern(pattern)
    case 4 where !nested:
        var alternatives: [MaskSpec] = []
        for _ in 0..<(source.byte() % 4) { alternatives.append(makeSpec(&source, nested: true)) }
        return .oneOf(alternatives)
    default: return .notation(makeNotation(&source))
    }
}

func makeSpec(_ source: inout ByteSource, nested: Bool = false) -> MaskSpec {
    var spec = MaskSpec(makeForm(&source, nested: nested))
    let options = source.byte()
    if options & 1 != 0 { spec.eager = options & 2 != 0 }
    if options & 4 != 0 { spec.letterCase = source.pick([.upper, .lower]) }
    if options & 8 != 0 { spec.regex = source.pick(regexes) }
    if options & 16 != 0 { spec.accept = source.pick(CharacterClass.allCases) }
    if options & 32 != 0 {
        spec.minLength = makeCount(&source, below: 12, from: -1)
        spec.maxLength = makeCount(&source, below: 24, from: -1)
    }
    if options & 64 != 0 {
        spec.separator = source.pick(["", " ", "-", " / ", "1"])
        spec.repeat = source.chance(128)
    }
    if options & 128 != 0 {
        spec.validate = [source.pick(["luhn", "id.cn", "iban", "date", "what"])]
        spec.placeholderChar = source.pick(["_", "0", "•"])
    }
    if case .pattern = spec.form, source.chance(200) { spec.blocks = makeBlocks(&source) }
    // The modes (masks.md, "Modes"): each drawn on its own, on any form (where one does not apply, the mask is refused).
    let modes = source.byte()
    if modes & 1 != 0 { spec.overwrite = modes & 2 != 0 }
    if modes & 4 != 0 { spec.rightToLeft = modes & 8 != 0 }
    if modes & 16 != 0 {
        spec.definitions = [
            source.pick(["H", "h", "0", "#", "é"]): source.pick(["[0-9A-F]", "[a-z]?", "\\d", ".", "[^-]?", "x", "[a-"])
        ]
        if modes & 32 != 0 { spec.acceptDefinition = spec.definitions?.keys.first }
    }
    if spec.form == .preset("date"), source.chance(128) { spec.order = source.pick(["ymd", "dmy", "mdy", "ydm"]) }
    if spec.form == .preset("phone") {
        // The phone preset takes no option but its region.
        spec = MaskSpec(.preset("phone"))
        if source.chance(128) { spec.region = source.pick(["GB", "US", "CN", "DE", "AR", "FR"]) }
    }
    return spec
}

// MARK: - Checking

/// Every program a mask may use: its one, each alternative of a `oneOf`, each a dynamic mask may choose.
func allPrograms(_ mask: Mask) -> [Program] {
    switch mask.kind {
    case .slots(let program): return [program]
    case .oneOf(let programs): return programs
    case .dynamic(let dynamic): return dynamic.all
    case .number, .custom: return []
    }
}

/// Whether the engine's counts of entered characters apply: not to number, phone or postal masks, whose characters
/// and separators move about as the format that fits changes.
func countsEntered(_ mask: Mask) -> Bool {
    switch mask.kind {
    case .number, .custom: return false
    default: return true
    }
}

/// Whether a mask has range or enum blocks: typing may pad a range with zeros, which are entered characters too.
func hasBlocks(_ mask: Mask) -> Bool { allPrograms(mask).contains { !$0.blocks.isEmpty } }

/// Whether formatting pads a number's fraction (`padFraction`): a typed `12.5` is then formatted to `12.50`, so only
/// formatting twice is compared.
func padsFraction(_ mask: Mask) -> Bool {
    if case .number(let field) = mask.kind { return field.spec.padFraction }
    return false
}

func isOneOf(_ mask: Mask) -> Bool {
    if case .oneOf = mask.kind { return true }
    return false
}

/// The entered characters of a result's text, and how many stand before `offset`, as the engine reads them.
func entered(_ mask: Mask, _ text: String, before offset: Int = 0) -> (count: Int, before: Int) {
    let e = mask.entered(text, caret: min(max(offset, 0), text.count))
    return (e.raw.count, e.before)
}

func enteredCount(_ mask: Mask, _ result: FieldResult) -> Int { entered(mask, result.text).count }

/// Whether `c`, as reading normalises it, equals a literal of any of the mask's programs.
func matchesLiteral(_ mask: Mask, _ c: Character) -> Bool {
    let normalized = normalizedForLiteral(c)
    return allPrograms(mask).contains { program in program.elements.contains { $0.literal == normalized } }
}

/// An `any` slot once took a character that merges with what precedes it when rendered (a lone combining
/// mark, U+FE0F, ZWJ, a second regional indicator): `[*]-[*]` with `a` then U+0301 gives `a-́`, which formats to
/// `a--́`. Whether `c` is such a character.
func mayMerge(_ c: Character) -> Bool {
    ["a", "1", "-", "🇫", "😀"].contains { (String($0) + String(c)).count < 2 }
}

/// A literal that an optional or `…` slot before it accepts was once read back as an entered character, so
/// formatting was not idempotent (`[9a]ab` formats `12` to `1ab`, then `1aab`); with `eager` and `[A…]x` every
/// keystroke added an `x`. In an eager field, the literals after a `…` block appeared only from the second entered
/// character on (`[0…] kg` showed `1`, then `12 kg`), so typing and pasting differed. Whether the mask has either.
func hasLiteralAnEarlierSlotTakes(_ mask: Mask) -> Bool {
    allPrograms(mask).contains { program in
        if program.eager, let repeating = program.elements.firstIndex(where: \.repeats),
            program.elements[(repeating + 1)...].contains(where: { !$0.isSlot })
        {
            return true
        }
        var skippable: [SlotClass] = []
        for element in program.elements {
            if let c = element.literal, skippable.contains(where: { $0.fit(c, letterCase: program.letterCase) != nil })
            {
                return true
            }
            if let slotClass = element.slotClass, element.isOptional || element.repeats { skippable.append(slotClass) }
        }
        return false
    }
}

/// The one open class (RELIABILITY.md): in a `oneOf` where a literal of one alternative fits a slot of another, a text
/// can be read by both, with different counts of entered characters (`oneOf [{"groups": [5], "accept": "any"},
/// {"pattern": "  #    ", "accept": "any"}]` reads `  a` as one character or three; with `#9` and `date`, `19` is one
/// digit and a literal, or two digits). The text is kept either way; only the counts this target checks are
/// ambiguous, so for these masks they are not checked (crashes, bounds and positions still are).
func hasAmbiguousAlternatives(_ mask: Mask) -> Bool {
    guard isOneOf(mask) else { return false }
    let programs = allPrograms(mask)
    for (i, program) in programs.enumerated() {
        let literals = program.elements.compactMap(\.literal)
        for (j, other) in programs.enumerated() where j != i {
            let slots = other.elements.compactMap(\.slotClass)
            if literals.contains(where: { c in slots.contains { $0.fit(c, letterCase: other.letterCase) != nil } }) {
                return true
            }
        }
    }
    return false
}

struct Session {
    var spec: MaskSpec
    var mask: Mask
    var text = ""
    var selection = 0..<0
    var log: [String] = []
    /// Whether idempotence and the counts of entered characters are checked: not for the open class
    /// (`hasAmbiguousAlternatives`), nor for any `oneOf` mask when skipping known bugs (most bugs found were about how
    /// `oneOf` chooses its alternative).
    var checksContent: Bool {
        !hasAmbiguousAlternatives(mask) && !(skipKnownBugs && (isOneOf(mask) || hasLiteralAnEarlierSlotTakes(mask)))
    }

    init(spec: MaskSpec, mask: Mask) {
        self.spec = spec
        self.mask = mask
    }

    func context() -> String {
        "spec \(spec)\nsteps:\n  " + log.suffix(12).joined(separator: "\n  ")
    }

    /// Checks the invariants on `result`, then makes it the field.
    mutating func accept(_ result: FieldResult, step: String) {
        log.append(
            "\(step) -> \(result.text.debugDescription) sel \(result.selection) rejected \(result.rejected.debugDescription) overflow \(result.overflow.debugDescription)"
        )
        let count = result.text.count
        if result.selection.lowerBound < 0 || result.selection.upperBound > count {
            fail("selection \(result.selection) outside a text of \(count) characters\n" + context())
        }
        let encoded = EncodedText(result.text)
        for encoding in PositionEncoding.allCases {
            for end in [result.selection.lowerBound, result.selection.upperBound] {
                let unit = encoded.unitOffset(ofCharacter: end, in: encoding)
                if encoded.characterOffset(ofUnit: unit, in: encoding) != end {
                    fail("caret \(end) does not survive \(encoding) offsets\n" + context())
                }
            }
        }
        var again = mask.format(result.text)
        var formatted = result.text
        if padsFraction(mask) {
            formatted = again.text
            again = mask.format(again.text)
        }
        if checksContent, again.text != formatted {
            fail(
                "format is not idempotent: \(result.text.debugDescription) formats to \(again.text.debugDescription)\n"
                    + context())
        }
        text = result.text
        selection = result.selection
    }

    /// An insertion at the caret, with the count of entered characters checked.
    mutating func insert(_ inserted: String, step: String) {
        // An empty insertion is a deletion of the selection (a backspace when collapsed) to the engine.
        if inserted.isEmpty { return delete(.insert("", at: selection), step: step) }
        let before = mask.format(text, selection: selection)
        let collapsed = selection.isEmpty
        let enteredBefore = enteredCount(mask, before)
        let result = mask.apply(.insert(inserted, at: selection), to: text)
        accept(result, step: step)
        // Overwrite replaces entered characters by design: its count is checked by the engine's tests, not here.
        guard checksContent, countsEntered(mask), collapsed, !overwrites(mask.spec),
            !inserted.contains(where: { matchesLiteral(mask, $0) })
        else { return }
        let enteredAfter = enteredCount(mask, result)
        // `rejected` and `overflow` are strings: characters cut apart can join into one there (two regional indicators
        // become a flag), so how many they stand for lies between their counts of characters and of scalars.
        let cutAtLeast = result.rejected.count + result.overflow.count
        let cutAtMost = result.rejected.unicodeScalars.count + result.overflow.unicodeScalars.count
        // A range block pads a digit with zeros (`4` in 01-12 is `04`): entered characters no key typed.
        let padding = hasBlocks(mask) ? allPrograms(mask).map { $0.blocks.reduce(0) { $0 + $1.width } }.max() ?? 0 : 0
        let expected = enteredBefore + inserted.count - cutAtLeast + padding
        // A character that merges with what precedes it (`mayMerge`) joins the entered character before it once what
        // stood between them is cut (`+`, a rejected line break, then U+0301 shows `+́`): one character, no scalar lost.
        let joined = inserted.filter(mayMerge).count
        if enteredAfter > expected || enteredAfter < enteredBefore + inserted.count - cutAtMost - joined {
            fail(
                "lost input: \(enteredBefore) entered + \(inserted.count) inserted - \(result.rejected.count) rejected - "
                    + "\(result.overflow.count) overflow != \(enteredAfter) entered after\n" + context())
        }
    }

    /// A deletion, with the count of entered characters checked.
    mutating func delete(_ edit: FieldEdit, step: String) {
        let before = mask.format(text, selection: selection)
        let count = before.text.count
        let s = min(max(edit.range.lowerBound, 0), count), e = min(max(edit.range.upperBound, s), count)
        let enteredBefore = entered(mask, before.text).count
        let removable = max(
            1, entered(mask, before.text, before: e).before - entered(mask, before.text, before: s).before)
        let result = mask.apply(edit, to: text)
        accept(result, step: step)
        guard checksContent, countsEntered(mask) else { return }
        let enteredAfter = enteredCount(mask, result)
        if enteredAfter + result.overflow.count < enteredBefore - removable {
            fail(
                "lost input: a deletion of at most \(removable) entered characters went from \(enteredBefore) to "
                    + "\(enteredAfter) entered with \(result.overflow.count) overflow\n" + context())
        }
    }

    /// For a single-program mask: typing the text key by key and pasting it give the same text.
    func checkTypingEqualsPasting() {
        guard checksContent, case .slots(let program) = mask.kind, text.count <= 24 else { return }
        guard !program.elements.contains(where: { $0.literal.map(program.fitsSomeSlot) ?? false }) else { return }
        // A right-to-left field takes each key typed at its end into its last slot first: typing equals pasting only where
        // every slot takes the same characters (engine.md, "Modes"), and with overwrite not at all.
        if mask.rightToLeftNotation != nil {
            guard mask.spec.overwrite != true, Set(program.elements.compactMap(\.slotClass)).count == 1 else { return }
        }
        // Right to left, the keys are the entered characters: a literal typed after them lands at the field's end.
        let text = mask.rightToLeftNotation == nil ? text : String(mask.entered(text, caret: 0).raw)
        let empty = mask.format("")
        var typed = empty
        for key in text {
            typed = mask.apply(.insert(String(key), at: typed.selection), to: typed.text)
        }
        let pasted = mask.apply(.insert(text, at: empty.selection), to: empty.text)
        // A `regex` option refuses a paste whole when the value would break the pattern, where typing keeps the keys
        // before the one that breaks it (engine.md, "regex"): by that rule the two differ, so such a paste is not compared.
        if spec.regex != nil, pasted.text == empty.text, pasted.rejected == text { return }
        if typed.text != pasted.text {
            fail(
                "typing \(text.debugDescription) gives \(typed.text.debugDescription), pasting it \(pasted.text.debugDescription)\n"
                    + context())
        }
    }
}

func randomText(_ source: inout ByteSource, upTo limit: Int) -> String {
    var text = ""
    for _ in 0..<(source.byte() % (limit + 1)) { text += source.pick(keys) }
    return text
}

/// A long text: a short random piece repeated from 256 to about 50,000 characters in all.
func longText(_ source: inout ByteSource) -> String {
    var piece = randomText(&source, upTo: 12)
    if piece.isEmpty { piece = source.pick(keys) }
    let length = 256 << (source.byte() % 8)
    // Scalars add up exactly when strings join, so the count is kept, not recounted (recounting is quadratic, and
    // a long text would outlast the fuzzer's 10 s timeout).
    let pieceScalars = piece.unicodeScalars.count
    var text = ""
    var scalars = 0
    while scalars < length {
        text += piece
        scalars += pieceScalars
    }
    return text
}

/// Every character the mask's programs show as a literal.
func literalCharacters(of mask: Mask) -> Set<Character> {
    let programs: [Program]
    switch mask.kind {
    case .slots(let program): programs = [program]
    case .oneOf(let alternatives): programs = alternatives
    case .dynamic(let dynamic): programs = [dynamic.broad] + dynamic.all
    case .number, .custom: programs = []
    }
    return Set(programs.flatMap { $0.elements.compactMap(\.literal) })
}

/// Whether the mask, or an alternative of its `oneOf`, types over its entered characters (`overwrite`).
func overwrites(_ spec: MaskSpec) -> Bool {
    if spec.overwrite == true { return true }
    if case .oneOf(let alternatives) = spec.form { return alternatives.contains(where: overwrites) }
    return false
}

/// Whether `spec` or any of its `oneOf` alternatives has a `regex` option.
func hasRegex(_ spec: MaskSpec) -> Bool {
    if spec.regex != nil { return true }
    if case .oneOf(let alternatives) = spec.form { return alternatives.contains(where: hasRegex) }
    return false
}

/// How many characters of `text` a number field with `spec` reads without keeping or reporting them, at most
/// (presets.md, number masks): with `negative`, every sign (`-` toggles the sign, `+` sets it); the group separators
/// and the affixes' characters found alone, dropped as formatting (but for digits and the mark, which count as the
/// number's); and the zeros before the text's first other digit or mark, dropped as a calculator drops leading zeros
/// (`0` then `5` shows `5`).
func numberConsumes(_ text: String, _ spec: NumberSpec) -> Int {
    let signs = spec.negative ? text.filter { "-+".contains(NumberField.folded($0)) }.count : 0
    let formatting = Set(spec.group + spec.prefix + spec.suffix).filter {
        NumberField.digitValue($0) == nil && NumberField.folded($0) != spec.decimal
    }
    let separators = text.filter { formatting.contains($0) || formatting.contains(NumberField.folded($0)) }.count
    var leadingZeros = 0
    for character in text {
        if let digit = NumberField.digitValue(character) {
            if digit != 0 { break }
            leadingZeros += 1
        } else if NumberField.folded(character) == spec.decimal || spec.decimalAliases.contains(character) {
            break
        }
    }
    return signs + separators + leadingZeros
}

func runSession(_ source: inout ByteSource) {
    let spec = makeSpec(&source)
    guard let mask = try? Mask.compile(spec) else { return }
    var session = Session(spec: spec, mask: mask)
    session.accept(mask.format("", selection: 0..<0), step: "open")
    var steps = 0
    while !source.isEmpty, steps < 64 {
        steps += 1
        let count = session.text.count
        let caret = session.selection.upperBound
        switch source.byte() % 16 {
        case 0...4:
            let key = source.pick(keys)
            session.insert(key, step: "type \(key.debugDescription) at \(session.selection)")
        case 5:
            let paste = randomText(&source, upTo: 16)
            session.insert(paste, step: "paste \(paste.debugDescription) at \(session.selection)")
        case 6:
            // A long text (a log line, a spreadsheet column): a piece repeated up to thousands of times, pasted at the
            // caret or opened as the field's text. The field keeps at most its size; the rest is reported.
            let long = longText(&source)
            if source.chance(160) {
                session.insert(
                    long,
                    step:
                        "paste \(long.count) characters (\(long.prefix(12).debugDescription)...) at \(session.selection)"
                )
            } else {
                let r = session.mask.format(long)
                // The characters read and not kept are in `rejected` and `overflow`, joined: two of them can merge into one
                // there (a combining mark after a letter, `\r` then `\n`, two regional indicators), so they stand for at
                // most as many characters as they have scalars (as in `insert`). Fewer than that is a character lost.
                let reportedAtMost = r.rejected.unicodeScalars.count + r.overflow.unicodeScalars.count
                // A phone field drops phone punctuation silently (Protocol/presets.md), so it reports less than it drops.
                let dropsSilently = session.mask.isPhone
                // A `regex` cut (opening keeps the longest start the expression can accept) takes the literals the text
                // showed with the characters it cuts, typed or not (`138 0013 8000` under a new expression keeps
                // `138 0013`), and reports only the entered characters: RELIABILITY.md, "regex cuts".
                let regexCuts = hasRegex(session.spec)
                // A right-to-left field reads the text from its end, so a character equal to one of its literals there is
                // consumed as that literal, which shows only once an entered character stands before it (engine.md, modes);
                // a literal may be a letter or a digit (a `separator` of `1`).
                let literals = literalCharacters(of: session.mask)
                let consumedAsLiterals =
                    session.mask.rightToLeftNotation == nil
                    ? 0
                    : long.filter { !$0.isLetter && !$0.isNumber || literals.contains($0) }.count
                // A number field reads some characters without keeping or reporting them (presets.md, number masks).
                let consumedByNumber: Int
                if case .number(let field) = session.mask.kind {
                    consumedByNumber = numberConsumes(long, field.spec)
                } else {
                    consumedByNumber = 0
                }
                if !dropsSilently, !regexCuts,
                    reportedAtMost + consumedAsLiterals + consumedByNumber < long.count - r.text.count
                {
                    fail(
                        "opening over \(long.count) characters kept \(r.text.count) and reported only "
                            + "\(r.rejected.count + r.overflow.count) (\(reportedAtMost) scalars)\n" + session.context()
                    )
                }
                session.accept(r, step: "open over \(long.count) characters (\(long.prefix(12).debugDescription)...)")
            }
            if session.text.count > 2 * Program.maximumCells {
                fail("a field of \(session.text.count) characters, past its size\n" + session.context())
            }
        case 7, 8:
            let range = session.selection.isEmpty ? max(caret - 1, 0)..<caret : session.selection
            session.delete(.backspace(range), step: "backspace \(range)")
        case 9:
            let range = session.selection.isEmpty ? caret..<min(caret + 1, count) : session.selection
            session.delete(.forwardDelete(range), step: "delete \(range)")
        case 10, 11:
            let a = source.byte() % (count + 1), b = source.byte() % (count + 1)
            session.selection = min(a, b)..<max(a, b)
            session.log.append("select \(session.selection)")
            session.checkTypingEqualsPasting()
        case 12:
            // Edits whose ranges reach past the text, as a confused caller might send.
            let a = source.byte() - 8, b = a + source.byte() % 40
            let inserted = source.chance(128) ? "" : randomText(&source, upTo: 4)
            let edit = FieldEdit(range: a..<b, text: inserted, direction: source.chance(128) ? .backward : .forward)
            let step = "edit \(a..<b) with \(inserted.debugDescription)"
            if inserted.isEmpty {
                session.delete(edit, step: step)
            } else {
                session.accept(session.mask.apply(edit, to: session.text), step: step)
            }
        case 13:
            let raw = randomText(&source, upTo: 24)
            let a = source.byte() - 4, b = a + source.byte() % 30
            session.accept(
                session.mask.format(raw, selection: a..<b), step: "format \(raw.debugDescription) sel \(a..<b)")
        case 14:
            let next = makeSpec(&source)
            guard let nextMask = try? Mask.compile(next) else { break }
            let result = nextMask.reflow(session.text, from: session.mask, caret: caret)
            session.mask = nextMask
            session.spec = next
            session.accept(result, step: "reflow into \(next)")
        default:
            // Start again from arbitrary text, as opening a field over a document's text does.
            let raw = randomText(&source, upTo: 12)
            session.accept(session.mask.format(raw), step: "open over \(raw.debugDescription)")
        }
    }
}

// MARK: - Regressions

/// The bugs this target found, as minimal cases that state the right behaviour; checked once at start-up (not when
/// skipping known bugs). Each returns nil when the engine behaves, else what it did.
let regressions: [(name: String, check: () throws -> String?)] = [
    (
        "oneof-empty-backspace: a backspace with nothing to delete in a oneOf keeps the field",
        {
            let mask = try Mask.compile(MaskSpec(.oneOf([.notation("[00]"), .notation("[AA]")])))
            let r = mask.apply(.backspace(0..<0), to: "12")
            return r.text == "12"
                ? nil : "`12` became \(r.text.debugDescription) (overflow \(r.overflow.debugDescription))"
        }
    ),
    (
        "oneof-foreign-literal: a literal of one oneOf alternative is not read as entered by another",
        {
            let mask = try Mask.compile(
                MaskSpec(
                    .oneOf([.notation("+1 ([000]) [000]-[0000]"), .notation("[000] [0000] [0000]")]),
                    eager: true))
            let empty = mask.format("")
            let typed = mask.apply(.insert("5", at: empty.selection), to: empty.text)
            return typed.text == "+1 (5"
                ? nil : "typing 5 into \(empty.text.debugDescription) gave \(typed.text.debugDescription)"
        }
    ),
    (
        "oneof-tie: oneOf of three keeps the first on a tie after an edit",
        {
            let mask = try Mask.compile(
                MaskSpec(.oneOf([.notation("[0000]"), .notation("x[0000]"), .notation("[0]")])))
            let r = mask.apply(.insert("2", at: 1..<1), to: mask.format("1").text)
            return mask.format(r.text).text == r.text
                ? nil
                : "typing 2 after 1 gave \(r.text.debugDescription), which formats "
                    + "to \(mask.format(r.text).text.debugDescription)"
        }
    ),
    (
        "oneof-regex: a regex on a oneOf alternative is not ignored",
        {
            let mask = try? Mask.compile(MaskSpec(.oneOf([MaskSpec(.notation("[00]"), regex: "^1$")])))
            guard let r = mask?.apply(.insert("2", at: 0..<0), to: "") else { return nil }
            return r.text.isEmpty ? nil : "typing 2 gave \(r.text.debugDescription) though the regex is ^1$"
        }
    ),
    (
        "lone-combining-mark: a lone combining mark does not merge with a literal",
        {
            let mask = try Mask.compile("[*]-[*]")
            let r = mask.apply(.insert("\u{301}", at: 1..<1), to: "a")
            let again = mask.format(r.text).text
            return again == r.text && r.caret <= r.text.count
                ? nil
                : "gave \(r.text.debugDescription) with the caret at \(r.caret) of \(r.text.count), formatting to \(again.debugDescription)"
        }
    ),
    (
        "oneof-regex-format: format on a oneOf with regex chooses after cutting",
        {
            let mask = try Mask.compile(
                MaskSpec(.oneOf([MaskSpec(.notation("#[00]"), eager: true), .notation("[99]")]), regex: "^1"))
            let r = mask.format("23")
            return mask.format(r.text).text == r.text
                ? nil : "23 formats to \(r.text.debugDescription), then to \(mask.format(r.text).text.debugDescription)"
        }
    ),
    (
        "oneof-later-literal: typing a literal only a later oneOf alternative has is idempotent",
        {
            let mask = try Mask.compile(MaskSpec(.oneOf([.notation("[00000]"), .notation("  [0]    ")])))
            let r = mask.apply(.insert(" ", at: 0..<0), to: "")
            return mask.format(r.text).text == r.text
                ? nil
                : "typing a space gave \(r.text.debugDescription), which formats to "
                    + "\(mask.format(r.text).text.debugDescription)"
        }
    ),
    (
        "optional-slot-literal: a mask whose literal an optional slot before it takes is refused as ambiguous",
        {
            for notation in ["[9a]ab", "[A…]x"] {
                do {
                    _ = try Mask.compile(notation)
                    return "\(notation) compiled; formatting it cannot be idempotent"
                } catch let error as MaskError where error.message.hasPrefix("ambiguous mask") {
                    continue
                }
            }
            return nil
        }
    ),
    (
        "eager-after-ellipsis: eager literals after a … block show from the first character",
        {
            let mask = try Mask.compile(MaskSpec(.notation("[0…] kg"), eager: true))
            let one = mask.apply(.insert("1", at: 0..<0), to: "").text,
                two = mask.apply(.insert("2", at: 1..<1), to: one).text
            return one == "1 kg" && two == "12 kg"
                ? nil : "[0…] kg: 1 gave \(one.debugDescription), 12 gave \(two.debugDescription)"
        }
    ),
    (
        "eager-before-unreached-slots: eager shows no literal after a … that slots follow (never reached), so format is idempotent",
        {
            let mask = try Mask.compile(MaskSpec(.notation("a aa{…}a😀[0…]{.}a+1 (A[0…]a"), eager: true))
            let r = mask.format("a aa…a😀11111.a+1 (A")
            return mask.format(r.text).text == r.text
                ? nil
                : "a aa…a😀11111.a+1 (A formats to \(r.text.debugDescription), "
                    + "then to \(mask.format(r.text).text.debugDescription)"
        }
    ),
    (
        "number-size: a number mask's fraction and maxInteger are bounded by the field's size",
        {
            let refused = [NumberSpec(fraction: 1 << 62), NumberSpec(maxInteger: Int.max)].allSatisfy { spec in
                (try? Mask.compile(MaskSpec(.number(spec)))) == nil
            }
            return refused ? nil : "a number mask with fraction 2^62 or maxInteger Int.max compiled"
        }
    ),
    // Last: a trap here ends the process (its name is printed before, so the log shows which).
    (
        "huge-groups: group sizes that overflow are refused, not a trap",
        {
            fputs(
                "engine regression huge-groups: compiling {\"groups\": [Int.max, 1]} (a trap here is the bug)\n", stderr
            )
            _ = try? Mask.compile(MaskSpec(.groups([Int.max, 1])))
            return nil
        }
    ),
]

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    guard !skipKnownBugs else { return 0 }
    var failed: [String] = []
    for regression in regressions {
        var problem: String?
        do {
            problem = try regression.check()
        } catch {
            problem = "the mask did not compile: \(error)"
        }
        fputs("engine regression \(regression.name): \(problem.map { "FAILS: " + $0 } ?? "ok")\n", stderr)
        if let problem { failed.append("bug \(regression.name): \(problem)") }
    }
    if !failed.isEmpty { fail("\(failed.count) regressions fail:\n  " + failed.joined(separator: "\n  ")) }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var source = ByteSource(Array(UnsafeBufferPointer(start: data, count: size)))
    runSession(&source)
    return 0
}
