// maskd's client: a daemon spawned on pipes and spoken to in LSP framing; the tests, the bench and the soak share it.
import Glibc
import JSON
import Synchronization

/// A daemon (`maskd --stdio`, or a baseline speaking the same framing) running as a child process on pipes.
///
/// It uses Glibc and no Foundation, so the soak compiles it into itself, and the bench's timed round trips pay for
/// nothing but `write(2)`, `poll(2)`, `read(2)` and the parse:
/// - `DaemonProcess.swift` (this file): spawning, writing, the process's end, and its CPU time and memory.
/// - `DaemonProcess-reading.swift`: frames read and split in a buffer of its own, each body a slice of it.
/// - `DaemonProcess-messages.swift`: JSON-RPC envelopes, requests and their responses.
/// - `Messages.swift`: the params of the messages a client sends.
///
/// One thread may read while another writes (the tests read on a thread of their own); neither side is for two.
/// Either may ask how the process is doing.
public final class DaemonProcess {
    /// What becomes of the daemon's standard error.
    public enum ErrorOutput {
        /// Shared with this process.
        case inherit
        /// Sent to `/dev/null`.
        case discard
        /// A pipe whose read end is ``errorOutput``; the caller must read it, or a daemon that logs a lot blocks.
        case pipe
    }

    /// A short name for messages: `maskd`, `floor`.
    public let name: String
    public let pid: pid_t
    /// When the process was spawned, on the ``nowNS()`` clock.
    public let spawnedAt: UInt64
    /// How long any single wait for the daemon's output may last, in seconds (`.infinity`: for ever).
    public var timeout: Double
    /// The read end of the daemon's standard error, with ``ErrorOutput/pipe``; nil otherwise.
    public let errorOutput: Int32?
    /// The write end of the daemon's standard input; -1 once closed.
    private var input: Int32
    /// The read end of its standard output; -1 once closed.
    var output: Int32
    /// The exit code once the process has been reaped: the code it exited with, or minus the signal that ended it.
    /// Locked, as the reading thread asks when the output ends while the other waits for the exit.
    private let status = Mutex<Int32?>(nil)
    private var nextID = 1

