// Fuzz target `server`: the daemon's dispatcher in-process (Sources/MaskServer), driven as an editor would drive it.
//
// Built by `fuzz/run server SECONDS` in one module with MaskServer's sources (JSON, JSONRPC and MaskEngine are
// compiled as modules of their own), so the daemon's copy of each document can be compared with the editor's.
// The input's bytes choose a sequence of messages: initialize (any encodings), didOpen, the person's didChange
// (typing, deleting, pasting over a selection, several changes at once, full content, impossible ranges, stale
// versions), openField, setMask, closeField, fields, formatHints, apply, didClose, malformed requests, shutdown
// and exit. The editor is a simple model: a list of Unicode scalars per document, changed by the LSP rules in the
// negotiated encoding. It applies every `didFormat` and every openField / setMask result (and echoes them back as
// a didChange), except when it chooses to drop one, as a client whose document moved on does. After every step:
// - every request got exactly one answer with its id, and notifications none;
// - an echo produced no `didFormat`;
// - the daemon has exactly the editor's open documents, each with the editor's text, scalar for scalar;
// - every field the daemon reports covers text of the editor's document equal to the field's `text`.
// Every input runs twice: once with the daemon's pieces, once with every line cut into pieces of a few bytes.
// The bugs this target found fail the run (`checkRegressions`); MASKD_FUZZ_KNOWN_BUGS=skip steps around their
// classes (a lone `\r` in `allPieces`, full content over unechoed edits).

#if canImport(Glibc)
    import Glibc
#endif
import JSON
import JSONRPC
import MaskEngine

// `ByteSource` and `skipKnownBugs` are in fuzz/targets/shared/FuzzInput.swift.

func fail(_ message: String) -> Never {
    fatalError("server: " + message)
}

// MARK: - The editor's buffer

/// One document as the editor holds it.
struct EditorDocument {
    var scalars: [Unicode.Scalar]
    var version: Int

    init(_ text: String, version: Int) {
        scalars = Array(text.unicodeScalars)
        self.version = version
    }

    var text: String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    /// Where each line starts, in scalars; lines end at `\n`, `\r\n` or `\r`.
    var lineStarts: [Int] {
        var starts = [0]
        var i = 0
        while i < scalars.count {
            if scalars[i] == "\r" {
                if i + 1 < scalars.count, scalars[i + 1] == "\n" { i += 1 }
                starts.append(i + 1)
            } else if scalars[i] == "\n" {
                starts.append(i + 1)
            }
            i += 1
        }
        return starts
    }

    /// The scalars of line `line` without its ending: [start, end).
    func lineBounds(_ line: Int, _ starts: [Int]) -> (Int, Int) {
        let start = starts[line]
        var end = line + 1 < starts.count ? starts[line + 1] : scalars.count
        while end > start, scalars[end - 1] == "\n" || scalars[end - 1] == "\r" { end -= 1 }
        return (start, end)
    }

    /// The scalar index of an LSP position, by the daemon's rules; nil when its line does not exist.
    func index(line: Int, character: Int, encoding: PositionEncoding, roundUp: Bool) -> Int? {
        let starts = lineStarts
        guard line >= 0, character >= 0, line < starts.count else { return nil }
        let (start, end) = lineBounds(line, starts)
        var units = 0
        var i = start
        while i < end {
            if units == character { return i }
            let width = unitWidth(scalars[i], encoding)
            if units + width > character { return roundUp ? i + 1 : i }
            units += width
            i += 1
        }
        // Past the line's end: its end (LSP 3.17).
        return end
    }

    /// The LSP position of scalar index `index`.
    func position(of index: Int, encoding: PositionEncoding) -> (line: Int, character: Int) {
        let starts = lineStarts
        var line = 0
        while line + 1 < starts.count, starts[line + 1] <= index { line += 1 }
        var units = 0
        for i in starts[line]..<index { units += unitWidth(scalars[i], encoding) }
        return (line, units)
    }

