// maskd tests: closing a field pads a number mask's fraction (`padFraction`), delivered as formatting is.
import JSON
import XCTest

final class ClosePaddingTests: XCTestCase {
    /// An `amount`-style mask that pads: `,` groups, `.` and 2 decimals.
    static let padded: JSONValue = ["number": ["group": ",", "decimal": ".", "fraction": 2, "padFraction": true]]
    static let unpadded: JSONValue = ["number": ["group": ",", "decimal": ".", "fraction": 2]]

    var client: DaemonClient!

    override func tearDown() {
        _ = client?.finish()
        client = nil
    }

    /// A plugin's editor with `Sum: ` on line 0 and an empty field of `mask` after it, `keys` typed into it.
    func typed(
        _ keys: String, mask: JSONValue = ClosePaddingTests.padded, plain: Bool = false,
        file: StaticString = #filePath, line: UInt = #line
    ) -> Editor {
        client = try! DaemonClient()
        client.initializeLSP(plain: plain)
        let editor = Editor(client, text: "Sum: \nnext")
        if plain {
            client.call(
                "workspace/executeCommand",
                [
                    "command": "maskd.openField",
                    "arguments": [
                        [
                            "textDocument": editor.document.identifier, "range": ClientDocument.range(0, 5, 0, 5),
                            "mask": mask, "field": "sum",
                        ]
                    ],
                ])
        } else {
            editor.openField(0, 5, 5, mask: mask, id: "sum", file: file, lineNumber: line)
        }
        editor.document.cursor = (0, 5)
        editor.type(keys, file: file, line: line)
        if plain { editor.answerApplyEdits(file: file, line: line) }
        return editor
    }

