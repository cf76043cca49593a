// maskd tests: a line kept as many pieces behaves exactly as the same line kept whole, and a keystroke's work
// (what the line tree reads) does not grow with the length of its line or the number of fields sharing it.
// (How fast that is, against a short line, is the benchmark's to measure: bench/run, row 9.)
import MaskEngine
@testable import MaskServer
import TestSupport
import XCTest

final class LongLineTests: XCTestCase {
    /// Every line longer than six bytes is many pieces; with `whole`, every line is one (the tree as it was).
    static let tiny = LineTree.PieceSize(max: 6, cut: 3)
    static let whole = LineTree.PieceSize(max: 1 << 30, cut: 1 << 30)

    static let masks = ["+1 ([000]) [000]-[0000]", "[0000] [0000]", "[00]{/}[00]", "[aa]-[000]"]
    static let tokens = [
        "1", "2", "5", "9", "0", "a", "Z", " ", "-", "é", "😀", "中", "\n", "\r\n", "\r", "12",
        "345 678", "", "", "",
    ]

    /// What two documents must agree on, pending edits without their order keys (which count pieces).
    func assertSame(_ a: Document, _ b: Document, _ context: @autoclosure () -> String) {
        XCTAssertTrue(a.text.sameScalars(b.text), "text differs: \(context())")
        XCTAssertEqual(a.lines.count, b.lines.count, context())
        XCTAssertEqual(a.allSnapshots(), b.allSnapshots(), "fields differ: \(context())")
        XCTAssertEqual(a.diagnostics(), b.diagnostics(), "diagnostics differ: \(context())")
        // The problems kept as fields change are those of the fields' states as they are now.
        XCTAssertEqual(Array(a.diagnostics()), LongLineTests.expectedDiagnostics(a), "diagnostics: \(context())")
        func shape(_ d: Document) -> [String] {
            d.pending.map { "\($0.line):\($0.start)-\($0.end) \($0.text) \($0.field)" }
        }
        XCTAssertEqual(shape(a), shape(b), "pending edits differ: \(context())")
        for line in 0..<min(a.lines.count, b.lines.count) {
            for encoding in PositionEncoding.allCases {
                XCTAssertEqual(a.lines.length(ofLine: line, in: encoding), b.lines.length(ofLine: line, in: encoding))
            }
            XCTAssertEqual(a.lines.ending(ofLine: line), b.lines.ending(ofLine: line))
            XCTAssertEqual(a.lines[line], b.lines[line], "line \(line): \(context())")
        }
        // Every field's text is its span's text.
        for field in a.allSnapshots() {
            guard let (line, span, text) = a.fieldText(field.id) else { return XCTFail("\(field.id) has no place") }
            XCTAssertTrue(text.sameScalars(a.lines[line].text.scalarSlice(span.start, span.end)), context())
        }
    }

    /// Each open field's diagnostic as its state says, in document order.
    static func expectedDiagnostics(_ document: Document) -> [Diagnostic] {
        document.allSnapshots().compactMap { field in
            FieldProblem(field.result).map {
                Diagnostic(range: field.range, severity: $0.severity, code: $0.code, message: $0.message)
            }
        }
    }

