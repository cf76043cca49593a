// maskd: levelled logging to a sink the executable chooses (never stdout).

/// Writes log lines at or above a level to a sink; the daemon's stdout carries only protocol.
public final class Logger {
    public enum Level: Int, Comparable, CaseIterable, Sendable {
        case error, warn, info, debug

        public init?(name: String) {
            switch name {
            case "error": self = .error
            case "warn", "warning": self = .warn
            case "info": self = .info
            case "debug": self = .debug
            default: return nil
            }
        }

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    public let level: Level
    private let sink: (String) -> Void

    /// - Parameter sink: receives each line, without a trailing newline.
    public init(level: Level, sink: @escaping (String) -> Void) {
        self.level = level
        self.sink = sink
    }

    /// A logger that drops everything.
    public static let silent = Logger(level: .error) { _ in }

    public func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level <= self.level else { return }
        sink("[\(level)] \(message())")
    }

    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func warn(_ message: @autoclosure () -> String) { log(.warn, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}
