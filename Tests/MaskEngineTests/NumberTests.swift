import XCTest
@testable import MaskEngine
import TestSupport

/// Tests of `NumberField`: typing, deleting, pasting, zeros, signs, limits and properties.
final class NumberTests: XCTestCase {
    /// The `amount`-like field most tests use: `,` groups, `.` and 2 decimals, at most 12 integer digits.
    private let amount = NumberField(NumberSpec(group: ",", decimal: ".", fraction: 2, negative: false, maxInteger: 12))
    /// The same with a sign allowed.
    private let signed = NumberField(NumberSpec(group: ",", decimal: ".", fraction: 2, negative: true, maxInteger: 12))

    /// One key or paste and what must follow: the text, the caret, and optionally what was refused or cut.
    private struct Step {
        var keys: String
        var text: String
        var caret: Int
        var rejected = ""
        var overflow = ""
    }

    /// Types each step's keys one by one at the caret (a step with one key is one keystroke) and checks each step.
    private func run(
        _ field: NumberField, from start: FieldResult, _ steps: [Step],
        file: StaticString = #filePath, line: UInt = #line
    ) -> FieldResult {
        var state = start
        for step in steps {
            var rejected = "", overflow = ""
            for key in step.keys {
                state = field.apply(.insert(String(key), at: state.selection), to: state.text)
                rejected += state.rejected
                overflow += state.overflow
            }
            XCTAssertEqual(state.text, step.text, "after \(step.keys.debugDescription)", file: file, line: line)
            XCTAssertEqual(state.caret, step.caret, "caret after \(step.keys.debugDescription)", file: file, line: line)
            XCTAssertEqual(
                rejected, step.rejected, "rejected after \(step.keys.debugDescription)", file: file, line: line)
            XCTAssertEqual(
                overflow, step.overflow, "overflow after \(step.keys.debugDescription)", file: file, line: line)
        }
        return state
    }

    /// A field formatted from `text` with the caret at `caret`.
    private func field(_ field: NumberField, _ text: String, caret: Int) -> FieldResult {
        let result = field.format(text, selection: caret..<caret)
        XCTAssertEqual(result.text, text, "the start text should already be formatted")
        return result
    }

    /// `1234567.891` typed key by key from empty.
    func testTypingFromEmpty() {
        let end = run(
            amount, from: amount.format(""),
            [
                Step(keys: "1", text: "1", caret: 1),
                Step(keys: "2", text: "12", caret: 2),
                Step(keys: "3", text: "123", caret: 3),
                Step(keys: "4", text: "1,234", caret: 5),
                Step(keys: "5", text: "12,345", caret: 6),
                Step(keys: "6", text: "123,456", caret: 7),
                Step(keys: "7", text: "1,234,567", caret: 9),
                Step(keys: ".", text: "1,234,567.", caret: 10),
                Step(keys: "8", text: "1,234,567.8", caret: 11),
                Step(keys: "9", text: "1,234,567.89", caret: 12),
                Step(keys: "1", text: "1,234,567.89", caret: 12, overflow: "1"),
            ])
        XCTAssertEqual(end.value, "1234567.89")
        XCTAssertTrue(end.complete)
        XCTAssertTrue(end.valid)
        XCTAssertNil(end.next)
    }

    /// Typing in the middle: the caret stays right after the typed digit through regrouping.
    func testTypingInTheMiddle() {
        _ = run(
            amount, from: field(amount, "1,234", caret: 1),
            [
                Step(keys: "9", text: "19,234", caret: 2),
                Step(keys: "8", text: "198,234", caret: 3),
                Step(keys: "7", text: "1,987,234", caret: 5),
            ])
        // A caret after a separator counts the same digits to its right.
        _ = run(
            amount, from: field(amount, "1,234", caret: 2),
            [
                Step(keys: "0", text: "10,234", caret: 2)
            ])
        // Typing the decimal mark inside the integer part moves the digits after it into the fraction.
        _ = run(
            amount, from: field(amount, "1,234,567", caret: 5),
            [
                Step(keys: ".", text: "1,234.56", caret: 6, overflow: "7")
            ])
    }

