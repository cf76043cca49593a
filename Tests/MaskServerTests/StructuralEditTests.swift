// maskd tests: changes that are not typing into a field (a line deleted, replaced, split, joined or restored by an
// undo) keep the editor's text exactly, over real pipes; the field closes or keeps what is left of it.
import JSON
import XCTest

final class StructuralEditTests: XCTestCase {
    var client: DaemonClient!

    override func setUpWithError() throws {
        client = try DaemonClient()
    }

    override func tearDown() {
        _ = client?.finish()
        client = nil
    }

    /// `Name: Bob` / `Tel: ` (and `more` lines) with a `phone.us` field after `Tel: `, `2015550123` typed into it.
    func typedPhone(_ more: [String] = []) -> (Editor, String) {
        client.initialize()
        let editor = Editor(client, text: (["Name: Bob", "Tel: "] + more).joined(separator: "\n"))
        let id = editor.openField(1, 5, 5, mask: ["preset": "phone.us"])["field"]!.stringValue!
        editor.document.cursor = (1, 5)
        editor.type("2015550123")
        XCTAssertEqual(editor.document.lines[1], "Tel: +1 (201) 555-0123")
        return (editor, id)
    }

    /// Sends one person's change over `sl:sc`-`el:ec`, applied to the editor's copy first, and checks that the
    /// daemon's `didFormat` (if any) proposes no edit. - Returns: that `didFormat`.
    @discardableResult
    func structural(
        _ editor: Editor, _ sl: Int, _ sc: Int, _ el: Int, _ ec: Int, _ text: String,
        file: StaticString = #filePath, line: UInt = #line
    ) -> JSONValue? {
        editor.document.replace(line: sl, from: sc, to: ec, endLine: el, with: text)
        let format = editor.send(
            [["range": ClientDocument.range(sl, sc, el, ec), "text": .string(text)]], file: file, line: line)
        XCTAssertEqual(
            format?["edits"]?.arrayValue ?? [], [], "the text is kept as the editor has it", file: file, line: line)
        return format
    }

    func testDeleteTheFieldsLine_thenUndo_givesTheLineBackExactly() {
        let (editor, id) = typedPhone(["Card: 3782 822463 10005"])
        // `dd` on the field's line: the line and its break.
        let deleted = structural(editor, 1, 0, 2, 0, "")
        XCTAssertEqual(deleted?["closed"], [.string(id)], "the field is closed: nothing is drawn for it")
        XCTAssertEqual(editor.document.text, "Name: Bob\nCard: 3782 822463 10005")
        XCTAssertEqual(editor.fields, [])
        // `u`: the exact line put back.
        XCTAssertNil(structural(editor, 1, 0, 1, 0, "Tel: +1 (201) 555-0123\n"))
        XCTAssertEqual(editor.document.text, "Name: Bob\nTel: +1 (201) 555-0123\nCard: 3782 822463 10005")
        XCTAssertEqual(editor.fields, [])
        // Typing on the restored line is plain typing.
        editor.document.cursor = (1, 22)
        XCTAssertNil(editor.type("4"))
        XCTAssertEqual(editor.document.lines[1], "Tel: +1 (201) 555-01234")
    }

    func testDeleteTheLastLine_fromTheEndOfTheLineBefore_thenUndo() {
        let (editor, id) = typedPhone()
        // `dd` on the last line is reported from the end of the line before.
        XCTAssertEqual(structural(editor, 0, 9, 1, 22, "")?["closed"], [.string(id)])
        XCTAssertEqual(editor.document.text, "Name: Bob")
        XCTAssertNil(structural(editor, 0, 9, 0, 9, "\nTel: +1 (201) 555-0123"))
        XCTAssertEqual(editor.document.text, "Name: Bob\nTel: +1 (201) 555-0123")
        XCTAssertEqual(editor.fields, [])
        // The same line deleted as Emacs's C-a C-k C-k does (the text, then the break), and restored in two steps.
        let restored = editor.document.text
        XCTAssertNil(structural(editor, 1, 0, 1, 22, ""), "no field there any more")
        XCTAssertNil(structural(editor, 0, 9, 1, 0, ""))
        XCTAssertNil(structural(editor, 0, 9, 0, 9, "\n"))
        XCTAssertNil(structural(editor, 1, 0, 1, 0, "Tel: +1 (201) 555-0123"))
        XCTAssertEqual(editor.document.text, restored)
    }

