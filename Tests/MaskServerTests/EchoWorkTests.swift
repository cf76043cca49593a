// maskd tests: one didChange echoing the edits of many opened fields costs work linear in its changes, in the
// shapes editors send it, and the pending edits kept by line behave exactly as one flat array of them did.
import MaskCatalog
import MaskEngine
@testable import MaskServer
import TestSupport
import XCTest

final class EchoWorkTests: XCTestCase {
    /// How an editor sends back the edits of an `openFields`.
    enum Shape: CaseIterable {
        /// One change per edit, last to first (Emacs, VS Code).
        case lastToFirst
        /// One change per edit, first to last, each moved by the edits before it on its line.
        case firstToLast
        /// One change replacing each touched line whole, last line first (Neovim, Vim).
        case linePerLine
    }

    /// Opens `count` card fields over unformatted numbers (three edits each), one field
    /// per line or all on line 0, echoes every edit in one `didChange` of `shape`, and returns the work the
    /// document did for the echo (line tree reads and pending edits looked at).
    func echoWork(fields count: Int, oneLine: Bool, shape: Shape) throws -> Int {
        let number = "4111111111111111"
        let text =
            oneLine
            ? (0..<count).map { _ in number }.joined(separator: " ") + "\n"
            : (0..<count).map { "row \($0): " + number + "\n" }.joined()
        let document = Document(uri: "file:///echo", languageId: "", version: 1, text: text, encoding: .utf16)
        let card = try Mask.compile(MaskSpec(.preset("card")))
        // One openField each (the way a plugin restores a session; openFields proposes the same edits).
        var edits: [TextEdit] = []
        for i in 0..<count {
            let line = oneLine ? 0 : i
            let start = oneLine ? i * (number.count + 1) : "row \(i): ".count
            edits +=
                document.openField(
                    id: "f\(i)", line: line, start: start, end: start + number.count,
                    spec: MaskSpec(.preset("card")), mask: card
                ).edits
        }
        XCTAssertEqual(edits.count, 3 * count)
        edits.sort { $0.range.start < $1.range.start }

        var changes: [ContentChange] = []
        switch shape {
        case .lastToFirst:
            changes = edits.reversed().map { ContentChange(range: $0.range, text: $0.newText) }
        case .firstToLast:
            var moved: (line: Int, by: Int) = (-1, 0)
            for edit in edits {
                if edit.range.start.line != moved.line { moved = (edit.range.start.line, 0) }
                var range = edit.range
                range.start.character += moved.by
                range.end.character += moved.by
                changes.append(ContentChange(range: range, text: edit.newText))
                moved.by += edit.newText.utf16.count - (edit.range.end.character - edit.range.start.character)
            }
        case .linePerLine:
            let formatted = card.format(number).text
            for line in Set(edits.map(\.range.start.line)).sorted(by: >) {
                let old = oneLine ? text.dropLast() : Substring("row \(line): " + number)
                let new =
                    oneLine ? (0..<count).map { _ in formatted }.joined(separator: " ") : "row \(line): " + formatted
                changes.append(
                    ContentChange(
                        range: TextRange(
                            start: Position(line: line, character: 0),
                            end: Position(line: line, character: old.utf16.count)),
                        text: new))
            }
        }
        let before = document.lines.work.bytes + document.lines.work.fields + document.pending.work
        XCTAssertNil(try document.apply(changes, version: 2), "\(shape): the echo got a didFormat")
        let work = document.lines.work.bytes + document.lines.work.fields + document.pending.work - before
        // The echo was recognised whole: nothing waits, every field is formatted.
        XCTAssertTrue(document.pending.isEmpty, "\(shape): edits still wait for their echo")
        for id in ["f0", "f\(count / 2)", "f\(count - 1)"] {
            XCTAssertEqual(document.snapshot(id)?.text, "4111 1111 1111 1111", "\(shape) \(id)")
        }
        return work
    }

