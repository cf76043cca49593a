// The hostile-input suite: malformed and stray protocol messages, and the ways a daemon's process ends
// (see hostile.swift).

import Glibc
import JSON

let protocolTests: [HostileTest] = [
    HostileTest(
        name: "cancel_unknown_requests",
        summary: "`$/cancelRequest` for ids never sent, of every type, and malformed: no reply, no effect.",
        run: cancelUnknownRequests),
    HostileTest(
        name: "every_request_answered_once_among_bad_ones",
        summary: "A mix of malformed envelopes: each request with a readable id gets exactly one answer.",
        run: everyRequestAnsweredOnceAmongBadOnes),
    HostileTest(
        name: "cr_typed_before_lf",
        summary: "A `\\r` typed just before a `\\n` makes one line break, for the daemon as for the editor (fuzz "
            + "regression cr-before-lf).", run: crTypedBeforeLF),
    HostileTest(
        name: "change_over_unechoed_proposals",
        summary: "Edits of an openField and a setMask that the editor never applied, then a full-content change "
            + "(fuzz regression change-over-unechoed).", run: changeOverUnechoedProposals),
]

let processTests: [HostileTest] = [
    HostileTest(
        name: "exit_without_shutdown", summary: "`exit` before `shutdown` ends the process with code 1.",
        run: exitWithoutShutdown),
    HostileTest(
        name: "editor_process_gone",
        summary: "The process `initialize` names (the editor) is killed while the daemon's input stays open: the "
            + "daemon exits by itself, with code 1, within a few seconds.", run: editorProcessGone),
    HostileTest(
        name: "exit_after_shutdown",
        summary: "`shutdown` then `exit` ends the process with code 0; requests in between are refused.",
        run: exitAfterShutdown),
    HostileTest(
        name: "stdin_closed_mid_frame",
        summary: "The input ends inside a frame's body: the daemon exits on its own, without a crash.",
        run: stdinClosedMidFrame),
    HostileTest(
        name: "stdin_closed_mid_header", summary: "The input ends inside a header line.", run: stdinClosedMidHeader),
    HostileTest(
        name: "stdout_closed_by_the_client",
        summary: "The client closes the daemon's stdout and keeps writing: SIGPIPE must not kill it, and it exits.",
        run: stdoutClosedByTheClient),
]

// MARK: - Protocol

func cancelUnknownRequests() throws {
    let d = try started()
    defer { d.kill() }
    let params: [JSONValue?] = [["id": 999_999], ["id": "nope"], ["id": nil], [:], ["id": [1]], ["id": 1.5], nil]
    for p in params { try d.notify("$/cancelRequest", p) }
    try d.send(["jsonrpc": "2.0", "id": 4242, "method": "$/cancelRequest", "params": ["id": 1]])
    let got = Seen()
    try stillServing(d, seen: got)
    let stray = (got.messages + d.drain()).filter { $0["id"] != nil && $0["id"] != 4242 }
    try check(stray.isEmpty, "cancelling unknown ids produced replies: \(short(.array(Array(stray.prefix(3)))))")
}

