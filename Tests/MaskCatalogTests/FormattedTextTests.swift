import FieldTyping
import Foundation
import TestSupport
import XCTest

import MaskCatalog
@testable import MaskEngine

/// `Mask.formatted` reads a text without the caret, the cuts and the placeholder: its text and verdict must be
/// `format`'s, for every preset and for masks of every kind, over numbers as typed, as shown, cut short, doubled
/// and mutated, and over random texts in and out of ASCII.
final class FormattedTextTests: XCTestCase {
    func testEveryPreset_givesFormatsTextAndVerdict() throws {
        let numbers = try identifierNumbersByPreset()
        var generator = SeededRandom(seed: 0xF0F)
        // One scratch for every preset and text, as `maskd format` lends one to a thread's lines.
        var scratch = FormattingScratch()
        var checked = 0, valid = 0
        for name in Presets.names {
            // The postal preset takes its region's layout.
            let mask = try Mask.compile(MaskSpec(.preset(name), region: name == "postal" ? "GB" : nil))
            var sources = numbers[name] ?? []
            sources += [
                "+1 201 555 0123", "4111111111111111", "GB82WEST12345698765432", "2024-02-29", "12:30", "SW1A 1AA",
            ]
            for number in sources {
                let shown = mask.format(number).text
                var texts = [number, shown, String(number.dropLast()), String(shown.dropFirst(2)), number + number]
                for _ in 0..<3 {
                    let source = Bool.random(using: &generator) ? number : shown
                    texts.append(generator.mutated(source))
                }
                texts.append(Self.randomText(using: &generator))
                for text in texts {
                    let formatted = mask.formatted(text)
                    XCTAssertEqual(formatted, FormattedText(mask.format(text)), "\(name): '\(text)'")
                    XCTAssertEqual(
                        Self.formattedFromUTF8(mask, text, &scratch), formatted, "\(name): '\(text)' as UTF-8")
                    checked += 1
                    if formatted.verdict.valid { valid += 1 }
                }
            }
        }
        XCTAssertGreaterThan(checked, 20_000)
        XCTAssertGreaterThan(valid, 3_000)
    }

    func testMasksOfEveryKind_giveFormatsTextAndVerdict() throws {
        let specs: [MaskSpec] = [
            MaskSpec(.notation("+7 ([000]) [000]-[00]-[00]")),
            MaskSpec(.notation("[00]{.}[00]{.}[9999]")),
            MaskSpec(.notation("[A…] [0…]")),
            MaskSpec(.notation("[0…] kg")),
            MaskSpec(.notation("[00]-[99]-[aa]"), eager: true, letterCase: .upper),
            MaskSpec(.notation("[000] [000]"), rightToLeft: true),
            MaskSpec(.notation("[000]-[000]"), regex: "^1[0-9]*$"),
            MaskSpec(.notation("[0000] [0000] [0000] [0000]"), validate: ["luhn"]),
            MaskSpec(.oneOf([MaskSpec(.notation("[00]-[00]")), MaskSpec(.notation("[00] [00] [00]"))])),
            MaskSpec(.oneOf([MaskSpec(.preset("expiry")), MaskSpec(.notation("[00]/[00]/[00]"))])),
            MaskSpec(.preset("amount")),
        ]
        var generator = SeededRandom(seed: 0xBEEF)
        var scratch = FormattingScratch()
        for spec in specs {
            let mask = try Mask.compile(spec)
            for _ in 0..<1_000 {
                let text = Self.randomText(using: &generator)
                XCTAssertEqual(mask.formatted(text), FormattedText(mask.format(text)), "\(spec): '\(text)'")
                XCTAssertEqual(
                    Self.formattedFromUTF8(mask, text, &scratch), mask.formatted(text), "\(spec): '\(text)' as UTF-8")
            }
        }
    }

    /// `formatted(utf8:appendingTextTo:reusing:)`, its text appended after a line already in the output, in the
    /// room `scratch` kept from the texts before.
    private static func formattedFromUTF8(_ mask: Mask, _ text: String, _ scratch: inout FormattingScratch)
        -> FormattedText
    {
        var output = Array("before\n".utf8)
        let verdict = Array(text.utf8).withUnsafeBufferPointer {
            mask.formatted(utf8: $0, appendingTextTo: &output, reusing: &scratch)
        }
        XCTAssertEqual(Array(output.prefix(7)), Array("before\n".utf8))
        return FormattedText(text: String(decoding: output.dropFirst(7), as: UTF8.self), verdict: verdict)
    }

    /// Up to 40 characters (a run `RefusedRuns` keeps is 32): digits, letters, separators, and now and then one
    /// outside ASCII.
    private static func randomText(using generator: inout SeededRandom) -> String {
        let alphabet = Array("0123456789012345ABCDEFXYZabcxyz -./+()é٣\r")
        let length = Int.random(in: 0...40, using: &generator)
        return String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
    }
}
