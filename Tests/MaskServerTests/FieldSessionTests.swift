// maskd tests: field sessions over real pipes: typing, echo, tracking, encodings.
import JSON
import XCTest

final class FieldSessionTests: XCTestCase {
    var client: DaemonClient!

    override func setUpWithError() throws {
        client = try DaemonClient()
        client.initialize()
    }

    override func tearDown() {
        _ = client?.finish()
        client = nil
    }

    /// Types `keys` into an empty field after a label, checking every keystroke against the
    /// stateless `maskd/apply` of the same keystroke.
    func checkTyping(
        _ mask: JSONValue, _ keys: String, expect: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        let editor = Editor(client, uri: "file:///typing/\(keys.hashValue)", text: "Tel: ")
        editor.openField(0, 5, 5, mask: mask, file: file, lineNumber: line)
        editor.document.cursor = (0, 5)
        var field = "", caret = 0
        for key in keys {
            let oracle = client.call(
                "maskd/apply",
                [
                    "mask": mask, "text": .string(field),
                    "edit": [
                        "start": .int(Int64(caret)), "end": .int(Int64(caret)),
                        "text": .string(String(key)),
                    ],
                ])
            field = oracle["text"]!.stringValue!
            caret = oracle["caret"]!.intValue!
            let format = editor.type(String(key), file: file, line: line)
            XCTAssertNotNil(format, "no didFormat for '\(key)'", file: file, line: line)
            XCTAssertEqual(editor.document.lines[0], "Tel: " + field, "after '\(key)'", file: file, line: line)
            XCTAssertEqual(editor.document.cursor.character, 5 + caret, "caret after '\(key)'", file: file, line: line)
            XCTAssertEqual(format?["fields"]?[0]?["text"]?.stringValue, field, file: file, line: line)
        }
        XCTAssertEqual(editor.document.lines[0], "Tel: " + expect, file: file, line: line)
        let state = editor.fields[0]
        XCTAssertEqual(state?["text"]?.stringValue, expect, file: file, line: line)
        XCTAssertEqual(state?["range"], ClientDocument.range(0, 5, 0, 5 + expect.utf16.count), file: file, line: line)
    }

    func testTyping_seedMasks_keystrokeByKeystroke() {
        checkTyping("+1 ([000]) [000]-[0000]", "5551234567", expect: "+1 (555) 123-4567")
        checkTyping("[0000] [0000] [0000] [0000] [999]", "4111111111111111", expect: "4111 1111 1111 1111")
        checkTyping(
            ["separatorAt": [3, 8], "separator": " ", "accept": "digits", "maxLength": 11], "13800138000",
            expect: "138 0013 8000")
        checkTyping(
            ["groups": [6, 8, 4], "accept": "digitsX", "separator": " "], "11010519491231002x",
            expect: "110105 19491231 002X")
        checkTyping(["pattern": "+1 (###) ###-####"], "5551234567", expect: "+1 (555) 123-4567")
        checkTyping("{7} ([000]) [000] - [9999]", "9161234567", expect: "7 (916) 123 - 4567")
    }

    func testOpenField_overExistingText_formatsIt_andShapesAreRight() {
        let editor = Editor(client, text: "call 5551234567 now")
        let result = editor.openField(0, 5, 15, mask: "+1 ([000]) [000]-[0000]", id: "phone")
        XCTAssertEqual(result["field"], "phone")
        XCTAssertEqual(result["version"], 3)
        XCTAssertEqual(result["cursor"], ["line": 0, "character": 22])
        XCTAssertEqual(editor.document.lines[0], "call +1 (555) 123-4567 now")
        let state = result["state"]!
        XCTAssertEqual(state["field"], "phone")
        XCTAssertEqual(state["range"], ClientDocument.range(0, 5, 0, 22))
        XCTAssertEqual(state["text"], "+1 (555) 123-4567")
        XCTAssertEqual(state["value"], "5551234567")
        XCTAssertEqual(state["complete"], true)
        XCTAssertEqual(state["valid"], true)
        XCTAssertEqual(state["problems"], [])
        XCTAssertEqual(state["next"], .null)
        XCTAssertEqual(state["mask"], "+1 ([000]) [000]-[0000]")
        XCTAssertNotNil(state["placeholder"]?.stringValue)
        XCTAssertEqual(editor.fields, [state])
        let hint = client.call(
            "maskd/formatHints",
            [
                "textDocument": editor.document.identifier,
                "position": ["line": 0, "character": 22],
            ])
        XCTAssertEqual(hint, state)
        XCTAssertEqual(
            client.call(
                "maskd/formatHints",
                [
                    "textDocument": editor.document.identifier,
                    "position": ["line": 0, "character": 2],
                ]), .null)
        // Already in form: no edits, no cursor.
        let again = client.call(
            "maskd/openField",
            [
                "textDocument": editor.document.identifier,
                "range": ClientDocument.range(0, 0, 0, 4), "mask": "[AAAA]",
            ])
        XCTAssertEqual(again["edits"], [])
        XCTAssertEqual(again["cursor"], .null)
        XCTAssertEqual(again["field"], "f1")
        XCTAssertEqual(
            client.call("maskd/closeField", ["textDocument": editor.document.identifier, "field": "f1"]), .null)
        XCTAssertEqual(editor.fields.arrayValue?.count, 1)
        client.callFailing(
            "maskd/closeField", ["textDocument": editor.document.identifier, "field": "f1"], code: -32602)
    }