    /// Applies an LSP change; false (and nothing changed) when its range does not exist.
    mutating func apply(range: (Int, Int, Int, Int)?, text: String, encoding: PositionEncoding) -> Bool {
        guard let range else {
            scalars = Array(text.unicodeScalars)
            return true
        }
        guard let start = index(line: range.0, character: range.1, encoding: encoding, roundUp: false),
            let end = index(
                line: range.2, character: range.3, encoding: encoding, roundUp: range.2 != range.0 || range.3 != range.1
            ),
            start <= end
        else { return false }
        scalars.replaceSubrange(start..<end, with: Array(text.unicodeScalars))
        return true
    }
}

func unitWidth(_ scalar: Unicode.Scalar, _ encoding: PositionEncoding) -> Int {
    switch encoding {
    case .utf8: return UTF8.width(scalar)
    case .utf16: return UTF16.width(scalar)
    case .utf32: return 1
    }
}

// MARK: - JSON helpers

func position(_ p: (line: Int, character: Int)) -> JSONValue {
    ["line": .int(Int64(p.line)), "character": .int(Int64(p.character))]
}

func range(_ r: (Int, Int, Int, Int)) -> JSONValue {
    ["start": position((r.0, r.1)), "end": position((r.2, r.3))]
}

/// An LSP range read back, or nil when it is not one.
func readRange(_ json: JSONValue?) -> (Int, Int, Int, Int)? {
    guard let json, let a = json["start"]?["line"]?.intValue, let b = json["start"]?["character"]?.intValue,
        let c = json["end"]?["line"]?.intValue, let d = json["end"]?["character"]?.intValue
    else { return nil }
    return (a, b, c, d)
}

let masks: [JSONValue] = [
    "+1 ([000]) [000]-[0000]", "[00]{.}[00]{.}[0000]", "[AAA]-[000]", "[0…]", "[***]", "[0", "",
    ["groups": [4, 4, 4, 4, 3]], ["notation": "[000] [0000]", "eager": true], ["pattern": "(###) ###"],
    ["notation": "[a…]", "regex": "^(a+)+$"], ["preset": "card"], ["preset": "phone.cn"], ["number": ["fraction": 2]],
    ["oneOf": ["[00]", "[AA]"]], ["groups": "x"], ["notation": "[0]", "bogus": 1], 17, .null,
    "[…]", "[0…][AAA]", ["preset": "date", "order": "dmy"], ["preset": "time"], ["preset": "expiry", "eager": true],
    [
        "pattern": "MM/YY hh",
        "blocks": ["MM": ["range": [1, 12]], "YY": ["range": [0, 99]], "hh": ["enum": ["AM", "PM"]]],
    ],
    ["pattern": "N", "blocks": ["N": ["range": [5, 1]]]],
    ["number": ["grouping": "lakh", "prefix": "₹", "max": 100000, "decimalAliases": [","], "padFraction": true]],
    ["number": ["grouping": "wan", "suffix": " 元", "min": -50, "negative": true, "fraction": 0]],
]

/// Whether every step is printed as it is taken (MASKD_FUZZ_TRACE=1), to read a crash's story.
let trace = getenv("MASKD_FUZZ_TRACE") != nil

/// A `\r` inserted right before a `\n` (or brought next to one) makes one `\r\n` line break for the editor, which
/// the daemon once kept as two lines, every later line number off by one. Skipping known bugs leaves out the lone
/// `\r`.
let allPieces: [String] = [
    "1", "2", "5", "0", "a", "Z", " ", "-", "(", "é", "e\u{301}", "😀", "👍🏽", "１", "\n", "\r\n", "\r", "\t", "\u{0}",
    "555", "12345678", "abc", "ß", "\u{200D}", "🇫🇷",
]

let pieces = skipKnownBugs ? allPieces.filter { $0 != "\r" } : allPieces

// MARK: - The session

