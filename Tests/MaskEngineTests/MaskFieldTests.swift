import FieldTyping
import XCTest
import MaskCatalog
@testable import MaskEngine
import TestSupport

/// A `MaskField` gives exactly the stateless `Mask.apply`'s results, over random masks of every kind
/// and random editing sessions, including callers whose text is not the one the handle produced.
final class MaskFieldTests: XCTestCase {
    /// Keys for the presets: mostly digits, some letters and separators, a non-ASCII digit.
    static let presetKeys: [Character] = [
        "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "4", "5", "2", "+", " ",
        "-", "A", "b", "G", "x", "１", "/", ".", ",",
    ]

    /// The masks of every kind, with the keys their sessions type.
    static func randomMask(_ rng: inout SeededRandom) -> (spec: MaskSpec, keys: [Character])? {
        let bracketKeys = PropertyTests.typeable + PropertyTests.literals
        switch rng.int(0..<14) {
        case 0..<3:
            let (notation, eager) = PropertyTests.randomMask(&rng)
            return (MaskSpec(.notation(notation), eager: eager), bracketKeys)
        case 3:
            let a = PropertyTests.randomMask(&rng), b = PropertyTests.randomMask(&rng)
            return (MaskSpec(.oneOf([.notation(a.notation), .notation(b.notation)]), eager: a.eager), bracketKeys)
        case 4:
            return (BlockPropertyTests.randomMask(&rng), BlockPropertyTests.keys)
        case 5:
            let (notation, eager) = PropertyTests.randomMask(&rng)
            let regex = rng.pick(["^1", "(12)*", "[0-9a-z]*7?", "^[^2]*$"])
            return (MaskSpec(.notation(notation), eager: eager, regex: regex), bracketKeys)
        case 6:
            let number = NumberSpec(
                group: rng.pick([",", " ", ""]), decimal: rng.pick([".", ","]),
                fraction: rng.int(0..<3), negative: rng.chance(50))
            return (MaskSpec(.number(number)), presetKeys)
        case 7:
            return (MaskSpec(.preset("phone"), region: rng.pick([nil, "US", "GB", "CN", "DE", "RU"])), presetKeys)
        case 12, 13:
            // Overwrite, right-to-left and definitions, drawn at random.
            return ModeTests.randomSpec(&rng).map { ($0, ModeTests.keys) }
        default:
            let name = rng.pick([
                "card", "card", "iban", "phone.us", "phone.cn", "bankcard.cn", "id.cn", "date",
                "time", "expiry", "amount",
            ])
            return (MaskSpec(.preset(name)), presetKeys)
        }
    }

