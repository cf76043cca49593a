// maskd tests: an editor with fields of every mask kind, driven by random editing (typing in fields, and the
// structural edits editors send: lines deleted, replaced, joined, opened, pasted, block inserts, whole-buffer
// replaces), each followed at random by its undo and redo as an editor sends them. Shared by StructuralFuzzTests and
// the fuzz target `structural` (fuzz/run compiles this file into it), so it imports nothing of XCTest.
#if canImport(MaskServer)
    @testable import MaskServer
#endif
import JSON

/// Where the random choices come from: a seeded generator in the tests, the fuzzer's bytes in the fuzz target.
protocol EditChoices {
    /// A number in `0..<n` (0 when `n` is 0).
    mutating func below(_ n: Int) -> Int
}

extension EditChoices {
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// An editor's buffer (lines of Unicode scalars, `\n` breaks, positions in UTF-32) against an in-process daemon that
/// applies and echoes every `didFormat` as a plugin does, checking after every step:
/// - the daemon's copy is the editor's, and every field's text is the editor's text over its range;
/// - the daemon's edits lie inside its fields (text outside fields is never changed by the daemon);
/// - a change that is typing into no field loses no letter or digit (and, without rules, gets no edit at all);
/// - an undo gives back exactly the text before the step it undoes, and a redo the text after it.
final class EditingSession {
    private let server: Server
    private var sent: [(String, JSONValue)] = []
    let uri = "file:///structural.txt"
    private(set) var text: [Unicode.Scalar] = []
    private var version = 1
    private let withRules: Bool
    /// Each step's text before and after, for undo; undone steps, for redo.
    private var undoStack: [([Unicode.Scalar], [Unicode.Scalar])] = []
    private var redoStack: [([Unicode.Scalar], [Unicode.Scalar])] = []
    /// What went wrong, with the steps that led there; nil while every check holds.
    private(set) var violation: String?
    private var log: [String] = []
    /// Undos and redos whose change lay inside a field, which the field read as typing and did not give the text
    /// back exactly; and the first of them.
    private(set) var typedUndos = 0
    private(set) var typedUndo: String?
    /// Steps taken (each person's change, undo and redo is one).
    private(set) var steps = 0

    static let masks: [JSONValue] = [
        "[000]-[000]", "[AA] [0000]", "[0…]", ["preset": "phone.us"], ["preset": "phone.gb"], ["preset": "card"],
        ["number": ["fraction": 2]], ["number": ["grouping": "lakh", "prefix": "₹"]],
        ["oneOf": ["[00]-[00]", "[AA]-[0]"]],
        ["preset": "date"], ["preset": "time"], ["preset": "expiry"], ["notation": "[000] [0000]", "eager": true],
        ["pattern": "MM/YY", "blocks": ["MM": ["range": [1, 12]], "YY": ["range": [0, 99]]]],
    ]
    static let keys: [String] = ["1", "2", "5", "0", "9", "a", "Z", " ", "-", "/", ".", "(", "é", "12", "345", "ab"]
    static let words: [String] = ["Tel: ", "Name: Bob", "Card: ", "x", "Hello world", "id 7", "Sum: ", "—", "ok"]

    init(rules: Bool) {
        withRules = rules
        var notes: [(String, JSONValue)] = []
        server = Server(
            version: "test", outbound: RecordingOutbound { method, params, _ in notes.append((method, params)) })
        defer { notes.removeAll() }
        var options: JSONObject = ["diagnostics": "off"]
        if rules {
            options["rules"] = [
                ["match": "^Tel: (.*)$", "mask": ["preset": "phone.us"]],
                ["match": "^Card: (.*)$", "mask": ["preset": "card"]],
            ]
        }
        _ = server.handleRequest(
            "initialize",
            [
                "capabilities": ["general": ["positionEncodings": ["utf-32"]]],
                "initializationOptions": .object(options),
            ])
        server.handleNotification("initialized", [:])
        self.collect = {
            let taken = notes; notes.removeAll(); return taken
        }
    }

    private var collect: () -> [(String, JSONValue)] = { [] }

    // MARK: - The editor's text

    var string: String { String(String.UnicodeScalarView(text)) }

    var lineStarts: [Int] {
        var starts = [0]
        for (i, s) in text.enumerated() where s == "\n" { starts.append(i + 1) }
        return starts
    }

    func lineLength(_ line: Int, _ starts: [Int]) -> Int {
        (line + 1 < starts.count ? starts[line + 1] - 1 : text.count) - starts[line]
    }

