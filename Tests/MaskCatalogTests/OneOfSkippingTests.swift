import FieldTyping
import Foundation
import TestSupport
import XCTest

import MaskCatalog
@testable import MaskEngine

/// A `oneOf` skips the alternatives its `ReadingBound` says cannot beat the best reading so far: the result must be
/// the one reading every alternative gives, for every identifier preset of several layouts and for `oneOf`s of
/// optional, repeating and block slots, over numbers as typed, as shown, cut short, and with characters in between.
final class OneOfSkippingTests: XCTestCase {
    func testIdentifierPresets_giveWhatReadingEveryAlternativeGives() throws {
        let numbers = try identifierNumbersByPreset()
        var generator = SeededRandom(seed: 0x5EED)
        var checked = 0, presets = 0
        for name in IdentifierCatalog.names {
            let mask = try Mask.compile(MaskSpec(.preset(name)))
            guard case .oneOf(let programs) = mask.kind else { continue }
            presets += 1
            for number in numbers[name] ?? [] {
                let shown = mask.format(number).text
                var texts = [number, shown, String(number.dropLast()), String(shown.dropFirst(2)), number + number]
                for _ in 0..<6 {
                    let source = Bool.random(using: &generator) ? number : shown
                    texts.append(generator.mutated(source))
                }
                for text in texts {
                    XCTAssertEqual(
                        mask.format(text), mask.formatReadingEveryAlternative(text), "\(name): '\(text)'")
                    let chars = Array(text)
                    XCTAssertEqual(
                        mask.bestProgram(programs, for: chars), mask.bestProgram(programs, for: chars, skipping: false),
                        "\(name): program for '\(text)'")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(presets, 30)
        XCTAssertGreaterThan(checked, 5_000)
    }

    func testOneOfsOfEveryKindOfSlot_giveWhatReadingEveryAlternativeGives() throws {
        let masks = [
            ["[00]-[00]", "[00]-[0000]", "[00] [00] [00]", "[0000]"],
            ["[00]-[99]", "[0]-[999]-[0]", "[AA]-[00]"],
            ["[0…]", "[00]-[00]", "[A…]"],
            ["[00]/[00]", "{RF}[00] [00]", "[00]{9}[0]"],
            ["[a] [00]", "[9]-[00]", "[A][0][A] [0][A][0]"],
        ]
        var generator = SeededRandom(seed: 0xA17)
        let alphabet = Array("0123456789 -/ABrf9.")
        for notations in masks {
            let mask = try Mask.compile(MaskSpec(.oneOf(notations.map { MaskSpec(.notation($0)) })))
            guard case .oneOf(let programs) = mask.kind else { return XCTFail("\(notations) is no oneOf") }
            for _ in 0..<2_000 {
                let length = Int.random(in: 0...12, using: &generator)
                let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
                XCTAssertEqual(mask.format(text), mask.formatReadingEveryAlternative(text), "\(notations): '\(text)'")
                XCTAssertEqual(
                    mask.bestProgram(programs, for: Array(text)),
                    mask.bestProgram(programs, for: Array(text), skipping: false), "\(notations): '\(text)'")
            }
        }
        // A later alternative with an optional slot gives the text back, holding no more cells than the first.
        let optional = try Mask.compile(
            MaskSpec(.oneOf([MaskSpec(.notation("[000]")), MaskSpec(.notation("[9]-[99]"))])))
        XCTAssertEqual(optional.format("1-23").text, "1-23")
        XCTAssertEqual(optional.format("1-23"), optional.formatReadingEveryAlternative("1-23"))
        // A date block pads a value with a cell nobody typed.
        let dates = try Mask.compile(
            MaskSpec(.oneOf([MaskSpec(.preset("expiry")), MaskSpec(.notation("[00]/[00]/[00]"))])))
        for text in ["4/25", "12/29", "1/1/24", "04/2", "13/99", "4", ""] {
            XCTAssertEqual(dates.format(text), dates.formatReadingEveryAlternative(text), "expiry: '\(text)'")
        }
    }
}