    func testRandomSessions_equalTheStatelessPath() {
        var rng = SeededRandom(seed: 20261204)
        var masks = 0, steps = 0
        while masks < 400 {
            guard let (spec, keys) = Self.randomMask(&rng), let mask = try? Mask.compile(spec) else { continue }
            masks += 1
            var handle = MaskField(mask)
            var text = "", selection = 0..<0
            // Every result of the session, with its value read when it was made: a result's value is written
            // when read, from cells the handle may build the next edit's in, so it must not change later.
            var results: [(FieldResult, value: String)] = []
            if rng.chance(50) {
                let start = String((0..<rng.int(0..<12)).map { _ in rng.pick(keys) })
                let expected = mask.format(start)
                XCTAssertEqual(handle.format(start), expected, "\(spec): format \(start)")
                (text, selection) = (expected.text, expected.selection)
            }
            for _ in 0..<40 {
                steps += 1
                let count = text.count
                var edit: FieldEdit
                switch rng.int(0..<20) {
                case 0..<9:
                    edit = .insert(String(rng.pick(keys)), at: selection)
                case 9, 10:
                    edit = .insert(String((0..<rng.int(1..<14)).map { _ in rng.pick(keys) }), at: selection)
                case 11..<14:
                    edit = .backspace(
                        selection.isEmpty ? max(selection.lowerBound - 1, 0)..<selection.lowerBound : selection)
                case 14:
                    edit = .forwardDelete(
                        selection.isEmpty
                            ? selection.lowerBound..<min(selection.lowerBound + 1, count)
                            : selection)
                case 15:
                    // A refused insertion elsewhere than the selection gives the selection back.
                    let at = rng.int(0..<(count + 1))
                    edit = .insert(String(rng.pick(keys)), at: at..<at)
                    edit.selection = selection
                default:
                    // The caret moves or a selection is made; the next edit uses it.
                    let a = rng.int(0..<(count + 1)), b = rng.int(0..<(count + 1))
                    selection = rng.chance(50) ? a..<a : min(a, b)..<max(a, b)
                    continue
                }
                // Now and then the caller's text is another than the handle's (an undo, a change the
                // editor made): the handle must read it again.
                if rng.chance(5) {
                    text = String((0..<rng.int(0..<10)).map { _ in rng.pick(keys) })
                    edit.range = min(edit.range.lowerBound, text.count)..<min(edit.range.upperBound, text.count)
                }
                let expected = mask.apply(edit, to: text)
                let got = rng.chance(10) || text != handle.text ? handle.apply(edit, to: text) : handle.apply(edit)
                XCTAssertEqual(got, expected, "\(spec): \(TypingField.mark(text, selection)) edit \(edit)")
                if got != expected { break }
                results.append((got, expected.value))
                XCTAssertEqual(handle.text, expected.text)
                XCTAssertEqual(handle.selection, expected.selection)
                (text, selection) = (expected.text, expected.selection)
            }
            for (kept, value) in results where kept.value != value {
                XCTFail("\(spec): a result kept through the session reads \(kept.value), not \(value)")
                break
            }
        }
        XCTAssertGreaterThan(steps, 10_000)
    }

    /// Typing a whole card number and deleting in its middle, key by key, as an editor field does.
    func testCardTypedAndEdited_equalsTheStatelessPath() throws {
        for spec in [MaskSpec(.preset("card")), MaskSpec(.notation("[0000] [0000] [0000] [0000] [999]"))] {
            let mask = try Mask.compile(spec)
            var handle = MaskField(mask)
            var text = ""
            var caret = 0
            for digit in "6222020000001234567" {
                let edit = FieldEdit.insert(String(digit), at: caret..<caret)
                let expected = mask.apply(edit, to: text)
                XCTAssertEqual(handle.apply(edit), expected)
                (text, caret) = (expected.text, expected.caret)
            }
            XCTAssertEqual(handle.text, "6222 0200 0000 1234 567")
            let edit = FieldEdit.backspace(6..<7)
            let expected = mask.apply(edit, to: text)
            XCTAssertEqual(expected.text, "6222 0000 0001 2345 67")
            XCTAssertEqual(handle.apply(edit), expected)
            XCTAssertEqual(
                handle.apply(.backspace(4..<5), to: "6222 0200"), mask.apply(.backspace(4..<5), to: "6222 0200"))
        }
    }

    /// A copy of a handle is a field of its own: editing one never changes what the other gives.
    func testCopiedHandles_stayIndependent() throws {
        let mask = try Mask.compile(MaskSpec(.preset("card")))
        var first = MaskField(mask)
        _ = first.format("4000 1234 5678")
        var second = first
        let typed = first.apply(.insert("9", at: 14..<14))
        XCTAssertEqual(typed, mask.apply(.insert("9", at: 14..<14), to: "4000 1234 5678"))
        let deleted = second.apply(.backspace(6..<7))
        XCTAssertEqual(deleted, mask.apply(.backspace(6..<7), to: "4000 1234 5678"))
        XCTAssertEqual(first.apply(.backspace(0..<1)), mask.apply(.backspace(0..<1), to: typed.text))
        XCTAssertEqual(second.apply(.insert("1", at: 0..<0)), mask.apply(.insert("1", at: 0..<0), to: deleted.text))
    }
}