func everyRequestAnsweredOnceAmongBadOnes() throws {
    let d = try started()
    defer { d.kill() }
    let bad: [JSONValue] = [
        ["jsonrpc": "2.0", "id": 101, "method": "no/such/method"],
        ["jsonrpc": "1.0", "id": 102, "method": "maskd/apply"],
        ["jsonrpc": "2.0", "id": 103, "method": "maskd/apply", "params": 5],
        ["jsonrpc": "2.0", "id": 104, "method": "maskd/apply", "params": ["mask": 5, "text": "1"]],
        ["jsonrpc": "2.0", "id": 105, "method": 7],
        ["jsonrpc": "2.0", "id": 106, "method": "maskd/apply", "params": ["mask": "[0", "text": "1"]],
        [
            "jsonrpc": "2.0", "id": 107, "method": "maskd/apply",
            "params": ["mask": "[0]", "text": "1", "edit": ["start": 5, "end": 1, "text": ""]],
        ],
        ["jsonrpc": "2.0", "id": 108, "method": "maskd/fields", "params": ["textDocument": ["uri": "file:///none"]]],
        ["jsonrpc": "2.0", "id": 109, "method": "initialize", "params": [:]],
        ["jsonrpc": "2.0", "id": "s-110", "method": "maskd/apply", "params": ["mask": "[0]", "text": "1"]],
    ]
    for message in bad { try d.send(message) }
    try d.write(frame("[]"))
    try d.write(frame(#"[{"jsonrpc":"2.0","id":111,"method":"maskd/apply","params":{"mask":"[0]","text":"1"}}, 5]"#))
    let got = Seen()
    try stillServing(d, seen: got)
    var counts: [JSONValue: Int] = [:]
    for m in got.messages + d.drain() where m["method"] == nil {
        if let id = m["id"] { counts[id, default: 0] += 1 }
    }
    for id in (101...109).map(int) + ["s-110"] {
        try check(counts[id] == 1, "request \(id.serializedString()) was answered \(counts[id] ?? 0) times")
    }
}

// MARK: - Regressions found by fuzzing

func crTypedBeforeLF() throws {
    let d = try started()
    defer { d.kill() }
    try d.notify("textDocument/didOpen", Messages.didOpen(uri: "file:///cr", text: "a\nb"))
    try d.notify(
        "textDocument/didChange",
        Messages.didChange(
            uri: "file:///cr", version: 2, changes: [Messages.change(line: 0, from: 1, to: 1, text: "\r")]))
    let reply = try d.call(
        "maskd/openField", Messages.openField(uri: "file:///cr", line: 1, from: 0, to: 1, mask: "[*]"))
    try check(
        reply["result"] != nil, #"line 1 of "a\r\nb" is not "b" for the daemon: \#(short(reply["error"]))"#)
    try stillServing(d)
}

func changeOverUnechoedProposals() throws {
    let d = try started()
    defer { d.kill() }
    let a: JSONValue = ["uri": "file:///a"]
    try d.notify("textDocument/didOpen", Messages.didOpen(uri: "file:///a", text: "abcdefg"))
    _ = try d.call(
        "maskd/openField",
        ["textDocument": a, "range": Messages.range(0, 2, 0, 7), "mask": "[AAA]-[000]", "field": "f1"])
    _ = try d.call("maskd/setMask", ["textDocument": a, "field": "f1", "mask": "[000]"])
    try d.notify("textDocument/didChange", Messages.didChange(uri: "file:///a", version: 2, changes: [["text": ""]]))
    try check(
        d.isServing(timeout: 2),
        "the daemon died (exit \(d.process.exitCode.map { String($0) } ?? "none: it still runs"))")
}

// MARK: - Process end

func exitWithoutShutdown() throws {
    let d = try started()
    defer { d.kill() }
    try d.notify("exit")
    let code = try d.waitExit(10)
    try check(code == 1, "exit without shutdown gave code \(code)")
}

func editorProcessGone() throws {
    // The editor stands for any process: the daemon is told its id and looks once a second whether it lives.
    let editor = try DaemonProcess(
        name: "editor", executable: "/bin/sleep", arguments: ["60"], timeout: 1, errorOutput: .discard)
    defer { editor.kill() }
    let d = try Daemon()
    defer { d.kill() }
    let reply = try d.call("initialize", ["processId": int(Int(editor.pid)), "capabilities": [:]])
    try check(reply["result"] != nil, "initialize failed: \(short(reply))")
    try d.notify("initialized", [:])
    try check(d.isServing(), "the daemon does not serve while its editor lives")
    editor.kill()
    let start = nowNS()
    let code = try d.waitExit(10)
    try check(code == 1, "a daemon whose editor is gone exited with \(code), not 1")
    let took = seconds(since: start)
    try check(took < 5, "the daemon took \(fixed(took, 1)) s to notice its editor was gone")
}

func exitAfterShutdown() throws {
    let d = try started()
    defer { d.kill() }
    var reply = try d.call("shutdown")
    try check(reply["result"] == JSONValue.null, "shutdown: \(short(reply))")
    reply = try d.call("maskd/apply", applyParams("[0]", "1"))
    try check(reply["error"]?["code"] == -32600, "a request after shutdown: \(short(reply))")
    try d.notify("exit")
    let code = try d.waitExit(10)
    try check(code == 0, "exit after shutdown gave code \(code)")
}

func stdinClosedMidFrame() throws {
    let d = try started(errorOutput: .pipe)
    defer { d.kill() }
    try d.write("Content-Length: 100\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":")
    d.process.closeInput()
    let code = try d.waitExit(10)
    try check(code == 0 || code == 1, "exit code \(code) after stdin closed mid-frame")
    let log = String(decoding: d.process.readErrorOutput(within: 5), as: UTF8.self)
    try check(!log.contains("Fatal error"), "the daemon crashed: " + String(log.suffix(300)))
}

func stdinClosedMidHeader() throws {
    let d = try started()
    defer { d.kill() }
    try d.write("Content-Len")
    d.process.closeInput()
    let code = try d.waitExit(10)
    try check(code == 0 || code == 1, "exit code \(code) after stdin closed mid-header")
}

func stdoutClosedByTheClient() throws {
    let d = try Daemon()
    defer { d.kill() }
    _ = try d.request("initialize", ["capabilities": [:]])
    d.process.closeOutput()
    // Requests until writing fails (the daemon has ended) or 200 were sent.
    for _ in 0..<200 {
        guard (try? d.request("maskd/apply", applyParams("[000]", "123"))) != nil, d.process.isRunning else { break }
        usleep(10_000)
    }
    // Stdin stays open: only the failed write can end the daemon.
    let code = try d.waitExit(10)
    try check(code != -SIGPIPE, "the daemon was killed by SIGPIPE")
    try check(code >= 0, "the daemon died of signal \(-code)")
}
