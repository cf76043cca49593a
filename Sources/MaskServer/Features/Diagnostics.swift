// maskd: the fields' problems as `textDocument/publishDiagnostics`.
import JSON
import MaskEngine

/// What a field's diagnostic says, without its place: a document keeps one per field that has a
/// problem, updated as the field's state changes, so publishing costs the problems, not the fields.
struct FieldProblem: Hashable, Sendable {
    var severity: Diagnostic.Severity
    /// `incomplete` or `invalid`.
    var code: String
    var message: String

    /// An incomplete field is a hint, a complete but invalid one an error; nil for a complete,
    /// valid field.
    init?(_ state: FieldResult) {
        let problems = state.problems.joined(separator: "; ")
        if !state.complete {
            (severity, code, message) = (.hint, "incomplete", problems.isEmpty ? "incomplete" : problems)
        } else if !state.valid {
            (severity, code, message) = (.error, "invalid", problems.isEmpty ? "invalid" : problems)
        } else {
            return nil
        }
    }
}

/// The distinct problems of a document's fields, each kept once and numbered: a field holds its problem's number in
/// its slot of the line tree (`LineTree.setProblem`). Fields mostly share a handful of problems ("incomplete", a
/// check digit), so 100,000 problem fields cost four bytes each, not a copy of the problem's strings or an entry
/// of a dictionary by id each.
struct FieldProblems {
    private var distinct: [FieldProblem] = []
    private var numbers: [FieldProblem: Int32] = [:]
    /// How many distinct problems trigger dropping those no field has any more (twice those kept at the last
    /// drop, so it costs O(problem fields) once for as many new problems, amortised).
    private var compactAt = 64

    /// The number of `problem` (added when new), -1 for none; `lines` holds the fields' numbers, renumbered when
    /// the problems no field has are dropped.
    mutating func number(_ problem: FieldProblem?, in lines: LineTree) -> Int32 {
        guard let problem else { return -1 }
        if let number = numbers[problem] { return number }
        if distinct.count >= compactAt { compact(lines) }
        let number = Int32(distinct.count)
        numbers[problem] = number
        distinct.append(problem)
        return number
    }

    /// The distinct problems, by number, until the next change.
    var table: [FieldProblem] { distinct }

    private mutating func compact(_ lines: LineTree) {
        var renumbered = [Int32](repeating: -1, count: distinct.count)
        var kept: [FieldProblem] = []
        lines.forEachProblem { _, number in
            guard renumbered[Int(number)] < 0 else { return }
            renumbered[Int(number)] = Int32(kept.count)
            kept.append(distinct[Int(number)])
        }
        lines.renumberProblems { renumbered[Int($0)] }
        distinct = kept
        numbers = Dictionary(uniqueKeysWithValues: kept.enumerated().map { ($1, Int32($0)) })
        compactAt = max(64, 2 * kept.count)
    }
}

/// A document's diagnostics in order, kept as places and problem numbers (a few times smaller than as many
/// `Diagnostic`s, and cheaper to sort), each `Diagnostic` made when read: a document may hold 100,000, and the list
/// is held until its publication is written.
struct DiagnosticList: RandomAccessCollection, Equatable {
    /// One diagnostic: its field's line, its range on the line in the client's units, and the number of its
    /// problem. What it is sorted by is not kept, the list being in order but for rare cases.
    struct Item: Equatable {
        var line: Int
        var start: Int
        var end: Int
        var problem: Int32
    }

    /// The items in 8 bytes each, as most are (a line below 2^32, a field within the first 65,535 units of its line,
    /// at most 255 long, one of the first 255 problems); one that does not fit is a marker whose `line` is the
    /// index of its item in `wide`.
    struct Items {
        private struct Packed {
            var line: UInt32
            var start: UInt16
            var length: UInt8
            var problem: UInt8
        }
        private var packed: [Packed] = []
        private var wide: [Item] = []
        /// `start`, `length` and `problem` of a marker.
        private static let marker = (start: UInt16.max, length: UInt8.max, problem: UInt8.max)

