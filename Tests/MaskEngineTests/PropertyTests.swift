import FieldTyping
import XCTest
import MaskCatalog
@testable import MaskEngine
import TestSupport

/// Random masks and random editing sessions, checked against the engine's invariants.
final class PropertyTests: XCTestCase {
    /// Literals never equal a typeable character here, so every typed character is accounted
    /// for as entered, rejected or overflow.
    static let literals: [Character] = [" ", "-", "(", ")", "+", ".", "/", ":"]
    static let typeable: [Character] = ["1", "2", "7", "0", "a", "B", "x", "X", "é", "１", "٣", "?", "😀", "👍🏽"]

    static func randomMask(_ rng: inout SeededRandom, optional: Bool = true) -> (notation: String, eager: Bool) {
        var notation = ""
        let pieces = rng.int(1..<5)
        for p in 0..<pieces {
            if rng.chance(60) || p == 0 {
                for _ in 0..<rng.int(0..<3) { notation.append(rng.pick(literals)) }
            }
            if rng.chance(15) { notation += "{" + String(rng.pick(literals)) + "}" }
            notation += "["
            for _ in 0..<rng.int(1..<5) {
                let slots: [Character] =
                    optional ? ["0", "9", "A", "a", "_", "-", "*", "X"] : ["0", "A", "_", "*", "X"]
                notation.append(rng.pick(slots))
            }
            if p == pieces - 1 && rng.chance(10) { notation += "…" }
            notation += "]"
        }
        if rng.chance(30) { notation.append(rng.pick(literals)) }
        return (notation, rng.chance(30))
    }

    static func randomText(_ rng: inout SeededRandom, _ length: Int) -> String {
        var s = ""
        for _ in 0..<length { s.append(rng.pick(typeable + literals)) }
        return s
    }

    /// How many entered characters a field's text holds.
    static func enteredCount(_ mask: Mask, _ text: String) -> Int {
        mask.entered(text, caret: 0).raw.count
    }

