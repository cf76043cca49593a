import FieldTyping
import XCTest
import MaskCatalog
@testable import MaskEngine

/// Typing, deleting, pasting and re-masking in each basic form of mask (separators at fixed positions, character
/// classes, `#` patterns, bracket notation, a bank card that keeps the caret), as a person sees them.
final class MaskFormTypingTests: XCTestCase {
    // MARK: Separators at fixed positions with a length limit

    private let mobile = try! Mask.compile(MaskSpec(.separatorAt([3, 8]), maxLength: 11))

    func testSeparatorAt_mobile344_typedFromEmpty_groupsAsTyped() {
        var f = TypingField(mobile)
        f.type("138"); check(f, "138|")
        f.type("0"); check(f, "138 0|")
        f.type("0138000"); check(f, "138 0013 8000|")
        XCTAssertEqual(f.last?.value, "13800138000")
        XCTAssertTrue(f.last!.complete)
    }

    func testSeparatorAt_limitCount_stopsAtElevenDigits() {
        var f = TypingField(mobile, "138 0013 8000|")
        f.type("9")
        check(f, "138 0013 8000|")
        XCTAssertEqual(f.last?.overflow, "9")
    }

    func testSeparatorAt_idCard684_blanksAt6And15() {
        let id = try! Mask.compile(MaskSpec(.separatorAt([6, 15]), accept: .digitsX, maxLength: 18))
        var f = TypingField(id)
        f.type("11010519491231002x")
        check(f, "110105 19491231 002X|")
        XCTAssertEqual(f.last?.value, "11010519491231002X")
    }

    func testSeparatorAt_bankCard24_blanksEveryFifth() {
        let card = try! Mask.compile(MaskSpec(.separatorAt([4, 9, 14, 19, 24]), maxLength: 24))
        var f = TypingField(card)
        f.type("622202000000123456789012")
        check(f, "6222 0200 0000 1234 5678 9012|")
    }

    func testSeparatorAt_typingInTheMiddle_caretAfterTypedDigitStepsOverSpace() {
        var f = TypingField(mobile, "138 001|3 8000")
        f.type("5")
        // The digits behind re-flow; the caret lands after the 5, past the space it pushed.
        check(f, "138 0015| 3800")
        XCTAssertEqual(f.last?.overflow, "0")
        var g = TypingField(mobile, "13|8 0013")
        g.type("9")
        check(g, "139| 8001 3")
    }

    func testSeparatorAt_backspaceAfterSeparator_deletesTheDigitBeforeIt() {
        var f = TypingField(mobile, "138 |0013 8000")
        f.backspace()
        check(f, "13|0 0138 000")
    }

    func testSeparatorAt_deleteInTheMiddle_regroupsAndKeepsCaret() {
        var f = TypingField(mobile, "138 00|13 8000")
        f.backspace()
        check(f, "138 0|138 000")
    }

    func testSeparatorAt_deleteAtTheEnd_isPlain() {
        var f = TypingField(mobile, "138 0013 8|")
        f.backspace()
        check(f, "138 0013|")
        f.backspace()
        check(f, "138 001|")
    }

    func testSeparatorAt_deleteSelection_caretAtStartOfRange() {
        var f = TypingField(mobile, "138 0013 8000")
        f.select(2..<7)  // "8 001"
        f.backspace()
        check(f, "13|3 8000")
    }

    func testSeparatorAt_hole_formatChangeMidInput_reflows() {
        let before = try! Mask.compile(MaskSpec(.separatorAt([2, 5]), maxLength: 8))
        let after = try! Mask.compile(MaskSpec(.separatorAt([3, 6]), maxLength: 8))
        var f = TypingField(before)
        f.type("12345")
        check(f, "12 34 5|")
        let r = after.reflow(f.text, from: before, caret: f.selection.upperBound)
        XCTAssertEqual(marked(r), "123 45|")
    }

    func testSeparatorAt_hole_paste_filtersAndReports() {
        var f = TypingField(mobile)
        f.paste("tel: 138-0013-8000!")
        check(f, "138 0013 8000|")
        XCTAssertEqual(f.last?.rejected, "tel: --!")
    }

    // MARK: Character classes and a custom separator

    private let dashed = try! Mask.compile(MaskSpec(.separatorAt([3, 8]), separator: "-", maxLength: 11))

    func testCharacterClass_customSeparator_dashedPhone() {
        var f = TypingField(dashed)
        f.type("13800138000")
        check(f, "138-0013-8000|")
    }

    func testCharacterClass_typingTheSeparatorWhereItIsNotDue_isRefused() {
        var f = TypingField(dashed, "13|")
        f.type("-")
        check(f, "13|")
        XCTAssertEqual(f.last?.rejected, "-")
    }

