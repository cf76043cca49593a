// maskd tests: `textDocument/formatting` and `rangeFormatting` bring fields left out of form back.
import JSON
import XCTest

final class FormattingTests: XCTestCase {
    var client: DaemonClient!

    override func setUpWithError() throws {
        client = try DaemonClient()
        client.initializeLSP()
    }

    override func tearDown() {
        _ = client?.finish()
        client = nil
    }

    func testFormatting_fieldsWhoseDidFormatWasDropped_comeBackIntoForm_andTheEchoIsQuiet() {
        let editor = Editor(client, text: "Card: \nTel: \nName: x")
        editor.openField(0, 6, 6, mask: ["preset": "card"], id: "card")
        editor.openField(1, 5, 5, mask: ["preset": "phone.us"], id: "tel")
        // An editor without a maskd plugin: it drops every didFormat.
        editor.echo = .none
        editor.document.cursor = (0, 6)
        editor.type("41111")
        editor.document.cursor = (1, 5)
        editor.type("5551")
        XCTAssertEqual(editor.document.lines, ["Card: 41111", "Tel: 5551", "Name: x"])
        editor.echo = .together

        let ranged = client.call(
            "textDocument/rangeFormatting",
            [
                "textDocument": editor.document.identifier, "range": ClientDocument.range(1, 0, 1, 9),
                "options": ["tabSize": 4, "insertSpaces": true],
            ])
        XCTAssertEqual(
            ranged,
            [
                ["range": ClientDocument.range(1, 5, 1, 5), "newText": "+1 ("],
                ["range": ClientDocument.range(1, 8, 1, 8), "newText": ") "],
            ])
        editor.applyAndEcho(["edits": ranged])
        XCTAssertEqual(editor.document.lines, ["Card: 41111", "Tel: +1 (555) 1", "Name: x"])

        let all = client.call(
            "textDocument/formatting",
            [
                "textDocument": editor.document.identifier,
                "options": ["tabSize": 4, "insertSpaces": true],
            ])
        XCTAssertEqual(all, [["range": ClientDocument.range(0, 10, 0, 10), "newText": " "]])
        editor.applyAndEcho(["edits": all])
        XCTAssertEqual(editor.document.lines, ["Card: 4111 1", "Tel: +1 (555) 1", "Name: x"])

        // In form: nothing to do; typing goes on as usual.
        XCTAssertEqual(
            client.call(
                "textDocument/formatting",
                [
                    "textDocument": editor.document.identifier,
                    "options": ["tabSize": 4, "insertSpaces": true],
                ]), [])
        editor.document.cursor = (0, 12)
        XCTAssertNotNil(editor.type("1"))
        XCTAssertEqual(editor.document.lines[0], "Card: 4111 11")
        XCTAssertEqual(
            client.call(
                "textDocument/rangeFormatting",
                [
                    "textDocument": editor.document.identifier, "range": ClientDocument.range(2, 0, 2, 7),
                    "options": ["tabSize": 4, "insertSpaces": true],
                ]), [])
        client.callFailing(
            "textDocument/formatting", ["textDocument": ["uri": "file:///nowhere"], "options": [:]],
            code: -32602)
    }
}
