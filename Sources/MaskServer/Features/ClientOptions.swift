// maskd: what the client can do, as `initialize` says, and how it wants the daemon's edits.
import JSON

/// The client capabilities the standard features depend on, and the `edits` initialization option.
struct ClientOptions: Hashable, Sendable {
    /// How the daemon delivers the edits that keep fields in form after a person's change.
    enum Delivery: String, Hashable, Sendable {
        /// `maskd/didFormat` notifications, applied by a maskd plugin (the default).
        case didFormat
        /// `workspace/applyEdit` requests, applied by any LSP client (plain-client mode).
        case applyEdit
    }

    /// The delivery asked for with `initializationOptions.edits`.
    var delivery = Delivery.didFormat
    /// `workspace.applyEdit`: the client carries out `workspace/applyEdit`.
    var applyEdit = false
    /// `workspace.workspaceEdit.documentChanges`: versioned `TextDocumentEdit`s are understood.
    var documentChanges = false
    /// `workspace.inlayHint.refreshSupport`: `workspace/inlayHint/refresh` is understood.
    var inlayHintRefresh = false
    /// `textDocument.codeAction.codeActionLiteralSupport`: `CodeAction` objects, not only `Command`s.
    var codeActionLiterals = false

    /// Reads the options from `initialize` params.
    ///
    /// Capabilities are read leniently (anything but `true` or an object counts as absent), since
    /// a client's odd capability should not stop it from starting; a wrong `edits` option is the
    /// person's configuration mistake and is refused.
    /// - Throws: `-32602` when `initializationOptions.edits` is not `"didFormat"` or `"applyEdit"`.
    init(_ p: Params) throws {
        let capabilities = p.value("capabilities")
        let workspace = capabilities?["workspace"]
        applyEdit = workspace?["applyEdit"]?.boolValue == true
        documentChanges = workspace?["workspaceEdit"]?["documentChanges"]?.boolValue == true
        inlayHintRefresh = workspace?["inlayHint"]?["refreshSupport"]?.boolValue == true
        codeActionLiterals = capabilities?["textDocument"]?["codeAction"]?["codeActionLiteralSupport"]?.objectValue != nil
        if let options = try? p.optionalObject("initializationOptions"), let edits = options.value("edits") {
            guard let name = edits.stringValue, let delivery = Delivery(rawValue: name) else {
                throw MessageError.invalidParams("\(options.name("edits")): expected \"didFormat\" or \"applyEdit\", "
                    + "got \(edits.stringValue.map { "'\($0)'" } ?? edits.kindName)")
            }
            self.delivery = delivery
        }
    }

    init() {}
}
