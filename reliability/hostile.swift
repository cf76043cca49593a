// The hostile-input suite: the real maskd binary, over pipes, against what a broken or malicious client sends.
//
// Built and run by `reliability/hostile [-k SUBSTRING] [-v]` (see there). Every test starts its own daemon through
// the shared client of `Tests/MaskdClient`, every wait and every write is bounded, and every daemon is killed when
// its test ends, however it ends. Where it applies, a test ends by checking that the daemon still serves (a
// follow-up request answered correctly). The last line is `N passed, N failed`; the exit status is 1 when any test
// failed. The tests are in `hostile-frames.swift`, `hostile-sizes.swift` and `hostile-clients.swift`.

import Glibc
import JSON

// MARK: - Tests and their outcome

/// One test: its name (what `-k` matches), the first line of what it checks (`-v`), and its body.
struct HostileTest {
    let name: String
    let summary: String
    let run: () throws -> Void
}

/// A check that did not hold, in words.
struct Failure: Error, CustomStringConvertible {
    let description: String
}

/// A bounded wait for the daemon that ran out, or ended because the daemon closed its output.
struct Timeout: Error, CustomStringConvertible {
    let description: String
}

/// Fails the test with `message` unless `condition` holds.
func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw Failure(description: message()) }
}

/// `value`, or the test's failure with `message` when it is missing.
func need<T>(_ value: T?, _ message: @autoclosure () -> String) throws -> T {
    guard let value else { throw Failure(description: message()) }
    return value
}

/// The binary under test, set from `--binary` before any test runs.
nonisolated(unsafe) var binary = ""

/// How long any one write to a daemon may wait for its input to take the bytes, in seconds.
let writeLimit = 60.0

// MARK: - The daemon on pipes

/// One maskd process, read the suite's way: messages one at a time (a batch's answers split), each wait bounded and
/// throwing ``Timeout``, the messages passed over on the way kept when the caller asks.
final class Daemon {
    let process: DaemonProcess
    /// Messages read and not yet handed out: the rest of a batch's answers.
    private var pending: [JSONValue] = []
    private var pendingStart = 0

    /// Starts `maskd --stdio`; its standard error is discarded unless the test asks for it.
    init(errorOutput: DaemonProcess.ErrorOutput = .discard) throws {
        process = try DaemonProcess(
            name: "maskd", executable: binary, arguments: ["--stdio"], timeout: 10, errorOutput: errorOutput)
    }

    deinit { process.kill() }

    /// Ends the process (`SIGKILL`) and reaps it; nothing when it has already ended.
    func kill() { process.kill() }

    // Writing: a daemon that stops reading fails the test after `writeLimit` seconds.

    func write(_ bytes: [UInt8]) throws { try process.write(bytes, within: writeLimit) }

    func write(_ text: String) throws { try write(Array(text.utf8)) }

    func send(_ message: JSONValue) throws { try write(DaemonProcess.frame(message)) }

    /// A notification; without params when `params` is nil.
    func notify(_ method: String, _ params: JSONValue? = nil) throws {
        try send(envelope(id: nil, method, params))
    }

    /// Sends a request. - Returns: its id.
    func request(_ method: String, _ params: JSONValue? = nil) throws -> Int {
        let id = process.newID()
        try send(envelope(id: id, method, params))
        return id
    }

    /// Sends a request and waits for its response, the whole envelope (`result` or `error`).
    func call(_ method: String, _ params: JSONValue? = nil, timeout: Double = 10, keep: Seen? = nil) throws
        -> JSONValue
    {
        let id = try request(method, params)
        do {
            return try response(id, timeout: timeout, keep: keep)
        } catch let error as Timeout {
            throw Timeout(description: "no answer to \(method) (id \(id)): \(error)")
        }
    }