    /// Deleting in the middle: the caret keeps its count of digits to its right.
    func testDeletingInTheMiddle() {
        var state = amount.apply(.backspace(5..<5), to: "1,234,567.89")
        XCTAssertEqual(state.text, "123,567.89")
        XCTAssertEqual(state.caret, 3)
        state = amount.apply(.backspace(state.selection), to: state.text)
        XCTAssertEqual(state.text, "12,567.89")
        XCTAssertEqual(state.caret, 2)
        state = amount.apply(.forwardDelete(state.selection), to: state.text)
        XCTAssertEqual(state.text, "1,267.89")
        XCTAssertEqual(state.caret, 3)
        // A selection is deleted whole.
        state = amount.apply(.backspace(2..<6), to: "1,234,567.89")
        XCTAssertEqual(state.text, "1,567.89")
        XCTAssertEqual(state.caret, 1)
        // Deleting the decimal mark joins the fraction to the integer part.
        state = amount.apply(.backspace(10..<10), to: "1,234,567.89")
        XCTAssertEqual(state.text, "123,456,789")
        XCTAssertEqual(state.caret, 9)
        // Deleting the last digit of a fraction keeps the mark.
        state = amount.apply(.backspace(3..<3), to: "1.5")
        XCTAssertEqual(state.text, "1.")
        XCTAssertEqual(state.caret, 2)
        XCTAssertFalse(state.complete)
    }

    /// Backspace on a group separator removes the digit before it; forward delete the digit after it.
    func testDeletingASeparator() {
        var state = amount.apply(.backspace(2..<2), to: "1,234")
        XCTAssertEqual(state.text, "234")
        XCTAssertEqual(state.caret, 0)
        // The same backspace as an editor sends it: the separator's range.
        state = amount.apply(.backspace(1..<2), to: "1,234")
        XCTAssertEqual(state.text, "234")
        XCTAssertEqual(state.caret, 0)
        state = amount.apply(.backspace(6..<6), to: "1,234,567")
        XCTAssertEqual(state.text, "123,567")
        XCTAssertEqual(state.caret, 3)
        state = amount.apply(.forwardDelete(1..<1), to: "1,234")
        XCTAssertEqual(state.text, "134")
        XCTAssertEqual(state.caret, 1)
        state = amount.apply(.forwardDelete(1..<2), to: "1,234")
        XCTAssertEqual(state.text, "134")
        XCTAssertEqual(state.caret, 1)
        // Nothing before the caret: nothing happens.
        state = amount.apply(.backspace(0..<0), to: "1,234")
        XCTAssertEqual(state.text, "1,234")
        XCTAssertEqual(state.caret, 0)
        state = amount.apply(.forwardDelete(5..<5), to: "1,234")
        XCTAssertEqual(state.text, "1,234")
        XCTAssertEqual(state.caret, 5)
        // A multi-character separator behaves as one.
        let spaced = NumberField(NumberSpec(group: ", ", fraction: 0))
        XCTAssertEqual(spaced.format("1234").text, "1, 234")
        state = spaced.apply(.backspace(3..<3), to: "1, 234")
        XCTAssertEqual(state.text, "234")
        XCTAssertEqual(state.caret, 0)
    }

    /// Pasting: separators are literals, other characters are rejected.
    func testPaste() {
        var state = amount.apply(.insert("$1,234.5", at: 0..<0), to: "")
        XCTAssertEqual(state.text, "1,234.5")
        XCTAssertEqual(state.caret, 7)
        XCTAssertEqual(state.rejected, "$")
        XCTAssertEqual(state.value, "1234.5")
        XCTAssertEqual(state.placeholder, "_")
        state = amount.apply(.insert("$3,4", at: 1..<1), to: "12")
        XCTAssertEqual(state.text, "1,342")
        XCTAssertEqual(state.caret, 4)
        XCTAssertEqual(state.rejected, "$")
        // Pasting over a selection.
        state = amount.apply(.insert("99", at: 2..<5), to: "1,234.5")
        XCTAssertEqual(state.text, "199.5")
        XCTAssertEqual(state.caret, 3)
        // A pasted decimal mark when there is one already is rejected.
        state = amount.apply(.insert("3.4", at: 1..<1), to: "1.5")
        XCTAssertEqual(state.text, "134.5")
        XCTAssertEqual(state.rejected, ".")
        XCTAssertEqual(state.overflow, "")
        XCTAssertEqual(state.caret, 3)
        // Format reads the same way.
        let formatted = amount.format("USD 1 234,5.6x")
        XCTAssertEqual(formatted.text, "12,345.6")
        XCTAssertEqual(formatted.rejected, "USD  x")
    }

