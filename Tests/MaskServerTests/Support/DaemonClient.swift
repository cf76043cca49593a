// maskd tests: a client that starts the built `maskd` binary and speaks to it over pipes.
import Foundation
import JSON
import MaskdClient
import XCTest

/// The built `maskd` binary: beside the test bundle in the build products directory.
func maskdBinary() throws -> URL {
    if let path = ProcessInfo.processInfo.environment["MASKD_BINARY"] { return URL(fileURLWithPath: path) }
    var candidates = [URL(fileURLWithPath: CommandLine.arguments[0])]
    candidates += Bundle.allBundles.map(\.bundleURL)
    for candidate in candidates {
        var directory = candidate.deletingLastPathComponent()
        for _ in 0..<4 {
            let binary = directory.appendingPathComponent("maskd")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: binary.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return binary
            }
            directory = directory.deletingLastPathComponent()
        }
    }
    throw XCTSkip("no built maskd binary found near \(CommandLine.arguments[0]); set MASKD_BINARY")
}

/// A running daemon and the messages it sent, over the shared client of `Tests/MaskdClient`.
final class DaemonClient {
    /// The daemon's process, its pipes and framing.
    let daemon: DaemonProcess
    private let condition = NSCondition()
    private var inbox: [JSONValue] = []
    private var ended = false
    /// Every notification received, in order (`didFormat`, `logMessage`, ...).
    private(set) var notifications: [JSONValue] = []
    /// Every request the daemon sent (`workspace/applyEdit`, ...), in order, whole envelopes.
    private(set) var serverRequests: [JSONValue] = []
    private(set) var stderrText = ""
    /// What the daemon wrote to stdout that was not a frame of JSON (always empty for a correct daemon).
    private var strayOutput: [String] = []

    init(arguments: [String] = ["--stdio"]) throws {
        daemon = try DaemonProcess(
            name: "maskd", executable: try maskdBinary().path, arguments: arguments, timeout: .infinity,
            errorOutput: .pipe)
        // One thread per pipe, each blocking in read(2): a plain loop, where FileHandle's readabilityHandler was
        // seen to stop delivering a large burst on a loaded machine. Each holds the process, so its descriptors
        // stay open until its end of input.
        let daemon = self.daemon
        Thread { [weak self] in
            while true {
                do {
                    let message = try daemon.read()
                    self?.receive(message)
                } catch let error as DaemonError where error.kind == .framing || error.kind == .notJSON {
                    self?.receiveStray(error.description)
                } catch {
                    break
                }
            }
            self?.receiveEnd()
        }.start()
        Thread { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while let fd = daemon.errorOutput {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0, let self else { break }
                self.condition.lock()
                self.stderrText += String(decoding: buffer[..<count], as: UTF8.self)
                self.condition.unlock()
            }
        }.start()
    }

    deinit {
        daemon.kill()
    }

    private func receive(_ message: JSONValue) {
        condition.lock()
        defer { condition.broadcast(); condition.unlock() }
        inbox.append(message)
    }

    private func receiveStray(_ problem: String) {
        condition.lock()
        defer { condition.unlock() }
        strayOutput.append(problem)
    }

    private func receiveEnd() {
        condition.lock()
        defer { condition.broadcast(); condition.unlock() }
        ended = true
    }

    /// What the daemon wrote to stdout that was not a frame of JSON, so far.
    var stdoutProblems: [String] {
        condition.lock()
        defer { condition.unlock() }
        return strayOutput
    }

    // MARK: - Sending

    /// Writes raw bytes to the daemon's stdin; a daemon that has ended shows in what the test then reads.
    func write(_ bytes: [UInt8]) {
        try? daemon.write(bytes)
    }

    /// Writes one framed body.
    func writeFrame(_ body: [UInt8]) {
        write(Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
    }

    func send(_ message: JSONValue) {
        write(DaemonProcess.frame(message))
    }

    func notify(_ method: String, _ params: JSONValue) {
        send(DaemonProcess.notification(method, params))
    }

    /// Sends a request and waits for its response (the whole envelope).
    @discardableResult
    func request(_ method: String, _ params: JSONValue, file: StaticString = #filePath, line: UInt = #line) -> JSONValue
    {
        let number = daemon.newID()
        let id = JSONValue.int(Int64(number))
        send(DaemonProcess.request(id: number, method, params))
        guard let response = waitFor({ $0["id"] == id && $0["method"] == nil }) else {
            XCTFail("no response to \(method) (stderr: \(stderrText))", file: file, line: line)
            return .null
        }
        return response
    }

    /// Sends a request and returns its `result`, failing on an error.
    @discardableResult
    func call(_ method: String, _ params: JSONValue, file: StaticString = #filePath, line: UInt = #line) -> JSONValue {
        let response = request(method, params, file: file, line: line)
        if let error = response["error"] {
            XCTFail("\(method) failed: \(error.serializedString())", file: file, line: line)
        }
        return response["result"] ?? .null
    }

    /// Sends a request that must fail and returns its `error`.
    @discardableResult
    func callFailing(
        _ method: String, _ params: JSONValue, code: Int,
        file: StaticString = #filePath, line: UInt = #line
    ) -> JSONValue {
        let response = request(method, params, file: file, line: line)
        guard let error = response["error"] else {
            XCTFail("\(method) should fail with \(code), got \(response.serializedString())", file: file, line: line)
            return .null
        }
        XCTAssertEqual(error["code"]?.intValue, code, error.serializedString(), file: file, line: line)
        return error
    }

    // MARK: - Receiving

    /// Waits for the first message matching `predicate`, moving the notifications before it
    /// into `notifications`. - Returns: nil after `timeout` seconds or when the daemon ends.
    func waitFor(timeout: TimeInterval = 10, _ predicate: (JSONValue) -> Bool) -> JSONValue? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            while !inbox.isEmpty {
                let message = inbox.removeFirst()
                if message["method"] != nil && message["id"] == nil { notifications.append(message) }
                if message["method"] != nil && message["id"] != nil { serverRequests.append(message) }
                if predicate(message) { return message }
            }
            if ended || !condition.wait(until: deadline) { return nil }
        }
    }