final class Session {
    var server: Server!
    let channel = FuzzOutbound()
    /// The notifications and requests the server sent since the last step cleared them.
    var outbox: [(String, JSONValue)] {
        get { channel.sent }
        set { channel.sent = newValue }
    }
    var editor: [String: EditorDocument] = [:]
    var encoding = PositionEncoding.utf16
    var nextID: Int64 = 1
    var initialized = false
    var shutDown = false
    var exited = false
    var log: [String] = [] {
        didSet { if trace, let last = log.last { fputs(last + "\n", stderr) } }
    }

    init() {
        server = Server(version: "fuzz", outbound: channel)
    }

    func context() -> String { "steps:\n  " + log.suffix(16).joined(separator: "\n  ") }

    /// Sends a request; checks that exactly one answer with its id came back, and returns it.
    @discardableResult
    func request(_ method: String, _ params: JSONValue) -> Message {
        let id = RequestID.int(nextID)
        nextID += 1
        log.append("request \(method) \(params.serializedString().prefix(trace ? 4000 : 160))")
        outbox.removeAll()
        channel.responses.removeAll()
        _ = server.handle(.request(id: id, method: method, params: params))
        server.publishChanges()
        if channel.responses.count > 1 {
            fail("request \(method) was answered \(channel.responses.count) times\n" + context())
        }
        let answer = channel.responses.first
        guard let reply = answer else {
            fail("request \(method) got no answer\n" + context())
        }
        switch reply {
        case .response(let replyID, _), .errorResponse(let replyID?, _):
            if replyID != id { fail("request \(id) was answered as \(replyID)\n" + context()) }
        default:
            fail("request \(method) was answered with \(reply)\n" + context())
        }
        return reply
    }

    func notify(_ method: String, _ params: JSONValue) {
        log.append("notify \(method) \(params.serializedString().prefix(trace ? 4000 : 160))")
        channel.responses.removeAll()
        _ = server.handle(.notification(method: method, params: params))
        server.publishChanges()
        let answer = channel.responses.first
        if let reply = answer {
            fail("notification \(method) was answered: \(reply)\n" + context())
        }
    }

    func result(_ message: Message) -> JSONValue? {
        if case .response(_, let result) = message { return result }
        return nil
    }

    // MARK: Documents

    func open(_ uri: String, _ text: String) {
        let params: JSONValue = [
            "textDocument": [
                "uri": .string(uri), "languageId": "plaintext", "version": 1,
                "text": .string(text),
            ]
        ]
        notify("textDocument/didOpen", params)
        if initialized, !shutDown { editor[uri] = EditorDocument(text, version: 1) }
    }

    /// A person's didChange, applied by the editor first; then the daemon's didFormat, applied and echoed (or dropped).
    func change(_ uri: String, _ changes: [((Int, Int, Int, Int)?, String)], version: Int? = nil, drop: Bool) {
        guard var document = editor[uri] else { return }
        let newVersion = version ?? document.version + 1
        var edited = document
        var possible = newVersion > document.version
        for (r, text) in changes where possible {
            possible = edited.apply(range: r, text: text, encoding: encoding)
        }
        let json: [JSONValue] = changes.map { r, text in
            if let r { return ["range": range(r), "text": .string(text)] }
            return ["text": .string(text)]
        }
        outbox.removeAll()
        notify(
            "textDocument/didChange",
            [
                "textDocument": ["uri": .string(uri), "version": .int(Int64(newVersion))],
                "contentChanges": .array(json),
            ])
        guard possible else {
            // Refused whole by the daemon too (stale version or an impossible range).
            if outbox.contains(where: { $0.0 == "maskd/didFormat" }) {
                fail("a refused change got a didFormat\n" + context())
            }
            return
        }
        document = edited
        document.version = newVersion
        editor[uri] = document
        let formats = outbox.filter { $0.0 == "maskd/didFormat" }
        if formats.count > 1 { fail("one didChange got \(formats.count) didFormats\n" + context()) }
        guard let format = formats.first?.1 else { return }
        if format["textDocument"]?["version"]?.intValue != newVersion {
            fail(
                "didFormat for version \(format["textDocument"]?["version"] as Any), the change was \(newVersion)\n"
                    + context())
        }
        guard !drop else {
            log.append("(the editor drops that didFormat)")
            return
        }
        echo(uri, format["edits"]?.arrayValue ?? [], what: "didFormat")
    }