    /// Zeros behave as on a calculator.
    func testLeadingZeros() {
        _ = run(
            amount, from: amount.format(""),
            [
                Step(keys: "0", text: "0", caret: 1),
                Step(keys: "0", text: "0", caret: 1),
                Step(keys: "5", text: "5", caret: 1),
            ])
        _ = run(
            amount, from: amount.format(""),
            [
                Step(keys: ".", text: "0.", caret: 2),
                Step(keys: "0", text: "0.0", caret: 3),
                Step(keys: "5", text: "0.05", caret: 4),
            ])
        _ = run(
            amount, from: amount.format(""),
            [
                Step(keys: "0.5", text: "0.5", caret: 3)
            ])
        XCTAssertEqual(amount.format("007").text, "7")
        XCTAssertEqual(amount.format("000.50").text, "0.50")
        XCTAssertEqual(amount.format("0").value, "0")
        XCTAssertEqual(amount.format(String(repeating: "0", count: 20_000) + "5").text, "5")
        XCTAssertEqual(amount.format(String(repeating: "0", count: 20_000)).text, "0")
        // A digit typed before a lone zero stays before it.
        _ = run(amount, from: field(amount, "0", caret: 0), [Step(keys: "5", text: "50", caret: 1)])
        // The implied zero is replaced by a digit typed on either side of it.
        _ = run(amount, from: field(amount, "0.5", caret: 1), [Step(keys: "3", text: "3.5", caret: 1)])
        _ = run(amount, from: field(amount, "0.5", caret: 0), [Step(keys: "3", text: "3.5", caret: 1)])
        // Deleting the digit before the mark leaves the implied zero, the caret after it.
        var state = amount.apply(.backspace(1..<1), to: "1.5")
        XCTAssertEqual(state.text, "0.5")
        XCTAssertEqual(state.caret, 1)
        XCTAssertEqual(state.value, "0.5")
        // Deleting the implied zero moves the caret over it.
        state = amount.apply(.backspace(state.selection), to: state.text)
        XCTAssertEqual(state.text, "0.5")
        XCTAssertEqual(state.caret, 0)
        state = amount.apply(.forwardDelete(0..<0), to: "0.5")
        XCTAssertEqual(state.text, "0.5")
        XCTAssertEqual(state.caret, 1)
        // Deleting the digit before zeros drops them: 1,005 without its 1 is 5.
        state = amount.apply(.backspace(1..<1), to: "1,005")
        XCTAssertEqual(state.text, "5")
        XCTAssertEqual(state.caret, 0)
        // A lone zero is an entered digit and can be deleted.
        state = amount.apply(.backspace(1..<1), to: "0")
        XCTAssertEqual(state.text, "")
        XCTAssertEqual(state.caret, 0)
    }