    /// More distinct problems than the table keeps before dropping those no field has any more: each field still
    /// gets its own as fields are typed into, closed and opened again.
    func testDiagnostics_manyDistinctProblems_eachFieldKeepsItsOwn() throws {
        let mask = try Mask.compile(String(repeating: "[0]", count: 1000))
        let lines = (0..<150).map { String(repeating: "1", count: $0) }
        let document = Document(
            uri: "file:///many", languageId: "", version: 1, text: lines.joined(separator: "\n"),
            encoding: .utf16)
        func open(_ id: String, _ line: Int) {
            _ = document.openField(
                id: id, line: line, start: 0, end: document.lines.length(ofLine: line),
                spec: .notation("1000 digits"), mask: mask)
        }
        for line in 0..<150 { open("f\(line)", line) }
        XCTAssertEqual(document.diagnostics().count, 150)
        XCTAssertEqual(document.diagnostics()[7].message, "993 more digits needed")
        XCTAssertEqual(Array(document.diagnostics()), LongLineTests.expectedDiagnostics(document))
        var version = 1
        for round in 1...6 {
            // Every third field typed into (new problems; their old ones left to no field), every seventh closed
            // and opened again under a new id.
            for line in stride(from: 0, to: 150, by: 3) {
                version += 1
                let end = Position(line: line, character: document.lines.length(ofLine: line))
                _ = try document.apply(
                    [
                        ContentChange(
                            range: TextRange(start: end, end: end),
                            text: String(repeating: "1", count: 100))
                    ], version: version)
            }
            for line in stride(from: round, to: 150, by: 7) {
                let id = document.fieldIDs(
                    touching: TextRange(
                        start: Position(line: line, character: 0),
                        end: Position(line: line, character: 0)))
                XCTAssertEqual(id.count, 1)
                XCTAssertNotNil(document.closeField(id[0], caret: nil))
                open("r\(round)-\(line)", line)
            }
            let diagnostics = Array(document.diagnostics())
            XCTAssertEqual(diagnostics.count, 150)
            XCTAssertEqual(diagnostics, LongLineTests.expectedDiagnostics(document), "round \(round)")
            XCTAssertEqual(diagnostics[3].message, "\(1000 - 3 - 100 * round) more digits needed")
        }
    }

    /// A field whose problem goes (its value completed) and comes back (a digit deleted) takes back its place in
    /// the list of fields with a problem, so typing leaves that list in document order; once more than half the
    /// list is places left, it is compacted, and the diagnostics stay every field's own, in document order.
    func testProblems_goneAndBack_keepTheirPlace_andSurviveCompaction() throws {
        let mask = try Mask.compile("[0000]")
        let count = 300
        let document = Document(
            uri: "file:///problems", languageId: "", version: 1,
            text: Array(repeating: "12", count: count).joined(separator: "\n"), encoding: .utf16)
        for line in 0..<count {
            _ = document.openField(id: "f\(line)", line: line, start: 0, end: 2, spec: .notation("[0000]"), mask: mask)
        }
        var version = 1
        func type(_ text: String, line: Int, at column: Int, deleting: Int = 0) throws {
            version += 1
            _ = try document.apply(
                [
                    ContentChange(
                        range: TextRange(
                            start: Position(line: line, character: column),
                            end: Position(line: line, character: column + deleting)),
                        text: text)
                ], version: version)
        }
        func linesInListOrder() -> [Int] {
            var lines: [Int] = []
            document.lines.forEachProblem { slot, _ in lines.append(document.lines.locate(slot: slot).line) }
            return lines
        }
        XCTAssertEqual(document.diagnostics().count, count)
        // Typing into a few fields, the problem gone and back each time: the list stays in document order.
        for line in [0, 7, 150, 299, 7] {
            try type("34", line: line, at: 2)
            XCTAssertEqual(document.diagnostics().count, count - 1, "line \(line) complete")
            try type("", line: line, at: 3, deleting: 1)
            XCTAssertEqual(linesInListOrder(), Array(0..<count), "after line \(line)")
        }
        XCTAssertEqual(Array(document.diagnostics()), LongLineTests.expectedDiagnostics(document))
        // Two thirds completed (the list compacts on the way), then every third of those given a problem back,
        // some fields closed and opened again: every diagnostic is its field's, in document order.
        for line in 0..<count where line % 3 != 0 { try type("34", line: line, at: 2) }
        XCTAssertEqual(Array(document.diagnostics()), LongLineTests.expectedDiagnostics(document))
        XCTAssertEqual(document.diagnostics().count, count / 3)
        for line in stride(from: 1, to: count, by: 9) { try type("", line: line, at: 3, deleting: 1) }
        for line in stride(from: 5, to: count, by: 50) {
            let id = document.fieldIDs(
                touching: TextRange(
                    start: Position(line: line, character: 0),
                    end: Position(line: line, character: 0)))
            XCTAssertNotNil(document.closeField(id[0], caret: nil))
            try type("9", line: line, at: 0, deleting: document.lines.length(ofLine: line))
            _ = document.openField(
                id: "again\(line)", line: line, start: 0, end: 1, spec: .notation("[0000]"), mask: mask)
        }
        let diagnostics = Array(document.diagnostics())
        XCTAssertEqual(diagnostics, LongLineTests.expectedDiagnostics(document))
        // Lines 0, 3, 6, ... incomplete all along; 1, 10, 19, ... a digit short again; 5, 55, ... open again over "9".
        let incomplete = Set(stride(from: 0, to: count, by: 3)).union(stride(from: 1, to: count, by: 9))
            .union(stride(from: 5, to: count, by: 50))
        XCTAssertEqual(diagnostics.map(\.range.start.line), incomplete.sorted())
    }