    /// Sends `maskd/closeField` for `sum` (with the editor's cursor as `position` unless `position` is false).
    /// - Returns: the `didFormat`s that came before the result (the result is checked to be null).
    func close(_ editor: Editor, position: Bool = true, file: StaticString = #filePath, line: UInt = #line)
        -> [JSONValue]
    {
        _ = client.take("maskd/didFormat")
        var params: JSONObject = ["textDocument": editor.document.identifier, "field": "sum"]
        if position {
            params["position"] = [
                "line": .int(Int64(editor.document.cursor.line)),
                "character": .int(Int64(editor.document.cursor.character)),
            ]
        }
        XCTAssertEqual(
            client.call("maskd/closeField", .object(params), file: file, line: line), .null,
            file: file, line: line)
        // `call` files every notification read before the response: what is here came before the result.
        return client.take("maskd/didFormat")
    }

    func testClosing_padsTheFraction_asADidFormatBeforeTheResult_andItsEchoIsTheDaemonsOwn() {
        for (keys, shown, closed) in [
            ("12.5", "12.5", "12.50"), ("12", "12", "12.00"), ("1234.5", "1,234.5", "1,234.50"),
            ("0.", "0.", "0.00"), (".5", "0.5", "0.50"),
        ] {
            let editor = typed(keys)
            XCTAssertEqual(editor.document.lines[0], "Sum: " + shown, keys)
            let formats = close(editor)
            XCTAssertEqual(formats.count, 1, "one didFormat for \(keys)")
            guard let format = formats.first else { continue }
            XCTAssertEqual(format["textDocument"]?["version"]?.intValue, editor.document.version, "the current version")
            XCTAssertEqual(format["fields"], .array([]), "the closed field is not listed")
            XCTAssertEqual(format["rejected"], "")
            XCTAssertEqual(format["overflow"], "")
            // The echo produces no didFormat (applyAndEcho checks it), and the daemon's copy is the editor's.
            editor.applyAndEcho(format)
            XCTAssertEqual(
                editor.document.cursorLine, "Sum: " + closed + "|", "the caret at the end goes after the pad")
            XCTAssertEqual(editor.fields, .array([]))
            // Typing after the padded text again is outside any field: nothing is formatted.
            XCTAssertNil(editor.type("7"))
            XCTAssertEqual(editor.document.lines[0], "Sum: " + closed + "7")
            // The daemon's copy is the editor's: a field opened over the padded number reads exactly it.
            let length = closed.utf16.count
            let reopened = client.call(
                "maskd/openField",
                [
                    "textDocument": editor.document.identifier, "range": ClientDocument.range(0, 5, 0, 5 + length),
                    "mask": ClosePaddingTests.padded,
                ])
            XCTAssertEqual(reopened["state"]?["text"]?.stringValue, closed, keys)
            XCTAssertEqual(reopened["edits"], .array([]), keys)
            _ = client.finish()
        }
    }

    func testClosing_nothingToPad_sendsNothing() {
        // Empty, a full fraction, no padFraction, a mask that is not a number.
        for (keys, mask, shown) in [
            ("", ClosePaddingTests.padded, ""), ("12.34", ClosePaddingTests.padded, "12.34"),
            ("12.5", ClosePaddingTests.unpadded, "12.5"),
            ("1234", ClosePaddingTests.unpadded, "1,234"),
            ("5551", ["preset": "phone.us"], "+1 (555) 1"),
            ("12", "[00]{.}[00]", "12"),
        ] {
            let editor = typed(keys, mask: mask)
            XCTAssertEqual(close(editor), [], "\(keys) in \(mask.serializedString())")
            client.sync()
            XCTAssertEqual(client.take("maskd/didFormat"), [])
            XCTAssertEqual(editor.document.lines[0], "Sum: " + shown)
            XCTAssertEqual(editor.fields, .array([]))
            _ = client.finish()
        }
    }

    func testClosing_caret_insideStays_elsewhereMovesWithThePad_noPositionLeavesItNull() {
        var editor = typed("12.5")
        editor.document.cursor = (0, 8)  // 12.|5
        var format = close(editor).first
        editor.applyAndEcho(format ?? .null)
        XCTAssertEqual(editor.document.cursorLine, "Sum: 12.|50")

        editor = typed("12")
        editor.document.cursor = (0, 6)  // 1|2
        format = close(editor).first
        editor.applyAndEcho(format ?? .null)
        XCTAssertEqual(editor.document.cursorLine, "Sum: 1|2.00")

        editor = typed("12.5")
        format = close(editor, position: false).first
        XCTAssertEqual(format?["cursor"], .null, "no position sent: the caret stays where the editor has it")
        XCTAssertEqual(format?["edits"]?.arrayValue?.count, 1)

        editor = typed("12.5")
        editor.document.cursor = (1, 2)  // on another line
        format = close(editor).first
        editor.applyAndEcho(format ?? .null)
        XCTAssertEqual(editor.document.lines[0], "Sum: 12.50")
        XCTAssertEqual(editor.document.cursor.line, 1)
        XCTAssertEqual(editor.document.cursor.character, 2)
    }

    func testClosing_theEchoIsNotAnEditOfTheFieldThatTouchesIt() {
        client = try! DaemonClient()
        client.initializeLSP()
        let editor = Editor(client, text: "A")
        editor.openField(0, 0, 1, mask: "[A]", id: "tail")
        // The amount field right before it, typed into: `12.5A`, `sum` 0-4 and `tail` 4-5.
        editor.openField(0, 0, 0, mask: ClosePaddingTests.padded, id: "sum")
        editor.document.cursor = (0, 0)
        editor.type("12.5")
        XCTAssertEqual(editor.document.lines[0], "12.5A")
        // The pad is inserted where `tail` starts; its echo must move `tail`, not feed it.
        let formats = close(editor, position: false)
        XCTAssertEqual(formats.count, 1)
        editor.applyAndEcho(formats.first ?? .null)
        XCTAssertEqual(editor.document.lines[0], "12.50A")
        let fields = editor.fields.arrayValue ?? []
        XCTAssertEqual(fields.count, 1)
        XCTAssertEqual(fields.first?["field"], "tail")
        XCTAssertEqual(fields.first?["text"], "A", "the pad is not the other field's")
        XCTAssertEqual(fields.first?["range"], ClientDocument.range(0, 5, 0, 6))
    }

    func testClosing_anEmptyFieldAtTheEnd_staysAfterThePad() {
        client = try! DaemonClient()
        client.initializeLSP()
        let editor = Editor(client, text: "")
        editor.openField(0, 0, 0, mask: ClosePaddingTests.padded, id: "sum")
        editor.document.cursor = (0, 0)
        editor.type("12.5")
        // An empty field opened right where `sum` ends: after it in document order.
        editor.openField(0, 4, 4, mask: "[AA]", id: "tail")
        let formats = close(editor, position: false)
        XCTAssertEqual(formats.count, 1)
        editor.applyAndEcho(formats.first ?? .null)
        XCTAssertEqual(
            editor.fields.arrayValue?.first?["range"], ClientDocument.range(0, 5, 0, 5),
            "the empty field stays after the pad")
        // Typing at the end goes into it.
        editor.document.cursor = (0, 5)
        let format = editor.type("a")
        XCTAssertEqual(format?["fields"]?[0]?["field"], "tail")
        XCTAssertEqual(editor.document.lines[0], "12.50a")
    }

    func testPlainClient_closingPads_throughApplyEdit_bothByRequestAndByCommand() {
        var editor = typed("1234.5", plain: true)
        XCTAssertEqual(editor.document.lines[0], "Sum: 1,234.5")
        XCTAssertEqual(close(editor), [], "a plain client gets no didFormat")
        var requests = editor.answerApplyEdits()
        XCTAssertEqual(requests.count, 1)
        XCTAssertNil(requests.first?["params"]?["label"], "no label: an editor may print it")
        // The editor's own rule for an insertion at the cursor: it stays before it.
        XCTAssertEqual(editor.document.cursorLine, "Sum: 1,234.5|0")
        XCTAssertEqual(editor.fields, .array([]))
        _ = client.finish()

        // The code action's command closes the same way, and the editor's echo is the daemon's own.
        editor = typed("12", plain: true)
        let actions =
            client.call(
                "textDocument/codeAction",
                [
                    "textDocument": editor.document.identifier, "range": ClientDocument.range(0, 6, 0, 6),
                    "context": ["diagnostics": []],
                ]
            ).arrayValue ?? []
        guard let closing = actions.first(where: { $0["command"]?["command"] == "maskd.closeField" }) else {
            return XCTFail("no close action in \(actions)")
        }
        XCTAssertEqual(client.call("workspace/executeCommand", closing["command"]!), .null)
        requests = editor.answerApplyEdits()
        XCTAssertEqual(requests.count, 1)
        XCTAssertEqual(editor.document.lines[0], "Sum: 12.00")
        XCTAssertEqual(editor.fields, .array([]))
        XCTAssertEqual(client.takeDiagnostics(editor.document.uri).last?.diagnostics, [])
    }
}