    /// The editor applies the daemon's edits and sends them back as one didChange, which must be a silent echo.
    func echo(_ uri: String, _ edits: [JSONValue], what: String) {
        guard var document = editor[uri], !edits.isEmpty else { return }
        var changes: [JSONValue] = []
        // Sorted and disjoint, so applying them from the last keeps the earlier ranges valid.
        for edit in edits.reversed() {
            guard let r = readRange(edit["range"]), let text = edit["newText"]?.stringValue else {
                fail("\(what) edit without a range or newText: \(edit.serializedString())\n" + context())
            }
            if !document.apply(range: r, text: text, encoding: encoding) {
                fail("\(what) edit \(edit.serializedString()) does not fit the document\n" + context())
            }
            changes.append(["range": range(r), "text": .string(text)])
        }
        document.version += 1
        editor[uri] = document
        outbox.removeAll()
        notify(
            "textDocument/didChange",
            [
                "textDocument": ["uri": .string(uri), "version": .int(Int64(document.version))],
                "contentChanges": .array(changes),
            ])
        if outbox.contains(where: { $0.0 == "maskd/didFormat" }) {
            fail("the echo of a \(what) produced a didFormat\n" + context())
        }
    }

    // MARK: Checking

    func checkDocuments() {
        // After shutdown the daemon drops every notification but exit: its copies are finished with.
        guard initialized, !shutDown else { return }
        let daemon = Set(server.documents.keys)
        if daemon != Set(editor.keys) {
            fail("the daemon has documents \(daemon.sorted()), the editor \(editor.keys.sorted())\n" + context())
        }
        for (uri, document) in editor {
            let theirs = Array(server.documents[uri]!.text.unicodeScalars)
            if theirs != document.scalars {
                fail(
                    "document \(uri) differs: daemon \(String(String.UnicodeScalarView(theirs)).debugDescription), "
                        + "editor \(document.text.debugDescription)\n" + context())
            }
        }
    }

    func checkFields(_ uri: String) {
        guard let document = editor[uri], !shutDown else { return }
        let reply = request("maskd/fields", ["textDocument": ["uri": .string(uri)]])
        guard let fields = result(reply)?.arrayValue else { fail("maskd/fields failed: \(reply)\n" + context()) }
        for field in fields {
            guard let r = readRange(field["range"]), let text = field["text"]?.stringValue,
                let start = document.index(line: r.0, character: r.1, encoding: encoding, roundUp: false),
                let end = document.index(line: r.2, character: r.3, encoding: encoding, roundUp: false), start <= end
            else { fail("field \(field.serializedString()) has no range in the document\n" + context()) }
            let covered = Array(document.scalars[start..<end])
            if covered != Array(text.unicodeScalars) {
                fail(
                    "field \(field["field"]?.stringValue ?? "?") says \(text.debugDescription), the document holds "
                        + "\(String(String.UnicodeScalarView(covered)).debugDescription)\n" + context())
            }
        }
    }

    // MARK: Random steps

    func randomText(_ source: inout ByteSource, upTo limit: Int) -> String {
        var text = ""
        for _ in 0..<(source.byte() % (limit + 1)) { text += source.pick(pieces) }
        return text
    }

    /// A position that exists: a scalar boundary of `document`, as an LSP position.
    func randomIndex(_ source: inout ByteSource, _ document: EditorDocument) -> Int {
        source.byte() % (document.scalars.count + 1)
    }

    func randomRange(_ source: inout ByteSource, _ uri: String) -> (Int, Int, Int, Int) {
        let document = editor[uri]!
        // Often a field's range or end, so that typing lands in fields.
        if source.chance(160), let field = fieldRanges(uri).randomElement(using: &source) {
            return source.chance(128) ? (field.2, field.3, field.2, field.3) : field
        }
        let a = randomIndex(&source, document), b = randomIndex(&source, document)
        let p = document.position(of: min(a, b), encoding: encoding),
            q = document.position(of: max(a, b), encoding: encoding)
        return (p.line, p.character, q.line, q.character)
    }