    /// The diagnostics' sort moves items into place by following a permutation's cycles: every permutation,
    /// fixed points and one long cycle among them, puts each item where its source says.
    func testRearrange_putsEveryItemWhereItsSourceSays() {
        var random = SeededRandom(seed: 7)
        for count in [0, 1, 2, 3, 10, 257] {
            for round in 0..<20 {
                var sources = Array(0..<Int32(count))
                switch round {
                case 0: break
                case 1: sources = sources.reversed()
                case 2: if count > 0 { sources = Array(sources.dropFirst()) + [0] }
                default:
                    for i in stride(from: count - 1, to: 0, by: -1) { sources.swapAt(i, random.below(i + 1)) }
                }
                let items = (0..<count).map { "item \($0)" }
                var moved = items
                var used = sources
                Document.rearrange(&moved, takingFrom: &used)
                XCTAssertEqual(moved, sources.map { items[Int($0)] }, "count \(count), round \(round)")
                XCTAssertTrue(used.allSatisfy { $0 == -1 })
            }
        }
    }

    /// A diagnostic list keeps most items in 8 bytes and the rest (far along a long line, long, or past the 255th
    /// problem) beside them: every item reads back as it was put, also after the list is rearranged.
    func testDiagnosticItems_readBackAsPut_packedOrNot_andRearranged() {
        var random = SeededRandom(seed: 11)
        for round in 0..<40 {
            let count = random.below(300)
            let items = (0..<count).map { _ -> DiagnosticList.Item in
                let line = random.pick([0, 1, random.below(100_000), Int(UInt32.max) - 1, Int(UInt32.max) + 5])
                let start = random.pick([0, 7, 65_534, 65_535, 70_000, random.below(1 << 20)])
                let length = random.pick([0, 1, 19, 254, 255, 4_096])
                let problem = Int32(random.pick([0, 3, 254, 255, 300]))
                return DiagnosticList.Item(line: line, start: start, end: start + length, problem: problem)
            }
            var list = DiagnosticList.Items()
            for item in items { list.append(item) }
            XCTAssertEqual((0..<count).map { list[$0] }, items, "round \(round)")
            var sources = Array(0..<Int32(count))
            for i in stride(from: count - 1, to: 0, by: -1) { sources.swapAt(i, random.below(i + 1)) }
            let wanted = sources.map { items[Int($0)] }
            list.rearrange(takingFrom: &sources)
            XCTAssertEqual((0..<count).map { list[$0] }, wanted, "round \(round), rearranged")
        }
    }

