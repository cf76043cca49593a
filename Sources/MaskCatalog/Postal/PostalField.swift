import MaskEngine

/// The `postal` preset's field: a postal code of one region, as Google's address metadata describes
/// the region's codes (`Protocol/presets.md`, "`postal`").
///
/// **Keys** are the letters and digits typed: ASCII letters are upper-cased, every Unicode decimal digit
/// and full-width letter is read as its ASCII form. Separators typed (spaces, hyphens, dots, slashes and
/// their Unicode forms) are stepped over: the field puts the region's own in by itself. Anything else is
/// rejected.
///
/// **Refused as typed.** A key is read in only when some code of the region starts with the keys before it
/// and it; otherwise it is rejected (or cut into `overflow` when the keys before it already are a code no
/// longer code extends). So the text is always the start of a code, and `valid` and `complete` say the
/// same: the whole text is one of the region's codes.
///
/// **The text** is the keys with the separators where the region's codes put them (`PostalRegion`): it
/// depends only on the keys, so it regroups as a later key rules a reading out.
///
/// **Caret and deleting** follow `Protocol/engine.md` as the phone field does: after typing, the caret is
/// right after the last key read in; after a deletion, right after the k-th key, k being the keys left of
/// it; a deletion over a separator only removes the nearest key before it (after it, for forward delete);
/// an insertion that reads nothing in is refused whole.
final class PostalField: CustomFieldKind {
    let region: PostalRegion
    /// The description reported as `mask`: `postal(region: GB)`.
    let notation: String

    /// The field `{"preset": "postal", "region": ...}` asks for.
    /// - Throws: `MaskError` for a missing or unknown region, or an option the preset does not take.
    init(_ spec: MaskSpec) throws {
        var bare = MaskSpec(spec.form)
        bare.region = spec.region
        guard bare == spec else { throw MaskError("the postal preset takes no option but 'region'") }
        guard let given = spec.region else {
            throw MaskError("the postal preset needs a region, an ISO 3166-1 alpha-2 code such as GB, US, BR")
        }
        guard given.count == 2, let region = PostalMetadata.region(given.uppercased()) else {
            throw MaskError(
                "unknown region '\(given)' for the postal preset; regions are ISO 3166-1 alpha-2 codes of regions with postal codes, such as GB, US, BR (maskd presets lists them)"
            )
        }
        self.region = region
        notation = "postal(region: \(region.code))"
    }

    /// How a character is read.
    private enum Reading {
        case key(UInt8), separator, rejected
    }

