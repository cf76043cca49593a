// The hostile-input suite: frames and JSON that a broken client writes (see hostile.swift).

import Glibc
import JSON

let mib = 1 << 20

let framingTests: [HostileTest] = [
    HostileTest(
        name: "one_byte_at_a_time", summary: "Every byte of several frames written and flushed on its own.",
        run: oneByteAtATime),
    HostileTest(
        name: "frame_of_65_mib",
        summary:
            "A 65 MiB body is refused with an error, skipped without being buffered, and the next message is served.",
        run: frameOf65MiB),
    HostileTest(
        name: "garbage_between_frames",
        summary: "Unframed bytes, headers without Content-Length, absurd lengths, then a good frame.",
        run: garbageBetweenFrames),
    HostileTest(
        name: "ten_thousand_pipelined_requests",
        summary:
            "10,000 requests written while the client reads nothing: no deadlock, bounded memory, every one answered.",
        run: tenThousandPipelinedRequests),
    HostileTest(
        name: "deeply_nested_json",
        summary: "Nesting far past the parser's limit, as a whole message and inside params.",
        run: deeplyNestedJSON),
    HostileTest(
        name: "invalid_utf8_in_text",
        summary: "Raw invalid UTF-8 inside a JSON string (parse error), and escaped lone surrogates.",
        run: invalidUTF8InText),
    HostileTest(
        name: "nul_characters", summary: "NUL in texts, masks and document content; a raw NUL byte in a body.",
        run: nulCharacters),
]

/// One frame around `body`, bytes sent as they are.
func frame(_ body: [UInt8]) -> [UInt8] { DaemonProcess.frame(body: body) }

/// One frame around the UTF-8 of `body`.
func frame(_ body: String) -> [UInt8] { DaemonProcess.frame(body: Array(body.utf8)) }

// MARK: - Framing