        var count: Int { packed.count }

        mutating func reserveCapacity(_ count: Int) { packed.reserveCapacity(count) }

        mutating func append(_ item: Item) {
            let length = item.end - item.start
            if item.line >= 0, item.line < Int(UInt32.max), item.start >= 0, item.start < Int(Items.marker.start),
                length >= 0, length < Int(Items.marker.length), item.problem >= 0,
                item.problem < Int32(Items.marker.problem)
            {
                packed.append(
                    Packed(
                        line: UInt32(item.line), start: UInt16(item.start), length: UInt8(length),
                        problem: UInt8(item.problem)))
            } else {
                packed.append(
                    Packed(
                        line: UInt32(wide.count), start: Items.marker.start, length: Items.marker.length,
                        problem: Items.marker.problem))
                wide.append(item)
            }
        }

        subscript(index: Int) -> Item {
            let p = packed[index]
            if (p.start, p.length, p.problem) == Items.marker { return wide[Int(p.line)] }
            return Item(
                line: Int(p.line), start: Int(p.start), end: Int(p.start) + Int(p.length), problem: Int32(p.problem))
        }

        /// Puts the item at `sources[k]` at `k`, for every k; `sources` is used up.
        mutating func rearrange(takingFrom sources: inout [Int32]) {
            Document.rearrange(&packed, takingFrom: &sources)
        }
    }

    private let items: Items
    private let problems: [FieldProblem]

    init(items: Items, problems: [FieldProblem]) {
        self.items = items
        self.problems = problems
    }

    init() { self.init(items: Items(), problems: []) }

    var startIndex: Int { 0 }
    var endIndex: Int { items.count }

    subscript(index: Int) -> Diagnostic {
        let item = items[index]
        let problem = problems[Int(item.problem)]
        return Diagnostic(
            range: TextRange(
                start: Position(line: item.line, character: item.start),
                end: Position(line: item.line, character: item.end)),
            severity: problem.severity, code: problem.code, message: problem.message)
    }

    static func == (lhs: DiagnosticList, rhs: DiagnosticList) -> Bool { lhs.elementsEqual(rhs) }
}

/// What the daemon knows of one URI's diagnostics.
struct DiagnosticsRecord {
    /// What the diagnostics last pushed, or last reported to a pull, were (none at first): a digest, not the list,
    /// which for 100,000 problem fields would be kept at about 100 bytes each.
    var sent = DiagnosticsDigest([Diagnostic]())
    /// The `resultId` of the last pull report.
    var sentID: String?
    /// Changes whenever the diagnostics may have changed: the `resultId` of the current ones.
    var revision: Int
    /// When they may be pushed (or a pull client told to refresh): the document has been quiet since.
    var due: UInt64?
    /// Changed by the messages being handled: `publishChanges` sets `due` once they are (so the delay runs from
    /// the end of a read, however long its messages took, and never sends them before a request's answer).
    var touched = false
    /// They changed with no change to the text (a field opened, re-masked or closed), after which a pull client
    /// would not ask again by itself.
    var changedWithoutText = false
}

/// A list of diagnostics as far as telling whether the next list is the same: its length and a 128-bit hash of
/// its items in order (two lists that differ hash alike with a chance of about 2^-128).
struct DiagnosticsDigest: Hashable {
    private let count: Int
    private let hashes: (Int, Int)

    init<Diagnostics: Collection>(_ diagnostics: Diagnostics) where Diagnostics.Element == Diagnostic {
        count = diagnostics.count
        var first = Hasher(), second = Hasher()
        second.combine(0x6D61_736B_64)
        for diagnostic in diagnostics {
            first.combine(diagnostic)
            second.combine(diagnostic)
        }
        hashes = (first.finalize(), second.finalize())
    }

    var isEmpty: Bool { count == 0 }