    private static func reading(_ character: Character) -> Reading {
        let folded = NumberField.folded(character)
        if let ascii = folded.asciiValue {
            switch ascii {
            case 0x30...0x39, 0x41...0x5A: return .key(ascii)
            case 0x61...0x7A: return .key(ascii - 0x20)
            case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "\t"):
                return .separator
            default: return .rejected
            }
        }
        if let digit = NumberField.digitValue(character) { return .key(0x30 + digit) }
        switch character.unicodeScalars.first!.value {
        case 0x00A0, 0x2007, 0x202F, 0x3000, 0x2010...0x2015, 0x2212: return .separator
        default: return .rejected
        }
    }

    /// One key of a field's text and where it stands.
    private struct Element {
        var key: UInt8
        var position: Int
        /// The character as it was typed (reported as such when refused or cut).
        var character: Character
    }

    /// The keys of `text` (every letter and digit, read or not), what was rejected, and the text's length.
    private func elements(_ text: String) -> (elements: [Element], rejected: String, count: Int) {
        var elements: [Element] = []
        var rejected = ""
        var count = 0
        for (position, character) in text.enumerated() {
            WorkCounter.count()
            count += 1
            switch Self.reading(character) {
            case .key(let key): elements.append(Element(key: key, position: position, character: character))
            case .separator: continue
            case .rejected: rejected.append(character)
            }
        }
        return (elements, rejected, count)
    }

    /// The field the keys make: the keys read in, in order (a key no code can hold there is left out,
    /// into `rejected`, or into `overflow` once the keys read are a code nothing extends), and its text.
    struct Shown {
        var keys: [UInt8] = []
        var text: [UInt8] = []
        /// Where each key stands in `text`.
        var positions: [Int] = []
        var reading: PostalRegion.Reading
        /// For each key offered: read in, rejected, or cut.
        var outcome: [Outcome] = []

        /// The caret right after the k-th key (k = 0: the start).
        func caret(after k: Int) -> Int {
            k == 0 ? 0 : positions[min(k, positions.count) - 1] + 1
        }

        /// Forward gravity: the caret before the k-th key's successor, over any separator.
        func carried(_ k: Int) -> Int { k < positions.count ? positions[k] : text.count }
    }

    /// What became of a key offered to the field.
    enum Outcome {
        case read, rejected, cut
    }

    private func show(_ keys: [UInt8]) -> Shown {
        var shown = Shown(reading: region.start)
        for key in keys {
            if let next = region.reading(shown.reading, then: key) {
                shown.reading = next
                shown.keys.append(key)
                shown.outcome.append(.read)
            } else {
                shown.outcome.append(shown.reading.isFull ? .cut : .rejected)
            }
        }
        shown.text = region.text(shown.keys, shown.reading)
        for (i, byte) in shown.text.enumerated() where byte != UInt8(ascii: " ") && byte != UInt8(ascii: "-") {
            shown.positions.append(i)
        }
        return shown
    }

    // MARK: Formatting and editing

    /// The letters and digits of `text`, which a reflow carries into another mask, and how many stand before
    /// `caret`.
    func entered(_ text: String, caret: Int) -> (raw: [Character], before: Int) {
        let chars = Array(text)
        let keep: (Character) -> Bool = { $0.isLetter || $0.isNumber }
        return (chars.filter(keep), chars[0..<caret].filter(keep).count)
    }

    /// Reads `text` into an empty field, carrying `selection` through (nil: the end of the text).
    func format(_ text: String, selection: Range<Int>? = nil) -> FieldResult {
        let (elements, rejected, _) = elements(text)
        let shown = show(elements.map(\.key))
        /// The keys read in before `offset` of `text`.
        func count(before offset: Int) -> Int {
            var k = 0
            for (i, element) in elements.enumerated() where element.position < offset && shown.outcome[i] == .read {
                k += 1
            }
            return k
        }
        let range =
            selection.map { shown.carried(count(before: $0.lowerBound))..<shown.carried(count(before: $0.upperBound)) }
            ?? (shown.text.count..<shown.text.count)
        var refused = rejected, cut = ""
        for (element, outcome) in zip(elements, shown.outcome) {
            switch outcome {
            case .read: continue
            case .rejected: refused.append(element.character)
            case .cut: cut.append(element.character)
            }
        }
        return result(shown, selection: range, rejected: refused, overflow: cut)
    }

    /// Applies one edit to a field whose text is `text` (normally formatted by this field).
    func apply(_ edit: FieldEdit, to text: String) -> FieldResult {
        let (elements, _, count) = elements(text)
        /// The field as it stands, for edits that change nothing.
        func unchanged(caret: Int, selection: Range<Int>? = nil, rejected: String = "", overflow: String = "")
            -> FieldResult
        {
            var r = result(show(elements.map(\.key)), selection: 0..<0, rejected: rejected, overflow: overflow)
            r.text = text
            let caret = min(max(caret, 0), count)
            r.selection = selection ?? (caret..<caret)
            return r
        }
        func keysBefore(_ offset: Int) -> Int { elements.prefix { $0.position < offset }.count }

        var range = min(max(edit.range.lowerBound, 0), count)..<min(max(edit.range.upperBound, 0), count)
        var deleted = Set<Int>()
        if edit.text.isEmpty {
            if range.isEmpty {
                switch edit.direction {
                case .backward where range.lowerBound > 0: range = (range.lowerBound - 1)..<range.lowerBound
                case .forward where range.upperBound < count: range = range.lowerBound..<(range.upperBound + 1)
                default: return unchanged(caret: range.lowerBound)
                }
            }
            let inside = elements.indices.filter { range.contains(elements[$0].position) }
            if !inside.isEmpty {
                deleted = Set(inside)
            } else if edit.direction == .backward,
                let nearest = elements.indices.last(where: { elements[$0].position < range.lowerBound })
            {
                deleted = [nearest]
            } else if edit.direction == .forward,
                let nearest = elements.indices.first(where: { elements[$0].position >= range.upperBound })
            {
                deleted = [nearest]
            } else {
                // Nothing to delete: the caret goes where the deletion rule puts it.
                return unchanged(caret: show(elements.map(\.key)).caret(after: keysBefore(range.lowerBound)))
            }
        } else {
            deleted = Set(elements.indices.filter { range.contains(elements[$0].position) })
        }
        let anchor = edit.text.isEmpty ? elements[deleted.min()!].position : range.lowerBound
        var before: [UInt8] = [], after: [Element] = []
        for (index, element) in elements.enumerated() where !deleted.contains(index) {
            if element.position < anchor { before.append(element.key) } else { after.append(element) }
        }
        var inserted: [UInt8] = [], typed: [Character] = []
        var rejected = ""
        for character in edit.text {
            WorkCounter.count()
            switch Self.reading(character) {
            case .key(let key):
                inserted.append(key)
                typed.append(character)
            case .separator: continue
            case .rejected: rejected.append(character)
            }
        }
        let shown = show(before + inserted + after.map(\.key))
        func read(_ range: Range<Int>) -> Int { shown.outcome[range].filter { $0 == .read }.count }
        let keptBefore = read(0..<before.count)
        let keptInserted = read(before.count..<(before.count + inserted.count))
        // The inserted keys that were not read in, refused or cut, in the order typed.
        var refused = "", cut = ""
        for (i, character) in typed.enumerated() {
            switch shown.outcome[before.count + i] {
            case .read: continue
            case .rejected: refused.append(character)
            case .cut: cut.append(character)
            }
        }
        if !edit.text.isEmpty, keptInserted == 0 {
            // Nothing typed was read in: the edit is refused whole.
            return unchanged(
                caret: range.upperBound, selection: edit.selection ?? range, rejected: rejected + refused,
                overflow: cut)
        }
        // Keys after the edit that no longer fit are cut.
        var overflow = cut
        for (i, element) in after.enumerated() where shown.outcome[before.count + inserted.count + i] != .read {
            overflow.append(element.character)
        }
        let k = keptBefore + keptInserted
        let caret = shown.caret(after: k)
        return result(shown, selection: caret..<caret, rejected: rejected + refused, overflow: overflow)
    }

    /// The field's result for `shown`.
    private func result(_ shown: Shown, selection: Range<Int>, rejected: String, overflow: String) -> FieldResult {
        let complete = shown.reading.complete
        let problems: [String] = complete ? [] : Self.tooShort
        let text = String(ascii: shown.text)
        return FieldResult(
            text: text, selection: selection, value: text, complete: complete, valid: complete, problems: problems,
            next: region.next(shown.reading), placeholder: "", mask: notation, brand: nil, rejected: rejected,
            overflow: overflow)
    }

    // The problems, made once.
    private static let tooShort = ["too short"]
}