    func testRandomSessions_keepEveryInvariant() {
        var rng = SeededRandom(seed: 20261202)
        var masks = 0, steps = 0
        while masks < 300 {
            let (notation, eager) = Self.randomMask(&rng)
            guard let mask = try? Mask.compile(MaskSpec(.notation(notation), eager: eager)) else { continue }
            masks += 1
            var field = TypingField(mask, "|")
            field.text = mask.format("").text
            field.selection = field.text.count..<field.text.count
            for _ in 0..<40 {
                steps += 1
                let before = field.text
                let enteredBefore = Self.enteredCount(mask, before)
                var inserted = ""
                let chars = Array(field.text)
                // Entered characters an insertion over the current selection replaces.
                let selectionBefore = field.selection
                var removedEntered =
                    Self.enteredCount(mask, String(chars[..<field.selection.upperBound]))
                    - Self.enteredCount(mask, String(chars[..<field.selection.lowerBound]))
                switch rng.int(0..<10) {
                case 0..<5:
                    inserted = String(rng.pick(Self.typeable + Self.literals))
                    field.type(inserted)
                case 5:
                    inserted = Self.randomText(&rng, rng.int(1..<12))
                    field.paste(inserted)
                case 6, 7:
                    field.backspace()
                case 8:
                    field.forwardDelete()
                default:
                    let a = rng.int(0..<(field.text.count + 1)), b = rng.int(0..<(field.text.count + 1))
                    field.select(min(a, b)..<max(a, b))
                    continue
                }
                let result = field.last!
                let context =
                    "mask \(notation) eager \(eager): \(before) -> \(TypingField.mark(result.text, result.selection))"
                // The caret stays inside the text.
                XCTAssertTrue(
                    result.selection.lowerBound >= 0 && result.selection.upperBound <= result.text.count, context)
                // Formatting is idempotent.
                XCTAssertEqual(mask.format(result.text).text, result.text, "not idempotent: " + context)
                // Typing the text key by key gives the same field as pasting it.
                let both = typedAndPasted(mask, result.text)
                XCTAssertEqual(both.typed, both.pasted, "typing != pasting: " + context)
                // No typed character that fits is lost: each is entered, rejected or cut.
                if !inserted.isEmpty {
                    let enteredAfter = Self.enteredCount(mask, result.text)
                    if result.text == before && result.selection == selectionBefore { removedEntered = 0 }  // refused
                    let literalsTyped = inserted.filter { Self.literals.contains($0) }.count
                    let accounted =
                        enteredAfter - (enteredBefore - removedEntered) + result.rejected.count + result.overflow.count
                    if literalsTyped == 0 {
                        XCTAssertEqual(
                            accounted, inserted.count,
                            "lost input: " + context
                                + " rejected \(result.rejected) overflow \(result.overflow)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(steps, 10_000)
    }

    /// Deleting an entered character and typing it again at the caret gives the field back.
    ///
    /// This holds where re-flow cannot cut anything: one slot class, and no more digits than slots.
    /// (In mixed masks a deletion may shift a digit onto a letter slot; it is then cut and reported.)
    func testDeleteAndRetype_restoresTheField() {
        var rng = SeededRandom(seed: 7)
        var checked = 0
        while checked < 2_000 {
            var notation = ""
            for _ in 0..<rng.int(1..<5) {
                for _ in 0..<rng.int(0..<3) { notation.append(rng.pick(Self.literals)) }
                notation += "[" + String(repeating: "0", count: rng.int(1..<5)) + "]"
            }
            guard let mask = try? Mask.compile(MaskSpec(.notation(notation), eager: rng.chance(30))) else { continue }
            let capacity = notation.filter { $0 == "0" }.count
            var digits = ""
            for _ in 0..<rng.int(1..<(capacity + 1)) { digits.append(rng.pick(["1", "2", "3", "7", "0"])) }
            let full = mask.format(digits)
            let d = mask.programs(for: Array(full.text))[0].decompose(Array(full.text))
            let cell = rng.int(0..<d.layout.cells.count)
            let at = d.source(ofCell: cell)
            let removed = Array(full.text)[at]
            var field = TypingField(mask, "|")
            field.text = full.text
            field.select(at..<at + 1)
            field.backspace()
            field.type(String(removed))
            XCTAssertEqual(field.text, full.text, "mask \(notation): deleting and retyping \(removed) at \(at)")
            checked += 1
        }
    }

    /// `oneOf` fields stay idempotent and keep their caret in bounds whatever alternative wins.
    func testRandomOneOfSessions_stayIdempotent() {
        var rng = SeededRandom(seed: 4242)
        var masks = 0
        while masks < 200 {
            let a = Self.randomMask(&rng), b = Self.randomMask(&rng)
            guard
                let mask = try? Mask.compile(
                    MaskSpec(
                        .oneOf([.notation(a.notation), .notation(b.notation)]),
                        eager: a.eager))
            else { continue }
            masks += 1
            var field = TypingField(mask, "|")
            field.text = mask.format("").text
            field.selection = field.text.count..<field.text.count
            for _ in 0..<30 {
                switch rng.int(0..<6) {
                case 0..<3: field.type(String(rng.pick(Self.typeable + Self.literals)))
                case 3: field.paste(Self.randomText(&rng, rng.int(1..<8)))
                case 4: field.backspace()
                default: field.forwardDelete()
                }
                let r = field.last!
                let context =
                    "oneOf [\(a.notation), \(b.notation)] eager \(a.eager): \(TypingField.mark(r.text, r.selection))"
                XCTAssertEqual(mask.format(r.text).text, r.text, "not idempotent: " + context)
                XCTAssertTrue(r.selection.upperBound <= r.text.count, context)
            }
        }
    }

    /// ASCII fields run over bytes; the result must be exactly the `Character` path's.
    func testBytePath_equalsCharacterPath() {
        var rng = SeededRandom(seed: 99)
        let asciiKeys: [Character] = ["1", "2", "7", "0", "a", "B", "x", "X", "?", " ", "-", "(", ")", "+", ".", "/"]
        var compared = 0
        while compared < 20_000 {
            let (notation, eager) = Self.randomMask(&rng)
            guard let mask = try? Mask.compile(MaskSpec(.notation(notation), eager: eager)) else { continue }
            var text = mask.format("").text
            var caret = text.count
            for _ in 0..<20 {
                var inserted = ""
                for _ in 0..<rng.int(0..<3) { inserted.append(rng.pick(asciiKeys)) }
                let start = inserted.isEmpty ? max(caret - 1, 0) : caret
                let edit = inserted.isEmpty ? FieldEdit.backspace(start..<caret) : .insert(inserted, at: caret..<caret)
                let bytes = mask.apply(edit, to: text)
                let characters = mask._applyAsCharacters(edit, to: text)
                XCTAssertEqual(bytes, characters, "mask \(notation) eager \(eager) text \(text) edit \(edit)")
                text = bytes.text
                caret = bytes.caret
                compared += 1
            }
        }
    }

    func testPositions_neverSplitAGraphemeCluster() {
        let mask = compiled("[***] [***]")
        var field = TypingField(mask)
        field.type("a😀👍🏽é\u{301}🇫🇷x")
        let result = field.last!
        XCTAssertEqual(result.text, "a😀👍🏽 é́🇫🇷x")
        let encoded = EncodedText(result.text)
        for encoding in PositionEncoding.allCases {
            let unit = encoded.unitOffset(ofCharacter: result.caret, in: encoding)
            XCTAssertEqual(encoded.characterOffset(ofUnit: unit, in: encoding), result.caret)
        }
        // An offset inside the flag moves to a cluster boundary, down or up.
        let flagStart = encoded.unitOffset(ofCharacter: 5, in: .utf16)
        XCTAssertEqual(encoded.characterOffset(ofUnit: flagStart + 1, in: .utf16), 5)
        XCTAssertEqual(encoded.characterOffset(ofUnit: flagStart + 1, in: .utf16, roundUp: true), 6)
    }
}