    /// `initialize` (UTF-16 positions) and `initialized`. - Returns: the response to `initialize`.
    func initialize() throws -> JSONValue {
        let reply = try call(
            "initialize", ["processId": nil, "capabilities": ["general": ["positionEncodings": ["utf-16"]]]])
        try notify("initialized", [:])
        return reply
    }

    private func envelope(id: Int?, _ method: String, _ params: JSONValue?) -> JSONValue {
        var message: JSONObject = ["jsonrpc": "2.0"]
        if let id { message["id"] = .int(Int64(id)) }
        message["method"] = .string(method)
        if let params { message["params"] = params }
        return .object(message)
    }

    // Reading.

    /// The next message, waiting at most `seconds`; output that is not a frame of JSON is a message
    /// `{"__malformed__": what}`, which no test expects.
    func next(within seconds: Double) throws -> JSONValue {
        if pendingStart < pending.count {
            defer { pendingStart += 1 }
            return pending[pendingStart]
        }
        let message: JSONValue
        do {
            message = try process.read(waitingAtMost: seconds)
        } catch let error as DaemonError where error.kind == .framing || error.kind == .notJSON {
            return ["__malformed__": .string(error.description)]
        } catch let error as DaemonError where error.kind == .timedOut {
            throw Timeout(description: "no message within \(fixed(seconds, 1)) s")
        } catch let error as DaemonError where error.kind == .closed {
            throw Timeout(description: "no message: \(error)")
        }
        guard case .array(let batch) = message else { return message }
        // A batch's answers come as one array; they are handed out one by one.
        pending = batch.map { $0.objectValue != nil ? $0 : ["__malformed__": .string($0.serializedString())] }
        pendingStart = 0
        return try next(within: seconds)
    }

    /// The first message that `matches` within `timeout` seconds; the others go to `keep`, or are dropped.
    func wait(
        for matches: (JSONValue) -> Bool, timeout: Double, keep: Seen? = nil
    ) throws -> JSONValue {
        let deadline = nowNS() + UInt64(timeout * 1e9)
        while true {
            let now = nowNS()
            guard now < deadline else {
                throw Timeout(description: "no matching message within \(fixed(timeout, 1)) s")
            }
            let message = try next(within: Double(deadline - now) / 1e9)
            if matches(message) { return message }
            keep?.messages.append(message)
        }
    }

    /// The response to request `id`.
    func response(_ id: Int, timeout: Double = 10, keep: Seen? = nil) throws -> JSONValue {
        try wait(for: { $0["method"] == nil && $0["id"] == .int(Int64(id)) }, timeout: timeout, keep: keep)
    }

    /// Every message that arrives until none has come for `quiet` seconds (or the output ends).
    func drain(quiet: Double = 0.2) -> [JSONValue] {
        var got: [JSONValue] = []
        while let message = try? next(within: quiet) { got.append(message) }
        return got
    }

    /// Whether a small `maskd/apply` is answered correctly; the messages before its answer go to `keep`.
    func isServing(timeout: Double = 10, keep: Seen? = nil) -> Bool {
        let reply = try? call("maskd/apply", ["mask": "[00]{.}[00]", "text": "1234"], timeout: timeout, keep: keep)
        return reply?["result"]?["text"] == "12.34"
    }

    // The process.

    /// The daemon's resident set (`VmRSS`) or peak (`VmHWM`) in KiB, or nil once it has exited.
    func rssKiB(_ field: String = "VmRSS") -> Int? { try? process.statusKiB(field) }

    /// Waits at most `seconds` for the process to end. - Returns: its exit code (minus a signal that ended it).
    func waitExit(_ seconds: Double) throws -> Int32 {
        guard let code = process.waitForExit(within: seconds) else {
            throw Timeout(description: "the daemon did not exit within \(fixed(seconds, 1)) s")
        }
        return code
    }
}

/// The messages a wait passed over, for the test to look through.
final class Seen {
    var messages: [JSONValue] = []
}