    func testManyPieces_behaveAsOnePiece_underRandomEditing() throws {
        let compiled = try LongLineTests.masks.map { try Mask.compile($0) }
        for seed in 1...60 {
            var random = SeededRandom(seed: UInt64(seed))
            let encoding = PositionEncoding.allCases[seed % 3]
            var text = ""
            for line in 0..<(1 + random.below(4)) {
                if line > 0 { text += random.pick(["\n", "\r\n", "\r"]) }
                for _ in 0..<random.below(30) {
                    text += random.pick(LongLineTests.tokens.filter { !$0.containsLineBreak })
                }
            }
            let documents = [LongLineTests.tiny, LongLineTests.whole].map {
                Document(uri: "file:///long", languageId: "", version: 1, text: text, encoding: encoding, pieceSize: $0)
            }
            let reference = documents[1]
            var version = 1
            var opened = 0
            var lastEdits: [TextEdit] = []
            var log: [String] = []

            func change(_ changes: [ContentChange]) {
                version += random.chance(10) ? 2 : 1
                log.append(
                    "v\(version) \(changes.map { "\($0.range.map { "\($0.start.line):\($0.start.character)-\($0.end.line):\($0.end.character)" } ?? "all") \($0.text.debugDescription)" })"
                )
                var outcomes: [String] = []
                var reports: [FormatReport?] = []
                for document in documents {
                    do {
                        reports.append(try document.apply(changes, version: version))
                        outcomes.append("applied")
                    } catch {
                        reports.append(nil)
                        outcomes.append("\(error)")
                    }
                }
                XCTAssertEqual(outcomes[0], outcomes[1], "seed \(seed): \(log.suffix(12))")
                XCTAssertEqual(reports[0], reports[1], "seed \(seed): \(log.suffix(12))")
                if let report = reports[1] { lastEdits = report.edits }
            }
            /// A random position of the reference, as a client sends it.
            func position() -> Position {
                let line = random.below(reference.lines.count)
                let column = random.below(reference.lines.length(ofLine: line) + 1)
                return reference.position(ScalarPosition(line: line, column: column))
            }

            for _ in 0..<120 {
                switch random.below(10) {
                case 0, 1:
                    // Open a field over part of a line.
                    let line = random.below(reference.lines.count)
                    let length = reference.lines.length(ofLine: line)
                    let start = random.below(length + 1), end = min(length, start + random.below(7))
                    let overlaps = documents.map {
                        $0.fields(touching: line, from: start, to: end).contains { $0.start < end && start < $0.end }
                    }
                    XCTAssertEqual(overlaps[0], overlaps[1])
                    if overlaps[1] { continue }
                    opened += 1
                    let m = random.below(compiled.count)
                    log.append("open f\(opened) \(line):\(start)-\(end) \(LongLineTests.masks[m])")
                    let outcomes = documents.map {
                        $0.openField(
                            id: "f\(opened)", line: line, start: start, end: end,
                            spec: .notation(LongLineTests.masks[m]), mask: compiled[m])
                    }
                    XCTAssertEqual(outcomes[0].edits, outcomes[1].edits, "seed \(seed): \(log.suffix(12))")
                    XCTAssertEqual(outcomes[0].cursor, outcomes[1].cursor, "seed \(seed): \(log.suffix(12))")
                    XCTAssertEqual(outcomes[0].state, outcomes[1].state, "seed \(seed): \(log.suffix(12))")
                    lastEdits = outcomes[1].edits
                case 2:
                    // Close a field.
                    guard let field = reference.allSnapshots().randomElement(using: &random) else { continue }
                    log.append("close \(field.id)")
                    XCTAssertEqual(documents.map { $0.closeField(field.id, caret: nil) != nil }, [true, true])
                case 3, 4:
                    // The editor echoes the last edits, last first, in one change or several.
                    guard !lastEdits.isEmpty else { continue }
                    let echo = lastEdits.reversed().map { ContentChange(range: $0.range, text: $0.newText) }
                    lastEdits = []
                    if random.chance(50) {
                        change(echo)
                    } else {
                        for one in echo { change([one]) }
                    }
                default:
                    // A person's change: often inside or at a field, else anywhere; sometimes two at once.
                    var changes: [ContentChange] = []
                    for _ in 0..<(random.chance(20) ? 2 : 1) {
                        var start = position(), end = position()
                        if random.chance(60), let field = reference.allSnapshots().randomElement(using: &random) {
                            start = random.chance(50) ? field.range.end : field.range.start
                            end = random.chance(70) ? start : field.range.end
                        } else if random.chance(60) {
                            end = start
                        }
                        if end < start { swap(&start, &end) }
                        changes.append(
                            ContentChange(
                                range: TextRange(start: start, end: end),
                                text: random.pick(LongLineTests.tokens)))
                    }
                    change(changes)
                }
                assertSame(documents[0], documents[1], "seed \(seed): \(log.suffix(12))")
                // The fields a range touches (inlay hints, range formatting), against whole lines read.
                var (a, b) = (position(), position())
                if b < a { swap(&a, &b) }
                let range = TextRange(start: a, end: b)
                guard case .success(let (from, to)) = reference.scalarRange(range) else { continue }
                var expected: [String] = []
                for line in from.line...to.line {
                    for field in reference.lines[line].fields
                    where !(line == from.line && field.end < from.column)
                        && !(line == to.line && field.start > to.column)
                    {
                        expected.append(field.id)
                    }
                }
                XCTAssertEqual(documents.map { $0.fieldIDs(touching: range) }, [expected, expected], "seed \(seed)")
            }
        }
    }

