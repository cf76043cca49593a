import FieldTyping
import XCTest
import MaskCatalog
@testable import MaskEngine

/// A deletion that changes nothing (nothing to delete, or the `regex` refuses it) leaves a collapsed
/// caret where `Protocol/engine.md` puts it, and the text as it was.
final class NoOpDeletionCaretTests: XCTestCase {
    private let phone = try! Mask.compile(MaskSpec(.preset("phone.us")))

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
}
