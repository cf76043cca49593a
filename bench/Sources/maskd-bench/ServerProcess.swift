// maskd-bench: a server under test, spawned with real pipes and spoken to in LSP framing.
import Foundation
import Glibc
import JSON

/// A child process speaking Content-Length framed JSON-RPC on its stdin and stdout.
///
/// Writes go straight to the pipe with `write(2)`; reads are buffered and wait with `poll(2)`
/// under a deadline, so a server that stops answering is a `BenchFailure`, never a hang.
final class ServerProcess {
    /// A short name for messages: `maskd`, `floor`.
    let name: String
    let process: Process
    /// When `Process.run()` was called, on the `nowNS()` clock.
    let spawnedAt: UInt64
    /// How long any single read may wait, in seconds.
    var timeout: Double
    private let stdinPipe = Pipe()
    private let stdoutPipe = Pipe()
    private let writeFD: Int32
    private let readFD: Int32
    private var buffer: [UInt8] = []
    /// The first byte of `buffer` not yet consumed.
    private var start = 0
    private var nextID = 1
    /// Where `read(2)` puts bytes before they join `buffer`.
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)

    init(name: String, executable: String, arguments: [String], timeout: Double) throws {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw BenchFailure("\(name): no executable at \(executable)")
        }
        self.name = name
        self.timeout = timeout
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = FileHandle.standardError
        writeFD = stdinPipe.fileHandleForWriting.fileDescriptor
        readFD = stdoutPipe.fileHandleForReading.fileDescriptor
        buffer.reserveCapacity(1 << 16)
        spawnedAt = nowNS()
        try process.run()
    }

    deinit { chunk.deallocate() }

    var pid: Int32 { process.processIdentifier }

    /// A fresh request id.
    func newID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    // MARK: Writing

    /// One framed message: the header and the body in one buffer, so one `write` sends both.
    static func frame(_ message: JSONValue) -> [UInt8] {
        let body = message.serialized()
        var out = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
        out.reserveCapacity(out.count + body.count)
        out.append(contentsOf: body)
        return out
    }

    func send(_ message: JSONValue) throws {
        try write(ServerProcess.frame(message))
    }

    /// Writes all of `bytes`, blocking while the pipe is full.
    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(writeFD, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw BenchFailure("\(name): writing to its stdin failed: \(String(cString: strerror(errno)))")
                }
                offset += n
            }
        }
    }

    /// Writes `bytes` from another thread while the caller reads the answers (pipelining: with
    /// both pipes full, writing and reading on one thread would deadlock). Call `wait()` on the
    /// result to learn how the writing went.
    func writeInBackground(_ bytes: [UInt8]) -> BackgroundWrite {
        let job = BackgroundWrite()
        let thread = Thread { [self] in
            do { try self.write(bytes) } catch { job.failure = error }
            job.done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
        return job
    }

    /// Closes the server's stdin: end of input.
    func closeInput() {
        try? stdinPipe.fileHandleForWriting.close()
    }

    // MARK: Reading

    /// The body of the next message, waiting at most `timeout` seconds for each chunk.
    func readBody() throws -> ArraySlice<UInt8> {
        while true {
            if let body = try takeFrame() { return body }
            try fill()
        }
    }

    /// The next message, parsed.
    func read() throws -> JSONValue {
        let body = try readBody()
        do {
            return try body.withUnsafeBytes { try JSONValue.parse($0) }
        } catch {
            throw BenchFailure("\(name): sent a body that is not JSON: \(error)")
        }
    }

    /// Reads until the response to request `id`, skipping notifications and server requests.
    func readResponse(id: Int) throws -> JSONValue {
        while true {
            let message = try read()
            if message["method"] != nil { continue }
            guard message["id"]?.intValue == id else { continue }
            if let error = message["error"] {
                throw BenchFailure("\(name): request \(id) failed: \(error.serializedString())")
            }
            return message["result"] ?? .null
        }
    }

    /// Sends a request and waits for its result.
    func request(_ method: String, _ params: JSONValue) throws -> JSONValue {
        let id = newID()
        try send(["jsonrpc": "2.0", "id": .int(Int64(id)), "method": .string(method), "params": params])
        return try readResponse(id: id)
    }

    func notify(_ method: String, _ params: JSONValue) throws {
        try send(["jsonrpc": "2.0", "method": .string(method), "params": params])
    }

    /// A complete frame's body from the buffer, or nil when more bytes are needed.
    private func takeFrame() throws -> ArraySlice<UInt8>? {
        let end = buffer.count
        var i = start
        var contentLength: Int? = nil
        var lineStart = start
        // Header lines up to the empty line.
        while i < end {
            if buffer[i] == UInt8(ascii: "\n") {
                var lineEnd = i
                if lineEnd > lineStart, buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
                if lineEnd == lineStart {
                    guard let length = contentLength else {
                        throw BenchFailure("\(name): sent a header block without Content-Length")
                    }
                    let bodyStart = i + 1
                    guard end - bodyStart >= length else { return nil }
                    start = bodyStart + length
                    return buffer[bodyStart..<start]
                }
                contentLength = Self.contentLength(buffer[lineStart..<lineEnd]) ?? contentLength
                lineStart = i + 1
            }
            i += 1
        }
        return nil
    }

    /// The value of a `Content-Length` header line, or nil for another header.
    private static func contentLength(_ line: ArraySlice<UInt8>) -> Int? {
        let name = Array("content-length:".utf8)
        guard line.count > name.count else { return nil }
        for (k, c) in zip(line.prefix(name.count), name) where (c >= 0x61 ? k | 0x20 : k) != c { return nil }
        var value = 0
        var seen = false
        for c in line.dropFirst(name.count) {
            if c == UInt8(ascii: " ") { continue }
            guard c >= 0x30, c <= 0x39 else { return nil }
            value = value * 10 + Int(c - 0x30)
            seen = true
        }
        return seen ? value : nil
    }

    /// Reads more bytes into the buffer, waiting at most `timeout`.
    private func fill() throws {
        if start > 0, start == buffer.count || start > 1 << 20 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        var pfd = pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, Int32(timeout * 1000))
        if ready == 0 { throw BenchFailure("\(name): no answer within \(fixed(timeout, 0)) s") }
        if ready < 0 {
            if errno == EINTR { return }
            throw BenchFailure("\(name): poll failed: \(String(cString: strerror(errno)))")
        }
        let n = Glibc.read(readFD, chunk.baseAddress!, chunk.count)
        if n > 0 { buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n])) }
        if n == 0 { throw BenchFailure("\(name): closed its stdout (exited: \(exitDescription()))") }
        if n < 0, errno != EINTR, errno != EAGAIN {
            throw BenchFailure("\(name): reading its stdout failed: \(String(cString: strerror(errno)))")
        }
    }

    // MARK: Lifecycle

    /// `initialize` then `initialized`; returns the initialize result.
    @discardableResult
    func initialize() throws -> JSONValue {
        let result = try request("initialize", Messages.initializeParams())
        try notify("initialized", [:])
        return result
    }

    /// `shutdown`, `exit`, and a wait for the process to end (killed after `timeout`).
    func stop() throws {
        if process.isRunning {
            _ = try request("shutdown", .null)
            try notify("exit", .null)
        }
        closeInput()
        let deadline = nowNS() + UInt64(timeout * 1e9)
        while process.isRunning, nowNS() < deadline { usleep(1000) }
        if process.isRunning {
            Glibc.kill(pid, SIGKILL)
            process.waitUntilExit()
            throw BenchFailure("\(name): did not exit after shutdown and exit; killed")
        }
        if process.terminationStatus != 0 {
            throw BenchFailure("\(name): exited with status \(process.terminationStatus) after shutdown and exit")
        }
    }

    /// Ends the process however it is doing, for clean-up after a failure.
    func kill() {
        if process.isRunning {
            Glibc.kill(pid, SIGKILL)
            process.waitUntilExit()
        }
    }

    private func exitDescription() -> String {
        if process.isRunning {
            usleep(50_000)
            if process.isRunning { return "still running" }
        }
        return "status \(process.terminationStatus)"
    }

    /// The CPU time the process has had so far, all its threads, in nanoseconds (the first
    /// field of each /proc/PID/task/TID/schedstat).
    func cpuNS() throws -> UInt64 {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else {
            throw BenchFailure("\(name): cannot list \(tasks)")
        }
        var total: UInt64 = 0
        for thread in threads {
            // A thread that ended meanwhile has no file any more; its time is lost, not an error.
            guard let stat = try? String(contentsOfFile: "\(tasks)/\(thread)/schedstat", encoding: .utf8),
                let first = stat.split(separator: " ").first, let ns = UInt64(first)
            else { continue }
            total += ns
        }
        return total
    }

    /// The peak resident set size so far (`VmHWM` in /proc/PID/status), in bytes.
    func peakRSS() throws -> Double { try status("VmHWM") }

    /// The resident set size now (`VmRSS`), in bytes.
    func currentRSS() throws -> Double { try status("VmRSS") }

    /// A `kB` figure of /proc/PID/status, in bytes.
    private func status(_ key: String) throws -> Double {
        let path = "/proc/\(pid)/status"
        guard let status = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw BenchFailure("\(name): cannot read \(path)")
        }
        for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
            let number = line.dropFirst(key.count + 1).filter(\.isNumber)
            if let kB = Double(String(number)) { return kB * 1024 }
        }
        throw BenchFailure("\(name): no \(key) in \(path)")
    }
}

/// The outcome of `ServerProcess.writeInBackground`.
final class BackgroundWrite: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var failure: Error?

    /// Waits for the writing to end; rethrows its failure.
    func wait() throws {
        done.wait()
        if let failure { throw failure }
    }
}