    func position(_ index: Int, _ starts: [Int]) -> (Int, Int) {
        var line = 0
        while line + 1 < starts.count, starts[line + 1] <= index { line += 1 }
        return (line, index - starts[line])
    }

    static func range(_ a: (Int, Int), _ b: (Int, Int)) -> JSONValue {
        [
            "start": ["line": .from(a.0), "character": .from(a.1)],
            "end": ["line": .from(b.0), "character": .from(b.1)],
        ]
    }

    /// The daemon's fields as scalar ranges of the editor's text (flat offsets).
    func fields() -> [(id: String, start: Int, end: Int, text: String)] {
        guard let document = server.documents[uri] else { return [] }
        // The spans as the line tree has them (a snapshot would compute every field's state).
        let starts = lineStarts
        var spans: [(id: String, start: Int, end: Int, text: String)] = []
        document.lines.forEachField { line, span, _ in
            guard line < starts.count else { return }
            spans.append(
                (
                    id: span.id, start: starts[line] + span.start, end: starts[line] + span.end,
                    text: document.lines.slice(line: line, from: span.start, to: span.end)
                ))
        }
        return spans
    }

    private func fail(_ what: String) {
        guard violation == nil else { return }
        let spans = fields().map { "\($0.id) \($0.start)..<\($0.end) \($0.text.debugDescription)" }
        violation =
            what + "\ntext: " + string.debugDescription + "\nfields: " + spans.joined(separator: ", ")
            + "\nsteps:\n  " + log.suffix(14).joined(separator: "\n  ")
    }

    // MARK: - Talking to the daemon

    /// Opens the document.
    func open(_ initial: String) {
        text = Array(initial.unicodeScalars)
        server.handleNotification(
            "textDocument/didOpen",
            [
                "textDocument": [
                    "uri": .string(uri), "languageId": "plaintext",
                    "version": 1, "text": .string(initial),
                ]
            ])
        log.append("open \(initial.debugDescription)")
        handleFormats(of: nil, before: text)
    }

    /// Opens a field over `start..<end` (flat offsets on one line), applying and echoing its edits.
    func openField(_ start: Int, _ end: Int, mask: JSONValue) {
        let starts = lineStarts
        log.append("openField \(start)..<\(end) \(mask.serializedString())")
        guard
            case .success(let result) = server.handleRequest(
                "maskd/openField",
                [
                    "textDocument": ["uri": .string(uri)],
                    "range": EditingSession.range(position(start, starts), position(end, starts)),
                    "mask": mask,
                ])
        else { return }
        _ = collect()
        echo(result["edits"]?.arrayValue ?? [])
    }

    /// The editor applies `edits` (sorted, disjoint; last first) and sends them back as one change list.
    private func echo(_ edits: [JSONValue]) {
        guard !edits.isEmpty else { return }
        var changes: [JSONValue] = []
        for edit in edits.reversed() {
            let r = edit["range"]!, newText = edit["newText"]!.stringValue!
            let starts = lineStarts
            let a = starts[r["start"]!["line"]!.intValue!] + r["start"]!["character"]!.intValue!
            let b = starts[r["end"]!["line"]!.intValue!] + r["end"]!["character"]!.intValue!
            text.replaceSubrange(a..<b, with: Array(newText.unicodeScalars))
            changes.append(["range": r, "text": .string(newText)])
        }
        version += 1
        server.handleNotification(
            "textDocument/didChange",
            [
                "textDocument": ["uri": .string(uri), "version": .from(version)],
                "contentChanges": .array(changes),
            ])
        if collect().contains(where: { $0.0 == "maskd/didFormat" }) { fail("an echo was formatted") }
    }

