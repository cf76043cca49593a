import XCTest
import MaskCatalog
@testable import MaskEngine

/// Reading a long text into a field costs work linear in its length, for every kind of mask: the engine's
/// step counter (`WorkCounter`, debug builds) at n and at 10n characters, never wall time. A quadratic
/// reading (re-reading or copying what came before for each character) shows as a ratio near 100.
final class LinearReadingTests: XCTestCase {
    /// One mask of each kind the engine has: slots (lazy and eager), a `…` slot with a unit, `oneOf`,
    /// dynamic programs (card, IBAN), blocks (date, time), numbers, and every preset.
    static func masks() throws -> [(String, Mask)] {
        var specs: [(String, MaskSpec)] = [
            ("bracket", MaskSpec(.notation("+1 ([000]) [000]-[0000]"))),
            ("bracket, eager", MaskSpec(.notation("+1 ([000]) [000]-[0000]"), eager: true)),
            ("optional slots", MaskSpec(.notation("[099]-[aa9]"))),
            ("… slot", MaskSpec(.notation("[0…] kg"), eager: true)),
            (
                "oneOf",
                MaskSpec(.oneOf([MaskSpec(.notation("[000]-[000]")), MaskSpec(.notation("[0000] [0000] [00]"))]))
            ),
            ("groups", MaskSpec(.groups([4]), repeat: true)),
            (
                "range and enum blocks",
                MaskSpec(
                    .pattern("MM/YY hh"),
                    blocks: [
                        "MM": BlockSpec(.range(min: 1, max: 12)), "YY": BlockSpec(.range(min: 0, max: 99)),
                        "hh": BlockSpec(.words(["AM", "PM"])),
                    ])
            ),
            ("[…] wildcard", MaskSpec(.notation("[…]"))),
            (
                "number with every option",
                MaskSpec(
                    .number(
                        NumberSpec(
                            grouping: .lakh, min: -100, max: 1e9, prefix: "$",
                            suffix: " kg", decimalAliases: [","],
                            padFraction: true)))
            ),
        ]
        for name in Presets.names {
            specs.append((name, MaskSpec(.preset(name), region: name == "postal" ? "GB" : nil)))
        }
        return try specs.map { ($0.0, try Mask.compile($0.1)) }
    }

    /// The steps `body` costs.
    func steps(_ body: () -> Void) -> Int {
        let before = WorkCounter.steps
        body()
        return WorkCounter.steps - before
    }

    /// Pastes of digits, letters and signs mixed (so that each kind of field takes some and refuses some).
    static func paste(_ n: Int) -> String {
        let pattern = Array("4a7Z2-9x.5 8")
        return String((0..<n).map { pattern[$0 % pattern.count] })
    }

    func testReadingNCharacters_costsLinearWork_forEveryMaskKind() throws {
        try XCTSkipUnless(WorkCounter.isCounting, "the step counter counts in debug builds only")
        for (name, mask) in try Self.masks() {
            let partly = mask.format("4471").text
            let ways: [(String, (String) -> Void)] = [
                ("format", { _ = mask.format($0) }),
                ("paste into the empty field", { _ = mask.apply(.insert($0, at: 0..<0), to: "") }),
                ("paste in the middle", { _ = mask.apply(.insert($0, at: 1..<1), to: partly) }),
                ("paste over everything", { _ = mask.apply(.insert($0, at: 0..<partly.count), to: partly) }),
            ]
            for (way, read) in ways {
                let short = Self.paste(2_000), long = Self.paste(20_000)
                let small = steps { read(short) }
                let large = steps { read(long) }
                // Every character is looked at; ten times the characters cost at most about ten times the steps.
                XCTAssertGreaterThanOrEqual(small, 2_000, "\(name), \(way): the counter did not count the reading")
                XCTAssertLessThanOrEqual(
                    large, 11 * small,
                    "\(name), \(way): \(small) steps for 2,000 characters, "
                        + "\(large) for 20,000: not linear")
            }
        }
    }

    /// Past the field's end a paste's rest is sorted once, by the program whose result is kept, however many
    /// programs read it: `oneOf` reads it with every alternative, the card and the IBAN with a broad program
    /// and then the brand's, yet 20,000 more characters cost them no more steps than their winning program
    /// alone. A number field sorts its rest as a slot field does: one step a character.
    func testLongPaste_restIsSortedOnce_byEveryMaskOfSeveralPrograms() throws {
        try XCTSkipUnless(WorkCounter.isCounting, "the step counter counts in debug builds only")
        let long = Self.paste(20_000), longer = Self.paste(40_000)
        func extra(_ mask: Mask) -> Int {
            let first = steps { _ = mask.apply(.insert(long, at: 0..<0), to: "") }
            return steps { _ = mask.apply(.insert(longer, at: 0..<0), to: "") } - first
        }
        for (name, mask) in try Self.masks() {
            let programs: [Program]
            switch mask.kind {
            case .oneOf(let alternatives): programs = alternatives
            case .dynamic(let dynamic): programs = dynamic.all
            case .number:
                XCTAssertLessThanOrEqual(extra(mask), 20_000 + 100, "\(name): more than a step a character")
                continue
            case .slots, .custom: continue
            }
            let alone = programs.map { extra(Mask(spec: mask.spec, kind: .slots($0), checks: mask.checks)) }
            // An alternative whose first places refuse the paste's characters (a British VAT number's GD or HA, an
            // ISMN's M, a Costa Rican CR's leading 1) looks at every character to find one it takes, up to two steps
            // each; the kept reading alone sorts the rest. So the others add at most two steps a character each: the
            // cost stays linear in the paste, whatever the number of alternatives.
            let bound = alone.max()! + (programs.count - 1) * 40_000 + 100
            XCTAssertLessThanOrEqual(
                extra(mask), bound,
                "\(name): 20,000 more characters cost \(extra(mask)) steps, each program alone at most \(alone.max()!)")
        }
    }

    /// Pastes of digits and letters lose nothing: what the field did not keep is reported, character for
    /// character. (Separators are left out: number and phone fields drop them silently, as they show their own.)
    func testLongPaste_everyCharacterKeptOrReported() throws {
        let pattern = Array("4a7Z2x9b5Q8k3")
        let text = String((0..<50_000).map { pattern[$0 % pattern.count] })
        for (name, mask) in try Self.masks() {
            let r = mask.apply(.insert(text, at: 0..<0), to: "")
            let reported = r.rejected.count + r.overflow.count
            // At most the field's own text is unaccounted for: kept characters, and typed literals consumed.
            XCTAssertGreaterThanOrEqual(reported, text.count - r.text.count, "\(name): characters vanished")
            XCTAssertLessThanOrEqual(reported, text.count, "\(name)")
            XCTAssertLessThanOrEqual(r.text.count, 2 * Program.maximumCells, "\(name): the field outgrew its size")
            XCTAssertEqual(mask.format(r.text).text, r.text, "\(name): the result is not in form")
        }
    }
}