    /// `-` toggles the sign wherever it is typed, `+` makes the number positive.
    func testNegative() {
        _ = run(
            signed, from: field(signed, "1,234", caret: 5),
            [
                Step(keys: "-", text: "-1,234", caret: 6),
                Step(keys: "-", text: "1,234", caret: 5),
            ])
        _ = run(
            signed, from: field(signed, "1,234", caret: 1),
            [
                Step(keys: "-", text: "-1,234", caret: 2),
                Step(keys: "+", text: "1,234", caret: 1),
                Step(keys: "+", text: "1,234", caret: 1),
            ])
        _ = run(
            signed, from: signed.format(""),
            [
                Step(keys: "-", text: "-", caret: 1),
                Step(keys: ".", text: "-0.", caret: 3),
                Step(keys: "5", text: "-0.5", caret: 4),
            ])
        var state = signed.format("-")
        XCTAssertEqual(state.value, "-")
        XCTAssertFalse(state.complete)
        XCTAssertEqual(state.problems, ["no digits"])
        // Backspace after the sign removes it.
        state = signed.apply(.backspace(1..<1), to: "-1,234")
        XCTAssertEqual(state.text, "1,234")
        XCTAssertEqual(state.caret, 0)
        state = signed.apply(.forwardDelete(0..<0), to: "-1,234")
        XCTAssertEqual(state.text, "1,234")
        XCTAssertEqual(state.caret, 0)
        // A digit typed before the sign lands after it.
        state = signed.apply(.insert("9", at: 0..<0), to: "-5")
        XCTAssertEqual(state.text, "-95")
        XCTAssertEqual(state.caret, 2)
        // Other minus signs; the value keeps `-`.
        XCTAssertEqual(signed.format("\u{2212}1234.5").value, "-1234.5")
        XCTAssertEqual(signed.format("１２－").text, "-12")
        XCTAssertEqual(signed.format("--5").text, "5")
        // A selection carried through formatting keeps the sign inside it.
        XCTAssertEqual(signed.format("-1,234", selection: 0..<6).selection, 0..<6)
        XCTAssertEqual(signed.format("-1234", selection: 1..<5).selection, 1..<6)
        // Without `negative`, signs are rejected and nothing moves.
        _ = run(
            amount, from: field(amount, "1,234", caret: 1),
            [
                Step(keys: "-", text: "1,234", caret: 1, rejected: "-")
            ])
        XCTAssertEqual(amount.format("-1,234").rejected, "-")
    }

    /// Digits beyond `maxInteger` or `fraction` are cut into `overflow`; what is there stays.
    func testLimits() {
        let small = NumberField(NumberSpec(fraction: 2, maxInteger: 4))
        _ = run(
            small, from: small.format(""),
            [
                Step(keys: "1234", text: "1,234", caret: 5),
                Step(keys: "5", text: "1,234", caret: 5, overflow: "5"),
                Step(keys: ".5", text: "1,234.5", caret: 7),
            ])
        _ = run(
            small, from: field(small, "1,234", caret: 0),
            [
                Step(keys: "9", text: "1,234", caret: 0, overflow: "9")
            ])
        _ = run(
            small, from: field(small, "1,234.56", caret: 6),
            [
                Step(keys: "7", text: "1,234.56", caret: 6, overflow: "7")
            ])
        var state = small.format("1234567")
        XCTAssertEqual(state.text, "1,234")
        XCTAssertEqual(state.overflow, "567")
        XCTAssertEqual(state.next, .digit)
        state = small.format("12345.6789")
        XCTAssertEqual(state.text, "1,234.67")
        XCTAssertEqual(state.overflow, "589")
        // Deleting the mark can join more digits than fit: the rightmost are cut.
        let three = NumberField(NumberSpec(fraction: 2, maxInteger: 3))
        state = three.apply(.backspace(3..<3), to: "12.34")
        XCTAssertEqual(state.text, "123")
        XCTAssertEqual(state.overflow, "4")
        XCTAssertEqual(state.caret, 2)
        // A paste that does not fit keeps what does.
        state = small.apply(.insert("987", at: 1..<1), to: "12")
        XCTAssertEqual(state.text, "1,982")
        XCTAssertEqual(state.overflow, "7")
        XCTAssertEqual(state.caret, 4)
        // Zeros typed in front of a full number are leading zeros, not overflow.
        state = small.apply(.insert("0", at: 0..<0), to: "1,234")
        XCTAssertEqual(state.text, "1,234")
        XCTAssertEqual(state.overflow, "")
    }

