import XCTest
import MaskCatalog
@testable import MaskEngine
import TestSupport

/// `Mask.closing`: what closing a field adds, the zeros of a number mask's `padFraction`, and nothing else.
final class ClosingTests: XCTestCase {
    private func mask(_ number: NumberSpec, regex: String? = nil) throws -> Mask {
        var spec = MaskSpec(.number(number))
        spec.regex = regex
        return try Mask.compile(spec)
    }

    private let amount = NumberSpec(group: ",", decimal: ".", fraction: 2, padFraction: true)

    func testClosing_padsTypedNumbers_caretAtTheEndGoesAfterThePad() throws {
        let m = try mask(amount)
        for (text, closed) in [
            ("12.5", "12.50"), ("12", "12.00"), ("1,234.5", "1,234.50"), ("0.", "0.00"), ("0", "0.00"),
        ] {
            let result = try XCTUnwrap(m.closing(text), text)
            XCTAssertEqual(result.text, closed, text)
            XCTAssertEqual(result.caret, closed.count, "a caret at the end (nil) goes after the pad: \(text)")
            XCTAssertEqual(result.value, m.format(closed).value)
            XCTAssertNil(m.closing(result.text), "closing again adds nothing: \(closed)")
        }
        XCTAssertEqual(
            m.closing("12.5", caret: 3)?.caret, 3, "a caret inside stays before the digits it had to its right")
        XCTAssertEqual(m.closing("12.5", caret: 4)?.caret, 5)
        let rouble = try mask(NumberSpec(group: " ", decimal: ",", fraction: 2, suffix: " ₽", padFraction: true))
        XCTAssertEqual(rouble.closing("1 234,5 ₽", caret: 7)?.text, "1 234,50 ₽")
        XCTAssertEqual(
            rouble.closing("1 234,5 ₽", caret: 7)?.caret, 8, "the pad goes before the suffix, the caret after it")
    }

    func testClosing_leavesTheText_whenNothingPads() throws {
        let m = try mask(amount)
        XCTAssertNil(m.closing(""), "an empty field")
        XCTAssertNil(m.closing("12.34"), "a full fraction")
        XCTAssertNil(m.closing("1234.5"), "a text not in form: closing does not regroup it")
        XCTAssertNil(m.closing("12abc"), "a text not in form: closing drops nothing")
        XCTAssertNil(try mask(NumberSpec(group: ",", decimal: ".", fraction: 2)).closing("12.5"), "no padFraction")
        XCTAssertNil(
            try mask(NumberSpec(group: ",", decimal: ".", fraction: 0, padFraction: true)).closing("12"),
            "no fraction to pad")
        XCTAssertNil(try mask(amount, regex: "^[0-9]+\\.[0-9]$").closing("12.5"), "a padded value the regex refuses")
        XCTAssertNil(try Mask.compile("[00]{.}[00]").closing("12."), "not a number mask")
        XCTAssertNil(try Mask.compile(MaskSpec(.preset("amount"))).closing("12.5"), "amount does not pad by default")
    }

    /// Over random typed numbers: closing adds exactly what `format` pads, keeps the value, and is final.
    func testClosing_isFormatsPadding_property() throws {
        var rng = SeededRandom(seed: 0xC105E)
        let specs = [
            amount,
            NumberSpec(
                group: ",", decimal: ".", fraction: 3, negative: true, grouping: .lakh,
                prefix: "$", padFraction: true),
        ]
        for spec in specs {
            let m = try mask(spec)
            let plain = NumberField(spec)
            for _ in 0..<300 {
                var typed = m.format("")
                for _ in 0..<rng.int(0..<10) {
                    let key = rng.pick(["1", "2", "0", "9", ".", "-", ","])
                    typed = m.apply(.insert(key, at: typed.selection), to: typed.text)
                }
                let text = typed.text
                let closed = m.closing(text)
                let padded = m.format(text)
                XCTAssertEqual(plain.format(text, padding: false).text, text, "typing leaves a text in form")
                if padded.text == text {
                    XCTAssertNil(closed, "nothing to pad in \(text.debugDescription)")
                    continue
                }
                let result = try XCTUnwrap(closed, text)
                XCTAssertEqual(result.text, padded.text, text)
                XCTAssertEqual(Double(result.value), Double(typed.value), "the value is kept: \(text.debugDescription)")
                XCTAssertTrue(result.text.hasPrefix(text.prefix(text.count - spec.suffix.count)), "only added: \(text)")
                XCTAssertNil(m.closing(result.text))
            }
        }
    }
}
