import XCTest
@testable import MaskCatalog
@testable import MaskEngine

/// The `postal` preset: every region's examples, regrouping, refusal as typed, editing, and random typing.
final class PostalTests: XCTestCase {
    func mask(_ region: String) throws -> Mask { try Mask.compile(MaskSpec(.preset("postal"), region: region)) }

    /// Types `keys` one at a time at the caret, as a person would.
    func typed(_ keys: String, into mask: Mask, from start: FieldResult? = nil) -> [FieldResult] {
        var text = start?.text ?? "", caret = start?.caret ?? text.count
        var results: [FieldResult] = []
        for key in keys {
            let r = mask.apply(.insert(String(key), at: caret..<caret), to: text)
            text = r.text
            caret = r.caret
            results.append(r)
        }
        return results
    }

    func testEveryRegionsExamples_typedThreeWays_endAsTheExample_valid_withEveryKeyAfterTheCaret() throws {
        XCTAssertEqual(PostalCodes.regions.count, 181)
        XCTAssertEqual(PostalCodes.regions, PostalMetadata.entries.keys.sorted())
        var examples = 0
        for region in PostalCodes.regions {
            let mask = try mask(region)
            for example in PostalMetadata.entries[region]!.examples {
                let bare = example.filter { $0 != " " && $0 != "-" }
                for keys in [example, bare, bare.lowercased()] {
                    let steps = typed(keys, into: mask)
                    let last = steps.last!
                    XCTAssertEqual(last.text, example, "\(region) typed \(keys)")
                    XCTAssertTrue(last.valid && last.complete, "\(region) \(keys)")
                    XCTAssertEqual(last.value, example)
                    XCTAssertEqual(last.caret, example.count)
                    for step in steps {
                        XCTAssertEqual(step.rejected, "", "\(region) \(keys): no key of an example is refused")
                        // The caret stays right after the last key typed: only separators may follow it.
                        XCTAssertTrue(
                            step.text.dropFirst(step.caret).allSatisfy { $0 == " " || $0 == "-" }
                                || step.caret == step.text.count,
                            "\(region) \(keys): caret \(step.caret) in \(step.text)")
                    }
                    XCTAssertEqual(mask.format(keys).text, example, "\(region) \(keys) pasted")
                }
                examples += 1
            }
        }
        XCTAssertGreaterThan(examples, 400)
    }

    func testRegroupsAsTheCodeBecomesClear_andTheCaretStaysAfterTheKeyTyped() throws {
        let gb = try mask("GB")
        XCTAssertEqual(typed("m34", into: gb).map(\.text), ["M", "M3", "M34"])
        // A letter fourth rules out the outward code M34: it is M3, and the inward code begins.
        let after = typed("a", into: gb, from: gb.format("M34")).last!
        XCTAssertEqual(after.text, "M3 4A")
        XCTAssertEqual(after.caret, 5)
        XCTAssertEqual(typed("w11a", into: gb).last!.text, "W1 1A")
        XCTAssertEqual(
            typed("sw1a1aa", into: gb).map(\.text), ["S", "SW", "SW1", "SW1A", "SW1A 1", "SW1A 1A", "SW1A 1AA"])
        let cr = try mask("CR")
        XCTAssertEqual(
            typed("1234567", into: cr).map(\.text), ["1", "12", "123", "1234", "12345", "123-456", "123-4567"])
        XCTAssertEqual(typed("403011100", into: try mask("BR")).last!.text, "40301-110")
        XCTAssertEqual(typed("403011100", into: try mask("BR")).last!.overflow, "0", "a code no key extends: cut")
        XCTAssertEqual(typed("k1a0b1", into: try mask("ca")).last!.text, "K1A 0B1", "the region in either case")
    }

