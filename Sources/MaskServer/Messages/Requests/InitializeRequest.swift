// maskd: `initialize`.
import JSON
import JSONRPC
import MaskCatalog
import MaskEngine

/// Starts the session, picks the position encoding, and reads what the client can do.
///
/// From `capabilities.general.positionEncodings`, utf-16 when offered or when the list is
/// absent or empty, else utf-8, else utf-32, else utf-16 anyway (LSP's mandatory default).
/// `initializationOptions.edits` (`"didFormat"`, the default, or `"applyEdit"`) chooses how the
/// daemon delivers its formatting edits; `"applyEdit"` is the plain-client mode.
/// - Returns: `{"capabilities": {"positionEncoding", "textDocumentSync": {"openClose": true,
///   "change": 2}, "hoverProvider", "inlayHintProvider", "codeActionProvider",
///   "executeCommandProvider", "documentFormattingProvider", "documentRangeFormattingProvider",
///   "workspace": {"workspaceFolders": {"supported": true, "changeNotifications": true}},
///   "experimental": {"maskd": {"version": 1, "presets": [names], "phoneRegions": [codes], "postalRegions": [codes], "edits"}}},
///   "serverInfo": {"name": "maskd", "version"}}`.
struct InitializeRequest: RequestMessage {
    static let method = "initialize"

    /// The encodings the client offers, in its order; nil when it says nothing.
    let offered: [String]?
    let client: ClientOptions
    /// `processId`: the editor's process, when it gives one.
    let processID: Int32?
    /// `workspaceFolders`, else `rootUri` (`file:` URIs only; the rules files are read by path).
    let folders: [WorkspaceFolder]
    /// `initializationOptions.rules`: the client's field rules.
    let rules: JSONValue?

    init(params: JSONValue) throws {
        let p = try Params(params, optional: true)
        client = try ClientOptions(p)
        // LSP: an integer or null. A value that is no process id (0, negative, too large) is ignored like null: the
        // daemon must not exit because a client sent something odd.
        if let pid = p.value("processId")?.intValue, pid > 0, pid <= Int(Int32.max) {
            processID = Int32(pid)
        } else {
            processID = nil
        }
        if let list = p.value("workspaceFolders")?.arrayValue, !list.isEmpty {
            folders = list.compactMap { $0["uri"]?.stringValue.flatMap(WorkspaceFolder.init(uri:)) }
        } else {
            folders = p.value("rootUri")?.stringValue.flatMap(WorkspaceFolder.init(uri:)).map { [$0] } ?? []
        }
        rules = p.value("initializationOptions")?["rules"].flatMap { $0.isNull ? nil : $0 }
        let general = try p.optionalObject("capabilities")?.optionalObject("general")
        if let list = general?.value("positionEncodings") {
            guard let items = list.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
                throw general!.typeError("positionEncodings", "an array of strings", list)
            }
            offered = items.compactMap(\.stringValue)
        } else {
            offered = nil
        }
    }

    static func choose(_ offered: [String]?) -> PositionEncoding {
        guard let offered, !offered.isEmpty else { return .utf16 }
        for preferred in [PositionEncoding.utf16, .utf8, .utf32] where offered.contains(preferred.rawValue) {
            return preferred
        }
        return .utf16
    }

    func handle(_ server: Server) throws -> JSONValue {
        guard server.lifecycle == .uninitialized else {
            throw MessageError(code: ErrorCode.invalidRequest, message: "'initialize' was already received")
        }
        server.encoding = InitializeRequest.choose(offered)
        server.client = client
        server.clientProcessID = processID
        server.workspaceFolders = folders
        server.clientRules = rules
        server.readRules()
        if client.delivery == .applyEdit && !client.applyEdit {
            server.client.delivery = .didFormat
            server.report(
                .warn,
                "initializationOptions.edits is \"applyEdit\" but the client does not offer "
                    + "workspace.applyEdit: edits go out as maskd/didFormat")
        }
        server.lifecycle = .running
        server.log.info(
            "initialized; positions in \(server.encoding.rawValue), edits by \(server.client.delivery.rawValue)")
        var capabilities: JSONObject = [
            "positionEncoding": .string(server.encoding.rawValue),
            "textDocumentSync": ["openClose": true, "change": 2],
            "hoverProvider": true,
            "inlayHintProvider": true,
            // CodeActionOptions only for clients that take CodeAction literals (LSP 3.17).
            "codeActionProvider": client.codeActionLiterals
                ? ["codeActionKinds": .array(Server.codeActionKinds.map(JSONValue.string))] : true,
            "executeCommandProvider": ["commands": .array(Server.commands.map(JSONValue.string))],
            "documentFormattingProvider": true,
            "documentRangeFormattingProvider": true,
            // Folders may come and go: their `.maskd.json` is read as they do.
            "workspace": ["workspaceFolders": ["supported": true, "changeNotifications": true]],
            "experimental": [
                "maskd": [
                    "version": 1, "presets": .array(Server.presets.map(JSONValue.string)),
                    "phoneRegions": .array(Presets.phoneRegions.map(JSONValue.string)),
                    "postalRegions": .array(Presets.postalRegions.map(JSONValue.string)),
                    "edits": .string(server.client.delivery.rawValue),
                    "diagnostics": .string(server.client.diagnostics.rawValue),
                    "diagnosticsDelay": .from(server.client.diagnosticsDelay),
                    "applyEditDelay": .from(server.client.applyEditDelay),
                ]
            ],
        ]
        if server.client.diagnostics == .pull {
            capabilities["diagnosticProvider"] = ["interFileDependencies": false, "workspaceDiagnostics": false]
        }
        return [
            "capabilities": .object(capabilities),
            "serverInfo": ["name": "maskd", "version": .string(server.version)],
        ]
    }
}

extension Server {
    /// The preset names of `Protocol/presets.md`, as the engine lists them.
    static let presets: [String] = Presets.names
}
