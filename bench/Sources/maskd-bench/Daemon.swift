// maskd-bench: rows 2 to 6, the daemon over real pipes, each against its baseline.
import Foundation
import JSON
import MaskCatalog
import MaskEngine
import MaskdClient

/// A server binary to measure, and whether it really formats (the floor does not).
struct ServerUnderTest {
    var name: String
    var path: String
    var arguments: [String]
    var formats: Bool

    func spawn(timeout: Double) throws -> DaemonProcess {
        try DaemonProcess(name: name, executable: path, arguments: arguments, timeout: timeout)
    }
}

/// One field a person types into, on some server, and what its keystrokes measured.
final class TypingSession {
    let label: String
    let client: EditorClient
    var field: FieldCursor
    var script: TypingScript
    /// With it, the field is checked against the engine (for servers that format).
    let check: Mask?
    private(set) var samples = Samples()
    /// The server's CPU time while this session's recorded keystrokes ran, in nanoseconds.
    private(set) var serverCPU: UInt64 = 0
    /// The server's CPU per keystroke in each recorded round, in nanoseconds.
    private(set) var roundCPU: [Double] = []

    init(label: String, client: EditorClient, field: FieldCursor, entered: Int, formats: Bool) throws {
        self.label = label
        self.client = client
        self.field = field
        script = TypingScript(entered: entered)
        check = formats ? try Mask.compile(Masks.card) : nil
    }

    /// Types `count` keys; they count in the samples, as one round, only when `recorded`.
    func type(_ count: Int, recorded: Bool) throws {
        let cpu0 = try client.server.cpuNS()
        var scratch = Samples()
        if recorded {
            try client.type(count, script: &script, field: &field, checkingWith: check, into: &samples)
        } else {
            try client.type(count, script: &script, field: &field, checkingWith: check, into: &scratch)
        }
        if recorded {
            let spent = try client.server.cpuNS() - cpu0
            serverCPU += spent
            roundCPU.append(Double(spent) / Double(max(count, 1)))
            samples.endRound()
        }
    }

    /// The server's CPU per recorded keystroke, echo included, in nanoseconds.
    var cpuPerKeystroke: Double { Double(serverCPU) / Double(max(samples.count, 1)) }
}

enum DaemonBench {
    // MARK: Rows 2, 3 and 5: keystroke round trips, scale and memory

    /// What the keystroke rounds measured.
    struct KeystrokeOutcome {
        /// One line each: maskd's first, then the floor's if there is one.
        var oneLine: [TypingSession]
        /// One line on the contract floor, replaying maskd's didFormats, if it was given.
        var contract: TypingSession?
        /// The big document's first, middle and last line, on one maskd.
        var big: [TypingSession]
        var bigLines: Int
        var documentBytes: Int
        var idleRSS: Double
        /// Peak and resident after the didOpen, and after the fields were opened.
        var rssAfterOpen: (peak: Double, now: Double)
        var rssAfterFields: (peak: Double, now: Double)
        var peakRSS: Double
        /// Resident at the end, once the transient peaks have been freed.
        var finalRSS: Double
        var openNS: UInt64
        var openFieldsNS: UInt64
        /// Opening every field of the big document three ways, on maskd and on the floor.
        var openings: [Opening]
        /// The first `publishDiagnostics` after the fields were opened: its size, and from the pause's end (the
        /// last answer read plus the delay) to having read and parsed it.
        var firstPublish: (bytes: Int, diagnostics: Int, ns: UInt64, parseNS: UInt64)
    }

    /// One way of opening the big document's fields: how long it took each server, first write to last answer read.
    struct Opening {
        var way: String
        var maskd: UInt64
        var floor: UInt64?
    }

    /// The ways a client opens many fields (`Opening.way`).
    enum OpeningWay: String, CaseIterable {
        case oneAtATime = "one request at a time"
        case pipelined = "pipelined openField"
        case inOneRequest = "one maskd/openFields"
    }

    /// A line on standard error, so a long run shows where it is.
    static func progress(_ text: String) {
        FileHandle.standardError.write(Data("maskd-bench: \(text)\n".utf8))
    }

