import FieldTyping
import XCTest
import MaskCatalog
@testable import MaskEngine

/// Bugs the engine fuzz target found (`fuzz/targets/engine.swift`), each as the
/// smallest case that states the right behaviour.
final class FuzzRegressionTests: XCTestCase {
    func testOneOf_backspaceWithNothingToDelete_keepsTheField() throws {
        let mask = try Mask.compile(MaskSpec(.oneOf([.notation("[00]"), .notation("[AA]")])))
        XCTAssertEqual(mask.apply(.backspace(0..<0), to: "12").text, "12")
    }

    func testOneOf_literalOfOneAlternative_isNotReadAsEnteredByAnother() throws {
        let mask = try Mask.compile(
            MaskSpec(
                .oneOf([
                    .notation("+1 ([000]) [000]-[0000]"),
                    .notation("[000] [0000] [0000]"),
                ]), eager: true))
        let empty = mask.format("")
        XCTAssertEqual(mask.apply(.insert("5", at: empty.selection), to: empty.text).text, "+1 (5")
    }

    func testOneOfOfThree_typingStaysIdempotent() throws {
        let mask = try Mask.compile(MaskSpec(.oneOf([.notation("[0000]"), .notation("x[0000]"), .notation("[0]")])))
        let r = mask.apply(.insert("2", at: 1..<1), to: mask.format("1").text)
        XCTAssertEqual(mask.format(r.text).text, r.text)
    }

    func testRegexOnAOneOfAlternative_isRefused() {
        XCTAssertThrowsError(try Mask.compile(MaskSpec(.oneOf([MaskSpec(.notation("[00]"), regex: "^1$")])))) { error in
            XCTAssertTrue((error as! MaskError).message.contains("on the oneOf"), "\(error)")
        }
    }

    func testLoneCombiningMark_isRefusedByAnAnySlot() throws {
        let mask = try Mask.compile("[*]-[*]")
        let r = mask.apply(.insert("\u{301}", at: 1..<1), to: "a")
        XCTAssertEqual(r.text, "a")
        XCTAssertEqual(r.rejected, "\u{301}")
        XCTAssertEqual(mask.format(r.text).text, r.text)
        // A lone regional indicator would merge with the next one into a flag.
        XCTAssertEqual(try Mask.compile("[**]").apply(.insert("🇫", at: 0..<0), to: "").text, "")
        XCTAssertEqual(try Mask.compile("[**]").apply(.insert("🇫🇷", at: 0..<0), to: "").text, "🇫🇷")
    }

    func testOneOfWithRegex_formatChoosesAfterCutting() throws {
        let mask = try Mask.compile(
            MaskSpec(
                .oneOf([MaskSpec(.notation("#[00]"), eager: true), .notation("[99]")]),
                regex: "^1"))
        let r = mask.format("23")
        XCTAssertEqual(mask.format(r.text).text, r.text)
    }

    func testLiteralOnlyALaterAlternativeHas_isIdempotent() throws {
        let mask = try Mask.compile(MaskSpec(.oneOf([.notation("[00000]"), .notation("  [0]    ")])))
        let r = mask.apply(.insert(" ", at: 0..<0), to: "")
        XCTAssertEqual(mask.format(r.text).text, r.text)
    }

    func testLiteralThatAPrecedingOptionalSlotAccepts_isAnAmbiguousMask() {
        for notation in ["[9a]ab", "[A…]x", "[-]A[0]"] {
            XCTAssertThrowsError(try Mask.compile(notation), notation) { error in
                XCTAssertTrue((error as! MaskError).message.hasPrefix("ambiguous mask"), "\(notation): \(error)")
            }
        }
    }

    func testEagerLiteralsAfterAnEllipsis_showFromTheFirstCharacter() throws {
        let mask = try Mask.compile(MaskSpec(.notation("[0…] kg"), eager: true))
        let one = mask.apply(.insert("1", at: 0..<0), to: "")
        XCTAssertEqual(marked(one), "1| kg")
        XCTAssertEqual(marked(mask.apply(.insert("2", at: 1..<1), to: one.text)), "12| kg")
    }

    func testHugeSizes_areRefusedNotATrap() {
        XCTAssertThrowsError(try Mask.compile(MaskSpec(.groups([Int.max, 1]))))
        XCTAssertThrowsError(try Mask.compile(MaskSpec(.separatorAt([Int.max]))))
        XCTAssertThrowsError(try Mask.compile(MaskSpec(.groups([4]), maxLength: Int.max, repeat: true)))
    }

    func testEagerLiteralsAfterAnEmptyOptionalSlot_typingEqualsPasting() throws {
        let mask = try Mask.compile(MaskSpec(.notation("a{.}a[99]AAaX😀a{.}a[99]AAa"), eager: true))
        let text = "a.a1AAaX😀a.a"
        var typed = mask.format("")
        for key in text { typed = mask.apply(.insert(String(key), at: typed.selection), to: typed.text) }
        let empty = mask.format("")
        let pasted = mask.apply(.insert(text, at: empty.selection), to: empty.text)
        XCTAssertEqual(typed.text, text)
        XCTAssertEqual(pasted.text, text)
    }

    /// Literals after a `…` that slots follow are never reached, so `eager` does not show them: shown, reading
    /// would refuse them and take the digit among them (`+1`) into the `…` slot, so `format` was not idempotent.
    func testEagerLiteralsAfterAnEllipsisThatSlotsFollow_areNotShown() throws {
        let mask = try Mask.compile(MaskSpec(.notation("a aa{…}a😀[0…]{.}a+1 (A[0…]a"), eager: true))
        let formatted = mask.format("a aa…a😀11111.a+1 (A")
        XCTAssertEqual(formatted.text, "a aa…a😀111111")
        XCTAssertEqual(mask.format(formatted.text).text, formatted.text)
        let entered = typedAndPasted(mask, "a aa…a😀12")
        XCTAssertEqual(entered.typed, "a aa…a😀12")
        XCTAssertEqual(entered.pasted, "a aa…a😀12")
        let unit = try Mask.compile(MaskSpec(.notation("[0…] kg[AA]"), eager: true))
        XCTAssertEqual(unit.apply(.insert("12", at: 0..<0), to: "").text, "12")
    }
}
