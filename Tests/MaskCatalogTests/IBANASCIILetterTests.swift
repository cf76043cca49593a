import FieldTyping
import XCTest
import MaskCatalog
@testable import MaskEngine

/// The IBAN takes ASCII letters and digits only (ISO 13616): other letters are rejected, typed,
/// pasted or formatted.
final class IBANASCIILetterTests: XCTestCase {
    private let iban = try! Mask.compile(MaskSpec(.preset("iban")))

    func testIBAN_nonASCIILettersAreRejected() {
        // A GB IBAN's bank code is four letters (its BBAN layout): ASCII ones only.
        var f = TypingField(iban, "GB82|")
        f.type("é")
        check(f, "GB82|")
        XCTAssertEqual(f.last?.rejected, "é")
        f.type("ß")
        check(f, "GB82|")
        XCTAssertEqual(f.last?.rejected, "ß")
        f.type("x")
        check(f, "GB82 X|")
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
