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
    let logger = Logger(level: level) { [sink] line in writeAll(sink, line + "\n") }
    let connection = Connection()
    connection.log = { logger.warn($0) }
    let server = Server(version: maskdVersion, log: logger,
                        notify: { method, params in connection.sendNotification(method, params) },
                        request: { method, params in connection.sendRequest(method, params) })
    connection.afterMessages = { server.publishChanges() }
    logger.info("maskd \(maskdVersion) serving on stdio")
    connection.run { message in
        let reply = server.handle(message)
        // On `exit`, stop reading; `run` still writes every queued frame before it returns.
        if server.exitCode != nil { connection.stop() }
        return reply
    }
    if let code = server.exitCode {
        logger.info("exit \(code)")
        return code
    }
    logger.info("input closed")
    return server.exitCodeAtEndOfInput
}
