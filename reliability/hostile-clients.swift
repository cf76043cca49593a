// The hostile-input suite: odd and hostile clients (see hostile.swift).

import Glibc
import JSON

let clientTests: [HostileTest] = [
    HostileTest(
        name: "glob_of_many_double_stars",
        summary: "A rule's glob of ten `**` and a document 40 folders deep: didOpen is answered at once; a glob over "
            + "1,024 characters is a bad rule.", run: globOfManyDoubleStars),
    HostileTest(
        name: "stderr_never_read",
        summary: "Nothing reads the daemon's stderr and 3,000 refused changes each log a warning: the daemon goes on "
            + "serving.", run: stderrNeverRead),
    HostileTest(
        name: "many_fields_on_one_line",
        summary: "1,000 and then 4,000 fields on one line: openFields, formatting and rangeFormatting grow about "
            + "linearly.", run: manyFieldsOnOneLine),
    HostileTest(
        name: "numbers_past_64_bits",
        summary: "Valid JSON with numbers no 64-bit integer or double holds (2^64 as JavaScript writes it, 1e400) is "
            + "answered.", run: numbersPast64Bits),
    HostileTest(
        name: "unread_output_at_exit",
        summary: "Output nobody reads: after shutdown and exit, or shutdown and the input closed, the daemon gives it "
            + "up within 10 s and exits 0.", run: unreadOutputAtExit),
    HostileTest(
        name: "positions_past_a_line_end",
        summary: "LSP 3.17: a character past a line's end is its end, for hover, didChange and codeAction.",
        run: positionsPastALineEnd),
    HostileTest(
        name: "exact_messages",
        summary: "A rule's `^BAD=(.*$` is reported as the unclosed group; in the batch [shutdown, exit, request] the "
            + "request after exit is not answered.", run: exactMessages),
    HostileTest(
        name: "full_content_change_of_10_mb",
        summary: "A one-character full-content change of a 10 MB document: the daemon's peak grows by at most three "
            + "times the text.", run: fullContentChangeOf10MB),
]

func openDocument(_ d: Daemon, _ uri: String, _ text: String) throws {
    try d.notify("textDocument/didOpen", Messages.didOpen(uri: uri, text: text))
}

func document(_ uri: String) -> JSONValue { ["uri": .string(uri)] }

func globOfManyDoubleStars() throws {
    let d = try Daemon()
    defer { d.kill() }
    let tenStars = Array(repeating: "**", count: 10).joined(separator: "/")
    let rules: JSONValue = [
        ["files": .string(tenStars + "/b"), "match": "^Tel: (.*)$", "mask": ["preset": "phone.us"]],
        ["files": .string(tenStars + "/c.txt"), "match": "^Tel: (.*)$", "mask": ["preset": "phone.us"]],
        ["files": .string(times("a", 1025)), "match": "^Tel: (.*)$", "mask": ["preset": "phone.us"]],
    ]
    let seen = Seen()
    let reply = try d.call(
        "initialize",
        [
            "processId": nil, "capabilities": [:], "rootUri": "file:///tmp/maskd-hostile-w",
            "initializationOptions": ["rules": rules],
        ], keep: seen)
    try check(reply["result"] != nil, "initialize failed: \(short(reply))")
    try d.notify("initialized", [:])
    let uri = "file:///tmp/maskd-hostile-w/" + times("a/", 40) + "c.txt"
    let start = nowNS()
    try openDocument(d, uri, "Tel: 5551234567\n")
    try stillServing(d, timeout: 5, seen: seen)
    let took = seconds(since: start)
    try check(took < 3, "didOpen under a glob of ten ** took \(fixed(took, 1)) s")
    let formats = seen.messages.filter { $0["method"] == "maskd/didFormat" }
    try check(
        formats.first?["params"]?["fields"]?[0]?["text"] == "+1 (555) 123-4567",
        "the rule whose glob matches opened no field: \(short(.array(formats)))")
    let bad = seen.messages.filter {
        $0["method"] == "window/showMessage" && $0["params"]?["message"]?.stringValue?.contains("rules[2]") == true
    }
    try check(
        bad.first?["params"]?["message"]?.stringValue?.contains("longer than 1024") == true,
        "the over-long glob was not refused: \(short(.array(bad)))")
}

func stderrNeverRead() throws {
    // The read end of the daemon's stderr is never read.
    let d = try Daemon(errorOutput: .pipe)
    defer { d.kill() }
    _ = try d.initialize()
    var changes: [UInt8] = []
    for n in 0..<3000 {
        changes += DaemonProcess.frame(
            DaemonProcess.notification(
                "textDocument/didChange",
                [
                    "textDocument": ["uri": .string("file:///never-opened-\(n).txt"), "version": 2],
                    "contentChanges": [["text": "x"]],
                ]))
    }
    // A daemon stuck writing its log reads nothing, and the write would wait for ever: it is bounded.
    do {
        try d.process.write(changes, within: 30)
    } catch let error as DaemonError where error.kind == .timedOut {
        throw Failure(description: "the daemon stopped reading its input (stuck writing to stderr): \(error)")
    } catch {
        // The daemon ended: the follow-up request below fails.
    }
    try stillServing(d, timeout: 10)
}

