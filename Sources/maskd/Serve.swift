// maskd: serving the protocol on stdin/stdout.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import JSONRPC
import MaskServer

func runServe(_ arguments: [String]) throws -> Int32 {
    let parsed = try OptionParser(arguments, valued: ["log-file", "log-level"], flags: ["stdio", "version", "help"])
    if parsed.flags.contains("help") {
        print(usage, terminator: "")
        return 0
    }
    if parsed.flags.contains("version") {
        print("maskd \(maskdVersion)")
        return 0
    }
    guard parsed.positional.isEmpty else {
        throw UsageError(message: "unknown command '\(parsed.positional[0])'")
    }
    #if canImport(Glibc)
        // A big didOpen's copies in mappings of their own, given back when freed: otherwise glibc raises its threshold
        // after the first such free and keeps the next ones on the heap, resident for the daemon's life.
        _ = glibcMallopt(glibcMmapThreshold, 128 << 10)
    #endif
    var level = Logger.Level.warn
    if let name = parsed.options["log-level"] {
        guard let l = Logger.Level(name: name) else {
            throw UsageError(message: "--log-level takes error, warn, info or debug, got '\(name)'")
        }
        level = l
    }
    var sink: Int32 = 2
    if let path = parsed.options["log-file"] {
        guard let fd = openForAppending(path) else {
            throw UsageError(message: "cannot open log file '\(path)'", showUsage: false)
        }
        sink = fd
    }
    // Never a blocking write: a client that does not read the daemon's stderr must not stop it.
    let logSink = LogSink(fd: sink)
    let logger = Logger(level: level) { line in logSink.write(line: line) }
    defer { logSink.flush() }
    let connection = Connection()
    connection.log = { logger.warn($0) }
    let server = Server(
        version: maskdVersion, log: logger, outbound: connection,
        // The workspace's `.maskd.json` is read here, so MaskServer stays without I/O of its own.
        readFile: { path in readRegularFile(path, limit: Server.maxRulesFileBytes) })
    let editor = EditorWatch()
    // Weak: the server holds the connection (its outbound channel); a strong capture would make a cycle.
    connection.afterMessages = { [weak server, weak connection] in
        server?.publishChanges()
        if let server, let connection { editor.check(server, connection, logger) }
    }
    // The poll loop's one timer: diagnostics due after a pause, and the editor's process looked at every second.
    connection.timeout = { [weak server] in
        guard let server else { return nil }
        let watch = server.clientProcessID == nil ? nil : editor.millisecondsUntilCheck()
        switch (server.millisecondsUntilDue, watch) {
        case let (due?, watch?): return min(due, watch)
        case let (due, watch): return due ?? watch
        }
    }
    connection.onTimeout = { [weak server, weak connection] in
        guard let server, let connection else { return }
        server.publishChanges()
        editor.check(server, connection, logger)
    }
    logger.info("maskd \(maskdVersion) serving on stdio")
    // At `debug`, every message's handling is logged with its time; at other levels nothing is timed or built.
    let debugging = level >= .debug
    connection.run { message in
        let started = debugging ? monotonicNanoseconds() : 0
        // Answers go through the connection, the server's outbound channel.
        let error = server.handle(message)
        if debugging { logger.debug(describeHandling(message, error, nanoseconds: monotonicNanoseconds() - started)) }
        // On `exit`, stop reading; `run` still writes every queued frame before it returns.
        if server.exitCode != nil { connection.stop() }
        return nil
    }
    if let code = server.exitCode {
        logger.info("exit \(code)")
        return code
    }
    if editor.gone {
        logger.info("the editor's process \(server.clientProcessID ?? 0) is gone")
        return server.exitCodeAtEndOfInput
    }
    logger.info("input closed")
    return server.exitCodeAtEndOfInput
}

/// One line for the debug log: what was handled, how it ended, and how long it took.
func describeHandling(_ message: Message, _ error: ResponseError?, nanoseconds: UInt64) -> String {
    let what: String
    switch message {
    case let .request(id, method, _): what = "request '\(method)' id \(id)"
    case let .notification(method, _): what = "notification '\(method)'"
    case let .response(id, _): what = "response id \(id)"
    case let .errorResponse(id, error): what = "error response id \(id?.description ?? "null") (\(error.code))"
    }
    var outcome = ""
    if let error { outcome = " -> error \(error.code)" }
    let microseconds = nanoseconds / 1000
    let fraction = String(microseconds % 1000)
    let padding = String(repeating: "0", count: 3 - fraction.count)
    return "handled \(what)\(outcome) in \(microseconds / 1000).\(padding)\(fraction) ms"
}

/// A monotonic clock reading, in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Watches the editor's process (`initialize`'s `processId`): when it is gone the daemon stops, as LSP asks, even if
/// something else still holds its input open. Looked at from the poll loop at most once a second, with `kill(pid, 0)`.
final class EditorWatch {
    static let interval: UInt64 = 1000
    private var nextCheck = monotonicMilliseconds() + EditorWatch.interval
    /// Set once the process was found gone.
    private(set) var gone = false

    func millisecondsUntilCheck() -> Int {
        let now = monotonicMilliseconds()
        return nextCheck <= now ? 0 : Int(nextCheck - now)
    }

    /// Looks at the editor's process when a second has passed since the last look; stops `connection` when it is
    /// gone (`ESRCH`; `EPERM` means it exists under another user).
    func check(_ server: Server, _ connection: Connection, _ logger: Logger) {
        guard let pid = server.clientProcessID, !gone else { return }
        let now = monotonicMilliseconds()
        guard now >= nextCheck else { return }
        nextCheck = now + EditorWatch.interval
        if kill(pid, 0) != 0 && errno == ESRCH {
            gone = true
            logger.warn("the editor (process \(pid), initialize's processId) is gone: exiting")
            connection.stop()
        }
    }
}

#if canImport(Glibc)
    /// glibc's `mallopt` and its `M_MMAP_THRESHOLD` (`<malloc.h>`, which the Glibc module does not bring in).
    @_silgen_name("mallopt")
    private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
    private let glibcMmapThreshold: Int32 = -3
#endif