    // Reading state (`DaemonProcess-reading.swift`): the bytes read and not yet consumed, from `start`.
    var buffer: [UInt8] = []
    var start = 0
    /// Where `read(2)` puts bytes before they join `buffer`.
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)

    /// Spawns `executable` with `arguments`, its standard input and output on pipes.
    ///
    /// - Parameters:
    ///   - name: how messages name it.
    ///   - timeout: how long any single wait for its output may last, in seconds (`.infinity`: for ever).
    ///   - errorOutput: what becomes of its standard error.
    /// - Throws: a ``DaemonError`` when there is no executable there or it cannot be started.
    public init(
        name: String, executable: String, arguments: [String], timeout: Double, errorOutput: ErrorOutput = .inherit
    ) throws {
        guard access(executable, X_OK) == 0 else {
            throw DaemonError(.spawn, "\(name): no executable at \(executable)")
        }
        _ = ignoringBrokenPipes
        self.name = name
        self.timeout = timeout
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard closingOnExec(pipe(&toChild), toChild), closingOnExec(pipe(&fromChild), fromChild),
            errorOutput != .pipe || closingOnExec(pipe(&errors), errors)
        else {
            let reason = String(cString: strerror(errno))
            for fd in toChild + fromChild + errors where fd >= 0 { close(fd) }
            throw DaemonError(.spawn, "\(name): pipe failed: \(reason)")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        switch errorOutput {
        case .inherit: break
        case .discard: posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        case .pipe: posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        // The child starts with SIGPIPE's default action, as from a shell or an editor, not ignored as here (an
        // ignored signal stays ignored across exec): a daemon must ignore it itself, and the tests can see it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        spawnedAt = nowNS()
        let spawned = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        close(toChild[0])
        close(fromChild[1])
        if errors[1] >= 0 { close(errors[1]) }
        guard spawned == 0 else {
            for fd in [toChild[1], fromChild[0], errors[0]] where fd >= 0 { close(fd) }
            throw DaemonError(.spawn, "\(name): cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        pid = child
        input = toChild[1]
        output = fromChild[0]
        self.errorOutput = errorOutput == .pipe ? errors[0] : nil
        buffer.reserveCapacity(1 << 16)
    }

    deinit {
        kill()
        if input >= 0 { close(input) }
        if output >= 0 { close(output) }
        if let errorOutput { close(errorOutput) }
        chunk.deallocate()
    }

    /// A fresh request id: 1, 2, 3, ...
    public func newID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    // MARK: Writing

    /// Writes all of `bytes` to the daemon's standard input, blocking while the pipe is full.
    /// - Throws: a ``DaemonError`` when writing fails (the daemon has ended, or its input was closed).
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(input, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw DaemonError(
                        .write, "\(name): writing to its stdin failed: \(String(cString: strerror(errno)))")
                }
                offset += n
            }
        }
    }

    /// Writes all of `bytes` to the daemon's standard input, as ``write(_:)`` does, but waits at most `seconds` in
    /// all for the pipe to take them: a daemon that stops reading its input is a failure, not a client stuck for ever.
    /// - Throws: a ``DaemonError``: `.timedOut` when the bytes were not all taken in time (some may have been), or
    ///   `.write` when writing fails.
    public func write(_ bytes: [UInt8], within seconds: Double) throws {
        let deadline = nowNS() + UInt64(max(0, seconds) * 1e9)
        let flags = fcntl(input, F_GETFL)
        // Non-blocking for this call only, so that a full pipe is a wait that `poll` bounds.
        guard flags >= 0, fcntl(input, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw DaemonError(.write, "\(name): its stdin: \(String(cString: strerror(errno)))")
        }
        defer { _ = fcntl(input, F_SETFL, flags) }
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(input, raw.baseAddress! + offset, raw.count - offset)
                if n > 0 {
                    offset += n
                    continue
                }
                guard n < 0, errno == EAGAIN || errno == EINTR else {
                    throw DaemonError(
                        .write, "\(name): writing to its stdin failed: \(String(cString: strerror(errno)))")
                }
                let now = nowNS()
                guard now < deadline else {
                    throw DaemonError(
                        .timedOut,
                        "\(name): its stdin took \(offset) of \(raw.count) bytes in \(seconds) s: it stopped reading")
                }
                var pfd = pollfd(fd: input, events: Int16(POLLOUT), revents: 0)
                _ = poll(&pfd, 1, Int32(clamping: (deadline - now + 999_999) / 1_000_000))
            }
        }
    }

    /// Closes the daemon's standard input: the end of its input.
    public func closeInput() {
        guard input >= 0 else { return }
        close(input)
        input = -1
    }

    /// Closes the read end of the daemon's standard output, so that its writes fail (`EPIPE`, or `SIGPIPE`);
    /// reading then throws `.closed`.
    public func closeOutput() {
        guard output >= 0 else { return }
        close(output)
        output = -1
    }

    /// What the daemon has written to its standard error (with ``ErrorOutput/pipe``) until it closes it, waiting at
    /// most `seconds` in all: once the daemon has ended, all it wrote that the pipe held.
    /// - Returns: the bytes read; empty without a pipe.
    public func readErrorOutput(within seconds: Double) -> [UInt8] {
        guard let errorOutput else { return [] }
        return readUntilEnd(errorOutput, within: seconds)
    }

    // MARK: The process's end

    /// Whether the process is still running.
    public var isRunning: Bool { reap() == nil }

    /// The exit code once the process has ended: the code it exited with, or minus the signal that ended it.
    /// - Returns: nil while it runs.
    public var exitCode: Int32? { reap() }

    /// Waits at most `seconds` for the process to end. - Returns: its ``exitCode``, or nil when it still runs.
    public func waitForExit(within seconds: Double) -> Int32? {
        let deadline = nowNS() + UInt64(max(0, seconds) * 1e9)
        while true {
            if let code = reap() { return code }
            if nowNS() >= deadline { return nil }
            usleep(1000)
        }
    }

    /// Ends the process however it is doing (`SIGKILL`), and reaps it.
    public func kill() {
        let pid = pid
        status.withLock { status in
            guard status == nil else { return }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) != pid {
                Glibc.kill(pid, SIGKILL)
                while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
            }
            status = Self.exitCode(raw)
        }
    }

    /// Reaps the process if it has ended. - Returns: its exit code, or nil while it runs.
    private func reap() -> Int32? {
        let pid = pid
        return status.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
            status = Self.exitCode(raw)
            return status
        }
    }

    /// The exit code in a `waitpid` status, or minus the signal that ended the process.
    private static func exitCode(_ raw: Int32) -> Int32 {
        raw & 0x7F == 0 ? (raw >> 8) & 0xFF : -(raw & 0x7F)
    }

    /// How the process is doing, for a message: `still running`, `status 0`.
    func exitDescription() -> String {
        if isRunning {
            usleep(50_000)
            if isRunning { return "still running" }
        }
        return "status \(exitCode ?? 0)"
    }

    // MARK: CPU time and memory

    /// The CPU time the process has had so far, all its threads, in nanoseconds (the first field of each
    /// /proc/PID/task/TID/schedstat).
    /// - Throws: a ``DaemonError`` when the process has no /proc entry.
    public func cpuNS() throws -> UInt64 {
        let tasks = "/proc/\(pid)/task"
        guard let directory = opendir(tasks) else { throw DaemonError(.proc, "\(name): cannot list \(tasks)") }
        defer { closedir(directory) }
        var total: UInt64 = 0
        while let entry = readdir(directory) {
            let thread = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            // A thread that ended meanwhile has no file any more; its time is lost, not an error.
            guard thread.first?.isNumber == true, let stat = readSmallFile("\(tasks)/\(thread)/schedstat"),
                let first = stat.split(separator: " ").first, let ns = UInt64(first)
            else { continue }
            total += ns
        }
        return total
    }

    /// A figure of /proc/PID/status in kB (`VmHWM`, the peak resident set; `VmRSS`, the resident set now).
    /// - Throws: a ``DaemonError`` when the file or the figure is missing.
    public func statusKiB(_ key: String) throws -> Int {
        let path = "/proc/\(pid)/status"
        guard let status = readSmallFile(path) else { throw DaemonError(.proc, "\(name): cannot read \(path)") }
        for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
            if let kB = Int(String(line.dropFirst(key.count + 1).filter(\.isNumber))) { return kB }
        }
        throw DaemonError(.proc, "\(name): no \(key) in \(path)")
    }
}