    /// The daemon's fields in `uri` (read from its state directly, which costs no request).
    func fieldRanges(_ uri: String) -> [(Int, Int, Int, Int)] {
        guard let document = server.documents[uri] else { return [] }
        return document.allSnapshots().map {
            ($0.range.start.line, $0.range.start.character, $0.range.end.line, $0.range.end.character)
        }
    }

    func step(_ source: inout ByteSource) {
        let uris = ["file:///a", "file:///b", "file:///c"]
        let uri = source.pick(uris)
        let drop = source.chance(24)
        switch source.byte() % 20 {
        case 0:
            var encodings: [JSONValue] = []
            for _ in 0..<(source.byte() % 3) {
                encodings.append(source.pick(["utf-8", "utf-16", "utf-32", "latin-1"]))
            }
            let reply = request(
                "initialize",
                [
                    "processId": .null,
                    "capabilities": ["general": ["positionEncodings": .array(encodings)]],
                ])
            if !initialized, let chosen = result(reply)?["capabilities"]?["positionEncoding"]?.stringValue {
                guard let e = PositionEncoding(rawValue: chosen) else {
                    fail("initialize chose \(chosen)\n" + context())
                }
                encoding = e
                initialized = true
            }
            notify("initialized", [:])
        case 1, 2:
            open(uri, randomText(&source, upTo: 12))
        case 3...6 where editor[uri] != nil:
            // Typing, deleting, or pasting over a selection.
            let r = randomRange(&source, uri)
            let collapsed = (r.0, r.1) == (r.2, r.3)
            let text = collapsed || source.chance(128) ? source.pick(pieces) : ""
            change(uri, [(r, text)], drop: drop)
        case 7 where editor[uri] != nil:
            let r = randomRange(&source, uri)
            change(uri, [(r, randomText(&source, upTo: 6))], drop: drop)
        case 8 where editor[uri] != nil:
            // Several changes in one notification, each against what the previous left.
            var copy = editor[uri]!
            var changes: [((Int, Int, Int, Int)?, String)] = []
            for _ in 0..<(1 + source.byte() % 3) {
                let a = randomIndex(&source, copy), b = randomIndex(&source, copy)
                let p = copy.position(of: min(a, b), encoding: encoding),
                    q = copy.position(of: max(a, b), encoding: encoding)
                let text = randomText(&source, upTo: 3)
                _ = copy.apply(range: (p.line, p.character, q.line, q.character), text: text, encoding: encoding)
                changes.append(((p.line, p.character, q.line, q.character), text))
            }
            change(uri, changes, drop: drop)
        case 9 where editor[uri] != nil && !(skipKnownBugs && !(server.documents[uri]?.pending.isEmpty ?? true)):
            // A change while edits of an openField or didFormat and of a later setMask are pending (never echoed) once
            // killed the daemon (String index out of bounds in String.scalarSlice, from Document.splice).
            // Skipping known bugs, the editor echoes every openField and setMask, and sends no full content meanwhile.
            // Full content: the text with a piece replaced, or something else entirely.
            var copy = editor[uri]!
            let a = randomIndex(&source, copy), b = randomIndex(&source, copy)
            copy.scalars.replaceSubrange(
                min(a, b)..<max(a, b), with: Array(randomText(&source, upTo: 4).unicodeScalars))
            change(uri, [(nil, source.chance(32) ? randomText(&source, upTo: 8) : copy.text)], drop: drop)
        case 10 where editor[uri] != nil:
            // Impossible ranges, and stale versions.
            let document = editor[uri]!
            let lines = document.lineStarts.count
            let bad: (Int, Int, Int, Int) = source.pick([
                (lines + 1, 0, lines + 1, 0), (0, 10_000, 0, 10_000), (-1, 0, 0, 0),
                (0, 0, -5, 0), (lines - 1, 0, 0, 0),
            ])
            if source.chance(128) {
                change(uri, [(bad, "x")], drop: drop)
            } else {
                change(uri, [((0, 0, 0, 0), "1")], version: document.version - source.byte() % 2, drop: drop)
            }
        case 11...12 where editor[uri] != nil:
            let document = editor[uri]!
            let a = randomIndex(&source, document), b = randomIndex(&source, document)
            let p = document.position(of: min(a, b), encoding: encoding),
                q = document.position(of: max(a, b), encoding: encoding)
            var params: JSONValue = [
                "textDocument": ["uri": .string(uri)], "range": range((p.line, p.character, q.line, q.character)),
                "mask": source.pick(masks),
            ]
            if source.chance(64), case .object(var object) = params {
                object["field"] = .string(source.pick(["f1", "f2", "x", ""]))
                params = .object(object)
            }
            let reply = request("maskd/openField", params)
            if !drop || skipKnownBugs, let edits = result(reply)?["edits"]?.arrayValue {
                echo(uri, edits, what: "openField")
            }
        case 13 where editor[uri] != nil:
            let id = source.pick(["f1", "f2", "f3", "x"])
            let reply = request(
                "maskd/setMask",
                [
                    "textDocument": ["uri": .string(uri)], "field": .string(id),
                    "mask": source.pick(masks),
                ])
            if !drop || skipKnownBugs, let edits = result(reply)?["edits"]?.arrayValue {
                echo(uri, edits, what: "setMask")
            }
        case 14:
            request(
                "maskd/closeField",
                ["textDocument": ["uri": .string(uri)], "field": .string(source.pick(["f1", "f2", "x"]))])
        case 15:
            let document = editor[uri] ?? EditorDocument("", version: 0)
            let p = document.position(of: randomIndex(&source, document), encoding: encoding)
            request("maskd/formatHints", ["textDocument": ["uri": .string(uri)], "position": position(p)])
            request(
                "maskd/apply",
                [
                    "mask": source.pick(masks), "text": .string(randomText(&source, upTo: 8)),
                    "edit": [
                        "start": .int(Int64(source.byte() % 6)), "end": .int(Int64(source.byte() % 8)),
                        "text": .string(source.pick(pieces)),
                    ],
                ])
        case 16:
            // Malformed requests and notifications: wrong shapes everywhere.
            let method = source.pick([
                "maskd/openField", "maskd/apply", "maskd/fields", "textDocument/didChange",
                "textDocument/didOpen", "no/such", "maskd/setMask", "initialize",
            ])
            let params: JSONValue = source.pick([
                5, "x", .null, [], ["textDocument": 3], ["textDocument": ["uri": 7]],
                ["mask": [:], "text": 1], ["contentChanges": "x", "textDocument": ["uri": "file:///a"]],
            ])
            if source.chance(128) { request(method, params) } else { notify(method, params) }
        case 17:
            notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
            if initialized, !shutDown { editor[uri] = nil }
        case 18:
            checkFields(uri)
            notify("$/cancelRequest", ["id": .int(Int64(source.byte()))])
        default:
            if source.chance(16) {
                request("shutdown", .null)
                if initialized { shutDown = true }
                if source.chance(128) {
                    notify("exit", .null)
                    exited = true
                }
            }
        }
    }
}