    /// With `fraction` 0 the decimal mark ends what is read.
    func testIntegerField() {
        let integer = NumberField(NumberSpec(group: " ", decimal: ",", fraction: 0, maxInteger: 6))
        var state = integer.format("12,50")
        XCTAssertEqual(state.text, "12")
        XCTAssertEqual(state.overflow, ",50")
        _ = run(
            integer, from: integer.format("123 456"),
            [
                Step(keys: ",", text: "123 456", caret: 7, overflow: ",")
            ])
        state = integer.format("123 456")
        XCTAssertNil(state.next)
        XCTAssertEqual(state.placeholder, "")
        // No-break spaces count as the space separator.
        XCTAssertEqual(integer.format("1\u{A0}234").text, "1 234")
        XCTAssertEqual(integer.format("1\u{202F}234").value, "1234")
    }

    /// Unicode decimal digits are read as ASCII digits; full-width marks as marks.
    func testUnicodeDigits() {
        var state = amount.format("１２３４．５")
        XCTAssertEqual(state.text, "1,234.5")
        XCTAssertEqual(state.value, "1234.5")
        state = amount.format("٣٤٥")
        XCTAssertEqual(state.text, "345")
        _ = run(
            amount, from: amount.format(""),
            [
                Step(keys: "１２３４", text: "1,234", caret: 5)
            ])
        // Digits of other kinds are not decimal digits.
        state = amount.format("²5")
        XCTAssertEqual(state.text, "5")
        XCTAssertEqual(state.rejected, "²")
    }

    /// Other separators and marks: `1.234.567,5`, and no grouping at all.
    func testOtherSeparators() {
        let european = NumberField(NumberSpec(group: ".", decimal: ",", fraction: 2))
        var state = european.format("1234567,5")
        XCTAssertEqual(state.text, "1.234.567,5")
        XCTAssertEqual(state.value, "1234567.5")
        XCTAssertEqual(state.mask, "number(group: \".\", decimal: \",\", fraction: 2, negative: false)")
        let plain = NumberField(NumberSpec(group: "", fraction: 3, negative: true))
        state = plain.format("-1234567.1234")
        XCTAssertEqual(state.text, "-1234567.123")
        XCTAssertEqual(state.overflow, "4")
        state = plain.format("1,2")
        XCTAssertEqual(state.text, "12")
        XCTAssertEqual(state.rejected, ",")
    }

    /// `complete`, `valid`, `problems`, `next`, `placeholder`, `mask`, `brand`.
    func testState() {
        var state = amount.format("")
        XCTAssertEqual(state.text, "")
        XCTAssertEqual(state.value, "")
        XCTAssertFalse(state.complete)
        XCTAssertFalse(state.valid)
        XCTAssertEqual(state.problems, ["no digits"])
        XCTAssertEqual(state.next, .digit)
        XCTAssertEqual(state.placeholder, "")
        XCTAssertEqual(state.mask, "number(group: \",\", decimal: \".\", fraction: 2, negative: false, maxInteger: 12)")
        XCTAssertNil(state.brand)
        state = amount.format("12.")
        XCTAssertFalse(state.complete)
        XCTAssertEqual(state.problems, ["no digit after the decimal mark"])
        XCTAssertEqual(state.placeholder, "__")
        state = NumberField(NumberSpec(), placeholderChar: "0").format("12.3")
        XCTAssertTrue(state.complete)
        XCTAssertEqual(state.problems, [])
        XCTAssertEqual(state.placeholder, "0")
        XCTAssertEqual(state.next, .digit)
        state = amount.format("12.34")
        XCTAssertNil(state.next)
        // A full integer part still takes a decimal mark and fraction digits.
        state = amount.format("123456789012")
        XCTAssertEqual(state.next, .digit)
    }