    func testSetMask_midInput_reflows() {
        let editor = Editor(client, text: "")
        editor.openField(0, 0, 0, mask: "+1 ([000]) [000]-[0000]", id: "n")
        editor.type("4111111")
        XCTAssertEqual(editor.document.lines[0], "+1 (411) 111-1")
        let result = client.call(
            "maskd/setMask",
            [
                "textDocument": editor.document.identifier, "field": "n",
                "mask": "[0000] [0000] [0000] [0000] [999]",
            ])
        editor.applyAndEcho(result)
        XCTAssertEqual(editor.document.lines[0], "4111 111")
        XCTAssertEqual(result["state"]?["mask"], "[0000] [0000] [0000] [0000] [999]")
        XCTAssertEqual(editor.document.cursor.character, 8)
        editor.type("1")
        XCTAssertEqual(editor.document.lines[0], "4111 1111")
    }

    func testEcho_splitTogetherFullContent_andSkippedVersions_produceNoDidFormat() {
        for style in [EchoStyle.together, .split, .fullContent] {
            let editor = Editor(client, uri: "file:///echo/\(style)", text: "x\n")
            editor.echo = style
            editor.versionStep = 5
            editor.openField(1, 0, 0, mask: "[0000] [0000] [0000] [0000] [999]")
            editor.document.cursor = (1, 0)
            editor.type("12345678")
            XCTAssertEqual(editor.document.lines[1], "1234 5678", "\(style)")
            // A deletion in the middle re-flows the rest (several edits to echo).
            editor.document.cursor = (1, 2)
            editor.backspace()
            XCTAssertEqual(editor.document.lines[1], "1345 678", "\(style)")
            XCTAssertEqual(editor.document.cursor.character, 1, "\(style)")
        }
    }

    func testDroppedDidFormat_nextKeystroke_converges() {
        let editor = Editor(client, text: "")
        editor.openField(0, 0, 0, mask: "+1 ([000]) [000]-[0000]")
        editor.document.cursor = (0, 0)
        editor.echo = .none
        editor.type("5")
        XCTAssertEqual(editor.document.lines[0], "5")
        editor.echo = .together
        editor.type("5")
        XCTAssertEqual(editor.document.lines[0], "+1 (55")
        editor.type("5123")
        XCTAssertEqual(editor.document.lines[0], "+1 (555) 123")
    }

    /// Keys typed faster than the answers come: the editor drops a `didFormat` that would have taken out what the
    /// mask refused, and the next key's `didFormat` takes it out instead (the field is formatted whole again).
    func testDroppedDidFormat_refusedTextGoesWithTheNextKeystroke() {
        let editor = Editor(client, text: "")
        editor.openField(0, 0, 0, mask: "+1 ([000]) [000]-[0000]")
        editor.document.cursor = (0, 0)
        editor.echo = .none
        let paste = editor.send([editor.change(0, 0, 0, "+1 (555) 123-4567 ex")])
        XCTAssertEqual(paste?["rejected"], " ex")
        XCTAssertEqual(editor.document.lines[0], "+1 (555) 123-4567 ex")
        editor.echo = .together
        let key = editor.type("t")
        XCTAssertEqual(editor.document.lines[0], "+1 (555) 123-4567")
        XCTAssertEqual(editor.document.cursor.character, 17)
        XCTAssertEqual(key?["rejected"], "t ex")
        XCTAssertEqual(key?["fields"]?[0]?["complete"], true)
        // In form again: the next key is refused as usual, and nothing else changes.
        XCTAssertEqual(editor.type("9")?["overflow"], "9")
        XCTAssertEqual(editor.document.lines[0], "+1 (555) 123-4567")
    }