func oneByteAtATime() throws {
    let d = try Daemon()
    defer { d.kill() }
    var stream = DaemonProcess.frame(
        ["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["capabilities": [:]]])
    stream += DaemonProcess.frame(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
    stream += DaemonProcess.frame(
        ["jsonrpc": "2.0", "id": 2, "method": "maskd/apply", "params": applyParams("[000]-[00]", "12345")])
    for byte in stream { try d.write([byte]) }
    try check(try d.response(1)["result"] != nil, "initialize sent byte by byte was not answered")
    let reply = try d.response(2)
    try check(reply["result"]?["text"] == "123-45", "wrong answer to a byte-wise request: \(short(reply))")
    try stillServing(d)
}

func frameOf65MiB() throws {
    let d = try started()
    defer { d.kill() }
    let size = 65 * mib
    let head = Array(#"{"jsonrpc":"2.0","id":77,"method":"maskd/apply","params":{"mask":"[0]","text":""#.utf8)
    let tail = Array(#""}}"#.utf8)
    try d.write(Array("Content-Length: \(size)\r\n\r\n".utf8) + head)
    let chunk = [UInt8](repeating: UInt8(ascii: "1"), count: mib)
    var left = size - head.count - tail.count
    while left > 0 {
        let piece = min(left, chunk.count)
        try d.write(piece == chunk.count ? chunk : Array(chunk[..<piece]))
        left -= piece
    }
    try d.write(tail)
    let follow = try d.request("maskd/apply", applyParams("[0]-[0]", "12"))
    let seen = Seen()
    let reply = try d.response(follow, timeout: 60, keep: seen)
    try check(reply["result"]?["text"] == "1-2", "the message after the big frame: \(short(reply))")
    try check(!seen.messages.contains { $0["id"] == 77 }, "the refused frame was answered as a request")
    let errors = logMessages(seen.messages).filter { $0["params"]?["type"] == 1 }
    try check(
        !errors.isEmpty, "no error was reported for the 65 MiB frame (got \(short(.array(seen.messages))))")
    let peak = d.rssKiB("VmHWM")
    try check(
        peak.map { $0 < 48 * 1024 } ?? false,
        "the daemon's peak RSS was \(peak.map(String.init) ?? "unknown") KiB: the body was buffered")
    try stillServing(d)
}

func garbageBetweenFrames() throws {
    let d = try started()
    defer { d.kill() }
    try d.write([UInt8]("hello\r\n\r\n".utf8) + [0x00, 0xFF, 0xFE] + Array(" garbage\r\n".utf8))
    try d.write("Content-Type: application/json\r\n\r\n{}")
    try d.write("Content-Length: -5\r\n\r\n")
    try d.write("Content-Length: 99999999999999999999999\r\n\r\n")
    try d.write("Content-Length: 0\r\n\r\n")
    try d.write(times("X", 10000) + "\r\n")
    try stillServing(d)
}

func tenThousandPipelinedRequests() throws {
    let d = try started()
    defer { d.kill() }
    let count = 10_000
    // Nothing is read until all are written: the daemon must keep reading while its output is not read (the pipe
    // holds 64 KiB of replies).
    var ids: [Int] = []
    var payload: [UInt8] = []
    for _ in 0..<count {
        let id = d.process.newID()
        ids.append(id)
        payload += DaemonProcess.frame(
            DaemonProcess.request(id: id, "maskd/apply", applyParams("+1 ([000]) [000]-[0000]", "5551234567")))
    }
    do {
        try d.write(payload)
    } catch let error as DaemonError where error.kind == .timedOut {
        throw Failure(
            description: "writing 10,000 requests blocked for \(Int(writeLimit)) s while replies were not read: "
                + "a deadlock (\(error))")
    } catch {
        throw Failure(description: "writing failed: \(error)")
    }
    usleep(1_000_000)
    let peak = d.rssKiB("VmHWM")
    try check(
        peak.map { $0 < 256 * 1024 } ?? false,
        "peak RSS \(peak.map(String.init) ?? "unknown") KiB while replies were queued")
    var answered: [JSONValue: Int] = [:]
    let deadline = nowNS() + 60_000_000_000
    while answered.count < count, nowNS() < deadline {
        let m = try d.next(within: max(0.1, Double(Int64(deadline) - Int64(nowNS())) / 1e9))
        if let id = m["id"], m["method"] == nil { answered[id, default: 0] += 1 }
    }
    try check(answered.count == count, "\(answered.count) of \(count) requests were answered")
    try check(ids.allSatisfy { answered[int($0)] == 1 }, "some request was answered more than once")
    try stillServing(d)
}

// MARK: - JSON

func deeplyNestedJSON() throws {
    let d = try started()
    defer { d.kill() }
    try d.write(frame(repeatedBytes("[", 100_000) + repeatedBytes("]", 100_000)))
    try d.write(
        frame(
            #"{"jsonrpc":"2.0","id":5,"method":"maskd/apply","params":{"mask":"# + times("[", 5000)
                + times("]", 5000) + "}}"))
    try d.write(frame(times(#"{"a":"#, 50_000) + "1" + times("}", 50_000)))
    try stillServing(d)
    // Nesting within the limit in a mask is a bad mask, answered as such.
    let reply = try d.call("maskd/apply", ["mask": ["oneOf": [["oneOf": [["oneOf": ["[0]"]]]]]], "text": "1"])
    try check(reply["result"] != nil || reply["error"] != nil, "nested oneOf got no answer")
    try stillServing(d)
}

func invalidUTF8InText() throws {
    let d = try started()
    defer { d.kill() }
    let invalid: [[UInt8]] = [
        [0xFF, 0xFE], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], Array("abc".utf8) + [0x80],
    ]
    for bad in invalid {
        let head = #"{"jsonrpc":"2.0","id":9,"method":"maskd/apply","params":{"mask":"[0]","text":""#
        try d.write(frame(Array(head.utf8) + bad + Array(#""}}"#.utf8)))
    }
    for escaped in [#"\ud800"#, #"\udc00x"#, #"\ud83d"#] {
        let head = #"{"jsonrpc":"2.0","id":10,"method":"maskd/apply","params":{"mask":"[0]","text":""#
        try d.write(frame(head + escaped + #""}}"#))
    }
    // A document whose text is invalid, then a field opened in it.
    let open =
        #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///u","#
        + #""languageId":"plaintext","version":1,"text":"a"#
    try d.write(frame(Array(open.utf8) + [0xFF] + Array(#"b"}}}"#.utf8)))
    let seen = Seen()
    try stillServing(d, seen: seen)
    try check(
        !seen.messages.contains { m in
            m["result"].map { !$0.isNull } ?? false && (m["id"] == 9 || m["id"] == 10)
        }, "invalid UTF-8 was accepted as a request")
}

func nulCharacters() throws {
    let d = try started()
    defer { d.kill() }
    var reply = try d.call("maskd/apply", applyParams("[000]", "1\u{0}2\u{0}3"))
    try check(reply["result"]?["text"] == "123", "NULs in the text: \(short(reply))")
    reply = try d.call("maskd/apply", applyParams("[0]\u{0}[0]", "12"))
    try check(reply["result"] != nil || reply["error"] != nil, "a NUL in the mask got no answer")
    try d.notify("textDocument/didOpen", Messages.didOpen(uri: "file:///nul", text: "a\u{0}b\u{0}\n\u{0}"))
    reply = try d.call(
        "maskd/openField", Messages.openField(uri: "file:///nul", line: 0, from: 0, to: 4, mask: "[***]"))
    try check(reply["result"] != nil || reply["error"] != nil, "openField over NULs got no answer")
    try d.write(frame(Array(#"{"jsonrpc":"2.0","id":3,"method":"shutdown""#.utf8) + [0x00, UInt8(ascii: "}")]))
    try stillServing(d)
}
