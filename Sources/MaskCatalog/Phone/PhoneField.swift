import MaskEngine
import Synchronization

/// The `phone` preset's field: a phone number of any region, shown as libphonenumber's
/// as-you-type formatter shows it (`Protocol/presets.md`, "`phone`").
///
/// **Entered elements** are the digits and a `+` before them. Every Unicode decimal digit is read
/// as its ASCII digit; a `+` (or `＋`) is taken only before every digit (anywhere else it is
/// rejected); phone punctuation (spaces, `-`, `.`, `/`, brackets and their full-width forms) is
/// dropped silently, since the field shows its own; anything else (letters) is rejected.
///
/// **National and international.** With a region the field reads that region's national
/// numbers; a `+` typed first (or the region's international prefix, `00` in GB) makes the
/// number international. Without a region every number is international: the `+` is shown by
/// itself before the first digit, and is a literal then (deleting it changes nothing).
///
/// **The text** is the formatter's output for the elements in order, so it regroups as digits
/// come: it depends only on the elements, never on how they were typed or pasted.
///
/// **Length.** Digits are read while the number can grow: once the national number has the
/// region's longest possible length (or three digits after a `+` name no calling code), further
/// digits are cut into `overflow`, so a long paste costs no more than the number it holds.
///
/// **Caret and deleting** follow `Protocol/engine.md` as for slot masks: after typing, the caret
/// is right after what was typed; after a deletion it is right after the k-th element, k being
/// the elements left of it; a deletion over separators only removes the nearest digit before it
/// (after it, for forward delete); a keystroke that reads nothing in is refused whole.
final class PhoneField: CustomFieldKind {
    /// The region of national input, nil for international input only.
    let region: String?
    /// The region's own metadata (not its calling code's main region's), for the state.
    let home: PhoneRegion?
    /// The description reported as `mask`: `phone`, or `phone(region: GB)`.
    let notation: String
    static let international = "phone"
    static let national = "phone(region: "

    /// The longest run of digits kept whatever the metadata says: an international prefix, a
    /// calling code and libphonenumber's longest national number.
    static let maximumDigits = 4 + 3 + 17

    /// A field for `region` (already checked to be known), or international when nil.
    init(region: String?) {
        self.region = region
        home = region.flatMap(PhoneMetadata.region)
        blank = AsYouTypeFormatter(region: region)
        notation = region.map { Self.national + "\($0))" } ?? Self.international
    }

    /// The field `{"preset": "phone", "region": ...}` asks for.
    /// - Throws: `MaskError` for an unknown region or an option the preset does not take.
    convenience init(_ spec: MaskSpec) throws {
        var bare = MaskSpec(spec.form)
        bare.region = spec.region
        guard bare == spec else { throw MaskError("the phone preset takes no option but 'region'") }
        guard let region = spec.region else {
            self.init(region: nil)
            return
        }
        let code = region.uppercased()
        guard code.count == 2, PhoneMetadata.callingCode(of: code) != nil else {
            throw MaskError(
                "unknown region '\(region)' for the phone preset; regions are ISO 3166-1 alpha-2 codes such as GB, US, CN"
            )
        }
        self.init(region: code)
    }

    private static let plus = UInt8(ascii: "+")
    /// The element that starts an extension: its key (and how `value` writes it, `2015550123x45`).
    static let extensionMark = UInt8(ascii: "x")
    /// libphonenumber's longest extension (`parse` reads up to 20 digits after a label).
    static let maximumExtensionDigits = 20

    /// Whether `c` starts an extension after the number's first digit, as `parse` reads one: `ext`, `x`, `#`,
    /// `,`, `;`, `~`, `доб`, and the region's own prefix (`Anexo`, `int`) for the number typed as `keys`.
    /// Other letters stay refused, so a stray `a` is not taken for `anexo` where the region does not say so.
    func startsExtension(_ c: Character, after keys: () -> [UInt8]) -> Bool {
        switch c {
        case "e", "E", "x", "X", "#", ",", ";", "~", "ｅ", "ｘ", "＃", "～", "д", "Д": return true
        default:
            guard c.isLetter, let own = extensionLabel(keys()).first(where: { $0 != UInt8(ascii: " ") }) else {
                return false
            }
            return String(c).lowercased().utf8.first == Character(Unicode.Scalar(own)).lowercased().utf8.first
                && String(c).lowercased().utf8.count == 1
        }
    }