/// `count` phone numbers on one line opened as fields at once, formatted, and range-formatted.
/// - Returns: how long each request took, in seconds.
func oneLineFields(_ d: Daemon, _ count: Int) throws -> [(String, Double)] {
    let uri = "file:///one-line-\(count).txt"
    try openDocument(d, uri, Array(repeating: "5551234567", count: count).joined(separator: " ") + "\n")
    let fields: [JSONValue] = (0..<count).map {
        ["range": Messages.range(line: 0, from: $0 * 11, to: $0 * 11 + 10), "mask": "[000]-[000]-[0000]"]
    }
    var took: [(String, Double)] = []
    var start = nowNS()
    var reply = try d.call(
        "maskd/openFields", ["textDocument": document(uri), "fields": .array(fields)], timeout: 120)
    took.append(("openFields", seconds(since: start)))
    let results = reply["result"]?["results"]?.arrayValue ?? []
    try check(results.count == count, "openFields of \(count): \(short(reply, 200))")
    let place = results.last?["state"]?["range"]
    try check(place?["start"]?["character"] == int((count - 1) * 13), "the last field's place: \(short(place))")
    let options: JSONValue = ["tabSize": 4, "insertSpaces": true]
    start = nowNS()
    reply = try d.call("textDocument/formatting", ["textDocument": document(uri), "options": options], timeout: 120)
    took.append(("formatting", seconds(since: start)))
    try check(reply["result"] != nil, "formatting: \(short(reply, 200))")
    start = nowNS()
    reply = try d.call(
        "textDocument/rangeFormatting",
        ["textDocument": document(uri), "options": options, "range": Messages.range(0, 0, 0, count * 11)],
        timeout: 120)
    took.append(("rangeFormatting", seconds(since: start)))
    try check(reply["result"] != nil, "rangeFormatting: \(short(reply, 200))")
    return took
}

func manyFieldsOnOneLine() throws {
    let d = try started()
    defer { d.kill() }
    let small = try oneLineFields(d, 1000)
    let large = try oneLineFields(d, 4000)
    for ((name, few), (_, many)) in zip(small, large) {
        // Four times the fields: about four times the time; the square would be sixteen.
        try check(
            many < 8 * max(few, 0.05),
            "\(name): 1,000 fields \(fixed(few, 2)) s, 4,000 fields \(fixed(many, 2)) s")
    }
    try stillServing(d)
}