    static func == (lhs: DiagnosticsDigest, rhs: DiagnosticsDigest) -> Bool {
        lhs.count == rhs.count && lhs.hashes == rhs.hashes
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(hashes.0)
    }
}

extension Server {
    /// Notes that the diagnostics of `uri` may have changed: a new revision, due once the document has been quiet
    /// for `diagnosticsDelay` ms after the messages being handled (`publishChanges` then sends them).
    /// - Parameter withoutText: no text change came with it (a pull client is then asked to refresh).
    func diagnosticsMayHaveChanged(_ uri: String, withoutText: Bool = false) {
        let revision = nextDiagnosticsRevision
        nextDiagnosticsRevision += 1
        let touches = client.diagnostics != .off
        // Changed in place: the URI is hashed once.
        modifyDiagnosticsRecord(uri) { record in
            if withoutText { record.changedWithoutText = true }
            record.revision = revision
            if touches { record.touched = true }
        }
    }

    /// Changes the record of `uri` in its place, a new one if it has none.
    private func modifyDiagnosticsRecord(_ uri: String, _ change: (inout DiagnosticsRecord) -> Void) {
        change(&diagnosticsState[uri, default: DiagnosticsRecord(revision: 0)])
    }

    /// Notes a change to `uri`: diagnostics waiting for the document to be quiet wait again.
    func documentChanged(_ uri: String) {
        guard let index = diagnosticsState.index(forKey: uri), diagnosticsState.values[index].due != nil else { return }
        diagnosticsState.values[index].touched = true
    }

    /// Whether the client was last sent some diagnostics for `uri` (they may move with any change).
    func hasDiagnostics(_ uri: String) -> Bool {
        !(diagnosticsState[uri]?.sent.isEmpty ?? true)
    }

    /// Called after a field was opened, re-masked or closed: its diagnostics and inlay hints change
    /// without the text necessarily changing.
    func fieldsChanged(_ uri: String) {
        diagnosticsMayHaveChanged(uri, withoutText: true)
        if client.inlayHintRefresh { inlayHintsTouched = true }
    }

    /// In how many milliseconds `publishChanges` has diagnostics to send; nil when none wait.
    ///
    /// The connection waits for input at most this long (its poll timeout), then calls `publishChanges`: the one
    /// timer of the daemon, with no thread.
    public var millisecondsUntilDue: Int? {
        var soonest = inlayHintRefreshDue
        if let due = heldEditsDue, due < soonest ?? .max { soonest = due }
        for record in diagnosticsState.values {
            if let due = record.due, due < soonest ?? .max { soonest = due }
        }
        guard let due = soonest else { return nil }
        let now = clock()
        let wait = due <= now ? 0 : Int(due - now)
        // Due diagnostics held behind a long list still being written are looked at again shortly, not at once
        // (the poll loop would spin).
        return outbound.isWritingLongList ? max(wait, Server.longListRetryMilliseconds) : wait
    }

    /// How often diagnostics held behind a long list being written are looked at again.
    static let longListRetryMilliseconds = 20

