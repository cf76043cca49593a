// maskd tests: the one-shot commands `maskd format` and `maskd edit`, run as the built binary.
import Foundation
import JSON
import XCTest

final class CommandLineTests: XCTestCase {
    /// The first line of a successful run's output (the text with the caret marked).
    private func firstLine(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try runMaskd(arguments)
        XCTAssertEqual(result.code, 0, result.err, file: file, line: line)
        return String(result.out.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }

    func testPresets_listsPhoneWithItsRegions_andFormatTakesIt() throws {
        let result = try runMaskd(["presets"])
        XCTAssertEqual(result.code, 0, result.err)
        let lines = result.out.split(separator: "\n")
        XCTAssertTrue(lines.first?.hasPrefix("phone ") ?? false, result.out)
        XCTAssertTrue(lines.count > 1 && lines[1].contains("region: AC AD AE") && lines[1].contains(" GB "), result.out)
        XCTAssertEqual(
            try firstLine(["format", "--mask", #"{"preset": "phone", "region": "GB"}"#, "01212345678"]),
            "0121 234 5678|")
        XCTAssertEqual(
            try firstLine(["format", "--mask", #"{"preset": "phone"}"#, "441212345678"]), "+44 121 234 5678|")
    }

    func testPresets_listsTheGermanRegisterNumber_andFormatKeepsItAsTyped() throws {
        let result = try runMaskd(["presets"])
        XCTAssertEqual(result.code, 0, result.err)
        XCTAssertTrue(
            result.out.split(separator: "\n").contains {
                $0.hasPrefix("de.handelsregisternummer ") && $0.hasSuffix("  Aachen HRA 11223")
            }, result.out)
        XCTAssertEqual(
            try firstLine(["format", "--mask", #"{"preset": "de.handelsregisternummer"}"#, "HRB 44123 Aachen"]),
            "HRB 44123 Aachen|")
    }

    func testFormat_notationStartingWithABrace_isNotation() throws {
        XCTAssertEqual(
            try firstLine(["format", "--mask", "{7} ([000]) [000] - [9999]", "1234567"]), "7 (123) 456 - 7|")
        XCTAssertEqual(try firstLine(["format", "--mask", "{+}[00]", "12"]), "+12|")
        // A JSON object is still a MaskSpec object, leading blanks or not.
        XCTAssertEqual(try firstLine(["format", "--mask", #"{"groups": [2, 2]}"#, "1234"]), "12 34|")
        XCTAssertEqual(try firstLine(["format", "--mask", #" {"groups": [2, 2]}"#, "1234"]), "12 34|")
    }

    func testFormat_maskNeitherJSONNorNotation_namesBothReadings() throws {
        let result = try runMaskd(["format", "--mask", #"{"groups": [2"#, "12"])
        XCTAssertEqual(result.code, 2)
        XCTAssertEqual(result.out, "")
        XCTAssertTrue(result.err.contains("--mask is neither a JSON object ("), result.err)
        XCTAssertTrue(result.err.contains(") nor bracket notation ("), result.err)
        // A JSON object that is no MaskSpec is refused as one, naming the key.
        let unknown = try runMaskd(["format", "--mask", #"{"colour": "red"}"#, "12"])
        XCTAssertEqual(unknown.code, 2)
        XCTAssertTrue(unknown.err.contains("colour"), unknown.err)
    }

    /// Protocol/engine.md, deleting: over a selection of literals only, a forward delete removes the nearest entered
    /// character after it (the vector "selection over only a separator, forward delete"), a backspace the one before.
    func testEdit_deleteOverASelectionOfLiterals_removesTheCharacterAfterIt() throws {
        let card = ["edit", "--mask", "[0000] [0000]", "--text", "4111 1211", "--selection", "4:5"]
        XCTAssertEqual(try firstLine(card + ["--delete"]), "4111| 211")
        XCTAssertEqual(try firstLine(card + ["--backspace"]), "411|1 211")
        let phone = ["edit", "--mask", "+1 ([000]) [000]-[0000]", "--text", "+1 (555) 123", "--selection", "7:9"]
        XCTAssertEqual(try firstLine(phone + ["--delete"]), "+1 (555|) 23")
        // A selection holding entered characters removes just them, whichever the key.
        let digits = ["edit", "--mask", "[0000] [0000]", "--text", "4111 1211", "--selection", "1:3"]
        XCTAssertEqual(try firstLine(digits + ["--delete"]), "4|112 11")
        XCTAssertEqual(try firstLine(digits + ["--backspace"]), "4|112 11")
        // A collapsed caret: the character after it.
        XCTAssertEqual(
            try firstLine([
                "edit", "--mask", "[0000] [0000]", "--text", "4111 1211", "--selection", "4:4",
                "--delete",
            ]), "4111| 211")
    }

    /// `--json` prints the `maskd/apply` result object on one line, members in the documented order.
    func testFormatAndEdit_json_isTheApplyResultObject() throws {
        let formatted = try runMaskd(["format", "--mask", "+1 ([000]) [000]-[0000]", "--caret", "3", "--json", "5551"])
        XCTAssertEqual(formatted.code, 0, formatted.err)
        XCTAssertEqual(formatted.err, "")
        XCTAssertTrue(formatted.out.hasSuffix("}\n"), formatted.out)
        XCTAssertEqual(formatted.out.filter { $0 == "\n" }.count, 1, formatted.out)
        let json = try JSONValue.parse(formatted.out.trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertEqual(
            json.objectValue?.keys,
            [
                "text", "caret", "selection", "value", "complete", "valid",
                "problems", "next", "placeholder", "mask", "rejected",
                "overflow", "edits",
            ])
        XCTAssertEqual(json["text"], "+1 (555) 1")
        // The caret after `555` moves forward over the literals that appear at its place.
        XCTAssertEqual(json["caret"], 9)
        XCTAssertEqual(json["selection"], ["start": 9, "end": 9])
        XCTAssertEqual(json["value"], "5551")
        XCTAssertEqual(json["complete"], false)
        XCTAssertEqual(json["valid"], false)
        XCTAssertEqual(json["problems"], ["6 more digits needed"])
        XCTAssertEqual(json["next"], "digit")
        XCTAssertEqual(json["placeholder"], "__-____")
        XCTAssertEqual(json["mask"], "+1 ([000]) [000]-[0000]")
        XCTAssertEqual(json["rejected"], "")
        XCTAssertEqual(json["overflow"], "")
        XCTAssertEqual(json["edits"], [["start": 0, "end": 0, "text": "+1 ("], ["start": 3, "end": 3, "text": ") "]])
        // A card preset's result has its brand, after the mask.
        let card = try runMaskd(["format", "--mask", #"{"preset": "card"}"#, "--json", "4111"])
        let cardJSON = try JSONValue.parse(card.out.trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertEqual(cardJSON["brand"], "visa")
        let keys = cardJSON.objectValue?.keys ?? []
        XCTAssertEqual(keys.firstIndex(of: "brand"), keys.firstIndex(of: "mask").map { $0 + 1 }, "\(keys)")
    }
}
