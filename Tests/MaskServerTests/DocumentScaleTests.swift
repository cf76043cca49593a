// maskd tests: typing in a 10 MB document with 100,000 fields tracks every field right.
// (How fast it is, against a one-line document, is the benchmark's to measure: bench/run, row 3.)
import Foundation
import MaskEngine
@testable import MaskServer
import XCTest

final class DocumentScaleTests: XCTestCase {
    /// Opens `fieldCount` phone fields, one per line every other line, and types in the middle.
    func typeInTheMiddle(lines lineCount: Int, fields fieldCount: Int) throws {
        let filler = String(repeating: "x", count: 40)
        var text = ""
        text.reserveCapacity(lineCount * 52)
        for i in 0..<lineCount { text += "Tel: \(filler)\(i % 10)\n" }
        let document = Document(uri: "file:///big", languageId: "", version: 1, text: text, encoding: .utf16)
        let mask = try Mask.compile("+1 ([000]) [000]-[0000]")
        let step = max(1, lineCount / max(1, fieldCount))
        for i in 0..<fieldCount {
            _ = document.openField(
                id: "f\(i)", line: i * step, start: 5, end: 5, spec: .notation("+1 ([000]) [000]-[0000]"),
                mask: mask)
        }
        let line = (fieldCount / 2) * step
        var version = 2
        for k in 0..<200 {
            // Type a digit at the field's start, then delete it: the line comes back each time.
            version += 1
            _ = try document.apply(
                [
                    ContentChange(
                        range: TextRange(
                            start: Position(line: line, character: 5),
                            end: Position(line: line, character: 5)), text: "5")
                ],
                version: version)
            version += 1
            _ = try document.apply(
                [
                    ContentChange(
                        range: TextRange(
                            start: Position(line: line, character: 5),
                            end: Position(line: line, character: 6)), text: "")
                ],
                version: version)
            if k == 0 { XCTAssertEqual(document.lines[line].fields.first?.id, "f\(fieldCount / 2)") }
        }
        // A line inserted at the top moves every field down, in O(log n).
        version += 1
        _ = try document.apply(
            [
                ContentChange(
                    range: TextRange(
                        start: Position(line: 0, character: 0),
                        end: Position(line: 0, character: 0)), text: "top\n")
            ],
            version: version)
        XCTAssertEqual(document.lines.lineOfField("f\(fieldCount - 1)"), (fieldCount - 1) * step + 1)
    }

    /// The real daemon reads a didOpen of megabytes (a chunk at a time) into the text the editor has: fields
    /// opened on its first, a middle and its last line, after characters of two and four bytes (two UTF-16 units
    /// for the emoji), hold the digits there.
    func testLargeDidOpen_throughTheDaemon_isTheEditorsText() throws {
        let client = try DaemonClient()
        defer { _ = client.finish() }
        client.initialize()
        let count = 60_000
        let lines = (0..<count).map { "é😀 \($0 % 10)\\ \"line\" 4111 1111 1111 \(String(1000 + $0 % 9000))" }
        let editor = Editor(client, uri: "file:///big.txt", text: lines.joined(separator: "\n"))
        for line in [0, count / 2 + 1, count - 1] {
            let start = 14
            let result = editor.openField(line, start, start + 19, mask: ["preset": "card"])
            XCTAssertEqual(
                result["state"]?["text"]?.stringValue, "4111 1111 1111 \(1000 + line % 9000)", "line \(line)")
        }
    }

    func testTyping_in10MBDocumentWith100000Fields_tracksEveryField() throws {
        try typeInTheMiddle(lines: 1, fields: 1)
        try typeInTheMiddle(lines: 200_000, fields: 100_000)
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
            let new = (0..<next(4)).map {
                Line(text: "r\(round).\($0)", ending: .lf, fields: [FieldSpan(id: "r\(round).\($0)", start: 0, end: 1)])
            }
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
        let pairs = [
            ("1234 5678 9", "1235 6789"), ("", "abc"), ("abc", ""), ("+1 (5551", "+1 (555) 1"), ("same", "same"),
            ("4111 1111 1111 111", "4111 111111 11111"),
        ]
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
    /// Random pairs: the edits turn old into new, and change as few characters as the longest common
    /// subsequence allows (checked against the dynamic programme), while the search stays under its limit.
    func testTextDiff_randomPairs_areMinimalAndCorrect() {
        var state: UInt64 = 2026_12_03
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<400 {
            let old = (0..<next(40)).map { _ in Character(Unicode.Scalar(UInt8(97 + next(3)))) }
            var new = old
            for _ in 0..<next(8) {
                let at = next(new.count + 1)
                if next(2) == 0, at < new.count { new.remove(at: at) } else { new.insert("d", at: at) }
            }
            var result = old
            var changed = 0
            for d in TextDiff.edits(old, new).reversed() {
                result.replaceSubrange(d.start..<d.end, with: new[d.newStart..<d.newEnd])
                changed += (d.end - d.start) + (d.newEnd - d.newStart)
            }
            XCTAssertEqual(result, new)
            // LCS by dynamic programming: the fewest deletions plus insertions.
            var lcs = [[Int]](repeating: [Int](repeating: 0, count: new.count + 1), count: old.count + 1)
            for i in stride(from: old.count - 1, through: 0, by: -1) {
                for j in stride(from: new.count - 1, through: 0, by: -1) {
                    lcs[i][j] = old[i] == new[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
                }
            }
            XCTAssertEqual(changed, old.count + new.count - 2 * lcs[0][0], "\(String(old)) -> \(String(new))")
        }
    }

    /// A megabyte pasted into a card field against its 23-character result: one replacement of the changed
    /// middle, found without searching the product of the lengths (which would take gigabytes).
    func testTextDiff_hugeDifference_isOneReplacement() {
        let old = Array("4111 " + String(repeating: "4", count: 1_000_000))
        let new = Array("4111 4444 4444 4444 444")
        // The common prefix "4111 4444" and suffix "444" stay; the rest is one replacement.
        XCTAssertEqual(
            TextDiff.edits(old, new), [DiffEdit(start: 9, end: old.count - 3, newStart: 9, newEnd: new.count - 3)])
        // Many scattered differences beyond the limit: one replacement too, still correct.
        let a = Array(String(repeating: "ab", count: 2_000)), b = Array(String(repeating: "ba", count: 2_000) + "c")
        var result = a
        for d in TextDiff.edits(a, b).reversed() {
            result.replaceSubrange(d.start..<d.end, with: b[d.newStart..<d.newEnd])
        }
        XCTAssertEqual(result, b)
    }
}
