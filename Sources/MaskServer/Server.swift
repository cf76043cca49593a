// maskd: the daemon's state: lifecycle, negotiated encoding, open documents.
import JSON
import JSONRPC
import MaskEngine

/// The maskd language server, independent of any transport.
///
/// Feed it every incoming message (`handleRequest`, `handleNotification`); it answers requests
/// and sends notifications (`maskd/didFormat`, `window/logMessage`) through `notify`. It does no
/// I/O itself. `Dispatcher.swift` routes messages; the features live in `Features/`.
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
    let notify: (String, JSONValue) -> Void
    /// Sends a notification whose `params` member (the name given) is a long array made element by element; nil:
    /// through `notify`, the array made whole.
    let notifyElements: ((String, JSONValue, String, JSONElements) -> Void)?
    /// Sends a notification whose params object the given function writes straight from typed values (the
    /// `maskd/didFormat` of each keystroke); nil: through `notify`, the params made as a value.
    let notifyWriting: ((String, (JSONObjectWriter) -> Void) -> Void)?
    /// Answers the request being handled with a result object the given function writes straight from typed
    /// values (`maskd/apply`'s); nil: the result is returned as a value.
    let respondWriting: ((RequestID, @escaping (JSONObjectWriter) -> Void) -> Void)?
    /// Whether the transport is still writing a long list made as it is written (a publication of 100,000
    /// diagnostics): pushed diagnostics then wait for it, so two such lists are not held at once.
    public var writingLongList: () -> Bool = { false }
    /// Sends a request to the client and returns its id; nil when the transport has no way back.
    let sendRequest: ((String, JSONValue) -> RequestID)?
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
    ///   - notify: sends a notification (method, params) to the client.
    ///   - notifyElements: sends a notification whose params member is a long array made as it is written (the
    ///     100,000 diagnostics of a document); without it, `notify` gets the array made whole.
    ///   - notifyWriting: sends a notification whose params a function writes (``JSONObjectWriter``), with the
    ///     bytes `notify` would send for the same params; without it, `notify` gets them as a value.
    ///   - respondWriting: answers the request being handled (its id) with a result object a function writes, with
    ///     the bytes of the same result returned as a value; `handle(_:)` then returns nil for it.
    ///   - request: sends a request (method, params) to the client and returns its id; its response must
    ///     come back through `handle(_:)`. Without it, the daemon cannot send `workspace/applyEdit`.
    ///   - clock: monotonic milliseconds (tests pass their own, to run the diagnostics' delay without waiting).
    ///   - readFile: reads a file by path, for the workspace's `.maskd.json` (without it, only the client's rules
    ///     apply).
    public init(version: String, log: Logger = .silent, notify: @escaping (String, JSONValue) -> Void,
                notifyElements: ((String, JSONValue, String, JSONElements) -> Void)? = nil,
                notifyWriting: ((String, (JSONObjectWriter) -> Void) -> Void)? = nil,
                respondWriting: ((RequestID, @escaping (JSONObjectWriter) -> Void) -> Void)? = nil,
                request: ((String, JSONValue) -> RequestID)? = nil,
                clock: @escaping () -> UInt64 = monotonicMilliseconds,
                readFile: ((String) -> [UInt8]?)? = nil) {
        self.readFile = readFile
        self.version = version
        self.log = log
        self.notify = notify
        self.notifyElements = notifyElements
        self.notifyWriting = notifyWriting
        self.respondWriting = respondWriting
        self.sendRequest = request
        self.clock = clock
    }

    /// The process exit code when the input ends without an `exit`: 0 after `shutdown`, else 1.
    public var exitCodeAtEndOfInput: Int32 { lifecycle == .shutDown ? 0 : 1 }

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
