// maskd: what the client can do, as `initialize` says, and how it wants the daemon's edits.
import JSON

/// The client capabilities the standard features depend on, and the initialization options (`edits`,
/// `diagnostics`, `diagnosticsDelay`, `applyEditDelay`).
struct ClientOptions: Hashable, Sendable {
    /// How the daemon delivers the edits that keep fields in form after a person's change.
    enum Delivery: String, Hashable, Sendable {
        /// `maskd/didFormat` notifications, applied by a maskd plugin (the default).
        case didFormat
        /// `workspace/applyEdit` requests, applied by any LSP client (plain-client mode).
        case applyEdit
    }

    /// How the fields' problems reach the client.
    enum DiagnosticsMode: String, Hashable, Sendable {
        /// `textDocument/publishDiagnostics`, once the document has been quiet for `diagnosticsDelay` ms.
        case push
        /// `textDocument/diagnostic` requests (`diagnosticProvider`); nothing is pushed.
        case pull
        /// None at all (a plugin that draws the fields' state itself).
        case off
    }

    /// The delivery asked for with `initializationOptions.edits`.
    var delivery = Delivery.didFormat
    /// `initializationOptions.diagnostics`; by default `pull` for a client with the `textDocument.diagnostic`
    /// capability that also takes `workspace/diagnostic/refresh`, else `push`: a client that pulls only after its
    /// own changes would not see the problem of a field just opened until the next edit.
    var diagnostics = DiagnosticsMode.push
    /// `initializationOptions.diagnosticsDelay`: how long a document must be quiet before its diagnostics are
    /// pushed, in milliseconds.
    var diagnosticsDelay = 250
    /// `initializationOptions.applyEditDelay`: in the plain-client mode, how long a document must be quiet before
    /// the formatting of a person's changes is sent, in milliseconds (protocol.md 8.7).
    var applyEditDelay = 250
    /// `workspace.diagnostics.refreshSupport`: `workspace/diagnostic/refresh` is understood.
    var diagnosticRefresh = false
    /// `workspace.applyEdit`: the client carries out `workspace/applyEdit`.
    var applyEdit = false
    /// `workspace.workspaceEdit.documentChanges`: versioned `TextDocumentEdit`s are understood.
    var documentChanges = false
    /// `workspace.inlayHint.refreshSupport`: `workspace/inlayHint/refresh` is understood.
    var inlayHintRefresh = false
    /// `textDocument.codeAction.codeActionLiteralSupport`: `CodeAction` objects, not only `Command`s.
    var codeActionLiterals = false
    /// `workspace.didChangeWatchedFiles.dynamicRegistration`: the daemon may ask it to watch `.maskd.json`.
    var watchedFilesRegistration = false
    /// The client lists every file of the project to set up any watcher: eglot (`clientInfo.name` "Eglot"), and a
    /// client that does not say what it is (eglot 1.9 and older send no `clientInfo`). Such a client is asked to
    /// watch `.maskd.json` only when a workspace folder has one.
    var scansToWatch = true
    /// The region a text that is a postal code of many regions is offered as (ISO 3166-1 alpha-2, upper case):
    /// `initializationOptions.region`, else the region of the client's `locale` (`en-GB`); nil when neither names one.
    var region: String? = nil

    /// The region subtag of a locale (`en-GB`, `de_DE.UTF-8`, `zh-Hant-TW`), upper case; nil without one.
    static func region(ofLocale locale: String) -> String? {
        let tags = locale.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == "." || $0 == "@" })
        guard tags.count > 1 else { return nil }
        for tag in tags.dropFirst() where tag.count == 2 && tag.allSatisfy({ $0.isASCII && $0.isLetter }) {
            return tag.uppercased()
        }
        return nil
    }

    /// Reads the options from `initialize` params.
    ///
    /// Capabilities are read leniently (anything but `true` or an object counts as absent), since
    /// a client's odd capability should not stop it from starting; a wrong `edits` option is the
    /// person's configuration mistake and is refused.
    /// - Throws: `-32602` when `initializationOptions.edits` is not `"didFormat"` or `"applyEdit"`,
    ///   `diagnostics` not `"push"`, `"pull"` or `"off"`, or `diagnosticsDelay` or `applyEditDelay` not an integer
    ///   of milliseconds.
    init(_ p: Params) throws {
        let capabilities = p.value("capabilities")
        let workspace = capabilities?["workspace"]
        applyEdit = workspace?["applyEdit"]?.boolValue == true
        documentChanges = workspace?["workspaceEdit"]?["documentChanges"]?.boolValue == true
        inlayHintRefresh = workspace?["inlayHint"]?["refreshSupport"]?.boolValue == true
        codeActionLiterals =
            capabilities?["textDocument"]?["codeAction"]?["codeActionLiteralSupport"]?.objectValue != nil
        diagnosticRefresh = workspace?["diagnostics"]?["refreshSupport"]?.boolValue == true
        watchedFilesRegistration = workspace?["didChangeWatchedFiles"]?["dynamicRegistration"]?.boolValue == true
        if let name = p.value("clientInfo")?["name"]?.stringValue { scansToWatch = name.lowercased() == "eglot" }
        if capabilities?["textDocument"]?["diagnostic"]?.objectValue != nil, diagnosticRefresh { diagnostics = .pull }
        region = p.value("locale")?.stringValue.flatMap(Self.region(ofLocale:))
        guard let options = try? p.optionalObject("initializationOptions") else { return }
        if let code = options.value("region")?.stringValue, code.count == 2, code.allSatisfy(\.isASCII),
            code.allSatisfy(\.isLetter)
        {
            region = code.uppercased()
        }
        if let edits = options.value("edits") {
            guard let name = edits.stringValue, let delivery = Delivery(rawValue: name) else {
                throw MessageError.invalidParams(
                    "\(options.name("edits")): expected \"didFormat\" or \"applyEdit\", "
                        + "got \(edits.stringValue.map { "'\($0)'" } ?? edits.kindName)")
            }
            self.delivery = delivery
        }
        if let mode = options.value("diagnostics") {
            guard let name = mode.stringValue, let diagnostics = DiagnosticsMode(rawValue: name) else {
                throw MessageError.invalidParams(
                    "\(options.name("diagnostics")): expected \"push\", \"pull\" or \"off\", "
                        + "got \(mode.stringValue.map { "'\($0)'" } ?? mode.kindName)")
            }
            self.diagnostics = diagnostics
        }
        if let delay = options.value("diagnosticsDelay") {
            guard let ms = delay.intValue, (0...3_600_000).contains(ms) else {
                throw MessageError.invalidParams(
                    "\(options.name("diagnosticsDelay")): expected milliseconds from 0 to "
                        + "3600000, got \(delay.intValue.map(String.init) ?? delay.kindName)")
            }
            diagnosticsDelay = ms
        }
        if let delay = options.value("applyEditDelay") {
            guard let ms = delay.intValue, (0...3_600_000).contains(ms) else {
                throw MessageError.invalidParams(
                    "\(options.name("applyEditDelay")): expected milliseconds from 0 to "
                        + "3600000, got \(delay.intValue.map(String.init) ?? delay.kindName)")
            }
            applyEditDelay = ms
        }
    }

    init() {}
}