/// Something that went wrong with a daemon, worded for a person, starting with the daemon's name.
public struct DaemonError: Error, CustomStringConvertible {
    /// The kinds of failure.
    public enum Kind {
        /// It could not be started.
        case spawn
        /// Writing to its standard input failed.
        case write
        /// Its output did not come in time.
        case timedOut
        /// It closed its standard output.
        case closed
        /// Reading its standard output failed.
        case read
        /// Bytes on its standard output that are not a well-formed frame; they were skipped.
        case framing
        /// A frame whose body is not JSON; it was skipped.
        case notJSON
        /// A response carrying an error.
        case failed
        /// It did not exit after `shutdown` and `exit`.
        case exit
        /// Its /proc entry could not be read.
        case proc
    }

    /// What kind of failure this is.
    public var kind: Kind
    /// The failure in words.
    public var description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

/// Nanoseconds on the monotonic clock (a vDSO call: about 20 ns, small beside what it times).
@inlinable @inline(__always)
public func nowNS() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// A daemon that ended is a failed `write`, not a `SIGPIPE` that kills the client with no message.
private let ignoringBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

/// Whether `pipe` succeeded (`result` 0) and both its descriptors are now close-on-exec, so no other child (the
/// tests and the bench run several) holds a daemon's pipes open; the child's own are `dup2`ed, which clears it.
private func closingOnExec(_ result: Int32, _ pipe: [Int32]) -> Bool {
    result == 0 && pipe.allSatisfy { fcntl($0, F_SETFD, FD_CLOEXEC) == 0 }
}

/// What `fd` gives until its end, waiting at most `seconds` in all.
func readUntilEnd(_ fd: Int32, within seconds: Double) -> [UInt8] {
    let deadline = nowNS() + UInt64(max(0, seconds) * 1e9)
    var bytes: [UInt8] = []
    var block = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let now = nowNS()
        guard now < deadline else { return bytes }
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, Int32(clamping: (deadline - now + 999_999) / 1_000_000))
        if ready < 0, errno == EINTR { continue }
        guard ready > 0 else { return bytes }
        let n = block.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n < 0, errno == EINTR || errno == EAGAIN { continue }
        guard n > 0 else { return bytes }
        bytes += block[..<n]
    }
}

/// The whole of a small file (under /proc), or nil when it cannot be read.
private func readSmallFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var block = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = block.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { return n == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
        bytes += block[..<n]
    }
}