extension Array {
    /// A random element drawn from the fuzzer's bytes.
    func randomElement(using source: inout ByteSource) -> Element? {
        isEmpty ? nil : self[source.byte() % count]
    }
}

// MARK: - Regressions

/// The bugs this target found, as minimal sessions; checked once at start-up (not when skipping known bugs).
func checkRegressions() {
    func session() -> Session {
        let s = Session()
        s.request("initialize", ["processId": .null, "capabilities": [:]])
        s.initialized = true
        return s
    }
    func change(_ s: Session, _ version: Int, _ changes: JSONValue) {
        s.notify(
            "textDocument/didChange",
            [
                "textDocument": ["uri": "file:///a", "version": .int(Int64(version))],
                "contentChanges": changes,
            ])
    }
    var failed: [String] = []
    // cr-before-lf: "\r" typed before "\n" makes one line break.
    var s = session()
    s.notify(
        "textDocument/didOpen",
        ["textDocument": ["uri": "file:///a", "languageId": "plaintext", "version": 1, "text": "a\nb"]])
    change(s, 2, [["range": range((0, 1, 0, 1)), "text": "\r"]])
    let reply = s.request(
        "maskd/openField", ["textDocument": ["uri": "file:///a"], "range": range((1, 0, 1, 1)), "mask": "[*]"])
    let crBeforeLF = s.result(reply) == nil
    fputs(
        "server regression cr-before-lf: a \\r typed before a \\n joins them into one line break: \(crBeforeLF ? "FAILS: " + "\(reply)" : "ok")\n",
        stderr)
    if crBeforeLF {
        failed.append("cr-before-lf: after typing \\r before \\n in \"a\\nb\", line 1 is not \"b\": \(reply)")
    }
    // change-over-unechoed, last: it traps. Edits of an openField and a setMask pending, then a full-content change.
    fputs(
        "server regression change-over-unechoed: a full-content change over unechoed openField and setMask edits (a trap here is the bug)\n",
        stderr)
    s = session()
    s.notify(
        "textDocument/didOpen",
        ["textDocument": ["uri": "file:///a", "languageId": "plaintext", "version": 1, "text": "abcdefg"]])
    s.request(
        "maskd/openField",
        ["textDocument": ["uri": "file:///a"], "range": range((0, 2, 0, 7)), "mask": "[AAA]-[000]", "field": "f1"])
    s.request("maskd/setMask", ["textDocument": ["uri": "file:///a"], "field": "f1", "mask": "[000]"])
    change(s, 2, [["text": ""]])
    fputs("server regression change-over-unechoed: ok\n", stderr)
    // many-double-stars: twelve `**` against a path forty folders deep (the old matcher retried every split: minutes).
    let deep = Array(repeating: "a", count: 40).joined(separator: "/") + "/c.txt"
    let many = Array(repeating: "**", count: 12).joined(separator: "/")
    guard let missing = try? Glob(many + "/b"), let matching = try? Glob(many + "/c.txt"),
        !missing.matches(deep), matching.matches(deep)
    else { fail("many-double-stars: a glob of twelve ** matches wrongly") }
    fputs("server regression many-double-stars: ok\n", stderr)
    // past-line-end: a character past a line's end is its end (LSP 3.17): a change ending there is applied, not refused.
    s = session()
    s.notify(
        "textDocument/didOpen",
        ["textDocument": ["uri": "file:///a", "languageId": "plaintext", "version": 1, "text": "abc\nd"]])
    change(s, 2, [["range": range((0, 1, 0, 40)), "text": "x"]])
    let pastEnd = s.request(
        "maskd/openField", ["textDocument": ["uri": "file:///a"], "range": range((0, 0, 0, 2)), "mask": "[aa]"])
    if s.result(pastEnd)?["state"]?["text"]?.stringValue != "ax" {
        failed.append("past-line-end: a change ending past its line: \(pastEnd)")
    }
    fputs(
        "server regression past-line-end: \(failed.contains { $0.hasPrefix("past-line-end") } ? "FAILS" : "ok")\n",
        stderr)
    if !failed.isEmpty { fail("\(failed.count) regressions fail:\n  " + failed.joined(separator: "\n  ")) }
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    if !skipKnownBugs { checkRegressions() }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    checkGlob(bytes)
    // Each input twice: with lines cut into pieces as the daemon cuts them, and into pieces of a few bytes, so that
    // the lines of the short documents fuzzed here are many pieces each (LineTree).
    for pieces in [LineTree.PieceSize.standard, LineTree.PieceSize(max: 4, cut: 2)] {
        LineTree.defaultPieceSize = pieces
        run(bytes)
    }
    return 0
}