    func testKillTheLinesText_thenItsBreak_closesTheField_andTheUndoKeepsTheText() {
        let (editor, id) = typedPhone(["Card: 3782 822463 10005"])
        // Emacs C-a C-k: the line's text, label and field: the field closes.
        XCTAssertEqual(structural(editor, 1, 0, 1, 22, "")?["closed"], [.string(id)])
        XCTAssertNil(structural(editor, 1, 0, 2, 0, ""), "the empty line's break: no field left to close")
        XCTAssertEqual(editor.document.text, "Name: Bob\nCard: 3782 822463 10005")
        XCTAssertNil(structural(editor, 1, 0, 1, 0, "\n"))
        XCTAssertNil(structural(editor, 1, 0, 1, 0, "Tel: +1 (201) 555-0123"))
        XCTAssertEqual(editor.document.text, "Name: Bob\nTel: +1 (201) 555-0123\nCard: 3782 822463 10005")
    }

    func testSubstituteTheFieldsLine_thenTypeASentence_keepsEveryLetter() {
        let (editor, id) = typedPhone()
        // `S` / `cc`: the line's text replaced (deleted), then typed.
        XCTAssertEqual(structural(editor, 1, 0, 1, 22, "")?["closed"], [.string(id)])
        editor.document.cursor = (1, 0)
        XCTAssertNil(editor.type("Hello world"), "no field there: typing is the person's")
        XCTAssertEqual(editor.document.text, "Name: Bob\nHello world")
        XCTAssertEqual(editor.fields, [])
        // The undo of it all: the line's text back as it was.
        XCTAssertNil(structural(editor, 1, 0, 1, 11, "Tel: +1 (201) 555-0123"))
        XCTAssertEqual(editor.document.lines[1], "Tel: +1 (201) 555-0123")
    }

    func testSubstituteALineWithAnEmptyField_thenTypeASentence_keepsEveryLetter() {
        client.initialize()
        let editor = Editor(client, text: "Name: Bob\nTel: \nEnd")
        let id = editor.openField(1, 5, 5, mask: ["preset": "phone.us"])["field"]!.stringValue!
        XCTAssertEqual(structural(editor, 1, 0, 1, 5, "")?["closed"], [.string(id)], "its line's text is gone")
        editor.document.cursor = (1, 0)
        XCTAssertNil(editor.type("Hello world"))
        XCTAssertEqual(editor.document.text, "Name: Bob\nHello world\nEnd")
        // dd of the last line holding an empty field, reported from the end of the line before.
        let second = Editor(client, uri: "file:///tmp/second.txt", text: "Name: Bob\nTel: ")
        let other = second.openField(1, 5, 5, mask: ["preset": "phone.us"])["field"]!.stringValue!
        XCTAssertEqual(structural(second, 0, 9, 1, 5, "")?["closed"], [.string(other)])
        XCTAssertNil(structural(second, 0, 9, 0, 9, "\nTel: "))
        XCTAssertEqual(second.fields, [])
        // A backspace in the label before an empty field is not its line's text: the field stays.
        let third = Editor(client, uri: "file:///tmp/third.txt", text: "Tel: ")
        third.openField(0, 5, 5, mask: ["preset": "phone.us"])
        XCTAssertNil(structural(third, 0, 4, 0, 5, ""))
        XCTAssertEqual(third.fields[0]?["range"], ClientDocument.range(0, 4, 0, 4))
    }

    func testChangeTheFieldsTextExactly_isTypingIntoIt() {
        let (editor, id) = typedPhone()
        // `C` at the field's start, a selection of exactly the field: the field's own edit, emptied and open.
        let emptied = structural(editor, 1, 5, 1, 22, "")
        XCTAssertNil(emptied?["closed"])
        XCTAssertEqual(emptied?["fields"]?[0]?["field"], .string(id))
        editor.document.cursor = (1, 5)
        editor.type("5551234567")
        XCTAssertEqual(editor.document.lines[1], "Tel: +1 (555) 123-4567")
    }