    /// The daemon's default `diagnosticsDelay` (Protocol/protocol.md 8.3).
    static let diagnosticsDelayNS: UInt64 = 250_000_000

    /// A one-line document, `card: `, with one empty card field at its end.
    static func oneLine(_ subject: ServerUnderTest, timeout: Double, into servers: inout [DaemonProcess]) throws
        -> TypingSession
    {
        let server = try subject.spawn(timeout: timeout)
        servers.append(server)
        try server.initialize()
        let prefix = Array("card: ".utf8)
        let client = EditorClient(server: server, uri: "file:///maskd-bench/one-line.txt", lines: [prefix])
        try client.open(finalNewline: false)
        let opened = try server.request(
            "maskd/openField",
            Messages.openField(
                uri: client.uri, line: 0, from: prefix.count, to: prefix.count, mask: Masks.cardJSON))
        guard opened["field"]?.stringValue != nil else {
            throw BenchFailure("\(subject.name): openField answered \(opened.serializedString())")
        }
        return try TypingSession(
            label: subject.name, client: client,
            field: FieldCursor(line: 0, caret: prefix.count, prefix: prefix, suffix: []),
            entered: 0, formats: subject.formats)
    }

    /// maskd's `didFormat`s for one period of the typing script from an empty field (the 19 digits typed, then
    /// backspaced away), one params object per line, in a temporary file: what `bench/contract-floor.c` replays.
    /// - Returns: the file's path.
    static func recordFormats(_ maskd: ServerUnderTest, timeout: Double) throws -> String {
        var servers: [DaemonProcess] = []
        defer { for s in servers { s.kill() } }
        let session = try oneLine(maskd, timeout: timeout, into: &servers)
        var lines: [String] = []
        session.client.formatRecorder = { lines.append($0.serializedString()) }
        try session.type(2 * TypingScript.digits.count, recorded: false)
        for s in servers { try s.stop() }
        let path = NSTemporaryDirectory() + "/maskd-bench-contract-\(getpid()).jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// One line of the big document: 100 bytes with its line break, a formatted card field at columns 14..<32
    /// one digit short (15 digits: a Visa number needs 13, 16 or 19), so every field of the document has a
    /// problem and a diagnostic: the worst case for whatever would visit them all.
    static func bigLine(_ i: Int) -> [UInt8] {
        let number = String(i)
        let head = "field " + String(repeating: "0", count: max(0, 6 - number.count)) + number + ": "
        let body = head + bigFieldText + " ; note: the rest of the line is prose that no field owns"
        return Array(body.utf8.prefix(99)) + Array(repeating: UInt8(ascii: "."), count: max(0, 99 - body.utf8.count))
    }

    /// The first 15 digits of `TypingScript.digits`, formatted: the typing sessions start from there.
    static let bigFieldText = "4000 1234 5678 901"
    static let bigFieldDigits = 15
    static let bigFieldStart = 14
    static let bigFieldEnd = 32

    /// Every session types in turn, in `rounds` rounds, so that drift in the machine's load (two
    /// shared cores) falls on all of them alike: `keystrokes` keys per one-line session and
    /// `perPosition` per big-document position in all, after `warmup` unrecorded ones each.
    static func keystrokes(
        maskd: ServerUnderTest, floor: ServerUnderTest?, contractFloor: String?, keystrokes: Int,
        bigLines count: Int, perPosition: Int, rounds: Int, warmup: Int, timeout: Double
    ) throws
        -> KeystrokeOutcome
    {
        var servers: [DaemonProcess] = []
        defer { for s in servers { s.kill() } }
        var oneLine = [try oneLine(maskd, timeout: timeout, into: &servers)]
        if let floor { oneLine.append(try self.oneLine(floor, timeout: timeout, into: &servers)) }
        var contract: TypingSession? = nil
        if let contractFloor {
            let recording = try recordFormats(maskd, timeout: timeout)
            defer { try? FileManager.default.removeItem(atPath: recording) }
            let replaying = ServerUnderTest(
                name: "contract floor", path: contractFloor, arguments: [recording],
                formats: true)
            // It reads the recording before its first message: the file can go once it has answered one.
            contract = try self.oneLine(replaying, timeout: timeout, into: &servers)
        }
        let typists = oneLine + (contract.map { [$0] } ?? [])

        // Opening the big document's fields three ways, on a maskd of its own (so that what opening leaves behind
        // does not weigh on the typing or on row 5's memory), each way taking its turn with the floor doing the same
        // requests; each way on a fresh copy of the document, the one before closed.
        let lines = (0..<count).map(bigLine)
        var openings: [Opening] = []
        var firstPublish = (bytes: 0, diagnostics: 0, ns: UInt64(0), parseNS: UInt64(0))
        do {
            let opener = try maskd.spawn(timeout: timeout)
            servers.append(opener)
            try opener.initialize()
            var floorServer: DaemonProcess? = nil
            if let floor {
                let spawned = try floor.spawn(timeout: timeout)
                servers.append(spawned)
                try spawned.initialize()
                floorServer = spawned
            }
            for (index, way) in OpeningWay.allCases.enumerated() {
                let uri = "file:///maskd-bench/opened-\(index).txt"
                let document = EditorClient(server: opener, uri: uri, lines: lines)
                try document.open(finalNewline: true)
                _ = try opener.request("maskd/fields", ["textDocument": ["uri": .string(uri)]])
                let ours = try open(opener, uri: uri, count: count, way: way, subject: maskd)
                let answered = nowNS()
                let published = try readPublication(opener, uri: uri, expected: count)
                if index == 0 {
                    firstPublish = (
                        published.bytes, count, published.readAt - (answered + diagnosticsDelayNS),
                        published.parseNS
                    )
                }
                var theirs: UInt64? = nil
                if let floorServer, let floor {
                    theirs = try open(floorServer, uri: uri, count: count, way: way, subject: floor)
                }
                openings.append(Opening(way: way.rawValue, maskd: ours, floor: theirs))
                progress(
                    "opened \(count) fields, \(way.rawValue): maskd \(formatDuration(Double(ours)))"
                        + (theirs.map { ", floor \(formatDuration(Double($0)))" } ?? ""))
                try opener.notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
            }
            try opener.stop()
            try floorServer?.stop()
        }

        // The document typed into: spawned, opened, and every line's field opened by pipelined openFields.
        let server = try maskd.spawn(timeout: timeout)
        servers.append(server)
        try server.initialize()
        let idle = try server.peakRSS()
        let client = EditorClient(server: server, uri: "file:///maskd-bench/big.txt", lines: lines)
        let documentBytes = client.text(finalNewline: true).utf8.count
        let t0 = nowNS()
        try client.open(finalNewline: true)
        // A request after the didOpen: its answer means the document has been read.
        _ = try server.request("maskd/fields", ["textDocument": ["uri": .string(client.uri)]])
        let openNS = nowNS() - t0
        let rssAfterOpen = (try server.peakRSS(), try server.currentRSS())
        let t1 = nowNS()
        try openFields(
            server, client, (0..<count).map { ($0, bigFieldStart, bigFieldEnd) }, mask: Masks.cardJSON,
            subject: maskd)
        let openFieldsNS = nowNS() - t1
        let rssAfterFields = (try server.peakRSS(), try server.currentRSS())
        _ = try readPublication(server, uri: client.uri, expected: count)
        var big: [TypingSession] = []
        for (label, line) in [("start", 0), ("middle", count / 2), ("end", count - 1)] {
            let original = lines[line]
            let field = FieldCursor(
                line: line, caret: bigFieldEnd, prefix: Array(original[..<bigFieldStart]),
                suffix: Array(original[bigFieldEnd...]))
            big.append(
                try TypingSession(
                    label: "\(label) (line \(line))", client: client, field: field,
                    entered: bigFieldDigits, formats: maskd.formats))
        }

        for session in typists + big { try session.type(warmup, recorded: false) }
        for _ in 0..<rounds {
            for session in typists { try session.type(max(keystrokes / rounds, 1), recorded: true) }
            for session in big { try session.type(max(perPosition / rounds, 1), recorded: true) }
        }
        let peak = try server.peakRSS()
        let final = try server.currentRSS()
        for s in servers { try s.stop() }
        return KeystrokeOutcome(
            oneLine: oneLine, contract: contract, big: big, bigLines: count,
            documentBytes: documentBytes,
            idleRSS: idle, rssAfterOpen: rssAfterOpen, rssAfterFields: rssAfterFields,
            peakRSS: peak, finalRSS: final, openNS: openNS, openFieldsNS: openFieldsNS,
            openings: openings, firstPublish: firstPublish)
    }

    /// Opens a card field on every line of `uri` in one of the ways a client does, reading and parsing every
    /// answer. - Returns: nanoseconds from the first write to the last answer read.
    static func open(_ server: DaemonProcess, uri: String, count: Int, way: OpeningWay, subject: ServerUnderTest) throws
        -> UInt64
    {
        func params(_ line: Int) -> JSONValue {
            Messages.openField(uri: uri, line: line, from: bigFieldStart, to: bigFieldEnd, mask: Masks.cardJSON)
        }
        /// An `openField` result (or an `openFields` entry), checked for what maskd must answer; the floor's
        /// placeholder answers are only checked for being results.
        func check(_ result: JSONValue?) throws {
            guard let result, !result.isNull || !subject.formats else {
                throw BenchFailure("\(subject.name): no result for an opening")
            }
            guard subject.formats else { return }
            guard result["error"] == nil, let edits = result["edits"]?.arrayValue else {
                throw BenchFailure("\(subject.name): openField answered \(result.serializedString())")
            }
            guard edits.isEmpty, result["state"]?["text"]?.stringValue == bigFieldText else {
                throw BenchFailure(
                    "\(subject.name): openField over a formatted card proposed edits: "
                        + result.serializedString())
            }
        }
        let t0 = nowNS()
        switch way {
        case .oneAtATime:
            for line in 0..<count {
                let id = server.newID()
                try server.send(DaemonProcess.request(id: id, "maskd/openField", params(line)))
                try check(try server.readResponse(id: id))
            }
        case .pipelined:
            var frames: [UInt8] = []
            frames.reserveCapacity(count * 200)
            var ids: Set<Int> = []
            for line in 0..<count {
                let id = server.newID()
                ids.insert(id)
                frames += DaemonProcess.frame(DaemonProcess.request(id: id, "maskd/openField", params(line)))
            }
            let writing = server.writeInBackground(frames)
            var answered = 0
            while answered < count {
                let message = try server.read()
                guard message["method"] == nil, let id = message["id"]?.intValue, ids.contains(id) else { continue }
                if let error = message["error"] {
                    throw BenchFailure("\(subject.name): openField failed: \(error.serializedString())")
                }
                try check(message["result"])
                answered += 1
            }
            try writing.wait()
        case .inOneRequest:
            let fields: [JSONValue] = (0..<count).map { line in
                ["range": Messages.range(line: line, from: bigFieldStart, to: bigFieldEnd), "mask": Masks.cardJSON]
            }
            let result = try server.request(
                "maskd/openFields",
                [
                    "textDocument": ["uri": .string(uri)],
                    "fields": .array(fields),
                ])
            if subject.formats {
                guard let results = result["results"]?.arrayValue, results.count == count else {
                    throw BenchFailure(
                        "\(subject.name): openFields answered \(count) fields with "
                            + "\(result["results"]?.arrayValue?.count ?? 0) results")
                }
                for entry in results { try check(entry) }
            }
        }
        return nowNS() - t0
    }

    /// Reads until the `publishDiagnostics` of `uri` listing `expected` diagnostics (others are read and parsed
    /// too). - Returns: its body's size, when it was read, and how long parsing it took.
    static func readPublication(_ server: DaemonProcess, uri: String, expected: Int) throws
        -> (bytes: Int, readAt: UInt64, parseNS: UInt64)
    {
        while true {
            let body = try server.readBody()
            let readAt = nowNS()
            let message = try body.withUnsafeBytes { try JSONValue.parse($0) }
            let parsed = nowNS()
            guard message["method"] == "textDocument/publishDiagnostics",
                message["params"]?["uri"]?.stringValue == uri
            else { continue }
            let count = message["params"]?["diagnostics"]?.arrayValue?.count ?? 0
            guard count == expected else {
                throw BenchFailure(
                    "\(server.name): published \(count) diagnostics for \(expected) fields with a problem")
            }
            return (body.count, parsed, parsed - readAt)
        }
    }

    /// Opens a field over each of `ranges` (line, from, to), pipelined as a plugin restoring a session would; each
    /// range holds a formatted value, so no openField may propose edits.
    static func openFields(
        _ server: DaemonProcess, _ client: EditorClient, _ ranges: [(Int, Int, Int)], mask: JSONValue,
        subject: ServerUnderTest
    ) throws {
        let count = ranges.count
        var frames: [UInt8] = []
        frames.reserveCapacity(count * 200)
        for (line, from, to) in ranges {
            let params = Messages.openField(uri: client.uri, line: line, from: from, to: to, mask: mask)
            frames += DaemonProcess.frame(DaemonProcess.request(id: server.newID(), "maskd/openField", params))
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
                throw BenchFailure(
                    "\(subject.name): openField over a formatted value proposed edits: "
                        + message.serializedString())
            }
            answered += 1
        }
        try writing.wait()
    }