/// A rule's glob and a document's path from the input's first bytes (up to 24 glob segments, many of them `**`, and
/// up to 48 folders): matching must give what a plain recursive matcher gives where that one can afford it, and
/// never hang (the fuzzer's timeout) where it cannot.
func checkGlob(_ bytes: [UInt8]) {
    let segments = ["**", "**", "*", "a", "b?", "a*b", "{a,b}", "c.txt"]
    let globCount = 1 + Int(bytes.first ?? 0) % 24
    let glob = (0..<globCount).map { segments[Int(bytes.count > $0 + 1 ? bytes[$0 + 1] : 0) % segments.count] }
    let pathCount = Int(bytes.count > 25 ? bytes[25] : 0) % 49
    let path = (0..<pathCount).map { ["a", "b", "ab", "c.txt"][Int(bytes.count > $0 + 26 ? bytes[$0 + 26] : 0) % 4] }
    let source = "/" + glob.joined(separator: "/")
    // Braces past 256 alternatives (nine `{a,b}`) are refused; every other glob here compiles.
    let braces = glob.filter { $0 == "{a,b}" }.count
    guard let compiled = try? Glob(source) else {
        if braces > 8 { return }
        fail("the glob \(source) does not compile")
    }
    if braces > 8 { fail("the glob \(source) makes \(1 << braces) alternatives and compiled") }
    let matched = compiled.matches(path.joined(separator: "/"))
    if glob.count <= 6, path.count <= 6, matched != referenceGlob(glob[...], path[...]) {
        fail("the glob \(source) on \(path.joined(separator: "/")): \(matched)")
    }
}