    func testSelectionFromBeforeTheFieldIntoIt_keepsTheText_andTheFieldKeepsWhatIsLeft() {
        let (editor, id) = typedPhone()
        let format = structural(editor, 1, 3, 1, 10, "X")
        XCTAssertEqual(editor.document.lines[1], "TelX01) 555-0123")
        XCTAssertEqual(format?["fields"]?[0]?["field"], .string(id))
        XCTAssertEqual(format?["fields"]?[0]?["text"], "01) 555-0123")
        XCTAssertEqual(editor.fields[0]?["range"], ClientDocument.range(1, 4, 1, 16))
        // The undo: the text back exactly, and the field back where it stood.
        structural(editor, 1, 3, 1, 4, ": +1 (2")
        XCTAssertEqual(editor.document.lines[1], "Tel: +1 (201) 555-0123")
        XCTAssertEqual(editor.fields[0]?["text"], "+1 (201) 555-0123")
        XCTAssertEqual(editor.fields[0]?["range"], ClientDocument.range(1, 5, 1, 22))
    }

    /// `de` from the label's space into the field, then `u`: the undo puts ` +` back at the clipped field's start,
    /// which the field takes as typed. The line is given back as it was, so the field is too, and nothing of it is
    /// formatted then or at any later change (a field read afresh would turn it into `+1 (120) 155-5012`).
    func testDeleteFromTheLabelIntoTheField_thenUndo_thenTypeElsewhere_keepsTheLine() {
        let (editor, _) = typedPhone()
        structural(editor, 1, 4, 1, 6, "")
        XCTAssertEqual(editor.document.lines[1], "Tel:1 (201) 555-0123")
        XCTAssertEqual(editor.fields[0]?["text"], "1 (201) 555-0123")
        let undo = structural(editor, 1, 4, 1, 4, " +")
        XCTAssertEqual(undo?["fields"]?[0]?["text"], "+1 (201) 555-0123")
        XCTAssertEqual(editor.fields[0]?["range"], ClientDocument.range(1, 5, 1, 22))
        XCTAssertNil(structural(editor, 0, 1, 0, 1, ";"), "a change elsewhere formats nothing")
        XCTAssertEqual(editor.document.text, "N;ame: Bob\nTel: +1 (201) 555-0123")
        XCTAssertEqual(editor.fields[0]?["text"], "+1 (201) 555-0123")
    }

    /// A change next to the field that leaves it where it is, then its reverse: the line is given back, and with
    /// the field where it stood there is nothing to tell (no `didFormat`, so the editor's cursor stays its own).
    func testChangeNextToTheField_andBack_tellsNothing() {
        let (editor, _) = typedPhone()
        XCTAssertNil(structural(editor, 1, 4, 1, 5, "_"))
        XCTAssertNil(structural(editor, 1, 4, 1, 5, " "))
        XCTAssertEqual(editor.fields[0]?["range"], ClientDocument.range(1, 5, 1, 22))
    }

    /// `D` right after the field (its line joined to the next), then `u`: the undo puts the text back at the field's
    /// end, which the field takes as typed; the line is given back, so the field keeps its own text.
    func testDeleteAfterTheField_thenUndo_thenTypeElsewhere_keepsTheLine() {
        let (editor, _) = typedPhone(["Note: call after 5"])
        structural(editor, 1, 22, 2, 0, "")
        XCTAssertEqual(editor.document.lines[1], "Tel: +1 (201) 555-0123Note: call after 5")
        XCTAssertEqual(editor.fields[0]?["text"], "+1 (201) 555-0123")
        structural(editor, 1, 22, 1, 40, "")
        structural(editor, 1, 22, 1, 22, "Note: call after 5")
        XCTAssertEqual(editor.fields[0]?["text"], "+1 (201) 555-0123")
        XCTAssertEqual(editor.fields[0]?["range"], ClientDocument.range(1, 5, 1, 22))
        XCTAssertNil(structural(editor, 0, 1, 0, 1, ";"), "a change elsewhere formats nothing")
        XCTAssertEqual(editor.document.lines[1], "Tel: +1 (201) 555-0123Note: call after 5")
    }