    func testEcho_ofManyOpenedFields_costsWorkLinearInItsChanges() throws {
        for oneLine in [false, true] {
            for shape in Shape.allCases {
                // First to last on one line moves every edit after each echo: O(edits on the line) each (below).
                if oneLine && shape == .firstToLast { continue }
                let small = try echoWork(fields: 200, oneLine: oneLine, shape: shape)
                let large = try echoWork(fields: 2_000, oneLine: oneLine, shape: shape)
                // Ten times the changes: ten times the work, and a little for bisecting longer lines of edits. Any
                // pass over the edits waiting per change would make it a hundred times.
                XCTAssertLessThanOrEqual(
                    large, 13 * small,
                    "\(oneLine ? "one line" : "one field per line"), \(shape): "
                        + "the work of echoing 6,000 edits (\(large)) grew more than ten times that of 600 (\(small))")
            }
        }
    }

    func testEcho_firstToLastOnOneLine_isStillRecognised() throws {
        // The one shape whose cost grows with the edits on the line: still exactly recognised.
        _ = try echoWork(fields: 100, oneLine: true, shape: .firstToLast)
    }

    // MARK: - The pending edits against a flat array

    /// The pending edits as the daemon kept them before: one array in document order, searched and shifted whole.
    struct FlatPending {
        var edits: [PendingEdit] = []

        mutating func add(_ new: [PendingEdit]) {
            edits.append(contentsOf: new)
            edits.sort(by: PendingEdit.inOrder)
        }

        mutating func takeEcho(line: Int, start: Int, end: Int, text: String) -> PendingEdit? {
            guard
                let i = edits.firstIndex(where: {
                    $0.line == line && $0.start == start && $0.end == end && $0.text.sameScalars(text)
                })
            else { return nil }
            let edit = edits.remove(at: i)
            let delta = edit.text.unicodeScalars.count - (edit.end - edit.start)
            for j in edits.indices
            where edits[j].line == edit.line
                && (edits[j].start > edit.end || (edits[j].start == edit.end && j >= i))
            {
                edits[j].start += delta
                edits[j].end += delta
            }
            return edit
        }
    }

    func testPendingEdits_behaveAsAFlatArray_underRandomOperations() {
        var random = SeededRandom(seed: 0)
        for seed in 0..<300 {
            random = SeededRandom(seed: UInt64(seed))
            var flat = FlatPending()
            var kept = PendingEdits()
            // Often disjoint edits, as proposals make; sometimes overlapping or duplicated ones, to reach the
            // out-of-order paths.
            func edit() -> PendingEdit {
                let start = random.below(12), length = random.chance(40) ? 0 : random.below(4)
                return PendingEdit(
                    line: random.below(4), start: start, end: start + length,
                    text: random.pick(["", " ", "-", "ab", "é"]), field: random.pick(["a", "b", "c"]),
                    fieldOrder: random.below(3))
            }
            for step in 0..<80 {
                let context = "seed \(seed) step \(step)"
                switch random.below(10) {
                case 0, 1:
                    let new = (0..<random.below(6)).map { _ in edit() }
                    flat.add(new)
                    kept.add(new)
                case 2, 3, 4, 5:
                    // An echo of an edit waiting (mostly), or of one that is not.
                    let e = !flat.edits.isEmpty && random.chance(85) ? random.pick(flat.edits) : edit()
                    XCTAssertEqual(
                        kept.takeEcho(line: e.line, start: e.start, end: e.end, text: e.text),
                        flat.takeEcho(line: e.line, start: e.start, end: e.end, text: e.text), context)
                case 6:
                    let low = random.below(4), span = low...(low + random.below(3))
                    XCTAssertEqual(kept.inLines(span), flat.edits.filter { span.contains($0.line) }, context)
                    kept.removeLines(span)
                    flat.edits.removeAll { span.contains($0.line) }
                case 7:
                    let field = random.pick(["a", "b", "c"])
                    kept.removeAll { $0.field == field }
                    flat.edits.removeAll { $0.field == field }
                case 8:
                    let line = random.below(4)
                    XCTAssertEqual(kept.onLine(line), flat.edits.filter { $0.line == line }, context)
                default:
                    if random.chance(20) {
                        kept.removeAll()
                        flat.edits.removeAll()
                    }
                }
                XCTAssertEqual(Array(kept), flat.edits, context)
                XCTAssertEqual(kept.count, flat.edits.count, context)
                XCTAssertEqual(kept.isEmpty, flat.edits.isEmpty, context)
            }
        }
    }
}
