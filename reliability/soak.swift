// The soak: one long editing session against the real daemon, every result checked against the engine run here.
//
// Built and run by `reliability/soak` (see there for the options). The client starts `maskd --stdio` on pipes,
// opens documents full of fields, then types, deletes, pastes over selections and moves the caret, one keystroke
// per `didChange`, as an editor would, echoing every `didFormat` back. Each `didFormat` is compared with
// `Mask.apply` on the client's own copy of the field (text, caret, rejected, overflow), the editor's document with
// `maskd/fields` now and then, and the daemon's RSS is sampled: it must stay flat over the second half.

import Glibc
import JSON
import MaskCatalog
import MaskEngine

// MARK: - Options

struct Options {
    var keystrokes = 100_000
    var documents = 100
    var fieldsPerDocument = 100
    var seed: UInt64 = 20_260_310
    var binary = ""
    var maxGrowth = 5.0

    init(_ arguments: [String]) {
        var i = 1
        func value() -> String {
            i += 1
            guard i < arguments.count else { usage("\(arguments[i - 1]) needs a value") }
            return arguments[i]
        }
        while i < arguments.count {
            switch arguments[i] {
            case "--keystrokes": keystrokes = Int(value()) ?? -1
            case "--documents": documents = Int(value()) ?? -1
            case "--fields-per-document": fieldsPerDocument = Int(value()) ?? -1
            case "--seed": seed = UInt64(value()) ?? 0
            case "--binary": binary = value()
            case "--max-growth": maxGrowth = Double(value()) ?? -1
            default: usage("unknown option \(arguments[i])")
            }
            i += 1
        }
        if keystrokes < 1 || documents < 1 || fieldsPerDocument < 1 || binary.isEmpty { usage("bad options") }
    }
}

func usage(_ problem: String) -> Never {
    fputs(
        "soak: \(problem)\nusage: soak --binary PATH [--keystrokes N] [--documents N] [--fields-per-document N] "
            + "[--seed N] [--max-growth PERCENT]\n", stderr)
    exit(2)
}

// MARK: - The daemon on pipes

/// The daemon, through the client the tests and the bench share (`Tests/MaskdClient`), read the soak's way: every
/// failure ends the soak, and the diagnostics are skipped unparsed.
final class Daemon {
    let process: DaemonProcess

    init(binary: String) {
        process = must {
            try DaemonProcess(
                name: "maskd", executable: binary, arguments: ["--stdio"], timeout: 30, errorOutput: .discard)
        }
    }

    func notify(_ method: String, _ params: JSONValue) {
        must { try process.notify(method, params) }
    }

    func request(_ method: String, _ params: JSONValue) -> Int {
        must { try process.sendRequest(method, params) }
    }

    /// The next message, waiting at most `seconds`; nil when none comes.
    func next(within seconds: Double) -> JSONValue? {
        let deadline = now() + seconds
        while true {
            let body: ArraySlice<UInt8>
            do {
                body = try process.readBody(waitingAtMost: max(0, deadline - now()))
            } catch let error as DaemonError where error.kind == .framing {
                continue
            } catch {
                return nil
            }
            // Diagnostics (the whole document's, after every keystroke) are not checked here: skip them unparsed.
            if body.prefix(80).starts(with: diagnosticsPrefix) || containsDiagnostics(body.prefix(80)) { continue }
            if let value = try? body.withUnsafeBytes({ try JSONValue.parse($0) }) { return value }
        }
    }

    func response(_ id: Int, within seconds: Double = 30) -> JSONValue {
        let deadline = now() + seconds
        while let message = next(within: max(0, deadline - now())) {
            if message["method"] == nil, message["id"]?.intValue == id { return message }
            if message["method"]?.stringValue == "maskd/didFormat" { fatalError("soak: an unexpected didFormat") }
        }
        fatalError("soak: no answer to request \(id)")
    }

    /// The CPU time the daemon has used, in seconds.
    func cpuSeconds() -> Double { Double((try? process.cpuNS()) ?? 0) / 1e9 }

    /// The resident set in KiB.
    func rss() -> Int { (try? process.statusKiB("VmRSS")) ?? 0 }
}

/// The value of `body`, or the end of the soak with what went wrong.
func must<T>(_ body: () throws -> T) -> T {
    do { return try body() } catch { fatalError("soak: \(error)") }
}