    /// A dropped `didFormat`, then the person goes on elsewhere: the field is formatted in the `didFormat` of that
    /// change, and the caret stays where the person is.
    func testDroppedDidFormat_personTypesElsewhere_fieldIsFormattedStill() {
        let editor = Editor(client, text: "Card: \nName: ")
        editor.openField(0, 6, 6, mask: "[0000] [0000]")
        editor.document.cursor = (0, 6)
        editor.echo = .none
        editor.type("12345x")
        XCTAssertEqual(editor.document.lines[0], "Card: 12345x")
        editor.echo = .together
        editor.document.cursor = (1, 6)
        let format = editor.type("A")
        XCTAssertEqual(editor.document.lines, ["Card: 1234 5", "Name: A"])
        XCTAssertEqual(format?["rejected"], "x")
        XCTAssertEqual(format?["cursor"]?["line"], 1)
        XCTAssertEqual(format?["cursor"]?["character"], 7)
        // Typing on outside the field sends nothing more.
        XCTAssertNil(editor.type("n"))
        XCTAssertEqual(editor.document.lines, ["Card: 1234 5", "Name: An"])
    }

    /// Brought back into form while the person is still typing: a `padFraction` number gets no zeros yet.
    func testDroppedDidFormat_numberWithPadFraction_isNotPaddedMidTyping() {
        let editor = Editor(client, text: "")
        editor.openField(0, 0, 0, mask: ["number": ["group": ",", "decimal": ".", "fraction": 2, "padFraction": true]])
        editor.document.cursor = (0, 0)
        editor.echo = .none
        editor.type("1234x")
        XCTAssertEqual(editor.document.lines[0], "1234x")
        editor.echo = .together
        editor.type(".5")
        XCTAssertEqual(editor.document.lines[0], "1,234.5")
        XCTAssertEqual(editor.document.cursor.character, 7)
    }

    func testRefusedCharacter_andPasteWithJunk_reportRejected() {
        let editor = Editor(client, text: "")
        editor.openField(0, 0, 0, mask: "[0000] [0000]")
        editor.document.cursor = (0, 0)
        let refused = editor.type("a")
        XCTAssertEqual(refused?["rejected"], "a")
        XCTAssertEqual(editor.document.lines[0], "")
        XCTAssertEqual(editor.document.cursor.character, 0)
        let paste = editor.send([editor.change(0, 0, 0, "12-34 ab 5678 9")])
        XCTAssertEqual(editor.document.lines[0], "1234 5678")
        // The space after 34 is consumed as the separator; the other two spaces fit nowhere.
        XCTAssertEqual(paste?["rejected"], "-ab  ")
        XCTAssertEqual(paste?["overflow"], "9")
        XCTAssertEqual(paste?["fields"]?[0]?["complete"], true)
    }