    // MARK: Row 9: long lines

    /// A one-line document, `prefix` then an empty card field at its end, with a formatted four-digit field opened
    /// over each of `fourDigitFields` (columns).
    static func cardAtEnd(
        _ subject: ServerUnderTest, label: String, prefix: [UInt8], fourDigitFields: [Int],
        timeout: Double, into servers: inout [DaemonProcess]
    ) throws -> TypingSession {
        let server = try subject.spawn(timeout: timeout)
        servers.append(server)
        try server.initialize()
        let client = EditorClient(
            server: server, uri: "file:///maskd-bench/\(label.filter(\.isLetter)).txt", lines: [prefix])
        try client.open(finalNewline: false)
        try openFields(server, client, fourDigitFields.map { (0, $0, $0 + 4) }, mask: "[0000]", subject: subject)
        let opened = try server.request(
            "maskd/openField",
            Messages.openField(
                uri: client.uri, line: 0, from: prefix.count, to: prefix.count, mask: Masks.cardJSON))
        guard opened["field"]?.stringValue != nil else {
            throw BenchFailure("\(subject.name): openField answered \(opened.serializedString())")
        }
        return try TypingSession(
            label: label, client: client,
            field: FieldCursor(line: 0, caret: prefix.count, prefix: prefix, suffix: []),
            entered: 0, formats: subject.formats)
    }

