// maskd-bench: rows 2 to 6, the daemon over real pipes, each against its baseline.
import Foundation
import JSON
import MaskEngine

/// A server binary to measure, and whether it really formats (the floor does not).
struct ServerUnderTest {
    var name: String
    var path: String
    var arguments: [String]
    var formats: Bool

    func spawn(timeout: Double) throws -> ServerProcess {
        try ServerProcess(name: name, executable: path, arguments: arguments, timeout: timeout)
    }
}

/// A server spawned, initialised, with a one-line document holding one empty card field.
struct OneLineSession {
    static let prefix = Array("card: ".utf8)

    let server: ServerProcess
    let client: EditorClient
    var field: FieldCursor
    var script = TypingScript(entered: 0)
    let check: Mask?

    init(_ subject: ServerUnderTest, timeout: Double) throws {
        server = try subject.spawn(timeout: timeout)
        do {
            try server.initialize()
            client = EditorClient(server: server, uri: "file:///maskd-bench/one-line.txt", lines: [OneLineSession.prefix])
            try client.open(finalNewline: false)
            let n = OneLineSession.prefix.count
            let opened = try server.request("maskd/openField", Messages.openField(
                uri: client.uri, line: 0, from: n, to: n, mask: .string(Masks.cardNotation)))
            guard opened["field"]?.stringValue != nil else {
                throw BenchFailure("\(subject.name): openField answered \(opened.serializedString())")
            }
            field = FieldCursor(line: 0, caret: n, prefix: OneLineSession.prefix, suffix: [])
            check = subject.formats ? try Mask.compile(Masks.card) : nil
        } catch {
            server.kill()
            throw error
        }
    }

    mutating func type(_ count: Int, warmup: Int, into samples: inout Samples) throws {
        try client.type(count, warmup: warmup, script: &script, field: &field, checkingWith: check, into: &samples)
    }
}

enum DaemonBench {
    // MARK: Row 2: keystroke round trip

    /// Both servers type `keystrokes` keys into a one-line document, in alternating blocks so
    /// that drift in the machine's load falls on both alike.
    static func roundTrip(_ subjects: [ServerUnderTest], keystrokes: Int, blocks: Int, warmup: Int,
                          timeout: Double) throws -> [(Samples, echoes: Int, stale: Int)] {
        var sessions: [OneLineSession] = []
        defer { for s in sessions { s.server.kill() } }
        for subject in subjects { sessions.append(try OneLineSession(subject, timeout: timeout)) }
        var samples = Array(repeating: Samples(), count: sessions.count)
        for i in sessions.indices { try sessions[i].type(0, warmup: warmup, into: &samples[i]) }
        let perBlock = max(keystrokes / blocks, 1)
        for _ in 0..<blocks {
            for i in sessions.indices { try sessions[i].type(perBlock, warmup: 0, into: &samples[i]) }
        }
        for s in sessions { try s.server.stop() }
        return sessions.indices.map { (samples[$0], sessions[$0].client.echoes, sessions[$0].client.staleFormats) }
    }

    // MARK: Rows 3 and 5: scale and memory

    struct ScaleOutcome {
        /// Round trips at the document's first, middle and last line.
        var positions: [(label: String, line: Int, samples: Samples)]
        var documentBytes: Int
        var idleRSS: Double
        var peakRSS: Double
        var openNS: UInt64
        var openFieldsNS: UInt64
    }

    /// One line of the big document: 100 bytes with its line break, a formatted 16-digit card
    /// field at columns 14..<33.
    static func bigLine(_ i: Int) -> [UInt8] {
        let number = String(i)
        let head = "field " + String(repeating: "0", count: max(0, 6 - number.count)) + number + ": "
        let body = head + "4000 1234 5678 9010" + " ; note: the rest of the line is prose that no field owns"
        return Array(body.utf8.prefix(99)) + Array(repeating: UInt8(ascii: "."), count: max(0, 99 - body.utf8.count))
    }

    static let bigFieldStart = 14
    static let bigFieldEnd = 33

