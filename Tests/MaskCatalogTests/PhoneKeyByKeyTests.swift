import FieldTyping
import XCTest
@testable import MaskCatalog
@testable import MaskEngine
import TestSupport

/// The phone field's as-you-type state (`PhoneFieldAsYouType.swift`, with the number read key by key,
/// `PhoneNumberKeyByKey.swift`) gives exactly the stateless results: every step of libphonenumber's example
/// numbers typed key by key, and random editing sessions that mostly type at the end (the key-by-key path)
/// with every other kind of edit between (the fallback).
final class PhoneKeyByKeyTests: XCTestCase {
    /// Every conformance number typed through a `MaskField` equals `Mask.apply` at every step, and
    /// the key-by-key path is the one taken (a formatter held after each key but a full number's).
    func testConformanceNumbersTypedThroughTheHandle_equalTheStatelessPath() throws {
        var steps = 0, held = 0
        var masks: [String: Mask] = [:]
        for c in PhoneConformanceTests.cases {
            let region = c.national ? c.region : nil
            let mask = try masks[region ?? ""] ?? Mask.compile(MaskSpec(.preset("phone"), region: region))
            masks[region ?? ""] = mask
            guard let field = mask.customField as? PhoneField else { return XCTFail("not a phone mask") }
            var handle = MaskField(mask)
            var state = PhoneField.AsYouTypeState()
            var text = "", caret = 0
            for key in c.keys {
                let edit = FieldEdit.insert(String(key), at: caret..<caret)
                let expected = mask.apply(edit, to: text)
                let got = handle.apply(edit)
                steps += 1
                XCTAssertEqual(got, expected, "\(region ?? "intl") \(c.keys): \(text) + \(key)")
                XCTAssertEqual(field.apply(edit, to: text, resuming: &state), expected)
                if got != expected { break }
                (text, caret) = (expected.text, expected.caret)
                if state.holdsState { held += 1 }
            }
        }
        XCTAssertEqual(steps, 24_181)
        // Only a number that is full keeps nothing more (its next digit is refused whole).
        XCTAssertGreaterThan(held, steps * 9 / 10)
    }

    /// Random sessions over many regions: runs of digits typed at the end, with deletions, edits
    /// in the middle, pastes with punctuation, refused keys, caret moves and a text from elsewhere.
    func testRandomSessions_equalTheStatelessPath() throws {
        var rng = SeededRandom(seed: 15_2026)
        let regions: [String?] = [
            nil, "GB", "US", "CN", "DE", "JP", "FR", "IN", "BR", "AR", "RU", "AU", "MX", "IT", "KR",
        ]
        let keys: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+", " ", "-", "(", "a", "٣"]
        var steps = 0
        for session in 0..<600 {
            let region = regions[session % regions.count]
            let mask = try Mask.compile(MaskSpec(.preset("phone"), region: region))
            var handle = MaskField(mask)
            var text = "", selection = 0..<0
            for _ in 0..<30 {
                let count = text.count
                var edit: FieldEdit
                switch rng.int(0..<20) {
                case 0..<11:
                    // Typing at the end, as a person types a number.
                    edit = .insert(String(rng.pick(Array("0123456789"))), at: count..<count)
                case 11:
                    edit = .insert(String(rng.pick(keys)), at: selection)
                case 12:
                    edit = .insert(String((0..<rng.int(1..<16)).map { _ in rng.pick(keys) }), at: selection)
                case 13, 14:
                    edit = .backspace(
                        selection.isEmpty ? max(selection.lowerBound - 1, 0)..<selection.lowerBound : selection)
                case 15:
                    edit = .forwardDelete(
                        selection.isEmpty
                            ? selection.lowerBound..<min(selection.lowerBound + 1, count)
                            : selection)
                case 16:
                    // Past the end, or a digit typed before the last element.
                    let at = rng.chance(50) ? count + rng.int(1..<4) : max(count - 1 - rng.int(0..<3), 0)
                    edit = .insert(String(rng.pick(Array("0123456789"))), at: at..<at)
                default:
                    let a = rng.int(0..<(count + 1)), b = rng.int(0..<(count + 1))
                    selection = rng.chance(60) ? a..<a : min(a, b)..<max(a, b)
                    continue
                }
                if rng.chance(4) {
                    // The caller's text is another (an undo): the handle reads it again.
                    text = String((0..<rng.int(0..<14)).map { _ in rng.pick(keys) })
                    edit.range = min(edit.range.lowerBound, text.count)..<min(edit.range.upperBound, text.count)
                }
                let expected = mask.apply(edit, to: text)
                let got = text == handle.text ? handle.apply(edit) : handle.apply(edit, to: text)
                steps += 1
                XCTAssertEqual(got, expected, "\(region ?? "intl"): \(TypingField.mark(text, selection)) edit \(edit)")
                if got != expected { break }
                (text, selection) = (expected.text, expected.selection)
            }
        }
        XCTAssertGreaterThan(steps, 10_000)
    }

    /// A copied handle keeps its own state: typing into the copy leaves the original's results alone.
    func testCopiedHandles_doNotShareTheirState() throws {
        let mask = try Mask.compile(MaskSpec(.preset("phone"), region: "GB"))
        var first = MaskField(mask)
        for key in "0121" { _ = first.apply(.insert(String(key), at: first.selection)) }
        var second = first
        XCTAssertEqual(second.apply(.insert("2", at: 4..<4)).text, "0121 2")
        XCTAssertEqual(first.apply(.insert("9", at: 4..<4)), mask.apply(.insert("9", at: 4..<4), to: "0121"))
        XCTAssertEqual(first.text, "0121 9")
        XCTAssertEqual(second.apply(.insert("3", at: 6..<6)), mask.apply(.insert("3", at: 6..<6), to: "0121 2"))
    }

    /// The formats' regex-free substitution and whole match are the regex's, over every format of every region.
    func testDigitGroupFormatting_equalsTheRegexSubstitution() {
        var rng = SeededRandom(seed: 964)
        var formats = 0
        for code in PhoneMetadata.regionCodes {
            guard let region = PhoneMetadata.region(code) else { continue }
            for format in region.nationalFormats + region.internationalFormats {
                formats += 1
                XCTAssertNotNil(format.digitGroups, format.pattern.pattern)
                for length in 0..<19 {
                    let digits = (0..<length).map { _ in UInt8(0x30 + rng.int(0..<10)) }
                    XCTAssertEqual(
                        format.formatted(digits[...]), format.pattern.substitute(digits[...], template: format.format),
                        "\(format.pattern.pattern) \(String(decoding: digits, as: UTF8.self))")
                    XCTAssertEqual(
                        format.matchesWhole(digits[...]), format.pattern.matches(digits[...], whole: true),
                        "\(format.pattern.pattern) \(String(decoding: digits, as: UTF8.self))")
                }
            }
        }
        XCTAssertGreaterThan(formats, 900)
    }
}