    /// Specs that cannot be read unambiguously are refused.
    func testValidate() {
        XCTAssertNoThrow(try NumberField.validate(NumberSpec()))
        XCTAssertNoThrow(try NumberField.validate(NumberSpec(group: " ", decimal: ",", fraction: 0)))
        // Without `negative` a sign is never read as one: it may separate groups.
        XCTAssertNoThrow(try NumberField.validate(NumberSpec(group: "-")))
        // Digits, the mark and separators may stand inside an affix, recognised whole.
        XCTAssertNoThrow(try NumberField.validate(NumberSpec(prefix: "Rs.")))
        XCTAssertNoThrow(try NumberField.validate(NumberSpec(group: " ", suffix: " m2")))
        let bad: [(NumberSpec, String)] = [
            (NumberSpec(decimal: "5"), "is a digit"),
            (NumberSpec(decimal: "-"), "is a sign"),
            (NumberSpec(group: "1"), "contains a digit"),
            (NumberSpec(group: "-", negative: true), "contains a sign"),
            (NumberSpec(group: "\u{FF0D}", negative: true), "contains a sign"),
            (NumberSpec(prefix: "1st "), "must not begin with a digit"),
            (NumberSpec(prefix: ".x"), "must not begin with a digit, the decimal mark"),
            (NumberSpec(prefix: ",x"), "or a group separator"),
            (NumberSpec(suffix: "5x"), "must not begin with a digit or the decimal mark"),
            (NumberSpec(suffix: ".x"), "must not begin with a digit or the decimal mark"),
            (NumberSpec(suffix: ",5"), "must hold a character other than digits and separators"),
            (NumberSpec(prefix: "$-"), "must not contain signs"),
            (NumberSpec(group: ".", decimal: "."), "contains the decimal mark"),
            (NumberSpec(fraction: -1), "fraction"),
            (NumberSpec(maxInteger: 0), "maxInteger"),
            // Found by the engine fuzzer: a placeholder of 2^62 characters was allocated on the first keystroke.
            (NumberSpec(fraction: 1 << 62), "fraction must be between 0 and 4096"),
            (NumberSpec(maxInteger: Int.max), "maxInteger must be between 1 and 4096"),
        ]
        for (spec, message) in bad {
            XCTAssertThrowsError(try NumberField.validate(spec)) { error in
                XCTAssertTrue((error as! MaskError).message.contains(message), "\(error)")
            }
        }
    }

    // MARK: Properties

    /// The fields the properties run on.
    private var fields: [NumberField] {
        [
            amount, signed,
            NumberField(NumberSpec(group: " ", decimal: ",", fraction: 0, negative: true, maxInteger: 5)),
            NumberField(NumberSpec(group: "", decimal: ".", fraction: 3)),
            NumberField(NumberSpec(group: "'", decimal: ".", fraction: 1, negative: true, maxInteger: 3)),
            NumberField(
                NumberSpec(group: ",", decimal: ".", fraction: 2, negative: true, grouping: .lakh, prefix: "₹")),
            NumberField(NumberSpec(group: ",", decimal: ".", fraction: 0, grouping: .wan, suffix: " 元")),
            NumberField(
                NumberSpec(
                    group: " ", decimal: ".", fraction: 2, negative: true, maxInteger: 9, suffix: " ₽",
                    decimalAliases: [","])),
            NumberField(NumberSpec(group: ",", decimal: ".", fraction: 2, negative: true, prefix: "Rs.")),
            NumberField(NumberSpec(group: " ", decimal: ".", fraction: 2, prefix: "lbs. ", suffix: " lbs.")),
        ] + affixFields
    }

    /// Fields with random affixes whose characters after the first include the decimal mark, the
    /// group separator and digits (each recognised whole, never read as part of the number).
    private var affixFields: [NumberField] {
        var rng = SeededRandom(seed: 0xAFF1)
        let starts: [Character] = ["R", "x", "$", "€", "k", " "]
        let inner: [Character] = ["R", "s", ".", ",", " ", "1", "2", "0", "€", "x", "'"]
        var made: [NumberField] = []
        while made.count < 12 {
            func affix() -> String {
                guard Bool.random(using: &rng) else { return "" }
                return String(starts.randomElement(using: &rng)!)
                    + String((0..<Int.random(in: 0...3, using: &rng)).map { _ in inner.randomElement(using: &rng)! })
            }
            let spec = NumberSpec(
                group: [",", " ", "'"].randomElement(using: &rng)!,
                decimal: [".", ","].randomElement(using: &rng)!,
                fraction: Int.random(in: 0...2, using: &rng), negative: Bool.random(using: &rng),
                prefix: affix(), suffix: affix())
            guard !(spec.prefix + spec.suffix).isEmpty, (try? NumberField.validate(spec)) != nil else { continue }
            made.append(NumberField(spec))
        }
        return made
    }

