import FieldTyping
import XCTest
import MaskCatalog
@testable import MaskEngine
import TestSupport

/// Random `pattern` masks with range and enum blocks, and random sessions on them.
final class BlockPropertyTests: XCTestCase {
    static let literals: [Character] = [" ", "-", "/", ":", "."]
    static let keys: [Character] = [
        "0", "1", "2", "3", "4", "5", "7", "9", "a", "p", "M", "x", "/", ":", "-", " ", "é", "１",
    ]

    /// A pattern of one to four pieces: range blocks, enum blocks and `#` slots, with literals between.
    static func randomMask(_ rng: inout SeededRandom) -> MaskSpec {
        var pattern = ""
        var blocks: [String: BlockSpec] = [:]
        for p in 0..<rng.int(1..<5) {
            if p > 0 || rng.chance(20) { pattern.append(rng.pick(literals)) }
            let name = ["B", "C", "D", "E"][p]
            switch rng.int(0..<6) {
            case 0: pattern += "#"
            case 1:
                blocks[name] = BlockSpec(.words(rng.pick([["AM", "PM"], ["Jan", "June", "July"], ["x1", "y"]])))
                pattern += name
            default:
                let high = rng.pick([1, 9, 12, 23, 31, 59, 99, 255, 2099, 9999])
                let low = rng.int(0..<(min(high, 1999) + 1))
                blocks[name] = BlockSpec(.range(min: low, max: high), pad: rng.chance(70) ? nil : false)
                pattern += name
            }
        }
        return MaskSpec(.pattern(pattern), eager: rng.chance(30), blocks: blocks)
    }

    func testRandomBlockSessions_keepEveryInvariant() {
        var rng = SeededRandom(seed: 1612)
        var masks = 0, steps = 0
        while masks < 300 {
            let spec = Self.randomMask(&rng)
            guard let mask = try? Mask.compile(spec) else { continue }
            masks += 1
            var field = TypingField(mask, "|")
            field.text = mask.format("").text
            field.selection = field.text.count..<field.text.count
            for _ in 0..<30 {
                steps += 1
                switch rng.int(0..<10) {
                case 0..<6: field.type(String(rng.pick(Self.keys)))
                case 6:
                    var text = ""
                    for _ in 0..<rng.int(1..<8) { text.append(rng.pick(Self.keys)) }
                    field.paste(text)
                case 7: field.backspace()
                case 8: field.forwardDelete()
                default:
                    let a = rng.int(0..<(field.text.count + 1)), b = rng.int(0..<(field.text.count + 1))
                    field.select(min(a, b)..<max(a, b))
                    continue
                }
                let r = field.last!
                let context =
                    "\(spec.form) \(spec.blocks!) eager \(spec.eager!): \(TypingField.mark(r.text, r.selection))"
                XCTAssertTrue(r.selection.upperBound <= r.text.count, context)
                XCTAssertEqual(mask.format(r.text).text, r.text, "not idempotent: " + context)
                let both = typedAndPasted(mask, r.text)
                XCTAssertEqual(both.typed, both.pasted, "typing != pasting: " + context)
                XCTAssertEqual(
                    mask._applyAsCharacters(.insert("1", at: r.selection), to: r.text),
                    mask.apply(.insert("1", at: r.selection), to: r.text), "byte path: " + context)
            }
        }
        XCTAssertGreaterThan(steps, 5_000)
    }

    /// Whatever is typed from empty, every range block the person completes holds a value in range:
    /// refused digits leave no trace, and padding only ever makes a value in range.
    func testTypingFromEmpty_neverCompletesAValueOutOfItsRule() {
        var rng = SeededRandom(seed: 77)
        var complete = 0
        for _ in 0..<3_000 {
            let spec = Self.randomMask(&rng)
            guard let mask = try? Mask.compile(spec), case .slots(let program) = mask.kind else { continue }
            var field = TypingField(mask, "|")
            for _ in 0..<rng.int(1..<14) { field.type(String(rng.pick(Self.keys))) }
            let r = field.last!
            let layout = program.decompose(Array(r.text)).layout
            if program.missing(in: layout) == 0 { complete += 1 }
            // (A word block may stop at a prefix that is no word, "Jun" of "June": that is reported, not refused.)
            let rangeProblems = program.blockProblems(layout).filter { !$0.contains("must be one of") }
            XCTAssertEqual(rangeProblems, [], "\(spec.form) \(spec.blocks!): \(r.text)")
        }
        XCTAssertGreaterThan(complete, 100)
    }

    /// A date typed digit by digit in any order is never an impossible day, and a refused digit changes nothing.
    func testDatesTyped_areRealDays() {
        var rng = SeededRandom(seed: 2024)
        for order in ["ymd", "dmy", "mdy"] {
            let mask = try! Mask.compile(MaskSpec(.preset("date"), order: order))
            for _ in 0..<2_000 {
                var field = TypingField(mask, "|")
                for _ in 0..<12 {
                    let before = field.text
                    let r = field.type(String(rng.pick(["0", "1", "2", "3", "9", "4", "8"] as [Character])))
                    if !r.rejected.isEmpty { XCTAssertEqual(r.text, before) }
                }
                let r = field.last!
                if r.complete { XCTAssertTrue(r.valid, "\(order): \(r.text) \(r.problems)") }
            }
        }
    }
}
