// maskd tests: `maskd format --tagged`, lines that each name their own mask before a tab.
import Foundation
import XCTest

final class FormatTaggedTests: XCTestCase {
    func testTaggedLines_eachReadWithItsOwnMask_tagKeptBeforeTheText() throws {
        let input =
            "br.cpf\t39053344705\nus.ssn\t536904399\r\n{\"preset\": \"phone\", \"region\": \"US\"}\t2015550123\n"
            + "iban\tGB82WEST12345698765432\nbr.cpf\t390533447"
        let r = try runMaskd(["format", "--tagged"], input: Array(input.utf8))
        XCTAssertEqual(
            String(decoding: r.out, as: UTF8.self),
            "br.cpf\t390.533.447-05\nus.ssn\t536-90-4399\r\n{\"preset\": \"phone\", \"region\": \"US\"}\t(201) 555-0123\n"
                + "iban\tGB82 WEST 1234 5698 7654 32\nbr.cpf\t390.533.447")
        XCTAssertEqual(r.code, 0)
        XCTAssertEqual(r.err, "")
    }

    func testTaggedLines_withoutAMask_areReportedAndCopied_andCheckReportsInvalidOnes() throws {
        let input =
            "br.cpf\t39053344705\nxx.yy\t12\nno tab here\n{\"preset\": 7}\t1\nbr.cpf\t39053344706\n"
            + "br.cpf\t3905\n\n\t12\n\t12\n"
        let r = try runMaskd(["format", "--tagged", "--check"], input: Array(input.utf8))
        XCTAssertEqual(
            String(decoding: r.out, as: UTF8.self),
            "br.cpf\t390.533.447-05\nxx.yy\t12\nno tab here\n{\"preset\": 7}\t1\nbr.cpf\t390.533.447-06\n"
                + "br.cpf\t390.5\n\n\t12\n\t12\n")
        XCTAssertEqual(r.code, 1)
        XCTAssertEqual(
            r.err,
            """
            line 2: mask 'xx.yy': unknown preset 'xx.yy' ('maskd presets' lists them), copied unformatted
            line 3: no tab between a mask and the text, copied unformatted
            line 4: mask '{"preset": 7}': mask.preset: expected a string, got an integer, copied unformatted
            line 5: check digit does not match
            line 6: 7 more digits needed
            line 8: mask '': unknown preset '' ('maskd presets' lists them), copied unformatted
            line 9: mask '': unknown preset '' ('maskd presets' lists them), copied unformatted

            """)
    }

    func testTaggedLines_json_andValue() throws {
        let input = Array("br.cpf\t39053344705\nxx\t1\n\n".utf8)
        let json = try runMaskd(["format", "--tagged", "--json"], input: input)
        let lines = String(decoding: json.out, as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3)
        XCTAssertTrue(lines[0].hasPrefix(#"{"line":1,"tag":"br.cpf","text":"390.533.447-05","#), lines[0])
        XCTAssertEqual(lines[1], #"{"line":2,"error":"mask 'xx': unknown preset 'xx' ('maskd presets' lists them)"}"#)
        XCTAssertEqual(lines[2], #"{"line":3,"error":"an empty line has no mask"}"#)
        XCTAssertEqual(json.err, "line 2: mask 'xx': unknown preset 'xx' ('maskd presets' lists them)\n")
        let value = try runMaskd(
            ["format", "--tagged", "--output", "value"], input: Array("us.ssn\t536-90-4399\n".utf8))
        XCTAssertEqual(String(decoding: value.out, as: UTF8.self), "us.ssn\t536904399\n")
    }

    /// Mixed identifiers in many blocks: every thread compiles the masks it meets, and writes the bytes one thread
    /// writes.
    func testTaggedLines_manyThreads_sameBytesAsOne() throws {
        let numbers = [
            ("br.cpf", "39053344705"), ("de.idnr", "36574261809"), ("fr.rcs", "RCS Nancy B 323159715"),
            ("iso11649", "RF18539007547034"), ("us.ssn", "536904399"), ("eu.vat", "DE136695976"), ("xx", "1"),
        ]
        var random = SystemRandomNumberGenerator()
        var input = ""
        for _ in 0..<40_000 {
            let (tag, number) = numbers.randomElement(using: &random)!
            input += "\(tag)\t\(number.dropLast(Int.random(in: 0...1, using: &random)))\n"
        }
        let one = try runMaskd(["format", "--tagged", "--check", "--jobs", "1"], input: Array(input.utf8))
        let two = try runMaskd(["format", "--tagged", "--check", "--jobs", "2"], input: Array(input.utf8))
        XCTAssertEqual(one.code, 1)
        XCTAssertTrue(one.out == two.out, "--jobs 2 wrote other bytes")
        XCTAssertEqual(one.err, two.err)
        XCTAssertEqual(String(decoding: one.out, as: UTF8.self).split(separator: "\n").count, 40_000)
    }

    func testTagged_refusesAMaskATextOrAPhoneForm() throws {
        for (arguments, message) in [
            (["--mask", "[00]"], "--tagged reads each line's mask from the line: give no --mask"),
            (["12"], "--tagged is for lines on standard input (no TEXT argument)"),
            (["--output", "e164"], "--tagged takes --output text or value (a phone form is for --mask phone)"),
        ] {
            let r = try runMaskd(["format", "--tagged"] + arguments)
            XCTAssertEqual(r.code, 2, "\(arguments)")
            XCTAssertTrue(r.err.contains(message), "\(arguments): \(r.err)")
        }
    }
}