    static func scale(_ subject: ServerUnderTest, lines count: Int, perPosition: Int, warmup: Int,
                      timeout: Double) throws -> ScaleOutcome {
        let server = try subject.spawn(timeout: timeout)
        defer { server.kill() }
        try server.initialize()
        let idle = try server.peakRSS()

        let lines = (0..<count).map(bigLine)
        let client = EditorClient(server: server, uri: "file:///maskd-bench/big.txt", lines: lines)
        let t0 = nowNS()
        let text = client.text(finalNewline: true)
        let documentBytes = text.utf8.count
        try client.open(finalNewline: true)
        // A request after the didOpen: its answer means the document has been read.
        _ = try server.request("maskd/fields", ["textDocument": ["uri": .string(client.uri)]])
        let t1 = nowNS()

        // Every field opened, pipelined as a plugin restoring a session would.
        var frames: [UInt8] = []
        frames.reserveCapacity(count * 200)
        for line in 0..<count {
            let params = Messages.openField(uri: client.uri, line: line, from: bigFieldStart, to: bigFieldEnd,
                                            mask: .string(Masks.cardNotation))
            frames += ServerProcess.frame(Messages.request(id: server.newID(), "maskd/openField", params))
        }
        let writing = server.writeInBackground(frames)
        var answered = 0
        while answered < count {
            let message = try server.read()
            guard message["method"] == nil else { continue }
            if let error = message["error"] {
                throw BenchFailure("\(subject.name): openField failed: \(error.serializedString())")
            }
            guard let edits = message["result"]?["edits"]?.arrayValue else {
                throw BenchFailure("\(subject.name): openField answered \(message.serializedString())")
            }
            guard edits.isEmpty else {
                throw BenchFailure("\(subject.name): openField over a formatted card proposed edits: "
                    + message.serializedString())
            }
            answered += 1
        }
        try writing.wait()
        let t2 = nowNS()

        let check = subject.formats ? try Mask.compile(Masks.card) : nil
        var positions: [(label: String, line: Int, samples: Samples)] = []
        for (label, line) in [("start", 0), ("middle", count / 2), ("end", count - 1)] {
            let original = lines[line]
            var field = FieldCursor(line: line, caret: bigFieldEnd, prefix: Array(original[..<bigFieldStart]),
                                    suffix: Array(original[bigFieldEnd...]))
            var script = TypingScript(entered: 16)
            var samples = Samples()
            try client.type(perPosition, warmup: warmup, script: &script, field: &field, checkingWith: check,
                            into: &samples)
            positions.append((label, line, samples))
        }
        let peak = try server.peakRSS()
        try server.stop()
        return ScaleOutcome(positions: positions, documentBytes: documentBytes, idleRSS: idle, peakRSS: peak,
                            openNS: t1 - t0, openFieldsNS: t2 - t1)
    }

    // MARK: Row 4: startup

    /// Spawn to the `initialize` result, `runs` times per server, alternating servers.
    static func startup(_ subjects: [ServerUnderTest], runs: Int, timeout: Double) throws -> [Samples] {
        var samples = Array(repeating: Samples(), count: subjects.count)
        for _ in 0..<runs {
            for (i, subject) in subjects.enumerated() {
                let server = try subject.spawn(timeout: timeout)
                defer { server.kill() }
                let id = server.newID()
                try server.send(Messages.request(id: id, "initialize", Messages.initializeParams()))
                _ = try server.readResponse(id: id)
                samples[i].add(Double(nowNS() - server.spawnedAt))
                try server.notify("initialized", [:])
                try server.stop()
            }
        }
        return samples
    }

    // MARK: Row 6: throughput

    /// `maskd/apply` requests: a digit typed at the end of a card field holding 0 to 18 digits.
    static func applyParams(_ k: Int) -> JSONValue {
        let digits = TypingScript.digits
        let before = try! Mask.compile(Masks.card).format(String(digits.prefix(k))).text
        let n = Int64(before.utf16.count)
        return ["mask": .string(Masks.cardNotation), "text": .string(before),
                "edit": ["start": .int(n), "end": .int(n), "text": .string(String(digits[k]))]]
    }

    /// Batches of `perBatch` pipelined `maskd/apply` requests, written by one thread while
    /// another reads the answers; one sample per batch, in requests per second.
    static func throughput(_ subjects: [ServerUnderTest], batches: Int, perBatch: Int,
                           timeout: Double) throws -> [Samples] {
        var servers: [ServerProcess] = []
        defer { for s in servers { s.kill() } }
        for subject in subjects {
            let server = try subject.spawn(timeout: timeout)
            servers.append(server)
            try server.initialize()
        }
        let params = (0..<TypingScript.digits.count).map(applyParams)
        var samples = Array(repeating: Samples(), count: subjects.count)
        // One untimed batch each first, then the timed ones alternating.
        for batch in 0..<(batches + 1) {
            for (i, server) in servers.enumerated() {
                var frames: [UInt8] = []
                var ids: [Int] = []
                for r in 0..<perBatch {
                    let id = server.newID()
                    ids.append(id)
                    frames += ServerProcess.frame(Messages.request(id: id, "maskd/apply", params[r % params.count]))
                }
                let t0 = nowNS()
                let writing = server.writeInBackground(frames)
                for (r, id) in ids.enumerated() {
                    let body = try server.readBody()
                    // A full parse of the first and last answers; a scan for errors in the rest,
                    // so that the client's own parsing does not become what is measured.
                    if r == 0 || r == perBatch - 1 {
                        let message = try body.withUnsafeBytes { try JSONValue.parse($0) }
                        guard message["id"]?.intValue == id, message["result"]?["text"]?.stringValue != nil else {
                            throw BenchFailure("\(subjects[i].name): apply answered \(message.serializedString())")
                        }
                    } else if contains(body, errorKey) {
                        throw BenchFailure("\(subjects[i].name): apply failed: \(String(decoding: body, as: UTF8.self))")
                    }
                }
                let t1 = nowNS()
                try writing.wait()
                if batch > 0 { samples[i].add(Double(perBatch) / (Double(t1 - t0) / 1e9)) }
            }
        }
        for s in servers { try s.stop() }
        return samples
    }

    private static let errorKey = Array("\"error\"".utf8)

    private static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        var i = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while i <= last {
            if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
