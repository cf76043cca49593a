// maskd: loading field rules: read from the client and the workspace folders, compiled once, tried per touched line.
import JSON
import JSONRPC

extension Server {
    /// The name of a workspace folder's rules file.
    static let rulesFileName = ".maskd.json"
    /// A rules file larger than this is refused (a person's configuration, not data).
    public static let maxRulesFileBytes = 1 << 20

    /// Reads every rule source again (each folder's `.maskd.json`, the client's rules), gives each open
    /// document the rules it is now under, and opens their fields on all its lines.
    /// - Complexity: O(the open documents' text × the rules' patterns): once per configuration change.
    func reloadRules() {
        readRules()
        for (uri, document) in documents.sorted(by: { $0.key < $1.key }) {
            document.rules = rules(for: uri, languageId: document.languageId)
            openRuleFieldsEverywhere(uri, document)
        }
    }

    /// Asks the client, once, to watch `**/.maskd.json` (`client/registerCapability`), when it allows dynamic
    /// registration: at `initialized` whenever it sets up a watch cheaply, so a file created later takes effect;
    /// a client that lists the whole project for any watch (`ClientOptions.scansToWatch`) only once a workspace
    /// folder has a rules file, at `initialized` or when such a folder is added.
    func requestRulesWatcherIfDue() {
        guard lifecycle == .running, client.watchedFilesRegistration, !rulesWatcherRequested,
            !client.scansToWatch || hasRulesFile
        else { return }
        rulesWatcherRequested = true
        request(RegisterCapabilityRequest.method, RegisterCapabilityRequest.watchingRules()) { [weak self] result in
            if case .failure(let error) = result {
                self?.log.info("the client refused to watch \(Server.rulesFileName): \(error)")
            }
        }
    }

    /// Compiles the rule sources: each workspace folder's file (through `readFile`), then the client's.
    func readRules() {
        var sources: [RuleSource] = []
        hasRulesFile = false
        for folder in workspaceFolders {
            let uri =
                folder.uri.hasSuffix("/") ? folder.uri + Server.rulesFileName : folder.uri + "/" + Server.rulesFileName
            guard let readFile, let bytes = readFile(folder.path + "/" + Server.rulesFileName) else { continue }
            hasRulesFile = true
            guard bytes.count <= Server.maxRulesFileBytes else {
                showMessage(.warn, "\(uri): larger than \(Server.maxRulesFileBytes) bytes; its rules are not read")
                continue
            }
            let value: JSONValue
            do { value = try JSONValue.parse(bytes) } catch let error as JSONParseError {
                showMessage(
                    .warn,
                    "\(uri): not JSON (line \(error.line), column \(error.column): \(error.message)); "
                        + "its rules are not read")
                continue
            } catch {
                showMessage(.warn, "\(uri): \(error); its rules are not read")
                continue
            }
            guard let rules = value["rules"] else {
                showMessage(.warn, "\(uri): expected {\"rules\": [...]}; it has no 'rules'")
                continue
            }
            sources.append(RuleSource(folder: folder.path, rules: compileRules(rules, source: uri)))
        }
        if let clientRules {
            sources.append(RuleSource(folder: nil, rules: compileRules(clientRules, source: RuleOrigin.clientSource)))
        }
        ruleSources = sources
    }

    /// The rules a document is under: its folder's file's (the innermost folder holding it), then the client's,
    /// each kept when its `files` glob matches the document's path relative to that folder (outside every
    /// folder, its absolute path) and its `languages` hold the document's languageId.
    func rules(for uri: String, languageId: String) -> DocumentRules {
        guard !ruleSources.isEmpty else { return .none }
        let path = Server.filePath(uri) ?? uri
        let home = workspaceFolders.filter { path.hasPrefix($0.path + "/") }.max { $0.path.count < $1.path.count }
        let relative = home.map { String(path.dropFirst($0.path.count + 1)) } ?? String(path.drop { $0 == "/" })
        var rules: [FieldRule] = []
        for source in ruleSources where source.folder == nil || source.folder == home?.path {
            rules += source.rules.filter { $0.applies(path: relative, languageId: languageId) }
        }
        return DocumentRules(rules: rules)
    }

    /// Opens the rules' fields on every line of a document and delivers their formatting as the client's mode
    /// does: one `maskd/didFormat` (cursor null: no person's change is behind it) or one `workspace/applyEdit`.
    func openRuleFieldsEverywhere(_ uri: String, _ document: Document) {
        let (edits, fields) = document.openRuleFieldsEverywhere()
        guard !fields.isEmpty else { return }
        log.info("\(uri): rules opened \(fields.count) field(s)")
        deliver(
            FormatReport(
                version: document.version, edits: edits, cursor: nil, fields: fields, rejected: "",
                overflow: ""), uri: uri)
        fieldsChanged(uri)
    }

    /// The path of a `file:` URI, percent-decoded; nil for other schemes.
    static func filePath(_ uri: String) -> String? {
        guard uri.hasPrefix("file://") else { return nil }
        var rest = Substring(uri.dropFirst("file://".count))
        // `file://host/path`: the host (usually empty or `localhost`) is not part of the path.
        if !rest.hasPrefix("/"), let slash = rest.firstIndex(of: "/") { rest = rest[slash...] }
        var bytes: [UInt8] = []
        var utf8 = Array(rest.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        var path = String(decoding: bytes, as: UTF8.self)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}

/// A workspace folder: its URI, and its path, rules files being read by path.
struct WorkspaceFolder: Hashable, Sendable {
    var uri: String
    var path: String

    init?(uri: String) {
        guard let path = Server.filePath(uri) else { return nil }
        self.uri = uri
        self.path = path == "/" ? "" : path
    }
}