    /// The notifications of `method` received since the last call, in order.
    func take(_ method: String) -> [JSONValue] {
        condition.lock()
        defer { condition.unlock() }
        let matching = notifications.filter { $0["method"]?.stringValue == method }
        notifications.removeAll { $0["method"]?.stringValue == method }
        return matching.map { $0["params"] ?? .null }
    }

    /// The requests of `method` the daemon sent since the last call, in order (whole envelopes).
    func takeRequests(_ method: String) -> [JSONValue] {
        condition.lock()
        defer { condition.unlock() }
        let matching = serverRequests.filter { $0["method"]?.stringValue == method }
        serverRequests.removeAll { $0["method"]?.stringValue == method }
        return matching
    }

    /// Waits for the next batch answer (a JSON array), moving the notifications before it into `notifications`.
    func waitForBatch(timeout: TimeInterval = 10) -> [JSONValue]? {
        waitFor(timeout: timeout) { $0.arrayValue != nil }?.arrayValue
    }

    /// Waits until every message sent so far is handled (a cheap request round trip).
    func sync() {
        _ = request("maskd/apply", ["mask": "[0]", "text": ""])
    }

    /// `sync` twice: what the daemon sends once the messages of a read are handled (a plain client's held edits,
    /// with `applyEditDelay` 0) may follow the first answer, never the second, read after it.
    func settle() {
        sync()
        sync()
    }

    /// Initializes with `encodings` offered (nil: the capability is left out), and `diagnosticsDelay` (0, the
    /// default here: diagnostics go out once the messages of a read are handled; nil: the daemon's default).
    @discardableResult
    func initialize(encodings: [String]? = nil, diagnosticsDelay: Int? = 0) -> JSONValue {
        var general: JSONObject = [:]
        if let encodings { general["positionEncodings"] = .array(encodings.map(JSONValue.string)) }
        // The test process as the editor: alive all along, so the daemon's watch on it must never end a test.
        var params: JSONObject = ["processId": .int(Int64(getpid())), "capabilities": ["general": .object(general)]]
        if let diagnosticsDelay {
            params["initializationOptions"] = ["diagnosticsDelay": .int(Int64(diagnosticsDelay))]
        }
        let result = call("initialize", .object(params))
        notify("initialized", [:])
        return result
    }

    /// Closes stdin and waits for the process to end. - Returns: its exit code.
    func finish(timeout: TimeInterval = 10) -> Int32? {
        daemon.closeInput()
        return daemon.waitForExit(within: timeout)
    }

    /// Waits for the process to end without closing stdin. - Returns: its exit code.
    func waitForExit(timeout: TimeInterval = 10) -> Int32? {
        daemon.waitForExit(within: timeout)
    }
}

/// Runs the built binary once with `arguments`. - Returns: its exit code, stdout and stderr.
func runMaskd(_ arguments: [String]) throws -> (code: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = try maskdBinary()
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

/// Runs the built binary once with `input` on its standard input, from a file, and its output into files, so no
/// pipe can fill up whatever the sizes. - Returns: its exit code, stdout's bytes and stderr.
func runMaskd(_ arguments: [String], input: [UInt8]) throws -> (code: Int32, out: [UInt8], err: String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("maskd-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let paths = ["in", "out", "err"].map { directory.appendingPathComponent($0) }
    try Data(input).write(to: paths[0])
    for path in paths[1...] { _ = FileManager.default.createFile(atPath: path.path, contents: nil) }
    let process = Process()
    process.executableURL = try maskdBinary()
    process.arguments = arguments
    process.standardInput = try FileHandle(forReadingFrom: paths[0])
    process.standardOutput = try FileHandle(forWritingTo: paths[1])
    process.standardError = try FileHandle(forWritingTo: paths[2])
    try process.run()
    process.waitUntilExit()
    return (
        process.terminationStatus, [UInt8](try Data(contentsOf: paths[1])),
        String(decoding: try Data(contentsOf: paths[2]), as: UTF8.self)
    )
}