    /// A character of an extension's label (`ext. `, `extension`, `anexo`, `int`, `доб`, `:`), dropped between
    /// the mark and the extension's digits; `#` also after them (`45#`, as a keypad ends one).
    static func inExtensionLabel(_ c: Character, afterDigits: Bool) -> Bool {
        if c == "#" || c == "＃" { return true }
        guard !afterDigits else { return false }
        if c.isWhitespace && !c.isNewline { return true }
        return "extnsioóaдобｅｘｔｎｉ:.．,;~～-".contains(Character(c.lowercased()))
    }

    /// One entered element and where it was read from.
    private struct Element {
        var key: UInt8
        var position: Int
    }

    /// How a character is read.
    private enum Reading {
        case digit(UInt8), plus, dropped, rejected
    }

    private static func reading(_ character: Character) -> Reading {
        if let ascii = character.asciiValue {
            switch ascii {
            case 0x30...0x39: return .digit(ascii)
            case UInt8(ascii: "+"): return .plus
            case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "("),
                UInt8(ascii: ")"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "~"):
                return .dropped
            default: return .rejected
            }
        }
        if let digit = NumberField.digitValue(character) { return .digit(0x30 + digit) }
        let folded = NumberField.folded(character)
        if folded == "+" { return .plus }
        if let ascii = folded.asciiValue, ascii < 128, case .dropped = reading(folded) { return .dropped }
        switch character.unicodeScalars.first!.value {
        case 0x00A0, 0x00AD, 0x200B, 0x2060, 0x3000, 0x2010...0x2015, 0x2212, 0x30FC, 0x2053, 0x223C:
            return .dropped
        default:
            return .rejected
        }
    }

    /// The elements of `text`, what was rejected, and the text's length in characters.
    private func read(_ text: String) -> (elements: [Element], rejected: String, count: Int) {
        var elements: [Element] = []
        var rejected = ""
        var marked = false
        // A label starts a word: the `e` of `call me` after a number is not `ext`.
        var afterLetter = false
        // ASCII text (the field's own, nearly always) is read byte by byte: a byte is a character
        // there, but for a CR LF pair, which takes the general path.
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
            elements.reserveCapacity(text.utf8.count)
            WorkCounter.count(text.utf8.count)
            for (position, byte) in text.utf8.enumerated() {
                if byte >= 0x30, byte <= 0x39 {
                    elements.append(Element(key: byte, position: position))
                    afterLetter = false
                } else {
                    take(Character(Unicode.Scalar(byte)), at: position)
                }
            }
            return (elements, rejected, text.utf8.count)
        }
        var count = 0
        for (position, character) in text.enumerated() {
            WorkCounter.count()
            take(character, at: position)
            count += 1
        }
        return (elements, rejected, count)

        func take(_ character: Character, at position: Int) {
            let startsWord = !afterLetter
            afterLetter = character.isLetter
            if marked, Self.inExtensionLabel(character, afterDigits: elements.last?.key != Self.extensionMark) {
                return
            }
            if !marked, startsWord, elements.count > (elements.first?.key == Self.plus ? 1 : 0),
                startsExtension(character, after: { normalised(elements.map(\.key)) })
            {
                marked = true
                elements.append(Element(key: Self.extensionMark, position: position))
                return
            }
            switch Self.reading(character) {
            case .digit(let key): elements.append(Element(key: key, position: position))
            case .plus:
                if elements.isEmpty {
                    elements.append(Element(key: Self.plus, position: position))
                } else {
                    rejected.append(character)
                }
            case .dropped:
                if Self.closesBracket(character), elements.count <= 12 {
                    elements.removeLast(bracketedNationalPrefix(before: elements.map(\.key)[...]))
                }
            case .rejected: rejected.append(character)
            }
        }
    }

    /// The formatter after recent key sequences, and whether the number was full then: a keystroke
    /// at the end of a field resumes the formatter from the text before it instead of retyping it.
    /// A small ring searched in order: comparing a few short arrays costs less than hashing one.
    private let recent = Mutex<RecentStates>(RecentStates())
    /// The formatter before any key.
    let blank: AsYouTypeFormatter

    /// The ring of recent states; the keys apart, so a search touches no formatter.
    private struct RecentStates {
        var keys: [[UInt8]] = []
        var states: [(formatter: AsYouTypeFormatter, full: Bool)] = []
        var next = 0
        static let limit = 16
    }

    /// The formatter fed `keys` while the number can grow: the formatter, the keys taken, and
    /// whether the number is full.
    private func typed(_ keys: [UInt8]) -> (formatter: AsYouTypeFormatter, taken: Int, full: Bool) {
        var formatter = blank
        var taken = 0
        var full = false
        let resumed = recent.withLock { ring -> (AsYouTypeFormatter, Bool, Int)? in
            var best = -1, bestCount = -1
            for i in ring.keys.indices {
                let count = ring.keys[i].count
                guard count <= keys.count, count + 1 >= keys.count, count > bestCount,
                    ring.keys[i].elementsEqual(keys[..<count])
                else { continue }
                best = i
                bestCount = count
            }
            return best < 0 ? nil : (ring.states[best].formatter, ring.states[best].full, bestCount)
        }
        if let (state, wasFull, count) = resumed {
            formatter = state
            full = wasFull
            taken = count
        }
        if taken == keys.count { return (formatter, taken, full) }
        for key in keys[taken...] {
            if key != Self.plus, full { break }
            formatter.input(key)
            taken += 1
            full = isFull(formatter)
        }
        let kept = taken == keys.count ? keys : Array(keys[..<taken])
        recent.withLock { ring in
            if ring.keys.count < RecentStates.limit {
                ring.keys.append(kept)
                ring.states.append((formatter, full))
            } else {
                ring.keys[ring.next] = kept
                ring.states[ring.next] = (formatter, full)
                ring.next = (ring.next + 1) % RecentStates.limit
            }
        }
        return (formatter, taken, full)
    }

    /// Whether another digit could make no number: the national number has the longest length
    /// the region has (as `parse` reads it, national prefix and carrier codes set apart).
    func isFull(_ formatter: AsYouTypeFormatter) -> Bool {
        isFull(
            keys: formatter.keys, callingCode: formatter.callingCode, metadata: formatter.metadata,
            nationalDigits: formatter.nationalNumber.count
        ) { PhoneNumber(keys: formatter.keys, home: home) }
    }

    /// `isFull` of a formatter whose keys are `keys`, read as a number by `reading()`, with `callingCode`,
    /// `metadata` and `nationalDigits` its own. Takes the formatter's parts, not the formatter: passing the
    /// handle's formatter would copy it on every key.
    @inline(__always)
    func isFull(
        keys: [UInt8], callingCode: Int?, metadata: PhoneRegion?, nationalDigits: Int,
        reading: () -> PhoneNumber
    ) -> Bool {
        let digits = keys.count - (keys.first == Self.plus ? 1 : 0)
        if digits >= Self.maximumDigits { return true }
        if keys.first == Self.plus, callingCode == nil { return digits >= 3 }
        guard let metadata, nationalDigits >= metadata.maxLength else { return false }
        let number = reading()
        guard let region = number.region else { return digits >= 3 + 17 }
        return number.nationalLength >= region.maxLength
    }

    /// The keys of a field: `+` first when international without a region and there are digits.
    private func normalised(_ keys: [UInt8]) -> [UInt8] {
        var digits = keys.filter { $0 != Self.plus }
        if keys.first == Self.plus || (region == nil && !digits.isEmpty) { digits.insert(Self.plus, at: 0) }
        return digits
    }

    /// Where each key stands in `text` (the formatter's output).
    private static func positions(of keys: Int, in text: [UInt8]) -> [Int] {
        var positions: [Int] = []
        positions.reserveCapacity(keys)
        for (i, byte) in text.enumerated() where byte == plus || (byte >= 0x30 && byte <= 0x39) {
            positions.append(i)
        }
        return positions
    }

    /// The field for `keys`: its text, where its keys stand, and its state.
    struct Shown {
        var keys: [UInt8]
        var text: [UInt8]
        var positions: [Int]
        var full: Bool
        var plusIsLiteral: Bool
        /// The extension's digits after its mark; nil without a mark.
        var extensionDigits: [UInt8]? = nil

        /// How many of `keys` are the number's (the rest: the mark and the extension).
        var numberKeyCount: Int { keys.count - (extensionDigits.map { $0.count + 1 } ?? 0) }

        /// The caret right after the k-th key (k = 0: at the first place a digit goes).
        func caret(after k: Int) -> Int {
            let k = plusIsLiteral ? max(k, 1) : k
            return k == 0 ? 0 : min(positions[min(k, positions.count) - 1] + 1, text.count)
        }

        /// After typing: right after the k-th key, and past the separators the formatter shows by
        /// itself at the end (as after an `eager` mask's literals).
        func caretAfterTyping(_ k: Int) -> Int {
            k >= positions.count ? text.count : caret(after: k)
        }

        /// Forward gravity: the caret before the k-th key's successor, over any separator.
        func carried(_ k: Int) -> Int {
            let k = plusIsLiteral ? max(k, 1) : k
            return k < positions.count ? positions[k] : text.count
        }
    }

    /// The formatter behind a shown field and whether its number was full: what a field's `AsYouTypeState`
    /// (`PhoneFieldAsYouType.swift`) resumes from.
    struct Typed: Sendable {
        var formatter: AsYouTypeFormatter
        var full: Bool
    }

    private func show(_ keys: [UInt8]) -> (Shown, cut: [UInt8], typed: Typed) {
        var keys = normalised(keys)
        if let mark = keys.firstIndex(of: Self.extensionMark), !keys[..<mark].contains(where: { $0 != Self.plus }) {
            // An extension follows the number's first digit: an edit that takes every digit before its mark takes
            // the mark, and its digits are the number's, as reading the text the field would show gives.
            keys.remove(at: mark)
        }
        guard let mark = keys.firstIndex(of: Self.extensionMark) else {
            let (formatter, taken, full) = typed(keys)
            return (shown(formatter, full: full), Array(keys[taken...]), Typed(formatter: formatter, full: full))
        }
        // The number's keys go to the formatter; the extension is shown after what it shows.
        let number = Array(keys[..<mark])
        let (formatter, taken, full) = typed(number)
        let typed = Typed(formatter: formatter, full: full)
        var digits = Array(keys[(mark + 1)...])
        guard taken == number.count else {
            // A number cut short takes no extension: what follows it is cut with it.
            return (shown(formatter, full: full), Array(number[taken...]) + digits, typed)
        }
        var cut: [UInt8] = []
        if digits.count > Self.maximumExtensionDigits {
            cut = Array(digits[Self.maximumExtensionDigits...])
            digits.removeLast(digits.count - Self.maximumExtensionDigits)
        }
        return (shown(formatter, full: full, extension: digits), cut, typed)
    }

    /// How the field writes an extension before its digits: as NATIONAL and INTERNATIONAL write it for the
    /// number's calling code (` x` in GB), ` ext. ` where the metadata names no prefix.
    func extensionLabel(_ keys: [UInt8]) -> [UInt8] {
        let code = PhoneForms.significant(keys[...], home: home)?.code
        let region = code.flatMap(PhoneMetadata.mainRegion(forCallingCode:)) ?? home
        return Array((region?.preferredExtensionPrefix ?? " ext. ").utf8)
    }

    /// The field the formatter's keys make: its output, where each key stands in it.
    func shown(_ formatter: AsYouTypeFormatter, full: Bool, extension: [UInt8]? = nil) -> Shown {
        let kept = formatter.keys
        var text = formatter.output
        var positions = Self.positions(of: kept.count, in: text)
        if positions.count != kept.count {
            // Never expected: the formatter shows every key. Show the keys as they are then.
            text = kept
            positions = Array(kept.indices)
        }
        var shown = Shown(
            keys: kept, text: text, positions: positions, full: full,
            plusIsLiteral: region == nil && kept.count > 1)
        guard let digits = `extension` else { return shown }
        // The mark stands at the label's last character, so the caret after it is where the digits go.
        shown.text += extensionLabel(kept)
        shown.keys.append(Self.extensionMark)
        shown.positions.append(shown.text.count - 1)
        for digit in digits {
            shown.keys.append(digit)
            shown.positions.append(shown.text.count)
            shown.text.append(digit)
        }
        shown.extensionDigits = digits
        return shown
    }

    // MARK: Formatting and editing

    /// The digits and `+` of `text`, which a reflow carries into another mask, and how many stand before `caret`.
    func entered(_ text: String, caret: Int) -> (raw: [Character], before: Int) {
        let chars = Array(text)
        let keep: (Character) -> Bool = { $0.isNumber || $0 == "+" }
        return (chars.filter(keep), chars[0..<caret].filter(keep).count)
    }

    /// Reads `text` into an empty field, carrying `selection` through (nil: the end of the text).
    func format(_ text: String, selection: Range<Int>? = nil) -> FieldResult {
        formatting(text, selection: selection).result
    }

    /// `format`, and the formatter state behind its result.
    func formatting(_ text: String, selection: Range<Int>?) -> (result: FieldResult, typed: Typed) {
        let (elements, rejected, _) = read(text)
        let (shown, cut, typed) = show(elements.map(\.key))
        /// The number of kept keys before `offset` of `text`.
        func count(before offset: Int) -> Int {
            var k = elements.prefix { $0.position < offset }.count
            if region == nil, elements.first?.key != Self.plus, !elements.isEmpty { k += 1 }
            return min(k, shown.keys.count)
        }
        let range =
            selection.map { shown.carried(count(before: $0.lowerBound))..<shown.carried(count(before: $0.upperBound)) }
            ?? (shown.text.count..<shown.text.count)
        return (result(shown, selection: range, rejected: rejected, overflow: cut), typed)
    }

    /// Applies one edit to a field whose text is `text` (normally formatted by this field).
    func apply(_ edit: FieldEdit, to text: String) -> FieldResult {
        applying(edit, to: text).result
    }

    /// `apply`, and the formatter state behind its result when the result's text is the one it
    /// shows (nil when the edit changed nothing and the text is given back as it was).
    func applying(_ edit: FieldEdit, to text: String) -> (result: FieldResult, typed: Typed?) {
        var (elements, _, count) = read(text)
        if region == nil, !elements.isEmpty, elements[0].key != Self.plus {
            // A text missing its `+`: the plus stands before the first digit.
            elements.insert(Element(key: Self.plus, position: elements[0].position), at: 0)
        }
        /// The field as it stands, for edits that change nothing.
        func unchanged(
            caret: Int, selection: Range<Int>? = nil, rejected: String = "",
            overflow: String = ""
        ) -> (result: FieldResult, typed: Typed?) {
            let (old, _, _) = show(elements.map(\.key))
            var r = result(old, selection: 0..<0, rejected: rejected, overflow: [])
            r.text = text
            let caret = min(max(caret, 0), count)
            r.selection = selection ?? (caret..<caret)
            r.overflow = overflow
            return (r, nil)
        }
        // In an international field with digits the `+` is a literal: no deletion removes it.
        let plusIsLiteral = region == nil && elements.count > 1
        func deletable(_ index: Int) -> Bool { !(plusIsLiteral && elements[index].key == Self.plus) }
        /// The elements left of `offset`, as the deletion rule counts them.
        func elementsBefore(_ offset: Int) -> Int { elements.prefix { $0.position < offset }.count }

        var range = min(max(edit.range.lowerBound, 0), count)..<min(max(edit.range.upperBound, 0), count)
        var deleted = Set<Int>()  // indexes into elements
        if edit.text.isEmpty {
            if range.isEmpty {
                switch edit.direction {
                case .backward where range.lowerBound > 0: range = (range.lowerBound - 1)..<range.lowerBound
                case .forward where range.upperBound < count: range = range.lowerBound..<(range.upperBound + 1)
                default: return unchanged(caret: range.lowerBound)
                }
            }
            let inside = elements.indices.filter { range.contains(elements[$0].position) && deletable($0) }
            if !inside.isEmpty {
                deleted = Set(inside)
            } else if edit.direction == .backward,
                let nearest = elements.indices.last(where: { elements[$0].position < range.lowerBound && deletable($0) }
                )
            {
                deleted = [nearest]
            } else if edit.direction == .forward,
                let nearest = elements.indices.first(where: {
                    elements[$0].position >= range.upperBound && deletable($0)
                })
            {
                deleted = [nearest]
            } else {
                // Nothing to delete: the caret goes where the deletion rule puts it.
                let (old, _, _) = show(elements.map(\.key))
                return unchanged(caret: old.caret(after: elementsBefore(range.lowerBound)))
            }
        } else {
            deleted = Set(elements.indices.filter { range.contains(elements[$0].position) && deletable($0) })
        }
        let anchor = edit.text.isEmpty ? elements[deleted.min()!].position : range.lowerBound
        var before: [UInt8] = [], after: [UInt8] = []
        for (index, element) in elements.enumerated() where !deleted.contains(index) {
            if element.position < anchor { before.append(element.key) } else { after.append(element.key) }
        }
        // The inserted text; a `+` only before every digit, or over the shown `+` it steps over.
        var inserted: [UInt8] = []
        var rejected = ""
        var steppedOverPlus = false
        var droppedPrefix = false
        var marked = before.contains(Self.extensionMark) || after.contains(Self.extensionMark)
        // A label starts a word of what is inserted: the `e` of a pasted `call me` is not `ext`.
        var afterLetter = false
        for character in edit.text {
            WorkCounter.count()
            let startsWord = !afterLetter
            afterLetter = character.isLetter
            let last = inserted.last ?? before.last
            if marked, !after.contains(Self.extensionMark),
                Self.inExtensionLabel(character, afterDigits: last != Self.extensionMark)
            {
                continue
            }
            if !marked, startsWord, let last, last != Self.plus,
                startsExtension(character, after: { normalised(before + inserted) })
            {
                marked = true
                inserted.append(Self.extensionMark)
                continue
            }
            switch Self.reading(character) {
            case .digit(let key): inserted.append(key)
            case .dropped where Self.closesBracket(character) && before.count + inserted.count <= 12:
                // A bracketed national prefix after the calling code goes (`PhoneField-bracketedPrefix.swift`).
                var prefix = bracketedNationalPrefix(before: (before + inserted)[...])
                droppedPrefix = droppedPrefix || prefix > 0
                let fromInserted = min(prefix, inserted.count)
                inserted.removeLast(fromInserted)
                prefix -= fromInserted
                before.removeLast(prefix)
            case .plus:
                if before.isEmpty, inserted.isEmpty, after.first == Self.plus, region == nil, !steppedOverPlus {
                    steppedOverPlus = true
                } else if before.isEmpty, inserted.isEmpty, !after.contains(Self.plus) {
                    inserted.append(Self.plus)
                } else {
                    rejected.append(character)
                }
            case .dropped: continue
            case .rejected: rejected.append(character)
            }
        }
        if steppedOverPlus {
            // Reading goes on after the `+`.
            before.append(after.removeFirst())
        }
        if after.first == Self.plus, !before.isEmpty || !inserted.isEmpty {
            // The plus always comes first.
            after.removeFirst()
            before.insert(Self.plus, at: 0)
        }
        var all = before + inserted + after
        if region == nil, !all.contains(where: { $0 != Self.plus }), edit.text.isEmpty {
            // Deleting the last digit of an international field takes the `+` shown with it.
            all = []
            before = []
        }
        let (shown, cut, typed) = show(all)
        let plusAdded = normalised(all).count - all.count
        let keptInserted = max(0, min(inserted.count, shown.keys.count - plusAdded - before.count))
        if !edit.text.isEmpty, keptInserted == 0, !droppedPrefix {
            // Nothing typed was read in: the edit is refused whole (stepping over a `+` moves the caret).
            if steppedOverPlus, range.isEmpty { return unchanged(caret: 1, rejected: rejected) }
            return unchanged(
                caret: range.upperBound, selection: edit.selection ?? range, rejected: rejected,
                overflow: String(decoding: inserted, as: UTF8.self))
        }
        let k = before.count + plusAdded + keptInserted
        let caret = edit.text.isEmpty ? shown.caret(after: k) : shown.caretAfterTyping(k)
        return (result(shown, selection: caret..<caret, rejected: rejected, overflow: cut), typed)
    }

    /// The field's result for `shown`.
    func result(_ shown: Shown, selection: Range<Int>, rejected: String, overflow: [UInt8]) -> FieldResult {
        let number = shown.extensionDigits == nil ? shown.keys : Array(shown.keys[..<shown.numberKeyCount])
        return result(
            keys: shown.keys, text: shown.text, full: shown.full, number: PhoneNumber(keys: number, home: home),
            selection: selection, rejected: rejected, overflow: overflow, extension: shown.extensionDigits)
    }

    /// The field's result for its keys shown as `text`; `number` is the keys read as a number.
    func result(
        keys: [UInt8], text: [UInt8], full: Bool, number: PhoneNumber, selection: Range<Int>,
        rejected: String, overflow: [UInt8], extension: [UInt8]? = nil
    ) -> FieldResult {
        // The normalized forms once the number's length is possible (the keys before the extension's mark).
        var forms: PhoneForms? = nil
        if number.lengthCheck == .possible {
            let numberKeys = `extension`.map { keys[..<(keys.count - $0.count - 1)] } ?? keys[...]
            forms = PhoneForms(keys: numberKeys, home: home, extension: `extension` ?? [])
        }
        let region = number.region
        var problems: [String] = []
        if let (a, b, c) = number.unknownCallingCode {
            problems = ["no country has the calling code +\(String(decoding: [a, b, c], as: UTF8.self))"]
        } else {
            switch number.lengthCheck {
            case .possible:
                if number.type == nil { problems = region?.notValidProblem ?? Self.notValidAnywhere }
            case .tooLong: problems = Self.tooLong
            case .invalidLength: problems = region?.impossibleLengthProblem ?? Self.impossibleLengthAnywhere
            case .tooShort, .possibleLocalOnly: problems = Self.tooShort
            }
        }
        return FieldResult(
            text: String(ascii: text), selection: selection,
            value: String(ascii: keys),
            complete: number.lengthCheck == .possible, valid: problems.isEmpty, problems: problems,
            next: full ? nil : .digit, placeholder: "", mask: notation, brand: nil,
            rejected: rejected, overflow: overflow.isEmpty ? "" : String(decoding: overflow, as: UTF8.self),
            region: region?.id, phoneType: number.type?.rawValue,
            phoneExtension: `extension`.flatMap { $0.isEmpty ? nil : String(ascii: $0) },
            e164: forms?.e164, rfc3966: forms?.rfc3966)
    }

    // The problems, made once: a keystroke reports one of them.
    private static let tooShort = ["too short"], tooLong = ["too long"]
    private static let notValidAnywhere = ["not a valid number for any region"]
    private static let impossibleLengthAnywhere = ["not a possible length for any region"]
}
