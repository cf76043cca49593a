// maskd: `maskd demo`, a scripted editing session against a real daemon, checking itself.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import JSON
import JSONRPC

/// A minimal editor: it starts `maskd --stdio` as a child, keeps the document's lines, applies
/// every `maskd/didFormat` and echoes it, and prints what goes over the wire.
final class DemoEditor {
    private let process: ChildProcess
    private var splitter = FrameSplitter()
    private var nextID: Int64 = 0
    var lines: [String]
    var cursor = (line: 0, character: 0)
    var version = 1
    let uri = "file:///demo/form.txt"
    var failures = 0

    init(text: String) throws {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var executable = CommandLine.arguments[0]
        if let me = executablePath(), isExecutableFile(me) { executable = me }
        // A daemon that went away must show up as a failed step, not end the demo with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        process = try ChildProcess(executable: executable, arguments: ["--stdio"])
    }

    // MARK: Wire

    private func write(_ message: JSONValue) {
        let body = message.serialized()
        process.write(Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
    }

    private func readMessage() -> JSONValue? {
        while true {
            if let event = splitter.next() {
                if case .message(let body) = event, let value = try? JSONValue.parse(body) { return value }
                continue
            }
            let data = process.read()
            if data.isEmpty { return nil }
            splitter.append(data)
        }
    }

    /// Sends a request; prints and handles the notifications before its response.
    func request(_ method: String, _ params: JSONValue, quiet: Bool = false) -> JSONValue {
        nextID += 1
        let id = JSONValue.int(nextID)
        if !quiet { show("→", method, params) }
        write(["jsonrpc": "2.0", "id": id, "method": .string(method), "params": params])
        while let message = readMessage() {
            if message["id"] == id {
                if let error = message["error"] {
                    print("  ← error \(abridged(error))")
                    failures += 1
                    return .null
                }
                let result = message["result"] ?? .null
                if !quiet { show("←", "result", result) }
                return result
            }
            if let method = message["method"]?.stringValue { received(method, message["params"] ?? .null) }
        }
        print("  the daemon went away")
        failures += 1
        return .null
    }

    func notify(_ method: String, _ params: JSONValue, quiet: Bool = false) {
        if !quiet { show("→", method, params) }
        write(["jsonrpc": "2.0", "method": .string(method), "params": params])
    }

    private var formats: [JSONValue] = []

    private func received(_ method: String, _ params: JSONValue) {
        show("←", method, params)
        if method == "maskd/didFormat" {
            formats.append(params)
            let rejected = params["rejected"]?.stringValue ?? "", overflow = params["overflow"]?.stringValue ?? ""
            if !rejected.isEmpty || !overflow.isEmpty {
                print("    rejected: '\(rejected)'  overflow: '\(overflow)'")
            }
        }
    }

    func show(_ arrow: String, _ method: String, _ params: JSONValue) {
        print("  \(arrow) \(method) \(abridged(params))")
    }

    func abridged(_ value: JSONValue) -> String {
        var value = value
        if case .object(var object) = value {
            if let fields = object["fields"]?.arrayValue {
                object["fields"] = .string("[\(fields.count) field state\(fields.count == 1 ? "" : "s")]")
            }
            if object["state"] != nil { object["state"] = .string("{…}") }
            if object["capabilities"] != nil { object["capabilities"] = .string("{…}") }
            value = .object(object)
        }
        let text = value.serializedString()
        return text.count > 150 ? String(text.prefix(147)) + "…" : text
    }

    // MARK: Editing

    func index(_ line: Int, _ character: Int) -> String.Index {
        let text = lines[line]
        return text.utf16.index(text.utf16.startIndex, offsetBy: min(character, text.utf16.count))
    }

    func replace(_ line: Int, _ start: Int, _ end: Int, _ text: String) {
        let old = lines[line]
        lines[line] = String(old[..<index(line, start)]) + text + String(old[index(line, end)...])
    }

    static func range(_ line: Int, _ start: Int, _ end: Int) -> JSONValue {
        [
            "start": ["line": .int(Int64(line)), "character": .int(Int64(start))],
            "end": ["line": .int(Int64(line)), "character": .int(Int64(end))],
        ]
    }

    /// Applies edits (against the current text) and echoes them as the editor's own change.
    func applyEdits(_ edits: [JSONValue], cursor newCursor: JSONValue?) {
        var changes: [JSONValue] = []
        for edit in edits.reversed() {
            let r = edit["range"]!, line = r["start"]!["line"]!.intValue!
            replace(
                line, r["start"]!["character"]!.intValue!, r["end"]!["character"]!.intValue!,
                edit["newText"]!.stringValue!)
            changes.append(["range": r, "text": edit["newText"]!])
        }
        if let c = newCursor, !c.isNull { cursor = (c["line"]!.intValue!, c["character"]!.intValue!) }
        guard !changes.isEmpty else { return }
        version += 2
        notify(
            "textDocument/didChange",
            [
                "textDocument": ["uri": .string(uri), "version": .int(Int64(version))],
                "contentChanges": .array(changes),
            ], quiet: true)
        print("  → textDocument/didChange (the editor's echo of those edits: no didFormat comes back)")
    }

    /// A person replaces `[start, end)` on a line with `text`; the daemon answers with didFormat.
    func personChange(_ line: Int, _ start: Int, _ end: Int, _ text: String, quiet: Bool = false) {
        replace(line, start, end, text)
        cursor = (line, start + text.utf16.count)
        version += 2
        notify(
            "textDocument/didChange",
            [
                "textDocument": ["uri": .string(uri), "version": .int(Int64(version))],
                "contentChanges": [
                    [
                        "range": DemoEditor.range(line, start, end),
                        "text": .string(text),
                    ]
                ],
            ], quiet: quiet)
        _ = request("maskd/fields", ["textDocument": ["uri": .string(uri)]], quiet: true)
        for format in formats { applyEdits(format["edits"]?.arrayValue ?? [], cursor: format["cursor"]) }
        formats.removeAll()
    }

    var cursorLine: String {
        let line = lines[cursor.line]
        let i = index(cursor.line, cursor.character)
        return String(line[..<i]) + "|" + String(line[i...])
    }

    /// Prints the cursor's line and checks it.
    func expect(_ expected: String) {
        let actual = cursorLine
        if actual == expected {
            print("  \(actual)")
        } else {
            print("  \(actual)    ✗ expected \(expected)")
            failures += 1
        }
    }

    func finish() -> Int32 {
        _ = request("shutdown", nil)
        notify("exit", nil)
        process.closeInput()
        return process.waitForExit()
    }
}

func runDemo(_ arguments: [String]) throws -> Int32 {
    guard arguments.isEmpty else { throw UsageError(message: "demo takes no arguments") }
    print("maskd demo: an editor and a real maskd daemon (a child process), talking over pipes.\n")
    let editor = try DemoEditor(text: "Phone: \nCard: \nPay with: \nAmount: ")
    func step(_ title: String) { print("\n== \(title)") }

    step("Start the daemon and open a document")
    _ = editor.request("initialize", ["processId": nil, "capabilities": [:]])
    editor.notify("initialized", [:])
    editor.notify(
        "textDocument/didOpen",
        [
            "textDocument": [
                "uri": .string(editor.uri), "languageId": "plaintext",
                "version": 1, "text": .string(editor.lines.joined(separator: "\n")),
            ]
        ])

    step("Open a phone field after 'Phone: ' and a card field after 'Card: '")
    for (line, start, mask, id) in [
        (0, 7, "+1 ([000]) [000]-[0000]", "phone"), (1, 6, "[0000] [0000] [0000] [0000] [999]", "card"),
    ] {
        let result = editor.request(
            "maskd/openField",
            [
                "textDocument": ["uri": .string(editor.uri)],
                "range": DemoEditor.range(line, start, start),
                "mask": .string(mask), "field": .string(id),
            ])
        editor.applyEdits(result["edits"]?.arrayValue ?? [], cursor: result["cursor"])
    }

    step("Type 5551234567 into the phone field, key by key")
    editor.cursor = (0, 7)
    let phoneSteps = [
        "+1 (5|", "+1 (55|", "+1 (555|", "+1 (555) 1|", "+1 (555) 12|", "+1 (555) 123|",
        "+1 (555) 123-4|", "+1 (555) 123-45|", "+1 (555) 123-456|", "+1 (555) 123-4567|",
    ]
    for (key, expected) in zip("5551234567", phoneSteps) {
        print("  key '\(key)'")
        editor.personChange(0, editor.cursor.character, editor.cursor.character, String(key), quiet: key != "5")
        editor.expect("Phone: " + expected)
    }

    step("Type a card number, 4111111111111111: a space comes with every fifth digit")
    editor.cursor = (1, 6)
    var typed = ""
    for key in "4111111111111111" {
        editor.personChange(1, editor.cursor.character, editor.cursor.character, String(key), quiet: true)
        typed.append(key)
        // The digits so far in fours, the caret after the last.
        let grouped = stride(from: 0, to: typed.count, by: 4).map { String(typed.dropFirst($0).prefix(4)) }
        editor.expect("Card: " + grouped.joined(separator: " ") + "|")
    }

    step("Backspace in the middle of the card number (after '4111 1'): the rest re-flows, the caret stays")
    editor.personChange(1, 11, 12, "")
    editor.expect("Card: 4111| 1111 1111 111")

    step("Paste 'tel: 800-555-0199 ext' over the whole phone number: what fits stays, the rest is reported")
    editor.personChange(0, 7, 24, "tel: 800-555-0199 ext")
    editor.expect("Phone: +1 (800) 555-0199|")

    step("Change the card field's mask mid-input to 4-6-5 groups (as for Amex)")
    let result = editor.request(
        "maskd/setMask",
        [
            "textDocument": ["uri": .string(editor.uri)], "field": "card",
            "mask": ["groups": [4, 6, 5], "accept": "digits"],
        ])
    editor.applyEdits(result["edits"]?.arrayValue ?? [], cursor: result["cursor"])
    editor.expect("Card: 4111 111111 11111|")

    step("Open a field with the card preset after 'Pay with: ': the brand follows the prefix")
    let pay = editor.request(
        "maskd/openField",
        [
            "textDocument": ["uri": .string(editor.uri)],
            "range": DemoEditor.range(2, 10, 10), "mask": ["preset": "card"],
            "field": "pay",
        ])
    editor.applyEdits(pay["edits"]?.arrayValue ?? [], cursor: pay["cursor"])
    editor.cursor = (2, 10)
    func state() -> JSONValue {
        editor.request(
            "maskd/formatHints",
            [
                "textDocument": ["uri": .string(editor.uri)],
                "position": [
                    "line": .int(Int64(editor.cursor.line)),
                    "character": .int(Int64(editor.cursor.character)),
                ],
            ],
            quiet: true)
    }
    func describe(_ s: JSONValue) -> String {
        let brand = s["brand"]?.stringValue ?? "none yet"
        let problems = (s["problems"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: "; ")
        return "brand: \(brand), valid: \(s["valid"]?.boolValue == true)" + (problems.isEmpty ? "" : ", \(problems)")
    }
    for (i, (key, expected)) in zip(
        "3782822463",
        [
            "3|", "37|", "378|", "3782|", "3782 8|", "3782 82|", "3782 822|",
            "3782 8224|", "3782 82246|", "3782 822463|",
        ]
    ).enumerated() {
        editor.personChange(2, editor.cursor.character, editor.cursor.character, String(key), quiet: true)
        editor.expect("Pay with: " + expected)
        if i < 2 { print("    \(describe(state()))") }
    }
    print("    Amex groups 4-6-5: \(describe(state()))")
    for key in "10006" {
        editor.personChange(2, editor.cursor.character, editor.cursor.character, String(key), quiet: true)
    }
    editor.expect("Pay with: 3782 822463 10006|")
    print("    a wrong last digit: \(describe(state()))")
    editor.personChange(2, editor.cursor.character - 1, editor.cursor.character, "", quiet: true)
    editor.personChange(2, editor.cursor.character, editor.cursor.character, "5", quiet: true)
    editor.expect("Pay with: 3782 822463 10005|")
    print("    corrected: \(describe(state()))")
    print(
        "  the first digit replaced by 4: Amex becomes Visa, the digits re-flow into fours, the caret stays after the 4"
    )
    editor.personChange(2, 10, 11, "4")
    editor.expect("Pay with: 4|782 8224 6310 005")
    print("    \(describe(state()))")

    step("Type an amount after 'Amount: ': groups from the right, two decimals")
    let amount = editor.request(
        "maskd/openField",
        [
            "textDocument": ["uri": .string(editor.uri)],
            "range": DemoEditor.range(3, 8, 8), "mask": ["preset": "amount"],
            "field": "amount",
        ])
    editor.applyEdits(amount["edits"]?.arrayValue ?? [], cursor: amount["cursor"])
    editor.cursor = (3, 8)
    for (key, expected) in zip(
        "1234567.891",
        [
            "1|", "12|", "123|", "1,234|", "12,345|", "123,456|", "1,234,567|",
            "1,234,567.|", "1,234,567.8|", "1,234,567.89|", "1,234,567.89|",
        ])
    {
        editor.personChange(3, editor.cursor.character, editor.cursor.character, String(key), quiet: true)
        editor.expect("Amount: " + expected)
    }
    print("    the third decimal was cut: \(describe(state()).replacing("brand: none yet, ", with: ""))")

    step("Shut down")
    let code = editor.finish()
    print("  the daemon exited with code \(code)")
    if code != 0 { editor.failures += 1 }
    print(editor.failures == 0 ? "\nEvery step gave the expected text." : "\n\(editor.failures) step(s) went wrong.")
    return editor.failures == 0 ? 0 : 1
}