    /// A person's changes (each `(start, end, text)` in flat offsets of the text the previous ones left, or a whole
    /// new text), applied by the editor and sent as one `didChange`; then the daemon's `didFormat`, applied and echoed.
    /// - Parameter typing: whether the generator meant the change as typing inside a field.
    func change(_ changes: [(Int, Int, String)?], whole: String? = nil, what: String) {
        let before = text
        var json: [JSONValue] = []
        // Whether a change lies inside a field as the rule says (within its range, no line break put in). The fields
        // are the daemon's before the notification, moved by the changes before each one (which, once none is inside
        // a field, only shift them).
        var inside = false
        var spans = fields().map { ($0.start, $0.end) }
        let fieldsBefore = spans.map { "\($0.0)..<\($0.1)" }.joined(separator: " ")
        for change in changes {
            if let (a, b, t) = change {
                let starts = lineStarts
                if !t.containsLineBreak, spans.contains(where: { $0.0 <= a && b <= $0.1 }) { inside = true }
                json.append([
                    "range": EditingSession.range(position(a, starts), position(b, starts)), "text": .string(t),
                ])
                text.replaceSubrange(a..<b, with: Array(t.unicodeScalars))
                let delta = t.unicodeScalars.count - (b - a)
                spans = spans.map { $0.0 >= b ? ($0.0 + delta, $0.1 + delta) : $0 }
            }
        }
        if let whole {
            text = Array(whole.unicodeScalars)
            json = [["text": .string(whole)]]
            inside = true  // A full content is diffed by the daemon: its classification is the daemon's to make.
        }
        version += 1
        steps += 1
        log.append(
            "\(what): " + json.map { $0.serializedString() }.joined(separator: ", ") + " over fields " + fieldsBefore)
        server.handleNotification(
            "textDocument/didChange",
            [
                "textDocument": ["uri": .string(uri), "version": .from(version)],
                "contentChanges": .array(json),
            ])
        handleFormats(of: inside ? nil : text, before: before)
    }

    /// Applies and echoes the `didFormat` that came, checking it; `naive`: the text the person's change left, when it
    /// was typing into no field (its letters and digits must all stay).
    private func handleFormats(of naive: [Unicode.Scalar]?, before: [Unicode.Scalar]) {
        let formats = collect().filter { $0.0 == "maskd/didFormat" }
        if formats.count > 1 { fail("\(formats.count) didFormats for one change") }
        if let format = formats.first?.1 {
            let edits = format["edits"]?.arrayValue ?? []
            // Every edit inside a field, as the daemon's copy (the person's text) has them.
            let spans = fields()
            let starts = lineStarts
            for edit in edits {
                let r = edit["range"]!
                let a = starts[r["start"]!["line"]!.intValue!] + r["start"]!["character"]!.intValue!
                let b = starts[r["end"]!["line"]!.intValue!] + r["end"]!["character"]!.intValue!
                if !spans.contains(where: { $0.start <= a && b <= $0.end }) {
                    fail("the daemon edits text outside every field: \(edit.serializedString())")
                }
            }
            if naive != nil, !withRules, !edits.isEmpty {
                fail("a change that is typing into no field was formatted: \(format["edits"]!.serializedString())")
            }
            echo(edits)
        }
        if let naive, case let now = EditingSession.lettersAndDigits(text),
            EditingSession.lettersAndDigits(naive).contains(where: { now[$0.key, default: 0] < $0.value })
        {
            fail("a letter or digit that came by a change outside fields was dropped")
        }
        check()
        _ = before
    }

    static func lettersAndDigits(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar: Int] {
        var counts: [Unicode.Scalar: Int] = [:]
        for s in scalars where s.properties.isAlphabetic || s.properties.numericType == .decimal {
            counts[s, default: 0] += 1
        }
        return counts
    }

    /// The daemon's copy and fields against the editor's text.
    private func check() {
        guard let document = server.documents[uri] else { return fail("the document is gone") }
        if document.text.unicodeScalars.elementsEqual(text) == false {
            fail("the daemon's copy differs: \(document.text.debugDescription)")
        }
        for field in fields()
        where field.start > field.end || field.end > text.count
            || String(String.UnicodeScalarView(text[field.start..<field.end])) != field.text
        {
            fail("field \(field.id) says \(field.text.debugDescription), the editor has other text there")
        }
    }

    // MARK: - Undo and redo

    /// The one change an editor's undo or redo sends to go from the current text to `target`: the span between their
    /// common prefix and suffix, or (`wholeLines`) that span widened to whole lines, as line-based editors report it.
    private func diff(to target: [Unicode.Scalar], wholeLines: Bool) -> (Int, Int, String) {
        var p = 0
        while p < text.count, p < target.count, text[p] == target[p] { p += 1 }
        var q = 0
        while q < text.count - p, q < target.count - p, text[text.count - 1 - q] == target[target.count - 1 - q] {
            q += 1
        }
        if wholeLines {
            while p > 0, text[p - 1] != "\n" { p -= 1 }
            while q > 0, text[text.count - q] != "\n" { q -= 1 }
        }
        return (p, text.count - q, String(String.UnicodeScalarView(target[p..<(target.count - q)])))
    }

