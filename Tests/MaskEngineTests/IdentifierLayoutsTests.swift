import XCTest

import MaskCatalog
@testable import MaskEngine

/// Identifier presets whose layout is more than stdnum's `format()` of one length: numbers stdnum pads with zeros,
/// and numbers of other presets behind a country prefix.
final class IdentifierLayoutsTests: XCTestCase {
    /// `keys` typed one by one into an empty field of `preset`, each at the caret.
    private func typed(_ keys: String, into preset: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> FieldResult
    {
        let mask = try Mask.compile(MaskSpec(.preset(preset)))
        var r = mask.format("")
        for key in keys {
            r = mask.apply(.insert(String(key), at: r.selection), to: r.text)
        }
        return r
    }

    func testSwissESR_typedShort_isGroupedFromTheRightWithoutStdnumsZeros() throws {
        let r = try typed("1878583", into: "ch.esr")
        XCTAssertEqual(r.text, "18 78583")
        XCTAssertEqual(r.value, "1878583")
        XCTAssertTrue(r.valid)
    }

    func testNorwegianAccount_ofSevenDigits_showsWithoutTheBankCodesZeros() throws {
        let r = try typed("1234566", into: "no.kontonr")
        XCTAssertEqual(r.text, "12.34566")
        XCTAssertTrue(r.valid)
    }

    func testEUVAT_invalidGermanNumber_saysTheGermanPresetsProblem() throws {
        let r = try typed("DE136695970", into: "eu.vat")
        XCTAssertEqual(r.text, "DE136695970")
        XCTAssertTrue(r.complete)
        XCTAssertFalse(r.valid)
        XCTAssertEqual(r.problems, ["check digit does not match"])
        XCTAssertTrue(try typed("DE136695976", into: "eu.vat").valid)
    }

    func testVATIN_EUPrefix_takesAMemberStatesEUVATNumber() throws {
        let r = try typed("EUATU13585627", into: "vatin")
        XCTAssertEqual(r.text, "EUATU13585627")
        XCTAssertTrue(r.valid)
    }

    func testFrenchRCS_typedWithItsSpaces_showsTheSIRENInThrees() throws {
        let r = try typed("RCS Nancy B 323159715", into: "fr.rcs")
        XCTAssertEqual(r.text, "RCS Nancy B 323 159 715")
        XCTAssertEqual(r.value, "RCS Nancy B 323159715")
        XCTAssertTrue(r.valid)
        XCTAssertFalse(try typed("RCS Nancy B 323159716", into: "fr.rcs").valid)
    }

    func testRomanianCF_withAndWithoutRO_isTheCUIsCheck() throws {
        XCTAssertTrue(try typed("RO18547290", into: "ro.cf").valid)
        XCTAssertTrue(try typed("18547290", into: "ro.cf").valid)
        XCTAssertFalse(try typed("18547291", into: "ro.cf").valid)
    }
}
