// maskd tests: `maskd format --output`, the value and libphonenumber's forms of each line, run as the built binary.
import Foundation
import XCTest

final class FormatOutputTests: XCTestCase {
    private let us = #"{"preset": "phone", "region": "US"}"#

    private func format(_ input: String, _ options: [String], mask: String) throws -> (
        code: Int32, out: String, err: String
    ) {
        let result = try runMaskd(["format", "--mask", mask] + options, input: Array(input.utf8))
        return (result.code, String(decoding: result.out, as: UTF8.self), result.err)
    }

    func testE164_messySpellingsOfOneNumber_oneFormEach() throws {
        let input = "(201) 555-0123\n201.555.0123\r\n+1 201 555 0123\n1 (201) 555-0123\n201-555-0123 ext 45\n"
        let result = try format(input, ["--output", "e164"], mask: us)
        XCTAssertEqual(result.code, 0, result.err)
        XCTAssertEqual(result.out, "+12015550123\n+12015550123\r\n+12015550123\n+12015550123\n+12015550123\n")
        XCTAssertEqual(result.err, "")
    }

    func testNoNumber_emptyLineReported_exit1OnlyWithCheck() throws {
        let input = "hello\n(201) 555-0123\n555\n"
        let plain = try format(input, ["--output", "e164"], mask: us)
        XCTAssertEqual(plain.code, 0)
        XCTAssertEqual(plain.out, "\n+12015550123\n\n")
        XCTAssertEqual(
            plain.err,
            "line 1: no phone number (no digits), written as an empty line\n"
                + "line 3: no phone number (too short), written as an empty line\n")
        let checked = try format(input, ["--output", "e164", "--check"], mask: us)
        XCTAssertEqual(checked.code, 1)
        XCTAssertEqual(checked.out, plain.out)
        XCTAssertEqual(checked.err, plain.err)
    }

    func testEveryForm_withAnExtension() throws {
        let line = "2015550123 ext 45\n"
        for (form, expected) in [
            ("rfc3966", "tel:+1-201-555-0123;ext=45"), ("national", "(201) 555-0123 ext. 45"),
            ("international", "+1 201-555-0123 ext. 45"), ("value", "2015550123x45"),
            ("text", "(201) 555-0123 ext. 45"),
        ] {
            let result = try format(line, ["--output", form], mask: us)
            XCTAssertEqual(result.out, expected + "\n", form)
        }
        let gb = try format(
            "0121 234 5678 x45\n", ["--output", "international"], mask: #"{"preset": "phone", "region": "GB"}"#)
        XCTAssertEqual(gb.out, "+44 121 234 5678 x45\n")
    }

    func testValue_anyMask_andOneText() throws {
        XCTAssertEqual(
            try format("20240229\n2024-3-15\n", ["--output", "value"], mask: #"{"preset": "date"}"#).out,
            "2024-02-29\n2024-03-15\n")
        let one = try runMaskd(["format", "--mask", us, "--output", "e164", "201.555.0123"], input: [])
        XCTAssertEqual(String(decoding: one.out, as: UTF8.self), "+12015550123\n")
        XCTAssertEqual(one.code, 0)
    }

    func testBadOutput_exit2_nothingRead() throws {
        let date = try format("20240229\n", ["--output", "e164"], mask: #"{"preset": "date"}"#)
        XCTAssertEqual(date.code, 2)
        XCTAssertEqual(date.out, "")
        XCTAssertTrue(date.err.contains("--output e164 is for the phone preset"), date.err)
        let bogus = try format("1\n", ["--output", "e.164"], mask: us)
        XCTAssertEqual(bogus.code, 2)
        XCTAssertTrue(
            bogus.err.contains("--output takes one of text, value, e164, rfc3966, national, international"), bogus.err)
        let both = try format("1\n", ["--output", "e164", "--json"], mask: us)
        XCTAssertEqual(both.code, 2)
        XCTAssertTrue(both.err.contains("--output and --json do not go together"), both.err)
    }
}