    func testCharacterClass_typingTheSeparatorWhereItIsDue_stepsOverIt() {
        var f = TypingField(dashed, "138|")
        f.type("-")
        check(f, "138-|")
        f.type("0")
        check(f, "138-0|")
    }

    func testCharacterClass_characterOutsideTheClass_isRefused() {
        var f = TypingField(dashed, "138|")
        f.type("a")
        check(f, "138|")
        XCTAssertEqual(f.last?.rejected, "a")
    }

    func testCharacterClass_idCard6444_acceptsCheckCharacterX() {
        let id = try! Mask.compile(MaskSpec(.separatorAt([6, 11, 16]), accept: .digitsX, maxLength: 18))
        var f = TypingField(id)
        f.type("44052418800101001x")
        check(f, "440524 1880 0101 001X|")
    }

    func testCharacterClass_lettersOnly_andAnything() {
        var letters = TypingField(try! Mask.compile(MaskSpec(.groups([3, 3]), accept: .letters)))
        letters.type("ab1c")
        check(letters, "abc|")
        var any = TypingField(try! Mask.compile(MaskSpec(.groups([2, 2]), accept: .any, separator: "/")))
        any.type("a1?!")
        check(any, "a1/?!|")
    }

    func testCharacterClass_backspaceRightAfterSeparator_deletesItAndTheCharacterBefore() {
        var f = TypingField(dashed, "138-|0")
        f.backspace()
        check(f, "13|0")
    }

    // MARK: `#` patterns

    func testHashPattern_cardPattern_literalsAppearByThemselves() {
        let card = try! Mask.compile(MaskSpec(.pattern("#### #### #### ####")))
        var f = TypingField(card)
        f.type("41111111")
        check(f, "4111 1111|")
        f.type("1")
        check(f, "4111 1111 1|")
    }

    func testHashPattern_phonePattern_personNeverTypesLiterals() {
        let phone = try! Mask.compile(MaskSpec(.pattern("+1 (###) ###-####")))
        var f = TypingField(phone)
        f.type("5551234567")
        check(f, "+1 (555) 123-4567|")
        XCTAssertEqual(f.last?.value, "5551234567")
    }

    func testHashPattern_settingTextProgrammatically_appliesThePattern() {
        let phone = try! Mask.compile(MaskSpec(.pattern("+1 (###) ###-####")))
        let r = phone.format("555.123.4567")
        XCTAssertEqual(r.text, "+1 (555) 123-4567")
        XCTAssertEqual(r.value, "5551234567")
    }

    func testHashPattern_customSlotCharacterAndClass() {
        let plate = try! Mask.compile(MaskSpec(.pattern("@@-@@@"), slot: "@", accept: .alnum, letterCase: .upper))
        XCTAssertEqual(plate.format("ab1c2").text, "AB-1C2")
    }

    /// A Chinese mobile number as a `#` pattern, constrained by a regular expression.
    private func mobilePattern(_ regex: String) -> Mask {
        try! Mask.compile(MaskSpec(.pattern("### #### ####"), regex: regex))
    }

    func testHashPattern_regex_editThatBreaksItIsRefused_textAndCaretUnchanged() {
        let m = mobilePattern("1[3-9]\\d{9}")
        // Typing a 2 after the leading 1 can never match: refused and reported.
        var f = TypingField(m, "1|38 0013 8000")
        f.type("2")
        check(f, "1|38 0013 8000")
        XCTAssertEqual(f.last?.rejected, "2")
        XCTAssertEqual(f.last?.value, "13800138000")
        // A paste over a selection that would break it leaves the selection too.
        f.select(0..<1)
        f.paste("5")
        check(f, "[1]38 0013 8000")
        XCTAssertEqual(f.last?.rejected, "5")
        // A deletion that would break it changes nothing, and the caret stays where it was.
        f.select(1..<1)
        f.backspace()
        check(f, "1|38 0013 8000")
        // An edit that keeps it is taken.
        f.select(1..<2)
        f.paste("5")
        check(f, "15|8 0013 8000")
    }

    func testHashPattern_regex_newExpressionAdaptsTheExistingText() {
        let before = mobilePattern("1[3-9]\\d{9}")
        var f = TypingField(before)
        f.type("13800138000")
        check(f, "138 0013 8000|")
        // A new expression that allows only seven digits cuts what no longer fits.
        let after = mobilePattern("1[3-9]\\d{5}")
        let r = after.reflow(f.text, from: before, caret: f.selection.upperBound)
        XCTAssertEqual(marked(r), "138 0013|")
        XCTAssertEqual(r.value, "1380013")
        XCTAssertEqual(r.overflow, "8000")
        // One that rejects the second digit keeps only the start it still accepts; the caret
        // keeps its count of digits to its left as far as they remain.
        let strict = mobilePattern("1[5-9]\\d{9}")
        let s = strict.reflow(f.text, from: before, caret: 5)
        XCTAssertEqual(marked(s), "1|")
        XCTAssertEqual(s.overflow, "3800138000")
        // Formatting with the new expression (setting the text) adapts it the same way.
        XCTAssertEqual(after.format("13800138000").text, "138 0013")
    }

