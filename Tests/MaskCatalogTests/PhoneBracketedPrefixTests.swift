import FieldTyping
import XCTest
@testable import MaskCatalog
@testable import MaskEngine
import TestSupport

/// The national prefix written in brackets after a calling code (`+44 (0) 20 7946 0958`) is dropped
/// as libphonenumber's `parse` drops it, the same typed key by key as pasted.
final class PhoneBracketedPrefixTests: XCTestCase {
    private func phone(_ region: String? = nil) -> Mask {
        try! Mask.compile(MaskSpec(.preset("phone"), region: region))
    }

    func testPastedNumberLosesItsBracketedZero() {
        var field = TypingField(phone("GB"))
        let result = field.paste("+44 (0) 20-7946 0958 call")
        XCTAssertEqual(field.marked, "+44 20 7946 0958|")
        XCTAssertEqual(result.value, "+442079460958")
        XCTAssertEqual(result.rejected, "call")
        XCTAssertTrue(result.valid)
    }

    func testEverySpellingTypedKeyByKeyEqualsThePaste() {
        for region in ["GB", "US", nil] as [String?] {
            for spelling in [
                "+44 (0) 2079460958", "+44 (0 ) 2079460958", "+44 ( 0 ) 2079460958", "+44(0)20 7946 0958",
                "+44 0) 2079460958", "+44 （0） 2079460958",
            ] {
                var typed = TypingField(phone(region))
                typed.type(spelling)
                var pasted = TypingField(phone(region))
                pasted.paste(spelling)
                XCTAssertEqual(typed.marked, "+44 20 7946 0958|", "\(spelling) typed (\(region ?? "intl"))")
                XCTAssertEqual(pasted.marked, "+44 20 7946 0958|", "\(spelling) pasted (\(region ?? "intl"))")
            }
        }
    }

    func testTheClosingBracketDropsThePrefixAsItIsTyped() {
        var field = TypingField(phone("GB"))
        let steps = ["+", "4", "4", " ", "(", "0", ")", " ", "2", "0"].map { key -> String in
            field.type(key)
            return field.marked
        }
        XCTAssertEqual(
            steps, ["+|", "+4|", "+44 |", "+44 |", "+44 |", "+44 0|", "+44 |", "+44 |", "+44 2|", "+44 20|"])
    }

    func testOtherDigitsInBracketsStay() {
        // An area code in brackets, a prefix not yet closed, a digit after the prefix: nothing to drop.
        XCTAssertEqual(phone("GB").format("+44 (020) 7946 0958").text, "+4402079460958")
        XCTAssertEqual(phone("GB").format("+44 (0 20 7946 0958").text, "+4402079460958")
        XCTAssertEqual(phone().format("+7 (812) 123-45-67").text, "+7 812 123-45-67")
        // No calling code: a national number's brackets are its own.
        XCTAssertEqual(phone("GB").format("(0) 20 7946 0958").text, "020 7946 0958")
        XCTAssertEqual(phone("US").format("(201) 555-0123").text, "(201) 555-0123")
    }

    func testThePrefixOfEachRegionAndTheInternationalPrefix() {
        XCTAssertEqual(phone().format("+7 (8) 495 123-45-67").text, "+7 495 123-45-67")
        XCTAssertEqual(phone().format("+36 (06) 1 234 5678").text, "+36 1 234 5678")
        XCTAssertEqual(phone().format("+1 (1) 201 555 0123").text, "+1 201-555-0123")
        XCTAssertEqual(phone("GB").format("0044 (0) 20 7946 0958").text, "00 44 20 7946 0958")
        // Italy has no national prefix: its numbers keep the 0, as `parse` keeps it.
        XCTAssertEqual(phone().format("+39 (0) 6 6982 1234").text, "+39 06 6982 1234")
    }

    func testAClosingBracketTypedAfterThePrefixInAFullNumber() {
        var field = TypingField(phone("GB"), "+440|2079460958")
        field.type(")")
        XCTAssertEqual(field.marked, "+44| 20 7946 0958")
    }

    /// For every calling code: `(prefix)` after it reads as no prefix where the code's regions have
    /// one, and as its digits where they have none; typed or pasted alike, and formatting stays idempotent.
    func testEveryCallingCode() throws {
        let mask = phone()
        for (code, regions) in PhoneMetadata.index.regionsForCode.sorted(by: { $0.key < $1.key })
        where regions.first != "001" {
            let prefix = try XCTUnwrap(PhoneMetadata.mainRegion(forCallingCode: code)).nationalPrefix
            let bracketed = "+\(code) (\(prefix.isEmpty ? "0" : prefix)) 2345678"
            let expected = mask.format(prefix.isEmpty ? "+\(code) 02345678" : "+\(code) 2345678").text
            var typed = TypingField(mask)
            typed.type(bracketed)
            let pasted = mask.format(bracketed)
            XCTAssertEqual(pasted.text, expected, bracketed)
            XCTAssertEqual(typed.text, expected, bracketed + " typed")
            XCTAssertEqual(mask.format(pasted.text).text, pasted.text, bracketed)
        }
    }

    /// Random texts mixing calling codes, bracketed prefixes and digits: typed key by key they give
    /// the paste's text, and formatting that text again changes nothing.
    func testRandomTexts_typedEqualsPastedAndIdempotent() {
        var rng = SeededRandom(seed: 44_020)
        let pieces = [
            "+44", "+7", "+36", "+1", "+39", "0044", "00", "(0)", "( 0 )", "(06)", "(8)", "(1)", "(", ")",
            "0", "1", "6", "8", "20", "7946", "0958", " ", "-", "）",
        ]
        for region in [nil, "GB", "US", "RU", "HU", "IT"] as [String?] {
            let mask = phone(region)
            for _ in 0..<150 {
                let text = (0..<rng.int(1..<8)).map { _ in rng.pick(pieces) }.joined()
                var typed = TypingField(mask)
                typed.type(text)
                let pasted = mask.format(text)
                XCTAssertEqual(typed.text, pasted.text, "\(text) (\(region ?? "intl"))")
                XCTAssertEqual(mask.format(pasted.text).text, pasted.text, "\(text) (\(region ?? "intl"))")
            }
        }
    }
}
