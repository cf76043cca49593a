import FieldTyping
import XCTest
import MaskCatalog
@testable import MaskEngine

/// Bounds that keep one keystroke cheap whatever is pasted.
final class LimitTests: XCTestCase {
    func testEllipsisField_holdsAtMost4096Characters_restIsOverflow() {
        let mask = compiled("[0…]")
        let pasted = String(repeating: "7", count: 5_000)
        let r = mask.apply(.insert(pasted, at: 0..<0), to: "")
        XCTAssertEqual(r.text.count, Program.maximumCells)
        XCTAssertEqual(r.overflow.count, 5_000 - Program.maximumCells)
        XCTAssertEqual(r.caret, Program.maximumCells)
    }

    func testRegexFormat_cutsALongValueToItsLongestViableStart() throws {
        let mask = try Mask.compile(MaskSpec(.notation("[0…]"), regex: "(12)*"))
        let r = mask.format(String(repeating: "12", count: 1_000) + "3" + String(repeating: "12", count: 500))
        XCTAssertEqual(r.text, String(repeating: "12", count: 1_000))
        XCTAssertEqual(r.overflow.count, 1_001)
    }

    func testMaskOfTooManyElements_isRefusedWithAnOffset() {
        XCTAssertThrowsError(try Mask.compile(String(repeating: "[0]-", count: 3_000))) { error in
            let e = error as! MaskError
            XCTAssertTrue(e.message.hasPrefix("the mask is too long"), e.message)
            XCTAssertNotNil(e.offset)
        }
    }
}