    /// Through every grouping, with a prefix and a suffix, a typed digit lands right of the caret's
    /// old place and the caret keeps its count of digits (and mark) to its right.
    func testCaretKeepsItsDigitsToTheRight_throughEveryRegrouping() {
        var rng = SeededRandom(seed: 0x1A4B)
        for grouping in NumberSpec.Grouping.allCases {
            for prefix in ["", "$", "USD "] {
                let field = NumberField(
                    NumberSpec(
                        group: ",", decimal: ".", fraction: 2, negative: true,
                        grouping: grouping, prefix: prefix, suffix: prefix.isEmpty ? " kg" : ""))
                for _ in 0..<200 {
                    var r = field.format(
                        String(
                            (0..<Int.random(in: 1...11, using: &rng)).map { _ in
                                Character(String(Int.random(in: 1...9, using: &rng)))
                            }))
                    for _ in 0..<6 {
                        let counted: (String, Int) -> Int = { text, caret in
                            Array(text)[caret...].filter { $0.isNumber || $0 == "." }.count
                        }
                        let lead = prefix.count, end = r.text.count - (prefix.isEmpty ? 3 : 0)
                        let caret = Int.random(in: lead...end, using: &rng)
                        let right = counted(r.text, caret)
                        let digit = String(Int.random(in: 1...9, using: &rng))
                        let next = field.apply(.insert(digit, at: caret..<caret), to: r.text)
                        let context = "\(grouping) \(prefix.debugDescription): \(digit) at \(caret) in \(r.text)"
                        XCTAssertEqual(counted(next.text, next.caret), right, context)
                        XCTAssertEqual(Array(next.text)[next.caret - 1], Character(digit), context)
                        XCTAssertTrue(next.text.hasPrefix(prefix), context)
                        r = next
                    }
                }
            }
        }
    }

    func testGroupings() {
        let lakh = NumberField(NumberSpec(fraction: 0, grouping: .lakh))
        XCTAssertEqual(lakh.format("1234567").text, "12,34,567")
        XCTAssertEqual(lakh.format("123456789").text, "12,34,56,789")
        XCTAssertEqual(lakh.format("1234").text, "1,234")
        let wan = NumberField(NumberSpec(fraction: 0, grouping: .wan))
        XCTAssertEqual(wan.format("123456789").text, "1,2345,6789")
        XCTAssertEqual(NumberField(NumberSpec(grouping: .none)).format("1234567.5").text, "1234567.5")
    }

    /// A random text of up to `length` pieces, mostly digits; with `field`, its prefix and suffix whole are pieces too.
    private func randomText(_ rng: inout SeededRandom, length: Int, field: NumberField? = nil) -> String {
        var alphabet: [String] = [
            "0", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", ".", ",", " ", "'",
            "-", "+", "$", "x", "５", "٣", "０", "．", "\u{2212}",
        ]
        if let field {
            for affix in [field.spec.prefix, field.spec.suffix] where !affix.isEmpty {
                alphabet += [affix, affix]
            }
        }
        let count = Int.random(in: 0...length, using: &rng)
        return (0..<count).map { _ in alphabet.randomElement(using: &rng)! }.joined()
    }

    /// The nonzero digits of a text as ASCII, sorted: what no edit may lose without saying so.
    private func nonzeroDigits(_ text: String) -> [UInt8] {
        text.compactMap { NumberField.digitValue($0) }.filter { $0 != 0 }.sorted()
    }

    /// Checks that every nonzero digit of `read` is in `kept`, but for the digits of an affix recognised whole
    /// (the prefix stepped over, then found; the suffix), which are not the number's; and that none is invented.
    private func assertNoDigitLost(
        _ read: String, _ kept: String, _ field: NumberField, _ context: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        var missing = nonzeroDigits(read)
        for digit in nonzeroDigits(kept) {
            guard let index = missing.firstIndex(of: digit) else {
                return XCTFail("digit invented: \(context)", file: file, line: line)
            }
            missing.remove(at: index)
        }
        var affixDigits = nonzeroDigits(field.spec.prefix + field.spec.prefix + field.spec.suffix)
        for digit in missing {
            guard let index = affixDigits.firstIndex(of: digit) else {
                return XCTFail("digits lost: \(context)", file: file, line: line)
            }
            affixDigits.remove(at: index)
        }
    }