    private func restore(_ target: [Unicode.Scalar], what: String, wholeLines: Bool) {
        let (a, b, t) = diff(to: target, wholeLines: wholeLines)
        guard a != b || !t.isEmpty else { return }
        let before = text
        version += 1
        steps += 1
        let starts = lineStarts
        let fieldsBefore = fields()
        let inField = !t.containsLineBreak && fieldsBefore.contains { $0.start <= a && b <= $0.end }
        let range = EditingSession.range(position(a, starts), position(b, starts))
        text = target
        log.append("\(what): \(range.serializedString()) \(t.debugDescription)")
        server.handleNotification(
            "textDocument/didChange",
            [
                "textDocument": ["uri": .string(uri), "version": .from(version)],
                "contentChanges": [["range": range, "text": .string(t)]],
            ])
        handleFormats(of: nil, before: before)
        // A rule's capture written whole on one line (`2` after `Tel: `) opens the rule's field over it, formatted as
        // typing it would be (protocol.md, "what a rule formats").
        let openedAsTyped =
            withRules && !t.isEmpty && !t.containsLineBreak
            && fields().contains { field in field.start == a && !fieldsBefore.contains { $0.id == field.id } }
        if text != target, inField || openedAsTyped {
            // The editor's undo is, to the daemon, typing into a field (its range lies within one, or it wrote a rule's
            // capture): the field reads it.
            typedUndos += 1
            if typedUndo == nil {
                typedUndo =
                    "\(what) typed into a field gave \(string.debugDescription), not "
                    + String(String.UnicodeScalarView(target)).debugDescription
            }
            text = target
            resynchronise()
        } else if text != target {
            fail(
                "\(what) did not give the text back: the daemon made it \(string.debugDescription), expected "
                    + String(String.UnicodeScalarView(target)).debugDescription)
            text = target
        }
    }

    /// Sends the editor's text whole (as after a reload), so that the session goes on from the text it expects.
    private func resynchronise() {
        version += 1
        let before = text
        server.handleNotification(
            "textDocument/didChange",
            [
                "textDocument": ["uri": .string(uri), "version": .from(version)],
                "contentChanges": [["text": .string(string)]],
            ])
        handleFormats(of: nil, before: before)
    }

    func undo(wholeLines: Bool) {
        guard let (before, after) = undoStack.popLast() else { return }
        guard text == after else { return }
        restore(before, what: "undo", wholeLines: wholeLines)
        redoStack.append((before, after))
    }

    func redo(wholeLines: Bool) {
        guard let (before, after) = redoStack.popLast() else { return }
        guard text == before else { return }
        restore(after, what: "redo", wholeLines: wholeLines)
        undoStack.append((before, after))
    }

    // MARK: - Random editing

    /// Builds a random document: lines of labels and fields of every kind, several per line, typed into.
    func start<C: EditChoices>(_ choices: inout C) {
        var lines: [String] = []
        for _ in 0..<(2 + choices.below(5)) {
            lines.append(choices.pick(["Tel: ", "Name: Bob", "Card: ", "", "a ", "Sum: ", "x: y: "]))
        }
        open(lines.joined(separator: "\n"))
        for _ in 0..<(1 + choices.below(5)) {
            let starts = lineStarts
            let line = choices.below(starts.count)
            let at = starts[line] + lineLength(line, starts)
            openField(at, at, mask: choices.pick(EditingSession.masks))
            // Some fields are typed into, others stay empty; a label may follow, and another field after it.
            for _ in 0..<choices.below(8) {
                guard let field = fields().last(where: { $0.end <= at + 40 && $0.start >= at }) else { break }
                change([(field.end, field.end, choices.pick(EditingSession.keys))], what: "type")
            }
            if choices.chance(30) {
                let end = lineStarts[line] + lineLength(line, lineStarts)
                change([(end, end, " x ")], what: "label")
            }
        }
        undoStack.removeAll()
    }

