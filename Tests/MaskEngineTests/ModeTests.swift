import FieldTyping
import XCTest
import MaskCatalog
@testable import MaskEngine
import TestSupport

/// The modes of `Protocol/masks.md`: overwrite, right-to-left and definitions, by the cases a person sees,
/// and the engine's properties over random masks in every mode.
final class ModeTests: XCTestCase {
    static let mac = MaskSpec(
        .notation("[HH]:[HH]:[HH]:[HH]:[HH]:[HH]"), letterCase: .upper, definitions: ["H": "[0-9A-F]"])

    func testOverwrite_replacesInAFullFieldAndAppendsPastTheEnd() throws {
        let mask = try Mask.compile(MaskSpec(.groups([4, 4, 4, 4]), overwrite: true))
        let full = "1111 2222 3333 4444"
        XCTAssertEqual(marked(mask.apply(.insert("9", at: 0..<0), to: full)), "9|111 2222 3333 4444")
        // Before a separator the typed digit steps over it and replaces the digit after it.
        XCTAssertEqual(marked(mask.apply(.insert("9", at: 4..<4), to: full)), "1111 9|222 3333 4444")
        // A paste replaces as many entered characters as it brings; nothing is cut.
        let pasted = mask.apply(.insert("98", at: 5..<5), to: full)
        XCTAssertEqual(marked(pasted), "1111 98|22 3333 4444")
        XCTAssertEqual(pasted.overflow, "")
        // Past the last entered character it appends.
        XCTAssertEqual(marked(mask.apply(.insert("98", at: 7..<7), to: "1111 22")), "1111 2298|")
        // A selection is replaced as without overwrite.
        XCTAssertEqual(marked(mask.apply(.insert("7", at: 0..<9), to: full)), "7|333 3444 4")
        // The default stays insertion: the last digit is cut.
        let inserting = try Mask.compile(MaskSpec(.groups([4, 4, 4, 4])))
        XCTAssertEqual(inserting.apply(.insert("9", at: 0..<0), to: full).overflow, "4")
    }

    func testRightToLeft_fillsFromTheEnd() throws {
        let mask = try Mask.compile(MaskSpec(.notation("[000] [000] [000]"), rightToLeft: true))
        let cases = [
            "1": "1", "1234": "1 234", "123456": "123 456", "1234567": "1 234 567", "123456789": "123 456 789",
        ]
        for (typed, shown) in cases {
            let r = mask.format(typed)
            XCTAssertEqual(r.text, shown)
            XCTAssertEqual(r.value, typed)
            XCTAssertEqual(r.caret, shown.count)
            XCTAssertEqual(r.mask, "[000] [000] [000]")
        }
        XCTAssertEqual(mask.format("1234").placeholder, "___ __")
        // A full field cuts at its start.
        XCTAssertEqual(mask.format("1234567890").text, "234 567 890")
        XCTAssertEqual(mask.format("1234567890").overflow, "1")
        var field = TypingField(mask)
        field.type("1234")
        check(field, "1 234|")
        field.backspace()
        check(field, "123|")
        field.select(1..<1)
        field.type("9")
        check(field, "1 9|23")
        field.backspace()
        check(field, "1|23")
        field.select(0..<0)
        field.forwardDelete()
        check(field, "|23")
    }

    func testRightToLeft_overwriteReadsInReadingOrder() throws {
        let mask = try Mask.compile(MaskSpec(.notation("[000] [000] [000]"), overwrite: true, rightToLeft: true))
        XCTAssertEqual(marked(mask.apply(.insert("0", at: 0..<0), to: "123 456 789")), "0|23 456 789")
        XCTAssertEqual(marked(mask.apply(.insert("00", at: 4..<4), to: "123 456 789")), "123 00|6 789")
        XCTAssertEqual(marked(mask.apply(.insert("5", at: 5..<5), to: "1 234")), "12 345|")
    }

    func testDefinitions_macAddressWithCase() throws {
        let mask = try Mask.compile(Self.mac)
        let r = mask.format("001a2b3c4d5e")
        XCTAssertEqual(r.text, "00:1A:2B:3C:4D:5E")
        XCTAssertEqual(r.value, "001A2B3C4D5E")
        XCTAssertTrue(r.complete)
        XCTAssertEqual(r.mask, "[HH]:[HH]:[HH]:[HH]:[HH]:[HH]")
        XCTAssertEqual(mask.apply(.insert("g", at: 2..<2), to: "00").rejected, "g")
        XCTAssertEqual(mask.format("0").next, .alnum)
        // Without `case`, lower-case letters are not in the class.
        let strict = try Mask.compile(MaskSpec(.notation("[HH]"), definitions: ["H": "[0-9A-F]"]))
        XCTAssertEqual(strict.format("aB").text, "B")
    }

    func testDefinitions_optionalSlotAndOtherForms() throws {
        let mask = try Mask.compile(MaskSpec(.notation("[0][hh]"), definitions: ["h": "[a-z]?"]))
        XCTAssertEqual(mask.format("1").text, "1")
        XCTAssertTrue(mask.format("1").complete)
        XCTAssertEqual(mask.format("1ab").text, "1ab")
        XCTAssertEqual(mask.format("1ab").next, nil)
        let pattern = try Mask.compile(MaskSpec(.pattern("HH-HH"), definitions: ["H": "[0-9a-f]"]))
        XCTAssertEqual(pattern.format("beef").text, "be-ef")
        var groups = MaskSpec(.groups([2, 2]), separator: ":", definitions: ["H": "[0-9A-F]"])
        groups.acceptDefinition = "H"
        XCTAssertEqual(try Mask.compile(groups).format("C0FE").text, "C0:FE")
    }