/// Checks that a follow-up request is answered; the messages before its answer go to `seen`.
func stillServing(_ d: Daemon, timeout: Double = 10, seen: Seen? = nil) throws {
    try check(
        d.isServing(timeout: timeout, keep: seen),
        "the daemon stopped serving: a follow-up maskd/apply was not answered")
}

/// A daemon that has been initialized.
func started(errorOutput: DaemonProcess.ErrorOutput = .discard) throws -> Daemon {
    let d = try Daemon(errorOutput: errorOutput)
    let reply = try d.initialize()
    try check(reply["result"] != nil, "initialize failed: \(short(reply))")
    return d
}

/// The `window/logMessage` notifications among `messages`.
func logMessages(_ messages: [JSONValue]) -> [JSONValue] {
    messages.filter { $0["method"] == "window/logMessage" }
}

/// The params of `maskd/apply`.
func applyParams(_ mask: JSONValue, _ text: String, edit: JSONValue? = nil) -> JSONValue {
    var params: JSONObject = ["mask": mask, "text": .string(text)]
    if let edit { params["edit"] = edit }
    return .object(params)
}

/// An integer as JSON.
func int(_ value: Int) -> JSONValue { .int(Int64(value)) }

/// `text` repeated `count` times.
func times(_ text: String, _ count: Int) -> String { String(repeating: text, count: count) }

/// The UTF-8 of `text` repeated `count` times.
func repeatedBytes(_ text: String, _ count: Int) -> [UInt8] { Array(times(text, count).utf8) }

/// A message, or nothing, for a failure's words: at most `limit` characters of its JSON.
func short(_ value: JSONValue?, _ limit: Int = 300) -> String {
    guard let value else { return "nothing" }
    let text = value.serializedString()
    return text.count > limit ? String(text.prefix(limit)) + "..." : text
}

/// Seconds on the monotonic clock since `start` (a ``nowNS()`` reading).
func seconds(since start: UInt64) -> Double { Double(nowNS() - start) / 1e9 }

// MARK: - The run

/// Every test, in the order they run.
let tests: [HostileTest] = framingTests + sizeTests + protocolTests + processTests + clientTests

func usage(_ problem: String) -> Never {
    fputs("hostile: \(problem)\nusage: hostile --binary PATH [-k SUBSTRING] [-v]\n", stderr)
    exit(2)
}

@main
struct HostileMain {
    static func main() {
        setvbuf(stdout, nil, _IOLBF, 0)
        var only = ""
        var verbose = false
        var arguments = CommandLine.arguments.dropFirst()
        func value(of option: String) -> String {
            guard let value = arguments.popFirst() else { usage("\(option) needs a value") }
            return value
        }
        while let argument = arguments.popFirst() {
            switch argument {
            case "-k": only = value(of: "-k")
            case "-v": verbose = true
            case "--binary": binary = value(of: "--binary")
            default: usage("unknown option \(argument)")
            }
        }
        guard !binary.isEmpty, access(binary, X_OK) == 0 else {
            print("hostile: no daemon at \(binary) (build it, or set MASKD)")
            print("0 passed, 1 failed")
            exit(1)
        }
        var passed = 0
        var failed = 0
        for test in tests where only.isEmpty || test.name.contains(only) {
            let start = nowNS()
            let outcome: String
            do {
                try test.run()
                passed += 1
                outcome = "ok"
            } catch {
                // Any error in a test is that test's failure.
                failed += 1
                outcome = "FAIL: \(type(of: error)): \(error)"
            }
            let took = fixed(seconds(since: start), 2)
            let name = test.name + String(repeating: " ", count: max(0, 40 - test.name.count))
            print("\(name) \(String(repeating: " ", count: max(0, 6 - took.count)))\(took) s  \(outcome)")
            if verbose { print("    " + test.summary) }
        }
        print("\(passed) passed, \(failed) failed")
        exit(failed > 0 ? 1 : 0)
    }
}