    /// Sends what is due (`diagnosticsDelay` ms after the last change that made it so): one
    /// `workspace/inlayHint/refresh` when fields were opened, re-masked or closed, and the
    /// diagnostics of each document quiet for `diagnosticsDelay` ms since they may have changed: pushed, or for a
    /// pull client that takes it one `workspace/diagnostic/refresh` when some changed with no text change (after
    /// a text change the client pulls by itself).
    ///
    /// The transport calls it once it has handled every message of a read, and when the time
    /// `millisecondsUntilDue` gave has passed with no input. A person's `didChange` and its `didFormat` are handled
    /// within one message, so diagnostics never come between them; a burst (a plugin restoring 100,000 fields,
    /// a person typing) publishes once, after it.
    public func publishChanges() {
        let now = clock()
        sendHeldEdits(now: now)
        let quietAt = now + UInt64(client.diagnosticsDelay)
        if inlayHintsTouched {
            inlayHintsTouched = false
            inlayHintRefreshDue = quietAt
        }
        // Through indices, so the dictionary is changed in place rather than copied for the loop.
        var anyDue = false
        var index = diagnosticsState.startIndex
        while index != diagnosticsState.endIndex {
            if diagnosticsState.values[index].touched {
                diagnosticsState.values[index].touched = false
                diagnosticsState.values[index].due = quietAt
            }
            if let due = diagnosticsState.values[index].due, due <= now { anyDue = true }
            index = diagnosticsState.index(after: index)
        }
        if let due = inlayHintRefreshDue, due <= now {
            inlayHintRefreshDue = nil
            refreshInlayHints()
        }
        guard anyDue else { return }
        var refresh = false
        // While a long list (100,000 diagnostics) is still being written, pushed ones wait and stay due: the client
        // gets the list as it is once that one is read, and two long lists are not held at once.
        let held = client.diagnostics == .push && outbound.isWritingLongList
        for uri in diagnosticsState.keys.sorted() {
            guard !held, let due = diagnosticsState[uri]?.due, due <= now else { continue }
            diagnosticsState[uri]?.due = nil
            switch client.diagnostics {
            case .push: publishDiagnostics(uri)
            case .pull: refresh = refresh || diagnosticsState[uri]?.changedWithoutText == true
            case .off: break
            }
            diagnosticsState[uri]?.changedWithoutText = false
            if documents[uri] == nil, diagnosticsState[uri]?.sent.isEmpty ?? true { diagnosticsState[uri] = nil }
        }
        if refresh && client.diagnosticRefresh { request(DiagnosticRefreshRequest.method, .null) }
    }

    /// Publishes the diagnostics of `uri` when they differ from the last ones published for it.
    ///
    /// They describe the daemon's copy at its version, so while edits the daemon proposed wait for
    /// their echo (the editor's text is then not yet the one they describe) nothing is sent: the
    /// echo publishes them, once quiet. A closed document's list is cleared (published empty).
    ///
    /// - Complexity: O(p log n) for a document with p fields that have a problem and n lines.
    private func publishDiagnostics(_ uri: String) {
        var diagnostics = DiagnosticList()
        var version: Int?
        if let document = documents[uri] {
            guard document.pending.isEmpty else { return }
            diagnostics = document.diagnostics()
            version = document.version
        }
        let digest = DiagnosticsDigest(diagnostics)
        guard digest != diagnosticsState[uri]?.sent ?? DiagnosticsDigest([Diagnostic]()) else { return }
        diagnosticsState[uri]?.sent = digest
        notify(
            PublishDiagnosticsNotification.method,
            PublishDiagnosticsNotification(uri: uri, version: version, diagnostics: diagnostics))
    }

    /// `textDocument/diagnostic`: the full report of `uri`, or `unchanged` when `previousResultId` names the
    /// current one.
    /// - Complexity: O(1) for an unchanged revision, else O(p log n) for p fields with a problem.
    func pullDiagnostics(uri: String, previousResultId: String?) throws -> JSONValue {
        let document = try document(uri)
        var record = diagnosticsState[uri] ?? DiagnosticsRecord(revision: 0)
        if record.revision == 0 {
            record.revision = nextDiagnosticsRevision
            nextDiagnosticsRevision += 1
        }
        let id = String(record.revision)
        if previousResultId == id { return ["kind": "unchanged", "resultId": .string(id)] }
        let items = document.diagnostics()
        let digest = DiagnosticsDigest(items)
        defer {
            record.sent = digest
            record.sentID = id
            diagnosticsState[uri] = record
        }
        if let previousResultId, previousResultId == record.sentID, digest == record.sent {
            return ["kind": "unchanged", "resultId": .string(id)]
        }
        return ["kind": "full", "resultId": .string(id), "items": .array(items.map(\.json))]
    }
}