    // MARK: Bracket notation

    func testBracket_sevenPrefix_tenDigitValue() {
        let m = compiled("7 ([000]) [000] - [0000]")
        let r = m.format("9161234567")
        XCTAssertEqual(r.text, "7 (916) 123 - 4567")
        XCTAssertEqual(r.value, "9161234567")
        XCTAssertTrue(r.complete)
    }

    func testBracket_optionalTail_sixToTenDigits() {
        let m = compiled("7 ([000]) [000] - [9999]")
        XCTAssertTrue(m.format("916123").complete)
        XCTAssertEqual(m.format("916123").value, "916123")
        XCTAssertFalse(m.format("91612").complete)
        XCTAssertEqual(m.format("916123456789").value, "9161234567")
    }

    func testBracket_extractedSeven_sevenToElevenDigits() {
        let m = compiled("{7} ([000]) [000] - [9999]")
        var f = TypingField(m)
        f.type("916123")
        check(f, "7 (916) 123|")
        XCTAssertEqual(f.last?.value, "7916123")
        XCTAssertTrue(f.last!.complete)
        f.type("4567")
        XCTAssertEqual(f.last?.value, "79161234567")
        // A typed 7 where the {7} stands is consumed, not duplicated.
        XCTAssertEqual(m.format("79161234567").value, "79161234567")
    }

    func testBracket_sicNotationWithoutBrackets_isRefusedAndTheIntendedOneWorks() {
        XCTAssertThrowsError(try Mask.compile("(0000)/-(0000)/-(0000)/-(0000)")) { error in
            XCTAssertEqual((error as? MaskError)?.message, "the mask has no slot to fill")
        }
        let m = compiled("[0000]-[0000]-[0000]-[0000]")
        XCTAssertEqual(m.format("1234567812345678").value, "1234567812345678")
    }

    func testBracket_alnumWithExtractedLetter_fiveToNineCharacters() {
        // The mask holds 4 + {A} + 1 optional + 3 optional: 5 to 9 characters.
        let m = compiled("[____]{A}[-] [999]")
        // Lazily the {A} waits for the next key, so four characters are not yet complete...
        XCTAssertEqual(m.format("ab12").text, "ab12")
        XCTAssertFalse(m.format("ab12").complete)
        // ...and the A typed where it stands is consumed: five characters complete it.
        let short = m.format("ab12A")
        XCTAssertEqual(short.text, "ab12A")
        XCTAssertEqual(short.value, "ab12A")
        XCTAssertTrue(short.complete)
        let long = m.format("ab12c345")
        XCTAssertEqual(long.text, "ab12Ac 345")
        XCTAssertEqual(long.value, "ab12Ac345")
    }

    func testBracket_clearValueAndCompleteness_reportedAfterEveryKey() {
        var f = TypingField(compiled("7 ([000]) [000] - [0000]"))
        f.type("916123456")
        XCTAssertFalse(f.last!.complete)
        XCTAssertEqual(f.last?.problems, ["1 more digit needed"])
        f.type("7")
        XCTAssertTrue(f.last!.complete)
        XCTAssertEqual(f.last?.problems, [])
    }

    // MARK: The bank card that keeps the caret (Alipay, not WeChat)

    private let bankCard = try! Mask.compile(MaskSpec(.groups([4, 4, 4, 4, 4])))

    func testBankCard_alipayMidDeletion_caretStaysAndRightDigitGoesInAtOnce() {
        var f = TypingField(bankCard)
        f.type("6222020000001234567")
        check(f, "6222 0200 0000 1234 567|")
        f.select(7..<7)  // after "6222 02"
        f.backspace()
        check(f, "6222 0|000 0001 2345 67")
        f.type("3")
        check(f, "6222 03|00 0000 1234 567")
    }

    func testBankCard_caretLeftOfSpaceAfterDeletion_stepsBackOverIt() {
        var f = TypingField(bankCard, "6222 0|200 0000")
        f.backspace()
        // Four digits to the left: the caret sits after them, not after the space.
        check(f, "6222| 2000 000")
    }

    func testBankCard_lettersRefused_andTwentyDigitsAtMost() {
        var f = TypingField(bankCard, "6222 0200 0000 1234 5678|")
        f.type("9")
        check(f, "6222 0200 0000 1234 5678|")
        XCTAssertEqual(f.last?.overflow, "9")
        var g = TypingField(bankCard, "6222|")
        g.type("x")
        check(g, "6222|")
        XCTAssertEqual(g.last?.rejected, "x")
    }
}