/// The recursive matcher the glob is compared with (exponential in `**`: small inputs only).
func referenceGlob(_ glob: ArraySlice<String>, _ path: ArraySlice<String>) -> Bool {
    guard let first = glob.first else { return path.isEmpty }
    if first == "**" { return (0...path.count).contains { referenceGlob(glob.dropFirst(), path.dropFirst($0)) } }
    guard let part = path.first else { return false }
    let fits: Bool
    switch first {
    case "*": fits = true
    case "b?": fits = part.count == 2 && part.hasPrefix("b")
    case "a*b": fits = part.count >= 2 && part.hasPrefix("a") && part.hasSuffix("b")
    case "{a,b}": fits = part == "a" || part == "b"
    default: fits = part == first
    }
    return fits && referenceGlob(glob.dropFirst(), path.dropFirst())
}

func run(_ bytes: [UInt8]) {
    var source = ByteSource(bytes)
    let session = Session()
    // Most runs start initialized, so that the bytes go into documents and fields.
    if source.chance(224) {
        let reply = session.request("initialize", ["processId": .null, "capabilities": [:]])
        if let chosen = session.result(reply)?["capabilities"]?["positionEncoding"]?.stringValue,
            let e = PositionEncoding(rawValue: chosen)
        {
            session.encoding = e
            session.initialized = true
        }
    }
    var steps = 0
    while !source.isEmpty, !session.exited, steps < 80 {
        steps += 1
        session.step(&source)
        session.checkDocuments()
    }
}

/// The server's outbound channel in the fuzzer: notifications and requests in `sent`, answers in `responses`.
final class FuzzOutbound: Outbound {
    var sent: [(String, JSONValue)] = []
    var responses: [Message] = []
    let isWritingLongList = false
    private var requests: Int64 = 0

    func send(_ message: OutgoingMessage) -> RequestID? {
        switch message {
        case let .notification(method, params):
            sent.append((method, params.value))
            return nil
        case let .request(method, params):
            requests += 1
            sent.append((method, params.value))
            return .int(requests)
        case let .response(id, .success(result)):
            responses.append(.response(id: id, result: result.value))
            return nil
        case let .response(id, .failure(error)):
            responses.append(.errorResponse(id: id, error: error))
            return nil
        }
    }
}