    func testDefinitions_refuseABuiltInCharacterWithItsOffset() {
        XCTAssertThrowsError(try Mask.compile(MaskSpec(.notation("[A]-[0]"), definitions: ["0": "[a-f]"]))) { error in
            let error = error as! MaskError
            XCTAssertEqual(error.offset, 5)
            XCTAssertTrue(error.message.contains("built-in"), error.message)
        }
        XCTAssertThrowsError(try Mask.compile(MaskSpec(.notation("[H]"), definitions: ["H": "[a-f]+"])))
        XCTAssertThrowsError(try Mask.compile(MaskSpec(.notation("[0…]"), rightToLeft: true)))
        XCTAssertThrowsError(try Mask.compile(MaskSpec(.preset("card"), rightToLeft: true)))
        XCTAssertThrowsError(try Mask.compile(MaskSpec(.preset("amount"), overwrite: true)))
    }

    // MARK: - Properties in every mode

    static let slotCharacters: [Character] = ["0", "9", "A", "a", "_", "-", "X", "H", "h"]
    static let keys: [Character] =
        ["1", "2", "7", "0", "a", "B", "f", "x", "X", "é", "１", "?"] + PropertyTests.literals

    /// A random bracket mask with random modes; nil when it does not compile (an ambiguous one).
    static func randomSpec(_ rng: inout SeededRandom) -> MaskSpec? {
        var notation = ""
        for p in 0..<rng.int(1..<4) {
            if rng.chance(60) || p == 0 {
                for _ in 0..<rng.int(0..<3) { notation.append(rng.pick(PropertyTests.literals)) }
            }
            if rng.chance(15) { notation += "{" + String(rng.pick(PropertyTests.literals)) + "}" }
            notation += "["
            for _ in 0..<rng.int(1..<5) { notation.append(rng.pick(slotCharacters)) }
            notation += "]"
        }
        if rng.chance(30) { notation.append(rng.pick(PropertyTests.literals)) }
        let spec = MaskSpec(
            .notation(notation), eager: rng.chance(25), letterCase: rng.pick([nil, .upper, .lower]),
            overwrite: rng.chance(50), rightToLeft: rng.chance(50),
            definitions: ["H": "[0-9A-F]", "h": "[a-z]?"])
        return (try? Mask.compile(spec)) == nil ? nil : spec
    }

    /// The kinds of the slots of a notation: digits (`0 9`), letters (`A a`), alnum (`_ -`), or the character itself.
    static func slotKinds(_ spec: MaskSpec) -> Set<Character> {
        guard case .notation(let notation) = spec.form else { return [] }
        var kinds = Set<Character>(), inside = false
        for c in notation {
            if c == "[" {
                inside = true
            } else if c == "]" {
                inside = false
            } else if c == "{" || c == "}" {
                continue
            } else if inside {
                kinds.insert(["9": "0", "a": "A", "-": "_"][c] ?? c)
            }
        }
        return kinds
    }

    func testRandomSessionsInEveryMode_keepTheEngineProperties() throws {
        var rng = SeededRandom(seed: 38_2026)
        var masks = 0, steps = 0
        while masks < 300 {
            guard let spec = Self.randomSpec(&rng) else { continue }
            let mask = try Mask.compile(spec)
            masks += 1
            var field = TypingField(mask)
            field.text = mask.format("").text
            field.selection = field.text.count..<field.text.count
            for _ in 0..<30 {
                steps += 1
                let before = field.marked
                switch rng.int(0..<10) {
                case 0..<5: field.type(String(rng.pick(Self.keys)))
                case 5: field.paste(String((0..<rng.int(1..<10)).map { _ in rng.pick(Self.keys) }))
                case 6, 7: field.backspace()
                case 8: field.forwardDelete()
                default:
                    let a = rng.int(0..<(field.text.count + 1)), b = rng.int(0..<(field.text.count + 1))
                    field.select(min(a, b)..<max(a, b))
                    continue
                }
                let r = field.last!
                let context = "\(spec): \(before) -> \(TypingField.mark(r.text, r.selection))"
                XCTAssertTrue(
                    r.selection.lowerBound >= 0 && r.selection.upperBound <= r.text.count, "caret: " + context)
                let again = mask.format(r.text)
                XCTAssertEqual(again.text, r.text, "not idempotent: " + context)
                XCTAssertEqual(again.value, r.value, "does not read back: " + context)
                XCTAssertEqual(again.complete, r.complete, "does not read back: " + context)
                // Typed key by key at the end of a right-to-left field, each key goes into the last slot and the
                // others move left: that equals pasting when every slot takes the same characters.
                if spec.rightToLeft != true || Self.slotKinds(spec).count == 1 && spec.overwrite != true {
                    let both = typedAndPasted(mask, r.text)
                    XCTAssertEqual(both.typed, both.pasted, "typing != pasting: " + context)
                }
                if spec.overwrite == true, spec.rightToLeft != true, r.selection.isEmpty,
                    case .notation(let notation) = spec.form,
                    !notation.contains(where: { "Aah".contains($0) })
                {
                    // Overwriting key by key at the caret equals pasting the keys there, where every slot takes
                    // every key (else a key refused in one place is read in at another).
                    let keys = String((0..<rng.int(1..<4)).map { _ in rng.pick(["1", "7", "3"] as [Character]) })
                    var typed = TypingField(mask)
                    (typed.text, typed.selection) = (r.text, r.selection)
                    var pasted = typed
                    typed.type(keys)
                    pasted.paste(keys)
                    XCTAssertEqual(typed.text, pasted.text, "overwrite: typing \(keys) != pasting it: " + context)
                }
            }
        }
        XCTAssertGreaterThan(steps, 5_000)
    }
}