    /// Formatting is idempotent, its text types key by key to the same field, and no digit is lost unreported.
    func testFormatProperties() {
        var rng = SeededRandom(seed: 0x5EED)
        for field in fields {
            for _ in 0..<400 {
                let text = randomText(&rng, length: 14, field: field)
                let count = text.count
                let a = Int.random(in: 0...count, using: &rng), b = Int.random(in: 0...count, using: &rng)
                let once = field.format(text, selection: min(a, b)..<max(a, b))
                let twice = field.format(once.text)
                XCTAssertEqual(twice.text, once.text, "format not idempotent on \(text.debugDescription)")
                XCTAssertEqual(twice.value, once.value)
                XCTAssertEqual(twice.rejected, "")
                XCTAssertEqual(twice.overflow, "")
                XCTAssertTrue(
                    once.selection.lowerBound >= 0 && once.selection.upperBound <= once.text.count,
                    "selection out of bounds for \(text.debugDescription)")
                assertNoDigitLost(text, once.value + once.overflow, field, "formatting \(text.debugDescription)")
                var typed = field.format("")
                for key in once.text {
                    typed = field.apply(.insert(String(key), at: typed.selection), to: typed.text)
                }
                XCTAssertEqual(typed.text, once.text, "typing \(once.text.debugDescription) key by key")
                XCTAssertEqual(typed.value, once.value)
                // The caret ends after the suffix, typed over as a slot mask's literals are.
                XCTAssertEqual(typed.caret, once.text.count, "caret after typing \(once.text.debugDescription)")
                // Pasted whole into an empty field, the text reads the same.
                let pasted = field.apply(.insert(once.text, at: 0..<0), to: "")
                XCTAssertEqual(pasted.text, once.text, "pasting \(once.text.debugDescription)")
                XCTAssertEqual(pasted.value, once.value)
            }
        }
    }

    /// Random edits keep the caret in bounds and the text formatted, and insertions lose no digit unreported.
    func testEditProperties() {
        var rng = SeededRandom(seed: 0xC0FFEE)
        for field in fields {
            for _ in 0..<400 {
                let start = field.format(randomText(&rng, length: 12, field: field))
                let count = start.text.count
                let a = Int.random(in: 0...count, using: &rng), b = Int.random(in: 0...count, using: &rng)
                let range = min(a, b)..<max(a, b)
                let edit: FieldEdit
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: edit = .backspace(range)
                case 1: edit = .forwardDelete(range)
                default: edit = .insert(randomText(&rng, length: 4, field: field), at: range)
                }
                let after = field.apply(edit, to: start.text)
                let context = "\(edit) on \(start.text.debugDescription)"
                XCTAssertTrue(after.caret >= 0 && after.caret <= after.text.count, "caret out of bounds: \(context)")
                XCTAssertEqual(field.format(after.text).text, after.text, "result not formatted: \(context)")
                if !edit.text.isEmpty, range.isEmpty {
                    assertNoDigitLost(start.value + edit.text, after.value + after.overflow, field, context)
                }
                // A key on the prefix or the suffix alone deletes nothing, as at leading literals of a slot mask.
                let affix = Set(field.spec.prefix + field.spec.suffix)
                let key = edit.direction == .backward ? range.lowerBound - 1 : range.lowerBound
                if edit.text.isEmpty, range.isEmpty,
                    edit.direction == .backward ? range.lowerBound > 0 : range.lowerBound < count,
                    !affix.contains(Array(start.text)[key])
                {
                    XCTAssertTrue(
                        after.text != start.text || after.caret != range.lowerBound, "deletion stuck: \(context)")
                }
            }
        }
    }
}