    func testEnterInsideTheField_thenJoin_keepTheTextExactly() {
        let (editor, id) = typedPhone()
        // A line break put in the middle: the field keeps its left part, unformatted.
        let split = structural(editor, 1, 14, 1, 14, "\n")
        XCTAssertEqual(editor.document.text, "Name: Bob\nTel: +1 (201) \n555-0123")
        XCTAssertEqual(split?["fields"]?[0]?["text"], "+1 (201) ")
        // `J` / the undo: the break taken out.
        structural(editor, 1, 14, 2, 0, "")
        XCTAssertEqual(editor.document.text, "Name: Bob\nTel: +1 (201) 555-0123")
        XCTAssertEqual(editor.fields[0]?["field"], .string(id))
        // `J` joining the line before onto it (a space for the break).
        structural(editor, 0, 9, 1, 0, " ")
        XCTAssertEqual(editor.document.text, "Name: Bob Tel: +1 (201) 555-0123")
    }

    func testPasteOfAFieldLine_aboveAndBelow_keepsItsText() {
        let (editor, _) = typedPhone()
        // `yyP` and `yyp` of the field's line.
        XCTAssertNil(structural(editor, 1, 0, 1, 0, "Tel: +1 (201) 555-0123\n"))
        XCTAssertNil(structural(editor, 2, 22, 2, 22, "\nTel: +1 (201) 555-0123"))
        XCTAssertEqual(
            editor.document.text, "Name: Bob\nTel: +1 (201) 555-0123\nTel: +1 (201) 555-0123\nTel: +1 (201) 555-0123")
        XCTAssertEqual(
            editor.fields.arrayValue?.map { $0["range"] }, [ClientDocument.range(2, 5, 2, 22)],
            "the field stays on its line")
    }

    func testWholeBufferReplace_closesTheFields_andTheUndoGivesTheTextBack() {
        let (editor, id) = typedPhone()
        let before = editor.document.text
        editor.document.lines = ["Something else"]
        let format = editor.send([["text": "Something else"]])
        XCTAssertEqual(format?["closed"], [.string(id)])
        XCTAssertEqual(format?["edits"]?.arrayValue ?? [], [])
        editor.document.lines = before.components(separatedBy: "\n")
        XCTAssertNil(editor.send([["text": .string(before)]]))
        XCTAssertEqual(editor.document.text, before)
    }

    // MARK: - Field rules

    func initialize(rules: JSONValue) {
        client.call(
            "initialize",
            [
                "processId": .int(Int64(getpid())), "capabilities": [:],
                "initializationOptions": ["diagnosticsDelay": 0, "rules": rules],
            ])
        client.notify("initialized", [:])
    }

    func testRuleField_lineDeletedAndRestored_opensOverTheTextAsItStands() {
        initialize(rules: [["match": "^Tel: (.*)$", "mask": ["preset": "phone.us"]]])
        let editor = Editor(client, text: "Name: Bob\nTel: 2015550123\nEnd")
        client.sync()
        let opened = client.take("maskd/didFormat")
        XCTAssertEqual(opened.count, 1)
        editor.applyAndEcho(opened[0])
        XCTAssertEqual(editor.document.lines[1], "Tel: +1 (201) 555-0123", "a document opens with its fields formatted")
        XCTAssertNotNil(structural(editor, 1, 0, 2, 0, "")?["closed"])
        // The undo puts the line back; the rule opens its field again over the text as it is.
        let restored = structural(editor, 1, 0, 1, 0, "Tel: +1 (201) 555-0123\n")
        XCTAssertEqual(restored?["fields"]?[0]?["text"], "+1 (201) 555-0123")
        XCTAssertEqual(editor.document.text, "Name: Bob\nTel: +1 (201) 555-0123\nEnd")
        // A pasted line whose value is not in form: opened as it stands, not formatted; typing in it formats.
        let pasted = structural(editor, 2, 0, 2, 0, "Tel: 201.555.0199\n")
        XCTAssertEqual(pasted?["fields"]?[0]?["text"], "201.555.0199")
        XCTAssertEqual(editor.document.lines[2], "Tel: 201.555.0199")
        // A value typed on one line where the rule matches is the person writing it: formatted.
        editor.document.cursor = (3, 3)
        editor.type("\nTel: ")
        editor.type("5")
        XCTAssertEqual(editor.document.lines[4], "Tel: +1 (5")
    }
}