    // MARK: - Work per keystroke

    /// Types a card number into an empty card field at the end of line 0, after `prefix` bytes of text and
    /// `fields` four-digit fields, echoing every didFormat as an editor does; returns what the line tree read per
    /// keystroke (echo included) and for opening the field.
    func work(prefix: Int, fields: Int, nonASCII: Bool = false) throws -> (
        keystroke: LineTree.Work, open: LineTree.Work
    ) {
        var line = String(repeating: nonASCII ? "é" : "x", count: prefix) + " "
        var starts: [Int] = []
        for _ in 0..<fields {
            starts.append(line.unicodeScalars.count)
            line += "1234 "
        }
        line += "card: "
        let fieldStart = line.unicodeScalars.count
        let document = Document(
            uri: "file:///work", languageId: "", version: 1, text: line + "\nnext line\n",
            encoding: .utf16)
        let four = try Mask.compile("[0000]")
        for (i, start) in starts.enumerated() {
            _ = document.openField(
                id: "n\(i)", line: 0, start: start, end: start + 4, spec: .notation("[0000]"), mask: four)
        }
        let card = try Mask.compile("[0000] [0000] [0000] [0000]")
        let beforeOpen = document.lines.work
        _ = document.openField(
            id: "card", line: 0, start: fieldStart, end: fieldStart, spec: .notation("[0000] [0000] [0000] [0000]"),
            mask: card)
        let open = document.lines.work - beforeOpen
        var version = 1
        var caret = document.position(ScalarPosition(line: 0, column: fieldStart))
        let keys = 12
        let before = document.lines.work
        for key in 0..<keys {
            version += 1
            let report = try XCTUnwrap(
                try document.apply(
                    [ContentChange(range: TextRange(start: caret, end: caret), text: String(key % 10))],
                    version: version))
            caret = try XCTUnwrap(report.cursor)
            if !report.edits.isEmpty {
                version += 1
                XCTAssertNil(
                    try document.apply(
                        report.edits.reversed().map { ContentChange(range: $0.range, text: $0.newText) },
                        version: version), "an echo got a didFormat")
            }
            _ = document.diagnostics()
        }
        XCTAssertEqual(document.snapshot("card")?.text, "0123 4567 8901")
        let total = document.lines.work - before
        return (LineTree.Work(bytes: total.bytes / keys, fields: total.fields / keys), open)
    }

    func testKeystroke_work_doesNotGrowWithTheLineOrItsFields() throws {
        // One long line at two lengths, and two counts of fields sharing it: the work per keystroke is the same.
        let short = try work(prefix: 10_000, fields: 0)
        let long = try work(prefix: 1_000_000, fields: 0)
        let few = try work(prefix: 10, fields: 100)
        let many = try work(prefix: 10, fields: 1_000)
        let narrow = try work(prefix: 10_000, fields: 0, nonASCII: true)
        let wide = try work(prefix: 1_000_000, fields: 0, nonASCII: true)
        // Ten times the line or its fields would be ten times the work if any of it were a pass over the line;
        // where the pieces fall (so how much of one is read) varies a little with the line's content.
        for (name, small, big) in [
            ("a 1 MB line", short, long), ("1,000 fields", few, many),
            ("a 2 MB non-ASCII line", narrow, wide),
        ] {
            let slack = LineTree.PieceSize.standard.max
            XCTAssertLessThanOrEqual(
                big.keystroke.bytes, 2 * small.keystroke.bytes + slack,
                "\(name): bytes read per keystroke grew")
            XCTAssertLessThanOrEqual(
                big.keystroke.fields, 2 * small.keystroke.fields + 64,
                "\(name): fields read per keystroke grew")
            XCTAssertLessThanOrEqual(
                big.open.bytes, 2 * small.open.bytes + slack, "\(name): bytes read by openField grew")
            XCTAssertLessThanOrEqual(
                big.open.fields, 2 * small.open.fields + 64, "\(name): fields read by openField grew")
        }
        // And it is what a few pieces hold: a 1 MB line is 4,000 pieces, 1,000 fields some 40.
        XCTAssertLessThan(long.keystroke.bytes, 16 * LineTree.PieceSize.standard.max)
        XCTAssertLessThan(wide.keystroke.bytes, 16 * LineTree.PieceSize.standard.max)
        XCTAssertLessThan(many.keystroke.fields, 300)
        XCTAssertLessThan(many.open.fields, 300)
    }

