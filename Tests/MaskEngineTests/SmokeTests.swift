import FieldTyping
import XCTest
@testable import MaskEngine

final class SmokeTests: XCTestCase {
    func testPhoneTyping() {
        var f = TypingField(compiled("+1 ([000]) [000]-[0000]"))
        f.type("5"); check(f, "+1 (5|")
        f.type("55"); check(f, "+1 (555|")
        f.type("1"); check(f, "+1 (555) 1|")
        f.type("234567"); check(f, "+1 (555) 123-4567|")
        f.type("8"); check(f, "+1 (555) 123-4567|")
        XCTAssertEqual(f.last?.overflow, "8")
        XCTAssertEqual(f.last?.value, "5551234567")
        XCTAssertEqual(f.last?.complete, true)
    }

    func testFormat() {
        let m = compiled("+1 ([000]) [000]-[0000]")
        XCTAssertEqual(marked(m.format("15551234567")), "+1 (555) 123-4567|")
        XCTAssertEqual(marked(m.format("5551234567", selection: 0..<0)), "+1 (|555) 123-4567")
        let d = compiled("[00]{.}[00]{.}[0000]")
        XCTAssertEqual(marked(d.format("1111", selection: 2..<2)), "11.|11")
    }
}
