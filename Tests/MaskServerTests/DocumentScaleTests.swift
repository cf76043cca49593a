// maskd tests: a keystroke costs the same in a 10 MB document with 100,000 fields as in one line.
import Foundation
import MaskEngine
@testable import MaskServer
import XCTest

final class DocumentScaleTests: XCTestCase {
    /// Opens `fieldCount` phone fields, one per line every other line, and types in the middle.
    func keystrokeTime(lines lineCount: Int, fields fieldCount: Int) throws -> TimeInterval {
        let filler = String(repeating: "x", count: 40)
        var text = ""
        text.reserveCapacity(lineCount * 52)
        for i in 0..<lineCount { text += "Tel: \(filler)\(i % 10)\n" }
        let document = Document(uri: "file:///big", languageId: "", version: 1, text: text, encoding: .utf16)
        let mask = try Mask.compile("+1 ([000]) [000]-[0000]")
        let step = max(1, lineCount / max(1, fieldCount))
        for i in 0..<fieldCount {
            _ = document.openField(id: "f\(i)", line: i * step, start: 5, end: 5, spec: .notation("+1 ([000]) [000]-[0000]"),
                                   mask: mask)
        }
        let line = (fieldCount / 2) * step
        var version = 2
        let start = Date()
        for k in 0..<200 {
            // Type a digit at the field's start, then delete it: the line comes back each time.
            version += 1
            _ = try document.apply([ContentChange(range: TextRange(start: Position(line: line, character: 5),
                                                                   end: Position(line: line, character: 5)), text: "5")],
                                   version: version)
            version += 1
            _ = try document.apply([ContentChange(range: TextRange(start: Position(line: line, character: 5),
                                                                   end: Position(line: line, character: 6)), text: "")],
                                   version: version)
            if k == 0 { XCTAssertEqual(document.lines[line].fields.first?.id, "f\(fieldCount / 2)") }
        }
        // A line inserted at the top moves every field down, in O(log n).
        version += 1
        _ = try document.apply([ContentChange(range: TextRange(start: Position(line: 0, character: 0),
                                                               end: Position(line: 0, character: 0)), text: "top\n")],
                               version: version)
        XCTAssertEqual(document.lines.lineOfField("f\(fieldCount - 1)"), (fieldCount - 1) * step + 1)
        return Date().timeIntervalSince(start)
    }

    func testKeystroke_in10MBDocumentWith100000Fields_costsAboutAsMuchAsInOneLine() throws {
        let small = try keystrokeTime(lines: 1, fields: 1)
        let big = try keystrokeTime(lines: 200_000, fields: 100_000)
        print("400 keystrokes: one line \(small) s, 200,000 lines / 100,000 fields \(big) s")
        // Logarithmic structures: a generous bound that a linear rescan (200,000 lines per
        // keystroke) could never meet.
        XCTAssertLessThan(big, small * 4 + 0.05)
    }

    func testLineTree_replaceAndLookup_matchAnArray() {
        var model = (0..<50).map { Line(text: "l\($0)", ending: .lf) }
        let tree = LineTree(model)
        var seed: UInt64 = 42
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        for round in 0..<500 {
            let a = next(model.count), b = min(model.count, a + next(4))
            let new = (0..<next(4)).map { Line(text: "r\(round).\($0)", ending: .lf, fields: [FieldSpan(id: "r\(round).\($0)", start: 0, end: 1)]) }
            let removed = tree.replace(a..<b, with: new)
            XCTAssertEqual(removed, Array(model[a..<b]))
            model.replaceSubrange(a..<b, with: new)
            if model.isEmpty {
                model = [Line(text: "", ending: .none)]
                tree.replace(0..<0, with: model)
            }
        }
        XCTAssertEqual(tree.lines, model)
        for (i, line) in model.enumerated() {
            for field in line.fields { XCTAssertEqual(tree.lineOfField(field.id), i) }
        }
        var seen: [Int] = []
        tree.forEachLineWithFields { index, _ in seen.append(index) }
        XCTAssertEqual(seen, model.indices.filter { !model[$0].fields.isEmpty })
    }

    func testTextDiff_editsTurnOldIntoNew() {
        let pairs = [("1234 5678 9", "1235 6789"), ("", "abc"), ("abc", ""), ("+1 (5551", "+1 (555) 1"), ("same", "same"),
                     ("4111 1111 1111 111", "4111 111111 11111")]
        for (old, new) in pairs {
            var result = Array(old)
            let newChars = Array(new)
            for d in TextDiff.edits(Array(old), newChars).reversed() {
                result.replaceSubrange(d.start..<d.end, with: newChars[d.newStart..<d.newEnd])
            }
            XCTAssertEqual(String(result), new)
        }
        XCTAssertEqual(TextDiff.edits(Array("+1 (5551"), Array("+1 (555) 1")).count, 1)
    }
}