    func testLongLine_isCutBetweenFields_andReadsBackWhole() throws {
        // A 100 KB line of many fields, typed into at both ends: its text and fields read back as one line.
        var line = ""
        for i in 0..<5_000 { line += "\(i % 10)\(i % 7)\(i % 3)é " }
        let document = Document(uri: "file:///cut", languageId: "", version: 1, text: line, encoding: .utf16)
        let mask = try Mask.compile("[000]")
        var column = 0
        for i in 0..<5_000 {
            _ = document.openField(
                id: "g\(i)", line: 0, start: column, end: column + 3, spec: .notation("[000]"), mask: mask)
            column += 5
        }
        XCTAssertEqual(document.lines.count, 1)
        XCTAssertEqual(document.lines[0].text, line)
        XCTAssertEqual(document.lines[0].fields.map(\.start), (0..<5_000).map { $0 * 5 })
        XCTAssertEqual(document.allSnapshots().map(\.range.start.character), (0..<5_000).map { $0 * 5 })
        // A backspace in the last field and in the first: only they change, and the fields between move.
        _ = try document.apply(
            [
                ContentChange(
                    range: TextRange(
                        start: Position(line: 0, character: 4_999 * 5),
                        end: Position(line: 0, character: 4_999 * 5 + 1)), text: "")
            ],
            version: 2)
        _ = try document.apply(
            [
                ContentChange(
                    range: TextRange(
                        start: Position(line: 0, character: 0),
                        end: Position(line: 0, character: 1)), text: "")
            ], version: 3)
        XCTAssertEqual(document.snapshot("g4999")?.text, "11")
        XCTAssertEqual(document.snapshot("g0")?.text, "00")
        XCTAssertEqual(document.snapshot("g1")?.range.start.character, 4)
        XCTAssertEqual(document.fieldText("g4999")?.span.start, 4_999 * 5 - 1)
    }

    func testFieldIds_ofEveryForm_readBackAsOpened_andStayApart() throws {
        // The daemon's own ids ("f<n>") are kept as numbers, others as strings: ids that look alike stay apart.
        let ids = ["f1", "f01", "f", "f0", "f00", "f2147483647", "f2147483648", "F1", "f1 ", "g1", "", "é", "f-1"]
        let text = Array(repeating: "123", count: ids.count).joined(separator: "\n")
        let document = Document(uri: "file:///ids", languageId: "", version: 1, text: text, encoding: .utf16)
        let mask = try Mask.compile("[000]")
        for (line, id) in ids.enumerated() {
            _ = document.openField(id: id, line: line, start: 0, end: 3, spec: .notation("[000]"), mask: mask)
        }
        XCTAssertEqual(document.allSnapshots().map(\.id), ids)
        for (line, id) in ids.enumerated() { XCTAssertEqual(document.snapshot(id)?.range.start.line, line, id) }
        // Closed and opened again under other ids, on other lines: the places of the ids closed are reused.
        for id in ["f01", "g1", "f1"] { XCTAssertNotNil(document.closeField(id, caret: nil)) }
        XCTAssertNil(document.snapshot("f01"))
        XCTAssertNotNil(document.snapshot("f0"))
        for (line, id) in [(0, "h1"), (9, "f7"), (1, "f1")] {
            _ = document.openField(id: id, line: line, start: 0, end: 3, spec: .notation("[000]"), mask: mask)
        }
        var expected = ids
        (expected[0], expected[9], expected[1]) = ("h1", "f7", "f1")
        XCTAssertEqual(document.allSnapshots().map(\.id), expected)
        for (line, id) in expected.enumerated() { XCTAssertEqual(document.snapshot(id)?.range.start.line, line, id) }
    }
}

extension LineTree.Work {
    static func - (a: LineTree.Work, b: LineTree.Work) -> LineTree.Work {
        LineTree.Work(bytes: a.bytes - b.bytes, fields: a.fields - b.fields)
    }
}