let diagnosticsPrefix = Array(#"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics""#.utf8)
let diagnosticsMethod = Array(#""textDocument/publishDiagnostics""#.utf8)

/// Whether the method name of diagnostics appears in the first bytes of a body.
func containsDiagnostics(_ head: ArraySlice<UInt8>) -> Bool {
    let bytes = Array(head)
    guard bytes.count >= diagnosticsMethod.count else { return false }
    for i in 0...(bytes.count - diagnosticsMethod.count) where bytes[i] == UInt8(ascii: "\"") {
        if Array(bytes[i..<i + diagnosticsMethod.count]) == diagnosticsMethod { return true }
    }
    return false
}

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

// MARK: - The editor's side

/// A mask as the wire spells it and as the engine compiles it here.
struct MaskChoice {
    var json: JSONValue
    var spec: MaskSpec
}

let maskChoices: [MaskChoice] = [
    MaskChoice(json: "+1 ([000]) [000]-[0000]", spec: .notation("+1 ([000]) [000]-[0000]")),
    MaskChoice(json: "[00]{.}[00]{.}[0000]", spec: .notation("[00]{.}[00]{.}[0000]")),
    MaskChoice(json: "[AAA]-[000]", spec: .notation("[AAA]-[000]")),
    MaskChoice(json: "[0…]", spec: .notation("[0…]")),
    MaskChoice(json: "[***] [***]", spec: .notation("[***] [***]")),
    MaskChoice(json: "[000] [0000] [0000]", spec: .notation("[000] [0000] [0000]")),
    MaskChoice(json: ["groups": [4, 4, 4, 4, 3]], spec: MaskSpec(.groups([4, 4, 4, 4, 3]))),
    MaskChoice(
        json: ["notation": "+7 ([000]) [000]-[00]-[00]", "eager": true],
        spec: MaskSpec(.notation("+7 ([000]) [000]-[00]-[00]"), eager: true)),
    MaskChoice(
        json: ["notation": "[AA]-[0000]", "case": "upper"],
        spec: MaskSpec(.notation("[AA]-[0000]"), letterCase: .upper)),
    MaskChoice(
        json: ["notation": "[0…]", "regex": "^[1-9][0-9]{0,5}$"],
        spec: MaskSpec(.notation("[0…]"), regex: "^[1-9][0-9]{0,5}$")),
]

let keys: [String] = [
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "1", "5", "9", "a", "Z", "x", "é", "😀",
    "-", " ", "(", ".",
]

struct Field {
    let id: String
    let line: Int
    let start: Int  // UTF-16 column where the field starts on its line.
    let mask: Mask
    var text = ""
    var caret = 0  // In characters of `text`.
}

struct Document {
    let uri: String
    var version = 1
    var lines: [String]
    var fields: [Field] = []
    /// Every text a field of the document had before a change touched it: the daemon keeps a change (other than one
    /// keystroke) that gives a field back such a text as the editor has it, an undo or a redo (protocol.md, "giving a
    /// text back"), and the soak accepts that answer too.
    var givenBack: Set<String> = []
}

func utf16Length(_ s: Substring) -> Int { s.utf16.count }

func utf16Offset(_ text: String, character: Int) -> Int { utf16Length(text.prefix(character)) }

/// Replaces UTF-16 columns [start, end) of `line`.
func replace(_ line: inout String, _ start: Int, _ end: Int, with text: String) {
    let units = Array(line.utf16)
    line = String(decoding: units[0..<start], as: UTF16.self) + text + String(decoding: units[end...], as: UTF16.self)
}

final class Soak {
    let options: Options
    let daemon: Daemon
    var random: SeededRandom
    var documents: [Document] = []
    var failures = 0
    var checked = 0
    /// The keystrokes of `warmUp`, before the measured ones.
    var warmUpKeystrokes = 0

    init(_ options: Options) {
        self.options = options
        daemon = Daemon(binary: options.binary)
        random = SeededRandom(seed: options.seed)
    }

    func failure(_ message: String) {
        failures += 1
        if failures <= 20 { print("soak: MISMATCH \(message)") }
    }

    /// Applies the daemon's edits to the editor's document and echoes them back in one didChange.
    func echo(_ d: Int, _ edits: [JSONValue]) {
        guard !edits.isEmpty else { return }
        var changes: [JSONValue] = []
        for edit in edits.reversed() {
            guard let line = edit["range"]?["start"]?["line"]?.intValue,
                let start = edit["range"]?["start"]?["character"]?.intValue,
                let end = edit["range"]?["end"]?["character"]?.intValue,
                edit["range"]?["end"]?["line"]?.intValue == line,
                let text = edit["newText"]?.stringValue
            else {
                failure("an edit that is not on one line: \(edit.serializedString())")
                continue
            }
            replace(&documents[d].lines[line], start, end, with: text)
            changes.append(Messages.change(line: line, from: start, to: end, text: text))
        }
        documents[d].version += 1
        daemon.notify(
            "textDocument/didChange",
            Messages.didChange(uri: documents[d].uri, version: documents[d].version, changes: changes))
    }

    func open() {
        for d in 0..<options.documents {
            let uri = "file:///soak/\(d).txt"
            let lines = (0..<options.fieldsPerDocument).map { "field \($0): " }
            documents.append(Document(uri: uri, lines: lines))
            daemon.notify(
                "textDocument/didOpen", Messages.didOpen(uri: uri, text: lines.joined(separator: "\n") + "\n"))
            for (line, text) in lines.enumerated() {
                let choice = maskChoices[(d * 7 + line) % maskChoices.count]
                guard let mask = try? Mask.compile(choice.spec) else {
                    fatalError("soak: a mask of the soak does not compile")
                }
                let column = utf16Length(text[...])
                let id = daemon.request(
                    "maskd/openField",
                    [
                        "textDocument": ["uri": .string(uri)], "mask": choice.json,
                        "range": Messages.range(line: line, from: column, to: column), "field": .string("f\(line)"),
                    ])
                let reply = daemon.response(id)
                guard let result = reply["result"] else {
                    fatalError("soak: openField failed: \(reply.serializedString())")
                }
                let initial = mask.format("")
                documents[d].fields.append(
                    Field(
                        id: "f\(line)", line: line, start: column, mask: mask, text: initial.text,
                        caret: initial.caret))
                echo(d, result["edits"]?.arrayValue ?? [])
            }
        }
    }

    /// One keystroke in field `f` of document `d`: the person's change, the daemon's didFormat, the echo.
    func keystroke(_ d: Int, _ f: Int) {
        var field = documents[d].fields[f]
        let count = field.text.count
        if random.chance(5) { field.caret = random.int(below: count + 1) }
        var selection = field.caret..<field.caret
        if random.chance(4), count > 0 {
            let a = random.int(below: count + 1), b = random.int(below: count + 1)
            selection = min(a, b)..<max(a, b)
        }
        var edit: FieldEdit
        let roll = random.int(below: 100)
        if roll < 72 {
            edit = .insert(random.pick(keys), at: selection)
        } else if roll < 80 {
            var paste = ""
            for _ in 0..<(1 + random.int(below: 10)) { paste += random.pick(keys) }
            edit = .insert(paste, at: selection)
        } else if !selection.isEmpty {
            edit = .backspace(selection)
        } else if field.caret > 0 {
            edit = .backspace(field.caret - 1..<field.caret)
        } else {
            edit = .insert(random.pick(keys), at: selection)
        }
        // Replacing a selection with the same text changes nothing, and the daemon rightly says nothing about it.
        if !edit.text.isEmpty, String(Array(field.text)[edit.range]) == edit.text {
            edit = .insert(edit.text, at: field.caret..<field.caret)
        }
        let start = field.start + utf16Offset(field.text, character: edit.range.lowerBound)
        let end = field.start + utf16Offset(field.text, character: edit.range.upperBound)
        replace(&documents[d].lines[field.line], start, end, with: edit.text)
        documents[d].version += 1
        let version = documents[d].version
        daemon.notify(
            "textDocument/didChange",
            Messages.didChange(
                uri: documents[d].uri, version: version,
                changes: [Messages.change(line: field.line, from: start, to: end, text: edit.text)]))
        let expected = field.mask.apply(edit, to: field.text)
        // The daemon's answer: the didFormat for this version.
        var format: JSONValue? = nil
        while format == nil {
            guard let message = daemon.next(within: 10) else {
                failure(
                    "no didFormat for \(documents[d].uri) version \(version): \(field.id) \(field.text.debugDescription) "
                        + "caret \(field.caret) + \(edit), line now \(documents[d].lines[field.line].debugDescription)")
                exit(1)
            }
            if message["method"]?.stringValue == "maskd/didFormat" {
                let target = message["params"]?["textDocument"]
                if target?["version"]?.intValue != version || target?["uri"]?.stringValue != documents[d].uri {
                    failure("a didFormat for another change: \(message.serializedString().prefix(200))")
                    continue
                }
                format = message["params"]
            }
        }
        let params = format!
        echo(d, params["edits"]?.arrayValue ?? [])
        let line = documents[d].lines[field.line]
        let units = Array(line.utf16)
        let fieldEnd = field.start + expected.text.utf16.count
        let shown =
            fieldEnd <= units.count
            ? String(decoding: units[field.start..<fieldEnd], as: UTF16.self) : "<past the line>"
        let state = params["fields"]?.arrayValue?.first { $0["field"]?.stringValue == field.id }
        let cursor = params["cursor"]?["character"]?.intValue
        let expectedCursor = field.start + utf16Offset(expected.text, character: expected.caret)
        checked += 1
        let keystroke = edit.text.count <= 1 && edit.range.count <= 1
        var naive = Array(field.text)
        naive.replaceSubrange(edit.range, with: Array(edit.text))
        let keptAsItStands = String(naive)
        let givesBack = !keystroke && documents[d].givenBack.contains(keptAsItStands)
        documents[d].givenBack.insert(field.text)
        let nativeEnd = field.start + keptAsItStands.utf16.count
        if givesBack, nativeEnd == units.count,
            String(decoding: units[min(field.start, units.count)...], as: UTF16.self) == keptAsItStands,
            state?["text"]?.stringValue == keptAsItStands
        {
            field.text = keptAsItStands
            field.caret = edit.range.lowerBound + edit.text.count
        } else if shown != expected.text || fieldEnd != units.count || state?["text"]?.stringValue != expected.text
            || cursor != expectedCursor || params["rejected"]?.stringValue != expected.rejected
            || params["overflow"]?.stringValue != expected.overflow
        {
            failure(
                "\(documents[d].uri) \(field.id) \(field.text.debugDescription) + \(edit): engine "
                    + "\(expected.text.debugDescription) caret \(expectedCursor) rejected \(expected.rejected.debugDescription) "
                    + "overflow \(expected.overflow.debugDescription); daemon \(shown.debugDescription) caret \(cursor as Any) "
                    + "state \(state?["text"]?.stringValue.debugDescription ?? "none") rejected \(params["rejected"]?.stringValue ?? "?") "
                    + "overflow \(params["overflow"]?.stringValue ?? "?")")
            // Carry on from what the editor now shows.
            field.text = String(decoding: units[min(field.start, units.count)...], as: UTF16.self)
            field.caret = field.text.count
        } else {
            field.text = expected.text
            field.caret = expected.caret
        }
        documents[d].fields[f] = field
    }

    /// Compares every field of document `d` with what the daemon reports.
    func compareFields(_ d: Int) {
        let reply = daemon.response(
            daemon.request("maskd/fields", ["textDocument": ["uri": .string(documents[d].uri)]]))
        guard let states = reply["result"]?.arrayValue, states.count == documents[d].fields.count else {
            failure("maskd/fields for \(documents[d].uri): \(reply.serializedString().prefix(200))")
            return
        }
        for (state, field) in zip(states, documents[d].fields) where state["text"]?.stringValue != field.text {
            failure(
                "\(documents[d].uri) \(field.id): the daemon holds \(state["text"]?.stringValue ?? "?"), the editor \(field.text)"
            )
        }
    }

    /// A first visit to every field, in a shuffled order, before the RSS is first sampled. A field typed into
    /// keeps its state (about 380 bytes), so without it the daemon's working set grows until every field has
    /// been visited (half of them after 100,000 keystrokes) and that growth would read as a leak.
    func warmUp() {
        var visits = [(Int, Int)]()
        for d in documents.indices { for f in documents[d].fields.indices { visits.append((d, f)) } }
        for i in stride(from: visits.count - 1, to: 0, by: -1) { visits.swapAt(i, random.int(below: i + 1)) }
        for (d, f) in visits {
            for _ in 0..<(1 + random.int(below: 4)) { keystroke(d, f) }
        }
        warmUpKeystrokes = checked
    }

    func run() -> Int32 {
        let started = now()
        let reply = daemon.response(
            daemon.request(
                "initialize",
                [
                    "processId": .null,
                    "capabilities": ["general": ["positionEncodings": ["utf-16"]]],
                ]))
        guard reply["result"]?["capabilities"]?["positionEncoding"]?.stringValue == "utf-16" else {
            fatalError("soak: initialize: \(reply.serializedString())")
        }
        daemon.notify("initialized", [:])
        open()
        let opened = now()
        print(
            "soak: \(options.documents) documents, \(options.documents * options.fieldsPerDocument) fields open in "
                + "\(fixed(opened - started, 1)) s, RSS \(daemon.rss()) KiB")
        warmUp()
        let warm = now()
        let rssStart = daemon.rss()
        let cpuAtStart = daemon.cpuSeconds()
        var rssHalf = rssStart, rssPeakSecondHalf = 0
        print(
            "soak: every field visited once (\(checked) keystrokes) in \(fixed(warm - opened, 1)) s, RSS \(rssStart) KiB"
        )
        var d = 0, f = 0, run = 0
        for k in 1...options.keystrokes {
            // A person stays in a field for a while, then moves to another one, in any document.
            if run == 0 {
                d = random.int(below: documents.count)
                f = random.int(below: documents[d].fields.count)
                run = 1 + random.int(below: 30)
            }
            run -= 1
            keystroke(d, f)
            if k % 10_000 == 0 {
                compareFields(random.int(below: documents.count))
                let rss = daemon.rss()
                if k > options.keystrokes / 2 { rssPeakSecondHalf = max(rssPeakSecondHalf, rss) }
                print("soak: \(k) keystrokes, RSS \(rss) KiB, \(failures) mismatches")
                fflush(stdout)
            }
            if k == options.keystrokes / 2 { rssHalf = daemon.rss() }
        }
        for d in 0..<documents.count { compareFields(d) }
        let rssEnd = daemon.rss()
        let daemonCPU = daemon.cpuSeconds() - cpuAtStart
        rssPeakSecondHalf = max(rssPeakSecondHalf, rssEnd)
        let took = now() - warm
        _ = daemon.response(daemon.request("shutdown", .null))
        daemon.notify("exit", .null)
        daemon.process.closeInput()
        let exitCode = daemon.process.waitForExit(within: 60) ?? -1
        let growth = Double(rssPeakSecondHalf - rssHalf) * 100 / Double(max(rssHalf, 1))
        let perKeystroke = fixed(took / Double(options.keystrokes) * 1e6, 0)
        let sign = growth >= 0 ? "+" : ""
        print(
            "soak: \(options.keystrokes) keystrokes (\(checked - warmUpKeystrokes) didFormats checked) across \(options.documents) "
                + "documents and \(options.documents * options.fieldsPerDocument) fields in \(fixed(took, 1)) s (\(perKeystroke) µs each, "
                + "of which the daemon's CPU \(fixed(daemonCPU / Double(options.keystrokes) * 1e6, 0)) µs)")
        print(
            "soak: RSS \(rssStart) KiB at start, \(rssHalf) KiB at half, \(rssEnd) KiB at the end "
                + "(\(sign)\(fixed(growth, 1))% over the second half); \(failures) mismatches; exit code \(exitCode)")
        var ok = true
        if failures > 0 { ok = false }
        if growth >= options.maxGrowth {
            print("soak: FAIL: RSS grew \(fixed(growth, 1))% over the second half (limit \(options.maxGrowth)%)")
            ok = false
        }
        if exitCode != 0 {
            print("soak: FAIL: exit code \(exitCode) after shutdown and exit")
            ok = false
        }
        print(ok ? "soak: ok" : "soak: FAIL")
        return ok ? 0 : 1
    }
}

@main
struct SoakMain {
    static func main() {
        setvbuf(stdout, nil, _IOLBF, 0)
        exit(Soak(Options(CommandLine.arguments)).run())
    }
}
