import XCTest
import MaskCatalog
@testable import MaskEngine
import TestSupport

/// A long paste into a mask of several programs (`oneOf`, the card brands, the IBAN countries) is read by
/// each program it tries, but the rest after the field is full is sorted once, by the program that wins:
/// the result must be exactly what that program gives alone, `rejected` and `overflow` included.
final class LongPasteProgramsTests: XCTestCase {
    /// A paste of `length` characters: mostly what the masks take (digits, letters), some they refuse.
    static func paste(_ rng: inout SeededRandom, _ length: Int, from alphabet: [Character]) -> String {
        String((0..<length).map { _ in rng.pick(alphabet) })
    }

    static let lengths = [0, 1, 7, 40, 300, 5_000]

    /// The parts of a result that reading decides (the problems of a dynamic mask are its own).
    static func read(_ r: FieldResult) -> [String] {
        [r.text, "\(r.selection)", r.value, "\(r.complete)", r.mask, r.rejected, r.overflow]
    }

    func testOneOf_longPaste_isWhatTheWinningAlternativeGivesAlone() {
        var rng = SeededRandom(seed: 2112)
        var compared = 0
        // Alternatives of different slot classes sort the same rest differently (a letter is overflow for
        // `[AAA]`, rejected for `[000]`), so a rest sorted by the wrong program shows.
        let alphabet = PropertyTests.typeable + PropertyTests.literals + ["5", "q", "Z"]
        while compared < 600 {
            let alternatives = (0..<rng.int(2..<4)).map { _ in PropertyTests.randomMask(&rng) }
            let eager = alternatives[0].eager
            guard
                let mask = try? Mask.compile(
                    MaskSpec(.oneOf(alternatives.map { .notation($0.notation) }), eager: eager)),
                let alone = try? alternatives.map({ try Mask.compile(MaskSpec(.notation($0.notation), eager: eager)) })
            else { continue }
            for length in Self.lengths {
                let text = Self.paste(&rng, length, from: alphabet)
                for (way, r, byItself) in [
                    (
                        "paste", mask.apply(.insert(text, at: 0..<0), to: ""),
                        { (m: Mask) in m.apply(.insert(text, at: 0..<0), to: "") }
                    ),
                    ("format", mask.format(text), { (m: Mask) in m.format(text) }),
                ] {
                    let context =
                        "oneOf \(alternatives.map(\.notation)) eager \(eager), \(way) of \(length): \(text.prefix(40))"
                    guard let winner = alone.first(where: { $0.notation == r.mask }) else {
                        XCTFail("no alternative is \(r.mask): " + context)
                        continue
                    }
                    XCTAssertEqual(Self.read(r), Self.read(byItself(winner)), context)
                    compared += 1
                }
            }
        }
    }

    func testCardAndIBAN_longPaste_isWhatTheChosenProgramGivesAlone() throws {
        var rng = SeededRandom(seed: 1221)
        let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]
        for preset in ["card", "iban"] {
            let mask = try Mask.compile(MaskSpec(.preset(preset)))
            guard case .dynamic(let dynamic) = mask.kind else { return XCTFail("\(preset) is not a dynamic mask") }
            // Brand and country prefixes, then digits, letters and what no slot takes.
            let starts = ["4", "34", "36", "5", "6", "62", "GB82WEST", "DE89", "FR14", "NL91ABNA", "x", ""]
            let alphabet = digits + digits + ["A", "b", "Q", " ", "-", "é", "😀", "?"]
            for start in starts {
                for length in Self.lengths {
                    let text = start + Self.paste(&rng, length, from: alphabet)
                    for (way, r, byItself) in [
                        (
                            "paste", mask.apply(.insert(text, at: 0..<0), to: ""),
                            { (m: Mask) in m.apply(.insert(text, at: 0..<0), to: "") }
                        ),
                        ("format", mask.format(text), { (m: Mask) in m.format(text) }),
                    ] {
                        let context = "\(preset), \(way) of \(text.count): \(text.prefix(40))"
                        guard let program = dynamic.all.first(where: { $0.notation == r.mask }) else {
                            XCTFail("no program is \(r.mask): " + context)
                            continue
                        }
                        let alone = Mask(spec: mask.spec, kind: .slots(program), checks: mask.checks)
                        XCTAssertEqual(Self.read(r), Self.read(byItself(alone)), context)
                    }
                }
            }
        }
    }

    /// A `Character` of one ASCII byte is sorted by the byte path's table (`asciiByte`): every slot class takes
    /// it exactly as it takes that byte, in every letter case.
    func testASCIICharacters_fitAsTheirBytes() {
        for byte in UInt8(0)..<0x80 {
            let character = Character(Unicode.Scalar(byte))
            XCTAssertEqual(character.asciiByte, byte == 0x0D ? nil : byte, "\(byte)")
            guard character.asciiByte != nil else { continue }
            for slotClass in [SlotClass.digit, .letter, .alnum, .digitX, .any] {
                for letterCase in [LetterCase?.none, .upper, .lower] {
                    XCTAssertEqual(
                        byte.fit(slotClass, letterCase).map { Character(Unicode.Scalar($0)) },
                        character.fit(slotClass, letterCase),
                        "byte \(byte), \(slotClass), \(String(describing: letterCase))")
                }
            }
        }
    }

    /// The bytes of a long ASCII paste are sorted by a table; the `Character` path sorts one at a time.
    func testLongASCIIPaste_bytePathEqualsCharacterPath() {
        var rng = SeededRandom(seed: 777)
        let ascii: [Character] = [
            "1", "2", "7", "0", "a", "B", "x", "X", "?", " ", "-", "(", ")", "+", ".", "/", "\n", "~",
        ]
        var compared = 0
        while compared < 300 {
            let (notation, eager) = PropertyTests.randomMask(&rng)
            guard let mask = try? Mask.compile(MaskSpec(.notation(notation), eager: eager)) else { continue }
            let text = Self.paste(&rng, rng.int(100..<6_000), from: ascii)
            let field = mask.format(Self.paste(&rng, rng.int(0..<6), from: ascii)).text
            let at = rng.int(0..<(field.count + 1))
            let edit = FieldEdit.insert(text, at: at..<at)
            XCTAssertEqual(
                mask.apply(edit, to: field), mask._applyAsCharacters(edit, to: field),
                "mask \(notation) eager \(eager), field \(field), paste at \(at) of \(text.prefix(40))")
            compared += 1
        }
    }
}