    /// The short line of row 2, a card field at the end of a line of `length` characters, and one after `fields`
    /// four-digit fields on one line, each on its own daemon, typing in turn in `rounds` rounds: `keystrokes`
    /// keys each after `warmup` unrecorded ones. - Returns: the three sessions, the short line first.
    static func longLines(
        maskd: ServerUnderTest, length: Int, fields: Int, keystrokes: Int, rounds: Int, warmup: Int,
        timeout: Double
    ) throws -> [TypingSession] {
        var servers: [DaemonProcess] = []
        defer { for s in servers { s.kill() } }
        let card = Array("card: ".utf8)
        var crowded: [UInt8] = []
        var columns: [Int] = []
        for _ in 0..<fields {
            columns.append(crowded.count)
            crowded += Array("1234 ".utf8)
        }
        let sessions = [
            try cardAtEnd(
                maskd, label: "short line", prefix: card, fourDigitFields: [], timeout: timeout,
                into: &servers),
            try cardAtEnd(
                maskd, label: "after \(formatCount(length)) characters",
                prefix: Array(repeating: UInt8(ascii: "x"), count: length - card.count) + card,
                fourDigitFields: [], timeout: timeout, into: &servers),
            try cardAtEnd(
                maskd, label: "after \(formatCount(fields)) fields", prefix: crowded + card,
                fourDigitFields: columns, timeout: timeout, into: &servers),
        ]
        for session in sessions { try session.type(warmup, recorded: false) }
        for _ in 0..<rounds {
            for session in sessions { try session.type(max(keystrokes / rounds, 1), recorded: true) }
        }
        for s in servers { try s.stop() }
        return sessions
    }

