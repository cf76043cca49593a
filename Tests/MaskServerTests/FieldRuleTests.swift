// maskd tests: field rules: fields that open themselves where a line matches, from the client or `.maskd.json`.
import Foundation
import JSON
import MaskEngine
@testable import MaskServer
import XCTest

final class FieldRuleTests: XCTestCase {
    var client: DaemonClient!
    /// A workspace folder of its own per test.
    var folder: URL!
    /// More folders a test made (`makeOtherFolder`).
    var otherFolders: [URL] = []

    static let phoneRule: JSONValue = [
        "files": "**/*.yaml", "match": "^\\s*phone:\\s*(.*)$", "mask": ["preset": "phone.us"],
    ]
    static let cardRule: JSONValue = ["files": "*.env", "match": "^CARD=(.*)$", "mask": ["preset": "card"]]

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("maskd-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        client = try DaemonClient()
    }

    override func tearDownWithError() throws {
        _ = client?.finish()
        client = nil
        try? FileManager.default.removeItem(at: folder)
        for other in otherFolders { try? FileManager.default.removeItem(at: other) }
    }

    /// Another folder, not in the workspace until a test adds it, with a `.maskd.json` holding `rules`.
    func makeOtherFolder(rules: JSONValue) throws -> URL {
        let other = FileManager.default.temporaryDirectory.appendingPathComponent("maskd-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        otherFolders.append(other)
        try Data(JSONValue.object(["rules": rules]).serialized()).write(to: other.appendingPathComponent(".maskd.json"))
        return other
    }

    var folderURI: String { "file://" + folder.path }

    func writeRulesFile(_ rules: JSONValue) throws {
        try Data(JSONValue.object(["rules": rules]).serialized()).write(
            to: folder.appendingPathComponent(".maskd.json"))
    }

    /// Initializes with the workspace folder, `rules` as `initializationOptions.rules`, and the edits delivered by
    /// `didFormat` or, `plain`, by `workspace/applyEdit`; `watch`: the client allows dynamic registration of
    /// `didChangeWatchedFiles`; `clientName`: its `clientInfo.name` (nil: no `clientInfo`).
    @discardableResult
    func initialize(
        rules: JSONValue? = nil, plain: Bool = false, watch: Bool = false,
        clientName: String? = "maskd tests"
    ) -> JSONValue {
        var options: JSONObject = ["diagnosticsDelay": 0]
        if let rules { options["rules"] = rules }
        if plain {
            options["edits"] = "applyEdit"
            // Held edits go once a read's messages are handled: a test need not wait for them.
            options["applyEditDelay"] = 0
        }
        var params: JSONObject = [
            "processId": .int(Int64(getpid())),
            "workspaceFolders": [["uri": .string(folderURI), "name": "w"]],
            "capabilities": [
                "workspace": [
                    "applyEdit": true, "workspaceEdit": ["documentChanges": true],
                    "didChangeWatchedFiles": ["dynamicRegistration": .bool(watch)],
                ]
            ],
            "initializationOptions": .object(options),
        ]
        if let clientName { params["clientInfo"] = ["name": .string(clientName)] }
        let result = client.call("initialize", .object(params))
        client.notify("initialized", [:])
        return result
    }

    /// Opens `path` (in the folder) in an editor and applies the `didFormat` the rules cause, if any.
    /// - Returns: the editor and that `didFormat`.
    func open(_ path: String, _ text: String) -> (Editor, JSONValue?) {
        let editor = Editor(client, uri: folderURI + "/" + path, text: text)
        client.sync()
        let formats = client.take("maskd/didFormat")
        XCTAssertLessThanOrEqual(formats.count, 1)
        if let format = formats.first { editor.applyAndEcho(format) }
        return (editor, formats.first)
    }

    /// Writes the folder's `.maskd.json` with `rules`, says so with `workspace/didChangeWatchedFiles` (`type` 1:
    /// created, 2: changed) and applies to `editor` the one `didFormat` the re-reading causes.
    func saveRulesFile(
        _ rules: JSONValue, type: Int64, into editor: Editor,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try writeRulesFile(rules)
        client.notify(
            "workspace/didChangeWatchedFiles",
            ["changes": [["uri": .string(folderURI + "/.maskd.json"), "type": .int(type)]]])
        client.sync()
        let formats = client.take("maskd/didFormat")
        XCTAssertEqual(formats.count, 1, file: file, line: line)
        if let format = formats.first { editor.applyAndEcho(format) }
    }

    /// What `keys` typed into an empty field of `mask` show, by the stateless oracle.
    func formatted(_ mask: JSONValue, _ keys: String) -> String {
        client.call("maskd/apply", ["mask": mask, "text": .string(keys)])["text"]?.stringValue ?? "?"
    }

    // MARK: - didFormat mode

    func testWorkspaceFile_opensFieldsWhenTheDocumentOpens_andAsThePersonTypes() throws {
        try writeRulesFile([FieldRuleTests.phoneRule, FieldRuleTests.cardRule])
        initialize()
        let (editor, format) = open("people/ann.yaml", "name: Ann\nphone: 5551234567\nnote: 5551234567\n")
        XCTAssertEqual(format?["cursor"], .null, "no person's change is behind it: the caret stays")
        XCTAssertEqual(editor.document.text, "name: Ann\nphone: +1 (555) 123-4567\nnote: 5551234567\n")
        let fields = editor.fields.arrayValue ?? []
        XCTAssertEqual(fields.count, 1)
        XCTAssertEqual(fields.first?["text"], "+1 (555) 123-4567")
        XCTAssertEqual(fields.first?["rule"], ["source": .string(folderURI + "/.maskd.json"), "index": 0])

        // A new line typed: the field opens with its first character, not over the separator before it.
        editor.document.cursor = (3, 0)
        XCTAssertNil(editor.type("  phone: "), "an empty capture opens nothing")
        let opened = editor.type("5")
        XCTAssertEqual(opened?["fields"]?[0]?["rule"]?["index"], 0)
        editor.type("551234567")
        XCTAssertEqual(editor.document.lines[3], "  phone: " + formatted(["preset": "phone.us"], "5551234567"))
        XCTAssertEqual(editor.document.cursor.character, editor.document.lines[3].utf16.count)
        XCTAssertEqual(editor.fields.arrayValue?.count, 2)

        // The `.env` rule: `*.env` (no `/`) matches the file's name in any folder, `.env` included.
        let (env, _) = open("sub/.env", "CARD=4111111111111111\nOTHER=4111111111111111")
        XCTAssertEqual(env.document.text, "CARD=4111 1111 1111 1111\nOTHER=4111111111111111")
    }

    func testPostalRule_opensAPostalCodeFieldOfItsRegion_asThePersonTypes() throws {
        try writeRulesFile([
            [
                "files": "**/*.yaml", "match": "^\\s*postcode:\\s*(.*)$",
                "mask": ["preset": "postal", "region": "GB"],
            ]
        ])
        initialize()
        let (editor, _) = open("people/ann.yaml", "name: Ann\npostcode: sw1a1aa\n")
        XCTAssertEqual(editor.document.text, "name: Ann\npostcode: SW1A 1AA\n")
        editor.document.cursor = (2, 0)
        editor.type("postcode: m34a")
        XCTAssertEqual(editor.document.lines[2], "postcode: M3 4A", "regrouped as the code became clear")
        XCTAssertEqual(editor.document.cursor.character, editor.document.lines[2].utf16.count)
    }

    func testGlobThatExcludes_andLanguages_openNothingThere() throws {
        try writeRulesFile([
            FieldRuleTests.phoneRule,
            ["languages": ["markdown"], "match": "Tel: (\\d+)", "mask": ["preset": "phone.us"]],
        ])
        initialize()
        let (notes, format) = open("notes.txt", "phone: 5551234567\nTel: 5551234567")
        XCTAssertNil(format, "*.yaml does not take notes.txt, and the document is plaintext, not markdown")
        XCTAssertEqual(notes.document.text, "phone: 5551234567\nTel: 5551234567")
        XCTAssertEqual(notes.fields, [])
        notes.document.cursor = (0, 17)
        XCTAssertNil(notes.type("8"))
        // A YAML file outside the folder: the folder's rules are not its rules.
        let outside = Editor(client, uri: "file:///elsewhere/x.yaml", text: "phone: 5551234567")
        client.sync()
        XCTAssertEqual(client.take("maskd/didFormat").count, 0)
        XCTAssertEqual(outside.fields, [])
    }

    func testBadRules_eachOneMessageNamingFileIndexAndProblem_theOthersApply() throws {
        try writeRulesFile([
            ["files": "**/*.{yaml", "match": "phone: (.*)", "mask": ["preset": "phone.us"]],
            ["match": "phone: (.*", "mask": ["preset": "phone.us"]],
            ["match": "phone: (.*)", "mask": ["preset": "no.such.preset"]],
            ["match": "phone: .*", "mask": ["preset": "phone.us"]],
            FieldRuleTests.phoneRule,
        ])
        initialize(rules: [["match": "^id: (.*)$", "mask": "[0000]-[0000]"], ["match": "x(", "mask": "[0]"]])
        client.sync()
        let messages = client.take("window/showMessage").compactMap { $0["message"]?.stringValue }
        let file = folderURI + "/.maskd.json"
        XCTAssertEqual(messages.count, 5, messages.joined(separator: "\n"))
        XCTAssertTrue(
            messages[0].hasPrefix(
                "maskd: \(file) rules[0]: files: bad glob '**/*.{yaml': '{' at character 6 is never closed"),
            messages[0])
        XCTAssertTrue(messages[1].hasPrefix("maskd: \(file) rules[1]: match: bad regex 'phone: (.*'"), messages[1])
        XCTAssertTrue(messages[2].hasPrefix("maskd: \(file) rules[2]: mask"), messages[2])
        XCTAssertTrue(messages[2].contains("no.such.preset"), messages[2])
        XCTAssertTrue(
            messages[3].hasPrefix("maskd: \(file) rules[3]: match: 'phone: .*' has 0 capture groups"), messages[3])
        XCTAssertTrue(
            messages[4].hasPrefix("maskd: initializationOptions rules[1]: match: bad regex 'x('"), messages[4])
        let (editor, _) = open("a.yaml", "phone: 5551234567\nid: 12345678")
        XCTAssertEqual(
            editor.document.text, "phone: +1 (555) 123-4567\nid: 1234-5678", "workspace rules first, then the client's")
        XCTAssertEqual(
            editor.fields.arrayValue?.map { $0["rule"]?["source"] }, [.string(file), "initializationOptions"])
    }

    func testClosedField_staysClosed_aLineThatStopsMatchingKeepsItsField_contentIsNeverLost() throws {
        initialize(rules: [FieldRuleTests.phoneRule])
        let (editor, _) = open("a.yaml", "phone: 5551234567\nphone: 5559876543\nphone: call me\n")
        XCTAssertEqual(
            editor.document.text, "phone: +1 (555) 123-4567\nphone: +1 (555) 987-6543\nphone: call me\n",
            "'call me' would lose its letters: no field there")
        let fields = editor.fields.arrayValue ?? []
        XCTAssertEqual(fields.count, 2)
        let first = fields[0]["field"]!
        client.call("maskd/closeField", ["textDocument": editor.document.identifier, "field": first])
        // Typing on the closed field's line opens nothing again.
        editor.document.cursor = (0, 24)
        XCTAssertNil(editor.type("9"))
        XCTAssertEqual(editor.document.lines[0], "phone: +1 (555) 123-45679")
        // A line inserted above moves the closed line down; it stays closed there.
        editor.document.cursor = (0, 0)
        editor.type("\n")
        editor.document.cursor = (1, 25)
        XCTAssertNil(editor.type("1"))
        XCTAssertEqual(editor.fields.arrayValue?.count, 1)
        // The second field's key is renamed: the line no longer matches, its field stays.
        editor.send([editor.change(2, 0, 5, "tel")])
        XCTAssertEqual(editor.document.lines[2], "tel: +1 (555) 987-6543")
        XCTAssertEqual(editor.fields.arrayValue?.map { $0["text"] }, ["+1 (555) 987-6543"])
        // Fixing the third line's value opens its field.
        let format = editor.send([editor.change(3, 7, 14, "5550001111")])
        XCTAssertEqual(format?["fields"]?.arrayValue?.count, 1)
        XCTAssertEqual(editor.document.lines[3], "phone: +1 (555) 000-1111")
    }

    // MARK: - Plain-client mode

    func testPlainClient_ruleFieldsArriveAsApplyEdit_onOpenAndAsThePersonTypes() throws {
        try writeRulesFile([FieldRuleTests.cardRule])
        initialize(plain: true)
        let editor = Editor(client, uri: folderURI + "/.env", text: "CARD=4111111111111111\n")
        XCTAssertEqual(editor.answerApplyEdits().count, 1)
        XCTAssertEqual(editor.document.text, "CARD=4111 1111 1111 1111\n")
        editor.document.cursor = (1, 0)
        editor.type("CARD=")
        editor.answerApplyEdits()
        for key in "5500000000000004" {
            editor.type(String(key))
            editor.answerApplyEdits()
        }
        XCTAssertEqual(editor.document.lines[1], "CARD=" + formatted(["preset": "card"], "5500000000000004"))
        XCTAssertEqual(editor.document.cursor.character, editor.document.lines[1].utf16.count)
        XCTAssertEqual(editor.fields.arrayValue?.map { $0["rule"]?["index"] }, [0, 0])
    }

    // MARK: - Re-reading

    func testRulesFileChanged_isReadAgain_andTheWatcherRegistered() throws {
        try writeRulesFile([])
        initialize(watch: true)
        client.sync()
        let registrations = client.takeRequests("client/registerCapability")
        XCTAssertEqual(registrations.count, 1)
        XCTAssertEqual(
            registrations.first?["params"]?["registrations"]?[0]?["registerOptions"]?["watchers"]?[0]?["globPattern"],
            "**/.maskd.json")
        if let registration = registrations.first { client.respond(registration, .null) }
        let (editor, format) = open("a.yaml", "phone: 5551234567")
        XCTAssertNil(format)
        try saveRulesFile([FieldRuleTests.phoneRule], type: 2, into: editor)
        XCTAssertEqual(editor.document.text, "phone: +1 (555) 123-4567")

        // The client's settings replace its rules; the fields already open stay.
        client.notify(
            "workspace/didChangeConfiguration",
            [
                "settings": [
                    "maskd": [
                        "rules": [
                            ["match": "^card: (.*)$", "mask": ["preset": "card"]]
                        ]
                    ]
                ]
            ])
        editor.document.cursor = (0, 24)
        editor.type("\ncard: 4111111111111111")
        XCTAssertEqual(editor.document.lines[1], "card: 4111 1111 1111 1111")
        XCTAssertEqual(editor.fields.arrayValue?.count, 2)
    }

    func testNoRulesFile_theWatcherIsAskedForAnyway_aFileCreatedLaterTakesEffect() throws {
        initialize(watch: true)
        client.sync()
        let registrations = client.takeRequests("client/registerCapability")
        XCTAssertEqual(registrations.count, 1, "a .maskd.json created later must be seen")
        if let registration = registrations.first { client.respond(registration, .null) }
        let (editor, format) = open("a.yaml", "phone: 5551234567")
        XCTAssertNil(format)
        try saveRulesFile([FieldRuleTests.phoneRule], type: 1, into: editor)
        XCTAssertEqual(editor.document.text, "phone: +1 (555) 123-4567")
    }

    /// eglot lists every file of the project to set up any watch (seconds in a large folder, a watch on every
    /// directory): it, and a client that does not say what it is (eglot 1.9 sends no `clientInfo`), is asked only
    /// once a workspace folder has a `.maskd.json`.
    func testEglotAndUnnamedClients_areAskedToWatchOnlyOnceAFolderHasARulesFile() throws {
        let other = try makeOtherFolder(rules: [FieldRuleTests.phoneRule])
        for name in ["Eglot", nil] as [String?] {
            _ = client.finish()
            client = try DaemonClient()
            initialize(watch: true, clientName: name)
            client.sync()
            XCTAssertEqual(client.takeRequests("client/registerCapability").count, 0, "\(name ?? "no clientInfo")")
            client.notify(
                "workspace/didChangeWorkspaceFolders",
                ["event": ["added": [["uri": .string("file://" + other.path), "name": "other"]], "removed": []]])
            client.sync()
            let registrations = client.takeRequests("client/registerCapability")
            XCTAssertEqual(registrations.count, 1, "\(name ?? "no clientInfo"): a folder with a .maskd.json came")
            if let registration = registrations.first { client.respond(registration, .null) }
            client.notify("workspace/didChangeConfiguration", ["settings": [:]])
            client.sync()
            XCTAssertEqual(client.takeRequests("client/registerCapability").count, 0, "asked once")
        }
    }

    func testClientWithoutDynamicRegistration_isNotAskedToWatch() throws {
        try writeRulesFile([FieldRuleTests.phoneRule])
        initialize(watch: false)
        client.sync()
        XCTAssertEqual(client.takeRequests("client/registerCapability").count, 0)
    }

    /// A folder added to the workspace brings its `.maskd.json`'s rules to the documents already open in it; a folder
    /// removed takes them away from what opens or is typed later, and the fields already open stay.
    func testWorkspaceFoldersAddedAndRemoved_theirRulesFilesComeAndGo() throws {
        let other = try makeOtherFolder(rules: [FieldRuleTests.phoneRule])
        let otherURI = "file://" + other.path
        let result = initialize()
        XCTAssertEqual(
            result["capabilities"]?["workspace"]?["workspaceFolders"],
            ["supported": true, "changeNotifications": true])

        let ann = Editor(client, uri: otherURI + "/ann.yaml", text: "phone: 5551234567")
        client.sync()
        XCTAssertEqual(client.take("maskd/didFormat").count, 0, "outside every folder: the client's rules alone")

        client.notify(
            "workspace/didChangeWorkspaceFolders",
            ["event": ["added": [["uri": .string(otherURI + "/"), "name": "other"]], "removed": []]])
        client.sync()
        let formats = client.take("maskd/didFormat")
        XCTAssertEqual(formats.count, 1)
        XCTAssertEqual(formats.first?["cursor"], .null)
        if let format = formats.first { ann.applyAndEcho(format) }
        XCTAssertEqual(ann.document.text, "phone: +1 (555) 123-4567")
        XCTAssertEqual(ann.fields[0]?["rule"]?["source"], .string(otherURI + "/.maskd.json"))

        client.notify(
            "workspace/didChangeWorkspaceFolders",
            ["event": ["added": [], "removed": [["uri": .string(otherURI), "name": "other"]]]])
        client.sync()
        XCTAssertEqual(client.take("maskd/didFormat").count, 0, "re-reading closes nothing")
        let bob = Editor(client, uri: otherURI + "/bob.yaml", text: "phone: 5551234567")
        client.sync()
        XCTAssertEqual(client.take("maskd/didFormat").count, 0)
        XCTAssertEqual(bob.document.text, "phone: 5551234567")
        ann.document.cursor = (0, 24)
        ann.type("\nphone: 5551234567")
        XCTAssertEqual(ann.document.lines[1], "phone: 5551234567", "the folder's rules are gone")
        XCTAssertEqual(ann.fields.arrayValue?.count, 1, "the field the rule opened stays")
    }

    func testWorkspaceFoldersChange_withBadParams_isLoggedAndChangesNothing() throws {
        try writeRulesFile([FieldRuleTests.phoneRule])
        initialize()
        client.notify("workspace/didChangeWorkspaceFolders", ["event": ["added": 3]])
        client.sync()
        let logs = client.take("window/logMessage").compactMap { $0["message"]?.stringValue }
        XCTAssertTrue(logs.contains { $0.contains("params.event.added") }, "\(logs)")
        let (editor, _) = open("a.yaml", "phone: 5551234567")
        XCTAssertEqual(editor.document.text, "phone: +1 (555) 123-4567", "the folder is still there")
    }

    // MARK: - Cost

    /// A 100,000-line document, every line matching: each line is tried once when it opens, one delivery carries
    /// every field; a keystroke in a field tries no line, one on a line without a field tries that line alone.
    func testHundredThousandLines_eachTriedOnce_keystrokesTryTheTouchedLineAlone() throws {
        var sent: [(String, JSONValue)] = []
        let server = Server(
            version: "test", outbound: RecordingOutbound { method, params, _ in sent.append((method, params)) })
        _ = server.handleRequest(
            "initialize",
            [
                "capabilities": [:],
                "initializationOptions": [
                    "rules": [["match": "^id (?:\\d+): ([\\d-]*)$", "mask": "[000]-[000]"]]
                ],
            ])
        let count = 100_000
        var text = ""
        // Every value already in form, so that opening proposes no edit (the echo of 100,000 edits is the echo's
        // cost, measured elsewhere); one line out of form.
        for i in 0..<count { text += i == 7 ? "id 7: 123456\n" : "id \(i): 123-456\n" }
        text += "tail"
        server.handleNotification(
            "textDocument/didOpen",
            [
                "textDocument": [
                    "uri": "file:///big.txt", "languageId": "plaintext", "version": 1, "text": .string(text),
                ]
            ])
        let document = try XCTUnwrap(server.documents["file:///big.txt"])
        XCTAssertEqual(document.linesTriedByRules, count + 1)
        let formats = sent.filter { $0.0 == "maskd/didFormat" }
        XCTAssertEqual(formats.count, 1)
        XCTAssertEqual(formats.first?.1["fields"]?.arrayValue?.count, count)
        XCTAssertEqual(
            formats.first?.1["edits"],
            [
                [
                    "range": [
                        "start": ["line": 7, "character": 9],
                        "end": ["line": 7, "character": 9],
                    ], "newText": "-",
                ]
            ])
        server.handleNotification(
            "textDocument/didChange",
            [
                "textDocument": ["uri": "file:///big.txt", "version": 2],
                "contentChanges": [
                    [
                        "range": [
                            "start": ["line": 7, "character": 9],
                            "end": ["line": 7, "character": 9],
                        ], "text": "-",
                    ]
                ],
            ])
        XCTAssertEqual(document.lines[7].text, "id 7: 123-456")
        XCTAssertEqual(document.linesTriedByRules, count + 1, "an echo tries no line")
        func type(_ line: Int, _ column: Int, _ key: String, version: Int) {
            server.handleNotification(
                "textDocument/didChange",
                [
                    "textDocument": ["uri": "file:///big.txt", "version": .from(version)],
                    "contentChanges": [
                        [
                            "range": [
                                "start": ["line": .from(line), "character": .from(column)],
                                "end": ["line": .from(line), "character": .from(column)],
                            ],
                            "text": .string(key),
                        ]
                    ],
                ])
        }
        type(count / 2, 12, "9", version: 3)
        XCTAssertEqual(document.linesTriedByRules, count + 1, "typing inside a field tries no line")
        type(count, 4, "x", version: 4)
        XCTAssertEqual(document.linesTriedByRules, count + 2, "typing outside fields tries the touched line")
    }

    // MARK: - Globs and the line search

    func testGlob_starsBracesAndFolders() throws {
        let cases: [(String, String, Bool)] = [
            ("**/*.yaml", "a.yaml", true), ("**/*.yaml", "x/y/a.yaml", true), ("**/*.yaml", "a.yml", false),
            ("*.{yaml,yml}", "deep/er/a.yml", true), ("*.env", ".env", true), ("*.env", "sub/prod.env", true),
            ("config/*.yaml", "config/a.yaml", true), ("config/*.yaml", "x/config/a.yaml", false),
            ("config/*.yaml", "config/x/a.yaml", false), ("config/**/a.yaml", "config/a.yaml", true),
            ("/a?.txt", "ab.txt", true), ("/a?.txt", "a/b.txt", false), ("f\\*", "f*", true), ("f\\*", "fx", false),
        ]
        for (glob, path, expected) in cases {
            XCTAssertEqual(try Glob(glob).matches(path), expected, "\(glob) on \(path)")
        }
        for bad in ["", "{a", "a}", "{a,{b}}", "x\\"] {
            XCTAssertThrowsError(try Glob(bad), bad)
        }
    }

    func testSearch_leftmostMatch_overUnicodeScalars_anchoredByACaret() throws {
        func capture(_ pattern: String, _ line: String) throws -> String? {
            let scalars = Array(line.unicodeScalars)
            guard let slots = try CapturingRegex(pattern).search(scalars), slots[2] >= 0 else { return nil }
            return String(String.UnicodeScalarView(scalars[slots[2]..<slots[3]]))
        }
        XCTAssertEqual(try capture("phone: (\\d+)", "Zoë's phone: 555 and phone: 777"), "555")
        XCTAssertEqual(try capture("^phone: (\\d+)", "x phone: 555"), nil)
        XCTAssertEqual(try capture("^\\s*name: (.*)$", "  name: Zoë Ångström"), "Zoë Ångström")
        XCTAssertEqual(try capture("(a+)$", "aab aaa"), "aaa")
        XCTAssertEqual(try capture("=([^#]*)", "KEY=välue#c"), "välue")
    }
}
