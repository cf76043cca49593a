// maskd: the daemon's state: lifecycle, negotiated encoding, open documents.
import JSON
import JSONRPC
import MaskEngine

/// The maskd language server, independent of any transport.
///
/// Feed it every incoming message (`handle(_:)`); it sends its answers, notifications (`maskd/didFormat`,
/// `window/logMessage`) and requests as typed messages through its ``Outbound`` channel. It does no I/O itself. `Dispatcher.swift` routes messages; the features live in `Features/`.
public final class Server {
    public enum Lifecycle: Hashable, Sendable {
        /// Before `initialize`: requests get `-32002`, notifications but `exit` are dropped.
        case uninitialized
        /// Serving.
        case running
        /// After `shutdown`: requests get `-32600`; only `exit` is expected.
        case shutDown
    }

    public internal(set) var lifecycle = Lifecycle.uninitialized
    /// Set by the `exit` notification: 0 after `shutdown`, 1 without.
    public internal(set) var exitCode: Int32?
    /// The encoding positions are counted in, chosen by `initialize`.
    public internal(set) var encoding = PositionEncoding.utf16
    /// The daemon's version, as `serverInfo.version` and `maskd --version` say it.
    public let version: String
    let log: Logger
    /// The one way out: every message the daemon sends.
    let outbound: any Outbound
    var documents: [String: Document] = [:]
    /// What the client said it can do in `initialize`, and how it wants edits delivered.
    var client = ClientOptions()
    /// The requests sent to the client that still wait for their response, by id.
    var awaiting: [RequestID: (Result<JSONValue, ResponseError>) -> Void] = [:]
    /// The ids of `awaiting` in the order they were sent, from `awaitingOrderHead` on (answered ones included until
    /// they reach the head): the oldest is forgotten first.
    var awaitingOrder: [RequestID] = []
    var awaitingOrderHead = 0
    /// The most requests waiting for the client's response: a client that never answers `workspace/applyEdit` must
    /// not grow the daemon with every keystroke. Past it the oldest is forgotten (its late response is ignored).
    static let maxAwaiting = 1024
    /// Per URI: the diagnostics last sent, their revision and when they are due (`Features/Diagnostics.swift`).
    var diagnosticsState: [String: DiagnosticsRecord] = [:]
    /// The next diagnostics revision (a `resultId`), counted across documents so that none is reused.
    var nextDiagnosticsRevision = 1
    /// Fields were opened, re-masked or closed: when `workspace/inlayHint/refresh` is due (quiet since).
    var inlayHintRefreshDue: UInt64?
    /// Fields were opened, re-masked or closed by the messages being handled (`publishChanges` schedules the refresh).
    var inlayHintsTouched = false
    /// Per URI, in the plain-client mode: the formatting of a person's changes not sent yet (`Features/EditDelivery.swift`).
    var heldEdits: [String: HeldEdits] = [:]
    /// Per URI: how many `workspace/applyEdit`s sent for it still wait for their answer.
    var applyEditsAwaiting: [String: Int] = [:]
    /// The `processId` of `initialize`: the editor, whose end the daemon outlives by a second at most (nil: none
    /// given).
    public internal(set) var clientProcessID: Int32?
    /// Monotonic milliseconds: when diagnostics are due is measured with it.
    let clock: () -> UInt64
    /// Reads a file's bytes by path (nil: none, or unreadable): the one way the server sees the file system,
    /// given by the executable, for the workspace folders' `.maskd.json`.
    let readFile: ((String) -> [UInt8]?)?
    /// The workspace folders of `initialize` (`workspaceFolders`, else `rootUri`).
    var workspaceFolders: [WorkspaceFolder] = []
    /// `initializationOptions.rules` (or what `workspace/didChangeConfiguration` replaced them with).
    var clientRules: JSONValue?
    /// The compiled field rules, each folder's file first, then the client's (`Features/RuleLoading.swift`).
    var ruleSources: [RuleSource] = []
    /// Some workspace folder had a `.maskd.json` when the rules were last read.
    var hasRulesFile = false
    /// The client was asked to watch the rules files (once per session).
    var rulesWatcherRequested = false

    /// - Parameters:
    ///   - outbound: takes every message the daemon sends; responses to the daemon's requests must come back
    ///     through `handle(_:)`.
    ///   - clock: monotonic milliseconds (tests pass their own, to run the diagnostics' delay without waiting).
    ///   - readFile: reads a file by path, for the workspace's `.maskd.json` (without it, only the client's rules
    ///     apply).
    public init(
        version: String, log: Logger = .silent, outbound: any Outbound,
        clock: @escaping () -> UInt64 = monotonicMilliseconds,
        readFile: ((String) -> [UInt8]?)? = nil
    ) {
        self.readFile = readFile
        self.version = version
        self.log = log
        self.outbound = outbound
        self.clock = clock
    }

    /// The process exit code when the input ends without an `exit`: 0 after `shutdown`, else 1.
    public var exitCodeAtEndOfInput: Int32 { lifecycle == .shutDown ? 0 : 1 }

    /// Sends a notification to the client.
    func notify(_ method: String, _ params: any OutgoingBody) {
        outbound.send(.notification(method, params))
    }

    /// Logs `message` and tells the client through `window/logMessage`.
    func report(_ level: Logger.Level, _ message: String) {
        log.log(level, message)
        notify(LogMessageNotification.method, LogMessageNotification.params(level, message))
    }

    /// Checks `params.range` of a request that reads a range as it is (not through the document's positions).
    /// - Throws: `-32602` when its end comes before its start.
    static func requireOrdered(_ range: TextRange) throws {
        guard range.start <= range.end else {
            throw MessageError.invalidParams("params.range: the range's end comes before its start")
        }
    }

    /// The open document `uri`. - Throws: `-32602` when it is not open.
    func document(_ uri: String) throws -> Document {
        guard let document = documents[uri] else {
            throw MessageError.invalidParams("params.textDocument.uri: document '\(uri)' is not open")
        }
        return document
    }
}