    func testTracking_editsBeforeShift_enterAfterFieldJustWorks_linesShiftFields() {
        let editor = Editor(client, text: "a\nTel: ")
        editor.openField(1, 5, 5, mask: "+1 ([000]) [000]-[0000]", id: "p")
        editor.document.cursor = (1, 5)
        editor.type("555")
        XCTAssertEqual(editor.document.lines[1], "Tel: +1 (555")
        // Typing before the field shifts it and formats nothing.
        XCTAssertNil(editor.send([editor.change(1, 0, 0, "My ")]))
        // Enter at the field's end: a new line, no didFormat, the field stays.
        XCTAssertNil(editor.send([editor.change(1, 15, 15, "\n")]))
        XCTAssertEqual(editor.document.lines, ["a", "My Tel: +1 (555", ""])
        XCTAssertNil(editor.send([editor.change(2, 0, 0, "next")]))
        // Lines inserted above move the field down.
        XCTAssertNil(editor.send([editor.change(0, 0, 0, "0\n1\n")]))
        let state = editor.fields[0]!
        XCTAssertEqual(state["range"], ClientDocument.range(3, 8, 3, 15))
        XCTAssertEqual(state["text"], "+1 (555")
        // Typing at the field's end extends it.
        editor.document.cursor = (3, 15)
        editor.type("1")
        XCTAssertEqual(editor.document.lines[3], "My Tel: +1 (555) 1")
        // A deletion from before the field into it clips it: it keeps what is left, as it is (not typing into it).
        let clipped = editor.send([editor.change(3, 6, 10, "")])
        XCTAssertEqual(clipped?["edits"], [])
        XCTAssertEqual(editor.document.lines[3], "My Tel (555) 1")
        XCTAssertEqual(editor.fields[0]?["range"], ClientDocument.range(3, 6, 3, 14))
        // A deletion of the field and more (the line's text, as `S` does) closes it.
        XCTAssertEqual(editor.send([editor.change(3, 0, 14, "x")])?["closed"], ["p"])
        XCTAssertEqual(editor.document.lines[3], "x")
        XCTAssertEqual(editor.fields, [])
    }

    func testMultipleChangesInOneDidChange_twoFields() {
        let editor = Editor(client, text: "[] []")
        editor.openField(0, 1, 1, mask: "[00]-[00]", id: "a")
        editor.openField(0, 4, 4, mask: "[00]-[00]", id: "b")
        XCTAssertNotNil(editor.send([editor.change(0, 1, 1, "123"), editor.change(0, 7, 7, "456")]))
        XCTAssertEqual(editor.document.lines[0], "[12-3] [45-6]")
        XCTAssertEqual(editor.document.cursor.character, 12)
        let states = editor.fields.arrayValue ?? []
        XCTAssertEqual(states.map { $0["field"]! }, ["a", "b"])
        XCTAssertEqual(states.map { $0["text"]! }, ["12-3", "45-6"])
    }

    func testEncodings_emojiAndAccent_positionsCountedInEachEncoding() throws {
        for (encoding, prefixLength, emoji, accent) in [("utf-8", 7, 4, 2), ("utf-16", 4, 2, 1), ("utf-32", 3, 1, 1)] {
            let c = try DaemonClient()
            c.initialize(encodings: [encoding])
            // "😀é " is 4+2+1 bytes, 2+1+1 UTF-16 units, 3 scalars.
            let editor = Editor(c, text: "😀é ", encoding: encoding)
            editor.openField(0, prefixLength, prefixLength, mask: "[00]-[00]")
            editor.document.cursor = (0, prefixLength)
            editor.type("123")
            XCTAssertEqual(editor.document.lines[0], "😀é 12-3", encoding)
            XCTAssertEqual(editor.document.cursor.character, prefixLength + 4, encoding)
            XCTAssertEqual(
                editor.fields[0]?["range"], ClientDocument.range(0, prefixLength, 0, prefixLength + 4), encoding)
            let applied = c.call(
                "maskd/apply",
                [
                    "mask": "[*]-[*]", "text": "😀",
                    "edit": [
                        "start": .int(Int64(emoji)),
                        "end": .int(Int64(emoji)), "text": "é",
                    ],
                ])
            XCTAssertEqual(applied["text"], "😀-é", encoding)
            XCTAssertEqual(applied["caret"]?.intValue, emoji + 1 + accent, encoding)
            _ = c.finish()
        }
    }

    func testSeveralDocuments_areIndependent() {
        let a = Editor(client, uri: "file:///a", text: "")
        let b = Editor(client, uri: "file:///b", text: "")
        a.openField(0, 0, 0, mask: "[00]-[00]")
        b.openField(0, 0, 0, mask: "[000] [000]")
        a.document.cursor = (0, 0)
        b.document.cursor = (0, 0)
        a.type("123")
        b.type("1234")
        a.type("4")
        XCTAssertEqual(a.document.lines[0], "12-34")
        XCTAssertEqual(b.document.lines[0], "123 4")
        client.notify("textDocument/didClose", ["textDocument": a.document.identifier])
        client.callFailing("maskd/fields", ["textDocument": a.document.identifier], code: -32602)
        XCTAssertEqual(b.fields.arrayValue?.count, 1)
    }
}