    func testCharactersNoCodeCanHoldThere_areRefusedAsTyped_separatorsSteppedOver() throws {
        let gb = try mask("GB")
        let refused = gb.apply(.insert("1", at: 0..<0), to: "")
        XCTAssertEqual(refused.text, "")
        XCTAssertEqual(refused.rejected, "1", "no GB code starts with a digit")
        let ca = try mask("CA")
        let space = ca.apply(.insert(" ", at: 3..<3), to: "K1A")
        XCTAssertEqual(space.text, "K1A")
        XCTAssertEqual(space.rejected, "", "a separator is stepped over, not refused")
        XCTAssertEqual(typed("K1A 0B1", into: ca).last!.text, "K1A 0B1")
        XCTAssertEqual(ca.apply(.insert("D", at: 0..<0), to: "").rejected, "D", "CA codes do not start with D")
        let us = try mask("US")
        let plus4 = typed("950141", into: us).last!
        XCTAssertEqual(plus4.text, "95014-1")
        XCTAssertFalse(plus4.valid)
        XCTAssertEqual(plus4.problems, ["too short"])
        XCTAssertEqual(us.format("95014").valid, true)
        XCTAssertEqual(us.format("95014").next, .digit, "ZIP+4 may follow")
        XCTAssertEqual(gb.format("SW1A 1AA").next, nil)
        XCTAssertEqual(gb.format("M34").next, .alnum)
        let pasted = gb.format("ec1y-8sy, London")
        XCTAssertEqual(pasted.text, "EC1Y 8SY")
        XCTAssertEqual(pasted.rejected, ",")
        XCTAssertEqual(pasted.overflow, "London", "what is cut is reported as typed")
        XCTAssertEqual(gb.apply(.insert("1", at: 0..<0), to: "").rejected, "1")
        XCTAssertEqual(try mask("CA").apply(.insert("d", at: 0..<0), to: "").rejected, "d")
    }

    func testDeleting_overASeparator_removesTheKeyBeforeIt_andTheRestRegroups() throws {
        let gb = try mask("GB")
        let back = gb.apply(.backspace(5..<5), to: "SW1A 1AA")
        XCTAssertEqual(back.text, "SW1 1AA")
        XCTAssertEqual(back.caret, 3)
        let forward = gb.apply(.forwardDelete(4..<4), to: "SW1A 1AA")
        // The inward code's digit deleted, its letters fit nowhere after SW1A: they are cut, and reported.
        XCTAssertEqual(forward.text, "SW1A")
        XCTAssertEqual(forward.overflow, "AA")
        XCTAssertEqual(forward.caret, 4)
        let jp = try mask("JP")
        let last = jp.apply(.backspace(8..<8), to: "154-0023")
        XCTAssertEqual(last.text, "154-002")
        XCTAssertEqual(
            jp.apply(.backspace(4..<4), to: "154-0").text, "150",
            "a backspace after a separator takes the key before it")
        // An insertion that no code can hold there is refused whole: text and selection stay.
        let middle = jp.apply(.insert("x", at: 2..<2), to: "154-0023")
        XCTAssertEqual(middle.text, "154-0023")
        XCTAssertEqual(middle.selection, 2..<2)
        XCTAssertEqual(middle.rejected, "x")
    }

    func testErrors_unknownOrMissingRegion_andOtherOptions() {
        XCTAssertThrowsError(try mask("XX")) {
            XCTAssertTrue("\($0)".contains("unknown region 'XX' for the postal preset"))
        }
        XCTAssertThrowsError(try Mask.compile(MaskSpec(.preset("postal")))) {
            XCTAssertTrue("\($0)".contains("needs a region"))
        }
        XCTAssertThrowsError(try Mask.compile(MaskSpec(.preset("postal"), eager: true, region: "GB")))
        XCTAssertThrowsError(try Mask.compile(MaskSpec(.preset("card"), region: "GB")))
    }

    /// Random keys typed into random regions: every text is the start of a code of the region, shown as the
    /// field shows it (formatting it again changes nothing), complete exactly when the region's pattern matches
    /// it whole, and every key typed is read in, refused or cut, never lost.
    func testRandomTyping_textIsAlwaysTheStartOfACode_andFormattingItAgainChangesNothing() throws {
        var generator = SystemRandomNumberGenerator()
        let keys = Array("0123456789ABCDEFGHJKLMNPRSTUVWXYZ -abc")
        let regions = PostalCodes.regions
        for _ in 0..<400 {
            let region = regions.randomElement(using: &generator)!
            let mask = try mask(region)
            let validity = PostalMetadata.region(region)!.validity
            var text = "", caret = 0
            for _ in 0..<12 {
                let key = String(keys.randomElement(using: &generator)!)
                let position = Int.random(in: 0...caret, using: &generator)
                let r = mask.apply(.insert(key, at: position..<position), to: text)
                let read = r.text.filter { $0 != " " && $0 != "-" }.count - text.filter { $0 != " " && $0 != "-" }.count
                let isSeparator = key == " " || key == "-"
                XCTAssertTrue(
                    isSeparator || read == 1 || r.rejected == key || !r.overflow.isEmpty,
                    "\(region): \(key) into \(text) gave \(r.text)")
                text = r.text
                caret = r.caret
                XCTAssertEqual(mask.format(text).text, text, "\(region): \(text) is in form")
                XCTAssertEqual(r.complete, validity.matches(text), "\(region): \(text)")
                XCTAssertEqual(r.valid, r.complete)
            }
        }
    }
}