    /// One random step.
    func step<C: EditChoices>(_ choices: inout C) {
        let before = text
        let starts = lineStarts
        let lineCount = starts.count
        let line = choices.below(lineCount)
        let lineStart = starts[line], length = lineLength(line, starts)
        let spans = fields()
        let field = spans.isEmpty ? nil : spans[choices.below(spans.count)]
        switch choices.below(20) {
        case 0...5 where field != nil:
            // Inside a field: a key, a paste, a backspace, a forward delete, a selection replaced.
            let f = field!
            let a = f.start + choices.below(f.end - f.start + 1)
            switch choices.below(5) {
            case 0: change([(a, a, choices.pick(EditingSession.keys))], what: "type")
            case 1:
                change(
                    [(a, a, choices.pick(["5551234567", "4111111111111111", "12.5", "0312", "ab12"]))], what: "paste")
            case 2 where a > f.start: change([(a - 1, a, "")], what: "backspace")
            case 3 where a < f.end: change([(a, a + 1, "")], what: "delete")
            default:
                let b = a + choices.below(f.end - a + 1)
                change([(a, b, choices.pick(EditingSession.keys + [""]))], what: "replace")
            }
        case 6:
            // dd, or several lines (`3dd`), as Vim reports it: the lines and their breaks; the last from the break before.
            let count = 1 + choices.below(min(3, lineCount - line))
            let endLine = line + count
            if endLine < lineCount {
                change([(lineStart, starts[endLine], "")], what: "dd")
            } else if line > 0 {
                change([(lineStart - 1, text.count, "")], what: "dd last")
            } else {
                change([(0, text.count, "")], what: "dd all")
            }
        case 7:
            // S / cc, then a sentence typed key by key.
            change([(lineStart, lineStart + length, "")], what: "S")
            var at = lineStart
            for key in choices.pick(["Hello world", "Tel: 555", "12 ab"]) {
                change([(at, at, String(key))], what: "type after S")
                at = min(at + 1, text.count)
            }
        case 8 where line + 1 < lineCount:
            // J: the break (and the next line's indent) become one space.
            change([(lineStart + length, lineStart + length + 1, choices.chance(50) ? " " : "")], what: "J")
        case 9:
            // o / O, then a word.
            if choices.chance(50) {
                change([(lineStart + length, lineStart + length, "\n")], what: "o")
            } else {
                change([(lineStart, lineStart, "\n")], what: "O")
            }
        case 10:
            // yy then p / P of another line.
            let other = choices.below(lineCount)
            let yanked = String(
                String.UnicodeScalarView(text[starts[other]..<(starts[other] + lineLength(other, starts))]))
            if choices.chance(50) {
                change([(lineStart + length, lineStart + length, "\n" + yanked)], what: "p")
            } else {
                change([(lineStart, lineStart, yanked + "\n")], what: "P")
            }
        case 11:
            // A block insert: the same text at one column of several lines, one change per line.
            let count = 1 + choices.below(min(3, lineCount - line))
            let column = choices.below(8)
            let insert = choices.pick(["# ", "1", "ab", "-"])
            var changes: [(Int, Int, String)?] = []
            var shift = 0
            for l in line..<(line + count) {
                let at = starts[l] + min(column, lineLength(l, starts)) + shift
                changes.append((at, at, insert))
                shift += insert.unicodeScalars.count
            }
            change(changes, what: "block insert")
        case 12:
            // A whole-buffer replace: another text, or this one with some lines gone or added.
            var lines = string.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            switch choices.below(3) {
            case 0: lines = [choices.pick(EditingSession.words), choices.pick(EditingSession.words)]
            case 1: lines.remove(at: choices.below(lines.count)); if lines.isEmpty { lines = [""] }
            default: lines.insert(choices.pick(EditingSession.words), at: choices.below(lines.count + 1))
            }
            change([], whole: lines.joined(separator: "\n"), what: "whole buffer")
        case 13 where field != nil:
            // A selection across a field's boundary, replaced (or deleted).
            let f = field!
            let a =
                choices.chance(50)
                ? max(0, f.start - 1 - choices.below(4)) : f.start + choices.below(f.end - f.start + 1)
            let b = min(
                text.count,
                max(a, choices.chance(50) ? f.end + 1 + choices.below(4) : f.start + choices.below(f.end - f.start + 1))
            )
            change([(a, b, choices.pick(["", "X", "ab", "5", "\n"]))], what: "across")
        case 14:
            // Typing anywhere (outside fields, mostly), Enter included.
            let a = lineStart + choices.below(length + 1)
            change([(a, a, choices.pick(EditingSession.keys + ["\n", "Tel: ", "Card: 4111"]))], what: "type anywhere")
        case 15...17:
            undo(wholeLines: choices.chance(40))
            return
        case 18, 19:
            redo(wholeLines: choices.chance(40))
            return
        default:
            return
        }
        if text != before {
            undoStack.append((before, text))
            if undoStack.count > 40 { undoStack.removeFirst() }
            redoStack.removeAll()
        }
    }
}
