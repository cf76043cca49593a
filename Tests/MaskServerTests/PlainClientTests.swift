// maskd tests: the plain-client mode: formatting delivered as workspace/applyEdit, no plugin needed.
import JSON
import XCTest

final class PlainClientTests: XCTestCase {
    var client: DaemonClient!

    override func setUpWithError() throws {
        client = try DaemonClient()
        let capabilities = client.initializeLSP(plain: true)["capabilities"]
        XCTAssertEqual(capabilities?["experimental"]?["maskd"]?["edits"], "applyEdit")
    }

    override func tearDown() {
        _ = client?.finish()
        client = nil
    }

    /// What `keys` typed into an empty field of `mask` show, by the stateless oracle.
    func formatted(_ mask: JSONValue, _ keys: String) -> String {
        client.call("maskd/apply", ["mask": mask, "text": .string(keys)])["text"]?.stringValue ?? "?"
    }

    func testTypingSession_bufferStaysInForm_withTheEditorsOwnCursor() {
        let editor = Editor(client, text: "Card: \nTel: ")
        XCTAssertEqual(
            client.call(
                "workspace/executeCommand",
                [
                    "command": "maskd.openField",
                    "arguments": [
                        [
                            "textDocument": editor.document.identifier, "range": ClientDocument.range(0, 6, 0, 6),
                            "mask": ["preset": "card"],
                        ]
                    ],
                ]), .null)
        XCTAssertEqual(editor.answerApplyEdits().count, 0, "an empty field needs no edit")
        editor.document.cursor = (0, 6)
        var typed = ""
        for key in "4111x111111111111" {
            XCTAssertNil(editor.type(String(key)), "a plain client gets no didFormat")
            editor.answerApplyEdits()
            if key != "x" { typed.append(key) }
            XCTAssertEqual(editor.document.lines[0], "Card: " + formatted(["preset": "card"], typed), "after '\(key)'")
            XCTAssertEqual(editor.document.cursor.character, editor.document.lines[0].utf16.count, "after '\(key)'")
        }
        XCTAssertEqual(editor.document.lines[0], "Card: 4111 1111 1111 1111")
        // Backspace over the last digit and its separator, then type them again.
        editor.backspace()
        editor.answerApplyEdits()
        XCTAssertEqual(editor.document.lines[0], "Card: 4111 1111 1111 111")
        editor.backspace()
        editor.backspace()
        editor.backspace()
        editor.answerApplyEdits()
        XCTAssertEqual(editor.document.lines[0], "Card: 4111 1111 1111")
        editor.type("1")
        editor.answerApplyEdits()
        XCTAssertEqual(editor.document.lines[0], "Card: 4111 1111 1111 1")
        editor.type("11")
        editor.answerApplyEdits()
        XCTAssertEqual(editor.document.lines[0], "Card: 4111 1111 1111 111")
        editor.type("1")
        editor.answerApplyEdits()
        XCTAssertEqual(editor.document.lines[0], "Card: 4111 1111 1111 1111")
        XCTAssertEqual(client.takeDiagnostics(editor.document.uri).last?.diagnostics, [])
        XCTAssertEqual(editor.fields[0]?["valid"], true)

        // A phone number on the next line, with the keys sent faster than the edits come back: the edits of the
        // keys before the last are replaced by the newer ones unsent, or (read apart) refused by the editor as
        // for an older version; the last one covers them all.
        editor.document.cursor = (1, 5)
        client.call(
            "workspace/executeCommand",
            [
                "command": "maskd.openField",
                "arguments": [
                    [
                        "textDocument": editor.document.identifier, "range": ClientDocument.range(1, 5, 1, 5),
                        "mask": ["preset": "phone.us"],
                    ]
                ],
            ])
        editor.type("5551")
        editor.type("2")
        let answered = editor.answerApplyEdits()
        XCTAssertTrue((1...5).contains(answered.count), "at most one edit per key: \(answered.count)")
        XCTAssertEqual(editor.document.lines[1], "Tel: +1 (555) 12")
        editor.type("34567")
        editor.answerApplyEdits()
        XCTAssertEqual(editor.document.lines[1], "Tel: +1 (555) 123-4567")
    }

    func testPlainClient_refusedEdit_isDropped_andTheDocumentKeepsServing() {
        let editor = Editor(client, text: "Tel: ")
        client.call(
            "workspace/executeCommand",
            [
                "command": "maskd.openField",
                "arguments": [
                    [
                        "textDocument": editor.document.identifier, "range": ClientDocument.range(0, 5, 0, 5),
                        "mask": ["preset": "phone.us"],
                    ]
                ],
            ])
        editor.document.cursor = (0, 5)
        editor.type("5")
        client.settle()
        let request = client.takeRequests("workspace/applyEdit")
        XCTAssertEqual(request.count, 1)
        XCTAssertNil(request.first?["params"]?["label"], "a keystroke's edit has no label to show")
        XCTAssertEqual(
            request.first?["params"]?["edit"]?["documentChanges"]?[0]?["textDocument"]?["version"],
            .int(Int64(editor.document.version)))
        client.respond(request[0], ["applied": false, "failureReason": "read-only buffer"])
        client.sync()
        XCTAssertTrue(
            client.take("window/logMessage").contains {
                ($0["message"]?.stringValue ?? "").contains("read-only buffer")
            })
        // Nothing waits for an echo any more: the next change is formatted as the person's.
        editor.type("5")
        editor.answerApplyEdits()
        XCTAssertEqual(editor.document.lines[0], "Tel: +1 (55")
    }
}