func numbersPast64Bits() throws {
    let d = try Daemon()
    defer { d.kill() }
    try d.write(
        frame(
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":"#
                + #"{"experimental":{"big":18446744073709552000,"huge":1e400}}}}"#))
    var reply = try d.response(1)
    try check(reply["result"] != nil, "initialize with a big number: \(short(reply))")
    try d.notify("initialized", [:])
    for number in ["18446744073709552000", "1e400", "-1e400", "123456789012345678901234567890e-5"] {
        try d.write(
            frame(
                #"{"jsonrpc":"2.0","id":7,"method":"maskd/apply","params":{"mask":"[0]","text":"1","clientTag":"#
                    + number + "}}"))
        reply = try d.response(7)
        try check(reply["result"]?["text"] == "1", "clientTag \(number): \(short(reply))")
    }
    // Where a number is required, one past the range is an error for that id.
    try d.write(
        frame(
            #"{"jsonrpc":"2.0","id":8,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///x"},"#
                + #""position":{"line":18446744073709552000,"character":1e400}}}"#))
    reply = try d.response(8)
    try check(reply["error"]?["code"] == -32602, "hover at a position past 64 bits: \(short(reply))")
    try stillServing(d)
}

func unreadOutputAtExit() throws {
    for sendExit in [true, false] {
        // Nothing reads the daemon's output in this test.
        let d = try Daemon()
        defer { d.kill() }
        _ = try d.request("initialize", ["capabilities": [:]])
        // Answers of about 100 KB each, never read: the pipe fills and the rest waits in the daemon.
        for _ in 0..<8 {
            _ = try d.request("maskd/apply", applyParams(.string("[" + times("0", 50) + "…]"), times("1", 50000)))
        }
        _ = try d.request("shutdown")
        if sendExit { try d.notify("exit") } else { d.process.closeInput() }
        let start = nowNS()
        let code = try d.waitExit(20)
        let took = seconds(since: start)
        let what = sendExit ? "shutdown and exit" : "shutdown and stdin closed"
        try check(took < 13, "after \(what) with unread output the daemon took \(fixed(took, 1)) s to exit")
        try check(code == 0, "after \(what) the exit code was \(code)")
    }
}

func positionsPastALineEnd() throws {
    let d = try started()
    defer { d.kill() }
    let uri = "file:///past.txt"
    try openDocument(d, uri, "4111111111111111\nTel: 555\n")
    var reply = try d.call(
        "textDocument/hover", ["textDocument": document(uri), "position": Messages.position(0, 40)])
    try check(reply["result"] != nil, "hover at character 40 of a 16-character line: \(short(reply))")
    reply = try d.call(
        "maskd/openField",
        [
            "textDocument": document(uri), "range": Messages.range(1, 5, 1, 8), "mask": ["preset": "phone.us"],
            "field": "tel",
        ])
    let edits = try need(reply["result"]?["edits"]?.arrayValue, "openField: \(short(reply))")
    try d.notify(
        "textDocument/didChange", Messages.didChange(uri: uri, version: 2, changes: edits.reversed().map(echo)))
    // The person types at the end, the editor sending a range that ends past the line.
    let seen = Seen()
    try d.notify(
        "textDocument/didChange",
        Messages.didChange(uri: uri, version: 3, changes: [Messages.change(line: 1, from: 12, to: 99, text: "1")]))
    reply = try d.call("maskd/fields", ["textDocument": document(uri)], keep: seen)
    let refused = logMessages(seen.messages).filter {
        $0["params"]?["message"]?.stringValue?.contains("refused") == true
    }
    try check(
        refused.isEmpty,
        "the change ending past the line was refused: \(short(.array(logMessages(seen.messages))))")
    // The key is in the field (its didFormat, not echoed here, would add the ") ").
    try check(reply["result"]?[0]?["text"] == "+1 (5551", "the field after the change: \(short(reply))")
    reply = try d.call(
        "textDocument/codeAction",
        ["textDocument": document(uri), "range": Messages.range(0, 0, 1, 0), "context": ["diagnostics": []]])
    let titles = (reply["result"]?.arrayValue ?? []).compactMap { $0["title"]?.stringValue }
    try check(titles.contains("Format as card"), "no 'Format as card' for the whole-line selection: \(titles)")
    try stillServing(d)
}

func exactMessages() throws {
    let d = try Daemon()
    defer { d.kill() }
    let seen = Seen()
    let reply = try d.call(
        "initialize",
        [
            "processId": nil, "capabilities": [:],
            "initializationOptions": ["rules": [["match": "^BAD=(.*$", "mask": ["preset": "card"]]]],
        ], keep: seen)
    try check(reply["result"] != nil, "initialize: \(short(reply))")
    try d.notify("initialized", [:])
    try stillServing(d, seen: seen)
    let shown = seen.messages.filter { $0["method"] == "window/showMessage" }.compactMap {
        $0["params"]?["message"]?.stringValue
    }
    try check(
        shown.first.map { $0.contains("unbalanced '('") && !$0.contains("'$'") } ?? false,
        "the bad rule's message: \(shown)")
    try d.send([
        ["jsonrpc": "2.0", "id": 100, "method": "shutdown"], ["jsonrpc": "2.0", "method": "exit"],
        ["jsonrpc": "2.0", "id": 101, "method": "maskd/apply", "params": applyParams("[0]", "1")],
    ])
    let after = Seen()
    _ = try d.wait(for: { $0["id"] == 100 && $0["method"] == nil }, timeout: 10, keep: after)
    let code = try d.waitExit(10)
    let answered = after.messages + d.drain(quiet: 0.5)
    try check(
        !answered.contains { $0["id"] == 101 }, "the request after exit was answered: \(short(.array(answered)))")
    try check(code == 0, "exit code \(code) after the batch")
}

func fullContentChangeOf10MB() throws {
    let d = try started()
    defer { d.kill() }
    let uri = "file:///ten-megabytes.txt"
    let text = times(times("abcdefghij", 9) + "\n", 100_000)
    try openDocument(d, uri, text)
    try stillServing(d, timeout: 60)
    let before = try need(d.rssKiB("VmHWM"), "no peak RSS for the daemon")
    try d.notify(
        "textDocument/didChange",
        Messages.didChange(uri: uri, version: 2, changes: [["text": .string("X" + String(text.dropFirst()))]]))
    try stillServing(d, timeout: 60)
    let grew = try need(d.rssKiB("VmHWM"), "no peak RSS for the daemon") - before
    try check(
        grew < 3 * text.utf8.count / 1024, "the peak grew by \(grew) KiB for a \(text.utf8.count / 1024) KiB text")
    let reply = try d.call(
        "maskd/formatHints", ["textDocument": document(uri), "position": Messages.position(0, 0)])
    try check(reply["error"] == nil, "the document after the change: \(short(reply))")
}