    /// `n` with thousands separated by commas.
    static func formatCount(_ n: Int) -> String {
        var digits = String(n)
        var groups: [String] = []
        while digits.count > 3 {
            groups.insert(String(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        groups.insert(digits, at: 0)
        return groups.joined(separator: ",")
    }

    // MARK: Row 4: startup

    /// Spawn to the `initialize` result, `runs` times per server, alternating servers.
    static func startup(_ subjects: [ServerUnderTest], runs: Int, timeout: Double) throws -> [Samples] {
        var samples = Array(repeating: Samples(), count: subjects.count)
        for run in 0..<runs {
            // Rounds of ten spawns each, for the ratio's spread.
            if run > 0, run % 10 == 0 { for i in samples.indices { samples[i].endRound() } }
            for (i, subject) in subjects.enumerated() {
                let server = try subject.spawn(timeout: timeout)
                defer { server.kill() }
                let id = server.newID()
                try server.send(DaemonProcess.request(id: id, "initialize", Messages.initializeParams()))
                _ = try server.readResponse(id: id)
                samples[i].add(Double(nowNS() - server.spawnedAt))
                try server.notify("initialized", [:])
                try server.stop()
            }
        }
        for i in samples.indices { samples[i].endRound() }
        return samples
    }

    // MARK: Row 6: throughput

    /// `maskd/apply` requests: a digit typed at the end of a card field holding 0 to 18 digits.
    static func applyParams(_ k: Int) -> JSONValue {
        let digits = TypingScript.digits
        let before = try! Mask.compile(Masks.card).format(String(digits.prefix(k))).text
        let n = Int64(before.utf16.count)
        return [
            "mask": Masks.cardJSON, "text": .string(before),
            "edit": ["start": .int(n), "end": .int(n), "text": .string(String(digits[k]))],
        ]
    }

    /// Batches of `perBatch` pipelined `maskd/apply` requests, written by one thread while
    /// another reads the answers; one sample per batch, in requests per second.
    static func throughput(
        _ subjects: [ServerUnderTest], batches: Int, perBatch: Int,
        timeout: Double
    ) throws -> [(rates: Samples, cpuPerRequest: Double, roundCPU: [Double])] {
        var servers: [DaemonProcess] = []
        defer { for s in servers { s.kill() } }
        for subject in subjects {
            let server = try subject.spawn(timeout: timeout)
            servers.append(server)
            try server.initialize()
        }
        let params = (0..<TypingScript.digits.count).map(applyParams)
        var samples = Array(repeating: Samples(), count: subjects.count)
        var cpu = Array(repeating: UInt64(0), count: subjects.count)
        var roundCPU = Array(repeating: [Double](), count: subjects.count)
        // One untimed batch each first, then the timed ones alternating.
        for batch in 0..<(batches + 1) {
            for (i, server) in servers.enumerated() {
                var frames: [UInt8] = []
                var ids: [Int] = []
                for r in 0..<perBatch {
                    let id = server.newID()
                    ids.append(id)
                    frames += DaemonProcess.frame(
                        DaemonProcess.request(id: id, "maskd/apply", params[r % params.count]))
                }
                let cpu0 = try server.cpuNS()
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
                        throw BenchFailure(
                            "\(subjects[i].name): apply failed: \(String(decoding: body, as: UTF8.self))")
                    }
                }
                let t1 = nowNS()
                try writing.wait()
                if batch > 0 {
                    samples[i].add(Double(perBatch) / (Double(t1 - t0) / 1e9))
                    samples[i].endRound()
                    let spent = try server.cpuNS() - cpu0
                    cpu[i] += spent
                    roundCPU[i].append(Double(spent) / Double(perBatch))
                }
            }
        }
        for s in servers { try s.stop() }
        return subjects.indices.map {
            (samples[$0], Double(cpu[$0]) / Double(max(batches * perBatch, 1)), roundCPU[$0])
        }
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
