// maskd-bench: row 11, one didChange echoing the edits of many fields opened by one maskd/openFields.
import JSON
import MaskdClient

enum EchoBench {
    /// How the echo of N fields' edits arrives.
    enum Shape: String, CaseIterable {
        /// One change per edit, last to first (Emacs, VS Code).
        case perEdit = "one change per edit, last to first"
        /// One change replacing each touched line, last line first (Neovim, Vim).
        case perLine = "one replacement per line"
    }

    struct Outcome {
        var fields: Int
        var edits: Int
        /// From sending `maskd/openFields` to its answer, per run.
        var open = Samples()
        /// From sending the echo to the answer of the request right behind it, per run and shape.
        var echo: [Shape: Samples] = [:]
    }

    /// `fields` lines `row i: 4111111111111111`, a card field opened over each number by one `maskd/openFields`
    /// (three edits each), and their edits echoed in one `didChange` of each shape, each on a fresh daemon, `runs`
    /// times. The echo is timed to the answer of a `maskd/apply` sent right behind it: the daemon handles messages
    /// in order, so the answer means the echo was taken in. An echo answered by a `maskd/didFormat` fails the row.
    static func run(maskd: ServerUnderTest, fields: Int, runs: Int, timeout: Double) throws -> Outcome {
        var outcome = Outcome(fields: fields, edits: 0)
        let number = "4111111111111111"
        let prefix = { (i: Int) in "row \(i): " }
        let text = (0..<fields).map { prefix($0) + number + "\n" }.joined()
        for _ in 0..<runs {
            for shape in Shape.allCases {
                let server = try maskd.spawn(timeout: timeout)
                defer { server.kill() }
                _ = try server.initialize()
                let uri = "file:///maskd-bench/echo.txt"
                try server.notify("textDocument/didOpen", Messages.didOpen(uri: uri, text: text))
                let entries: [JSONValue] = (0..<fields).map { i in
                    let start = prefix(i).utf16.count
                    return [
                        "range": Messages.range(line: i, from: start, to: start + number.count), "mask": Masks.cardJSON,
                    ]
                }
                let t0 = nowNS()
                let opened = try server.request(
                    "maskd/openFields",
                    ["textDocument": ["uri": .string(uri)], "fields": .array(entries)])
                outcome.open.add(Double(nowNS() - t0))
                guard let results = opened["results"]?.arrayValue, results.count == fields else {
                    throw BenchFailure("openFields answered \(opened.serializedString().prefix(300))")
                }
                var edits: [(line: Int, start: Int, end: Int, text: String)] = []
                for result in results {
                    guard let list = result["edits"]?.arrayValue else {
                        throw BenchFailure("openFields entry \(result.serializedString())")
                    }
                    for edit in list {
                        guard let start = edit["range"]?["start"], let end = edit["range"]?["end"],
                            let line = start["line"]?.intValue, let from = start["character"]?.intValue,
                            let to = end["character"]?.intValue, let new = edit["newText"]?.stringValue
                        else {
                            throw BenchFailure("openFields edit \(edit.serializedString())")
                        }
                        edits.append((line, from, to, new))
                    }
                }
                outcome.edits = edits.count
                let changes: [JSONValue]
                switch shape {
                case .perEdit:
                    changes = edits.reversed().map {
                        Messages.change(line: $0.line, from: $0.start, to: $0.end, text: $0.text)
                    }
                case .perLine:
                    let formatted = "4111 1111 1111 1111"
                    changes = (0..<fields).reversed().map { i in
                        Messages.change(
                            line: i, from: 0, to: prefix(i).utf16.count + number.count,
                            text: prefix(i) + formatted)
                    }
                }
                let echo = DaemonProcess.frame(
                    DaemonProcess.notification(
                        "textDocument/didChange",
                        Messages.didChange(uri: uri, version: 2, changes: changes)))
                let id = server.newID()
                let probe = DaemonProcess.frame(
                    DaemonProcess.request(
                        id: id, "maskd/apply",
                        DaemonBench.applyParams(4)))
                let t1 = nowNS()
                let writing = server.writeInBackground(echo + probe)
                while true {
                    let message = try server.read()
                    if message["method"]?.stringValue == "maskd/didFormat" {
                        throw BenchFailure("the echo (\(shape.rawValue)) got a didFormat")
                    }
                    if message["id"]?.intValue == id { break }
                }
                outcome.echo[shape, default: Samples()].add(Double(nowNS() - t1))
                try writing.wait()
                try server.stop()
            }
        }
        return outcome
    }
}
