import XCTest
@testable import MaskEngine

/// Defects found in review, each as what a person sees: no-op deletions and the IBAN's letters.
final class ReviewFixTests: XCTestCase {
    private let phone = try! Mask.compile(MaskSpec(.preset("phone.us")))
    private let iban = try! Mask.compile(MaskSpec(.preset("iban")))

    // MARK: A deletion that changes nothing leaves a collapsed caret

    func testBackspaceRightAfterTheLeadingLiterals_changesNothingAndKeepsTheCaret() {
        var f = TypingField(phone, "+1 (|555) 123-4567")
        let r = f.backspace()
        check(f, "+1 (|555) 123-4567")
        XCTAssertEqual(r.rejected, "")
        XCTAssertEqual(r.value, "5551234567")
        // Again: still nothing to delete, still no selection.
        f.backspace()
        check(f, "+1 (|555) 123-4567")
    }

    func testBackspaceInsideTheLeadingLiterals_caretAtTheFirstSlot() {
        var f = TypingField(phone, "+1 |(555) 123-4567")
        f.backspace()
        check(f, "+1 (|555) 123-4567")
    }

    func testBackspaceOverASelectionOfLeadingLiterals_collapsesAtTheFirstSlot() {
        var f = TypingField(phone, "+1 (555) 123-4567")
        f.select(0..<4)
        f.backspace()
        check(f, "+1 (|555) 123-4567")
    }

    func testForwardDeleteWithNothingAfter_keepsTheCaret() {
        let eager = try! Mask.compile(MaskSpec(.notation("[00]-[00]"), eager: true))
        var f = TypingField(eager, "12-|")
        f.forwardDelete()
        check(f, "12-|")
    }

    func testDeletionTheRegexRefuses_keepsTheCaretCollapsed() {
        let m = try! Mask.compile(MaskSpec(.notation("[000000]"), regex: "12\\d*"))
        var f = TypingField(m, "1|23")
        f.backspace()
        check(f, "1|23")
        var g = TypingField(m, "|123")
        g.forwardDelete()
        check(g, "|123")
    }

    // MARK: The IBAN takes ASCII letters and digits only (ISO 13616)

    func testIBAN_nonASCIILettersAreRejected() {
        var f = TypingField(iban, "DE89 3704|")
        f.type("é")
        check(f, "DE89 3704|")
        XCTAssertEqual(f.last?.rejected, "é")
        f.type("ß")
        check(f, "DE89 3704|")
        XCTAssertEqual(f.last?.rejected, "ß")
        f.type("x")
        check(f, "DE89 3704 X|")
    }

    func testIBAN_countryLettersMustBeASCII() {
        var f = TypingField(iban)
        f.type("é")
        check(f, "|")
        XCTAssertEqual(f.last?.rejected, "é")
        let pasted = f.paste("dÉe89 3704 À00")
        check(f, "DE89 3704 00|")
        XCTAssertEqual(pasted.rejected, "ÉÀ")
    }

    func testIBAN_formattingDropsNonASCIILetters() {
        let r = iban.format("GB82 WÉST 1234 5698 7654 32")
        XCTAssertEqual(r.text, iban.format("GB82 WST 1234 5698 7654 32").text)
        XCTAssertTrue(r.rejected.hasPrefix("É"), r.rejected)
    }
}
