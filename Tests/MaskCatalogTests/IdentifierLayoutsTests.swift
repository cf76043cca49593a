import XCTest

import MaskCatalog
@testable import MaskEngine

/// Identifier presets whose layout is more than stdnum's `format()` of one length: numbers stdnum pads with zeros,
/// numbers of other presets behind a country prefix, and the German register number's court of any length.
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

    func testGermanRegisterNumber_courtFirst_isShownAsTypedAndValid() throws {
        let r = try typed("Frankfurt/Oder GnR 11223", into: "de.handelsregisternummer")
        XCTAssertEqual(r.text, "Frankfurt/Oder GnR 11223")
        XCTAssertEqual(r.value, "Frankfurt/Oder GnR 11223")
        XCTAssertTrue(r.complete)
        XCTAssertTrue(r.valid)
        XCTAssertEqual(r.problems, [])
    }

    func testGermanRegisterNumber_registryFirstInLowerCase_isValid() throws {
        let r = try typed("hrb 44123, aachen", into: "de.handelsregisternummer")
        XCTAssertEqual(r.text, "hrb 44123, aachen")
        XCTAssertTrue(r.valid)
        // A qualifier after the number, in lower case too.
        XCTAssertTrue(try typed("Aachen HRA 11223 ab", into: "de.handelsregisternummer").valid)
    }

    func testGermanRegisterNumber_umlaut_isComparedAsItsVowel() throws {
        let r = try typed("Würzburg HRB 1", into: "de.handelsregisternummer")
        XCTAssertEqual(r.text, "Würzburg HRB 1")
        XCTAssertTrue(r.valid)
        XCTAssertTrue(try typed("Wurzburg HRB 1", into: "de.handelsregisternummer").valid)
        XCTAssertTrue(try typed("WÜRZBURG hrb 1", into: "de.handelsregisternummer").valid)
    }

    func testGermanRegisterNumber_unknownCourtOrRegister_isInvalidWithItsProblem() throws {
        let problem = "not a register court with HRA, HRB, PR, GnR or VR and a number"
        for text in ["Ulmen HRB 5", "Aachen HRC 44123", "Aachen HRB 1234567", "Aachen HRB 0123"] {
            let r = try typed(text, into: "de.handelsregisternummer")
            XCTAssertEqual(r.text, text)
            XCTAssertTrue(r.complete)
            XCTAssertFalse(r.valid, text)
            XCTAssertEqual(r.problems, [problem], text)
        }
    }

    func testGermanRegisterNumber_registryFirst_readsAShortFirstWordAsTheQualifier() throws {
        // As stdnum reads it: `Bad` is the number's qualifier, and `Hersfeld` no court.
        XCTAssertFalse(try typed("HRB 5 Bad Hersfeld", into: "de.handelsregisternummer").valid)
        XCTAssertTrue(try typed("Bad Hersfeld HRB 5", into: "de.handelsregisternummer").valid)
        XCTAssertTrue(try typed("HRB 5 X Bad Hersfeld", into: "de.handelsregisternummer").valid)
    }

    func testGermanRegisterNumber_characterNoCourtHas_isRefused() throws {
        // stdnum would ignore it in a court's name; the preset takes only the characters the courts' names hold.
        let r = try typed("Aachen-", into: "de.handelsregisternummer")
        XCTAssertEqual(r.text, "Aachen")
        XCTAssertEqual(r.rejected, "-")
        XCTAssertFalse(r.valid)
    }

    func testRomanianCF_withAndWithoutRO_isTheCUIsCheck() throws {
        XCTAssertTrue(try typed("RO18547290", into: "ro.cf").valid)
        XCTAssertTrue(try typed("18547290", into: "ro.cf").valid)
        XCTAssertFalse(try typed("18547291", into: "ro.cf").valid)
    }

    func testGS1128_typedWithParentheses_showsTheCompactFormValid() throws {
        let r = try typed("(01)38425876095074(17)181119(37)1", into: "gs1_128")
        XCTAssertEqual(r.text, "013842587609507417181119371")
        XCTAssertEqual(r.value, "013842587609507417181119371")
        XCTAssertTrue(r.valid)
        XCTAssertEqual(r.problems, [])
    }

    func testGS1128_wrongGTINCheckDigit_isInvalid() throws {
        let r = try typed("0138425876095075", into: "gs1_128")
        XCTAssertEqual(r.text, "0138425876095075")
        XCTAssertFalse(r.valid)
        XCTAssertEqual(r.problems, ["an application identifier is unknown or its value is not valid"])
    }

    func testGS1128_dates_dayZeroIsTheMonthsLastAndMonth13IsInvalid() throws {
        XCTAssertTrue(try typed("013842587609507417240200", into: "gs1_128").valid)
        XCTAssertFalse(try typed("013842587609507417241301", into: "gs1_128").valid)
        // Seven characters of a date: strptime's format ends in a stray %.
        XCTAssertTrue(try typed("17250315", into: "gs1_128").valid)
        XCTAssertFalse(try typed("1725031", into: "gs1_128").valid)
    }

    func testGS1128_variableFieldPaddedWithSpaces_endsWhereItsFormatEnds() throws {
        let r = try typed("10abc                 17181119", into: "gs1_128")
        XCTAssertEqual(r.text, "10abc                 17181119")
        XCTAssertTrue(r.valid)
        XCTAssertFalse(try typed("10abc                 17181119 ", into: "gs1_128").valid)
    }

    func testGS1128_IBAN_isCheckedWithTheCountrysAccount() throws {
        XCTAssertTrue(try typed("8007gb82 west 1234 5698 7654 32", into: "gs1_128").valid)
        XCTAssertTrue(try typed("8007BE32123456789002", into: "gs1_128").valid)
        // The IBAN's check digits match, the Belgian account's do not.
        XCTAssertFalse(try typed("8007BE05123456789003", into: "gs1_128").valid)
    }

    func testGS1128_decimalsAndIntegers_readAsPythonReadsThem() throws {
        XCTAssertTrue(try typed("3103001234", into: "gs1_128").valid)
        XCTAssertFalse(try typed("310312a456", into: "gs1_128").valid)
        XCTAssertTrue(try typed("3100NaN", into: "gs1_128").valid)
        XCTAssertTrue(try typed("37 +1_000", into: "gs1_128").valid)
        XCTAssertFalse(try typed("725020250101", into: "gs1_128").valid)
    }
}
