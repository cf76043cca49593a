// maskd tests: bad input of every kind is answered clearly, and nothing is lost.
import JSON
import XCTest

final class BadInputTests: XCTestCase {
    var client: DaemonClient!
    var editor: Editor!

    /// A daemon with one document holding one field, `+1 (555) 12`.
    override func setUpWithError() throws {
        client = try DaemonClient()
        client.initialize()
        editor = Editor(client, text: "Tel: \nend")
        editor.openField(0, 5, 5, mask: "+1 ([000]) [000]-[0000]", id: "p")
        editor.document.cursor = (0, 5)
        editor.type("55512")
        XCTAssertEqual(editor.document.lines[0], "Tel: +1 (555) 12")
    }

    override func tearDown() {
        _ = client?.finish()
        client = nil
        editor = nil
    }

    /// The document and field are exactly as before, and the daemon still formats.
    func checkStateKept(file: StaticString = #filePath, line: UInt = #line) {
        let fields = editor.fields
        XCTAssertEqual(fields[0]?["text"], "+1 (555) 12", file: file, line: line)
        XCTAssertEqual(fields[0]?["range"], ClientDocument.range(0, 5, 0, 16), file: file, line: line)
        editor.type("3", file: file, line: line)
        XCTAssertEqual(editor.document.lines[0], "Tel: +1 (555) 123", file: file, line: line)
    }

    func testNonJSON_isParseError() {
        client.writeFrame(Array("{not json".utf8))
        // No id to answer: the daemon says so with window/logMessage, type 1 (error).
        let log = client.waitFor { $0["method"] == "window/logMessage" }
        XCTAssertEqual(log?["params"]?["type"], 1)
        _ = client.take("window/logMessage")
        checkStateKept()
    }

    func testInvalidUTF8_isParseError() {
        client.writeFrame([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D])
        // No id to answer: the daemon says so with window/logMessage, type 1 (error).
        let log = client.waitFor { $0["method"] == "window/logMessage" }
        XCTAssertEqual(log?["params"]?["type"], 1)
        _ = client.take("window/logMessage")
        checkStateKept()
    }

    /// A body of megabytes (read a chunk at a time, each given up as parsed) that is not JSON gets the error a
    /// whole parse gives, at the same place, and nothing is lost.
    func testLargeBodyWithInvalidUTF8_isParseErrorAtItsPlace() throws {
        var body = Array(#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":"#.utf8)
        body += Array(#"{"uri":"file:///big.txt","languageId":"","version":1,"text":""#.utf8)
        body += Array(String(repeating: "é😀 a line\\n", count: 150_000).utf8)
        body.append(0xFF)
        body += Array(#"tail"}}}"#.utf8)
        XCTAssertGreaterThan(body.count, 2 << 20)
        var whole: JSONParseError?
        XCTAssertThrowsError(try JSONValue.parse(body)) { whole = $0 as? JSONParseError }
        let expected = try XCTUnwrap(whole)
        client.writeFrame(body)
        let log = client.waitFor { $0["method"] == "window/logMessage" }
        XCTAssertEqual(log?["params"]?["type"], 1)
        let message = log?["params"]?["message"]?.stringValue ?? ""
        XCTAssertTrue(message.hasSuffix("invalid JSON: \(expected)"), message)
        XCTAssertTrue(message.contains("byte \(body.count - 9)"), message)
        _ = client.take("window/logMessage")
        checkStateKept()
    }

    func testWrongContentLength_andGarbageHeader_daemonResynchronises() {
        let body = Array(#"{"jsonrpc":"2.0","id":500,"method":"maskd/fields","params":{}}"#.utf8)
        client.write(Array("Content-Length: 10\r\n\r\n".utf8) + body)
        client.write(Array("Content-Lenth: x\r\n\r\n".utf8))
        client.sync()
        checkStateKept()
    }

    func testTruncatedFrame_thenEndOfInput_exitsCleanly() {
        client.write(Array("Content-Length: 100\r\n\r\n{\"jsonrpc\":".utf8))
        XCTAssertEqual(client.finish(), 1)
    }

    func testNonJSONWithReadableID_isStillAnsweredOrLogged_andParseErrorCode() {
        client.writeFrame(Array(#"{"jsonrpc":"2.0","id":8,"method":"maskd/fields","params":{"#.utf8))
        let message = client.waitFor { $0["error"] != nil || $0["method"] == "window/logMessage" }
        XCTAssertNotNil(message)
        if let error = message?["error"] { XCTAssertEqual(error["code"], -32700) }
        _ = client.take("window/logMessage")
        checkStateKept()
    }

    func testInvalidRequestEnvelope_isInvalidRequest() {
        client.send(["jsonrpc": "1.0", "id": 7, "method": "maskd/fields"])
        XCTAssertEqual(client.waitFor { $0["id"] == 7 }?["error"]?["code"], -32600)
        checkStateKept()
    }

    func testUnknownDocument_isInvalidParams_andDidChangeIsLogged() {
        let error = client.callFailing("maskd/fields", ["textDocument": ["uri": "file:///nope"]], code: -32602)
        XCTAssertTrue(error["message"]?.stringValue?.contains("file:///nope") ?? false)
        client.notify(
            "textDocument/didChange",
            [
                "textDocument": ["uri": "file:///nope", "version": 2],
                "contentChanges": [["text": "x"]],
            ])
        client.sync()
        XCTAssertEqual(client.take("window/logMessage").first?["type"], 2)
        checkStateKept()
    }

    func testRangePastTheEnd_isRefusedWhole_andFullContentResynchronises() {
        editor.document.version += 1
        // The first change is fine, the second impossible (a line past the document's end): neither is applied.
        client.notify(
            "textDocument/didChange",
            editor.document.changeParams([
                ["range": ClientDocument.range(1, 0, 1, 0), "text": "x"],
                ["range": ClientDocument.range(40, 0, 40, 1), "text": "y"],
            ]))
        client.notify(
            "textDocument/didChange",
            editor.document.changeParams([
                ["range": ClientDocument.range(9, 0, 9, 0), "text": "z"]
            ]))
        client.sync()
        let logs = client.take("window/logMessage")
        XCTAssertEqual(logs.count, 2)
        XCTAssertTrue(logs[0]["message"]?.stringValue?.contains("past the end") ?? false, "\(logs)")
        XCTAssertEqual(client.take("maskd/didFormat").count, 0)
        XCTAssertEqual(editor.fields[0]?["text"], "+1 (555) 12")
        XCTAssertEqual(
            client.call(
                "maskd/formatHints",
                [
                    "textDocument": editor.document.identifier,
                    "position": ["line": 1, "character": 3],
                ]), .null)
        // A full-content change brings the document back, fields tracked through it.
        editor.document.lines[1] = "the end"
        editor.document.version += 1
        XCTAssertNil(editor.send([["text": .string(editor.document.text)]]))
        checkStateKept()
    }

    func testStaleVersion_isRefused_andNothingChanges() {
        let stale = editor.document.version
        client.notify(
            "textDocument/didChange",
            [
                "textDocument": ["uri": .string(editor.document.uri), "version": .int(Int64(stale))],
                "contentChanges": [["range": ClientDocument.range(0, 16, 0, 16), "text": "9"]],
            ])
        client.sync()
        XCTAssertTrue(client.take("window/logMessage").first?["message"]?.stringValue?.contains("stale") ?? false)
        XCTAssertEqual(client.take("maskd/didFormat").count, 0)
        checkStateKept()
    }

    func testVersionMismatchInRequest_isContentModified() {
        client.callFailing(
            "maskd/fields", ["textDocument": ["uri": .string(editor.document.uri), "version": 1]], code: -32801)
        checkStateKept()
    }

    func testFieldAcrossLines_overlap_duplicateID_areInvalidParams() {
        let uri = editor.document.identifier
        let across = client.callFailing(
            "maskd/openField",
            [
                "textDocument": uri, "range": ClientDocument.range(0, 0, 1, 1),
                "mask": "[0]",
            ], code: -32602)
        XCTAssertTrue(across["message"]?.stringValue?.contains("one line") ?? false)
        client.callFailing(
            "maskd/openField",
            [
                "textDocument": uri, "range": ClientDocument.range(0, 8, 0, 9),
                "mask": "[0]",
            ], code: -32602)
        client.callFailing(
            "maskd/openField",
            [
                "textDocument": uri, "range": ClientDocument.range(1, 0, 1, 1),
                "mask": "[0]", "field": "p",
            ], code: -32602)
        // A line past the document's end (a character past a line's end is the line's end, as LSP says).
        client.callFailing(
            "maskd/openField",
            [
                "textDocument": uri, "range": ClientDocument.range(50, 0, 50, 1),
                "mask": "[0]",
            ], code: -32602)
        checkStateKept()
    }

    func testMalformedMasks_areInvalidParams_namingTheProblem() {
        let bad: [(JSONValue, String)] = [
            ("+1 ([000", "unclosed '['"),
            (["notation": "[0]", "pattern": "#"], "exactly one form"),
            (["groups": [4, "x"]], "params.mask.groups"),
            (["notation": "[0]", "colour": "red"], "unknown key 'colour'"),
            (["preset": "no.such"], "no.such"),
            (42, "a mask is a string or an object"),
            (["oneOf": ["[0]", ["pattern": 3]]], "params.mask.oneOf[1].pattern"),
        ]
        for (mask, message) in bad {
            let error = client.callFailing("maskd/apply", ["mask": mask, "text": "1"], code: -32602)
            XCTAssertTrue(error["message"]?.stringValue?.contains(message) ?? false, "\(error) lacks \(message)")
        }
        let error = client.callFailing("maskd/apply", ["mask": "+1 ([000", "text": "1"], code: -32602)
        XCTAssertNotNil(error["data"]?["offset"]?.intValue)
        client.callFailing(
            "maskd/setMask", ["textDocument": editor.document.identifier, "field": "p", "mask": "[00"],
            code: -32602)
        checkStateKept()
    }

    func testBadParams_nameTheField() {
        let error = client.callFailing("maskd/apply", ["mask": "[0]", "text": 5], code: -32602)
        XCTAssertEqual(error["message"], "params.text: expected a string, got an integer")
        let past = client.callFailing(
            "maskd/apply", ["mask": "[0]", "text": "1", "selection": ["start": 0, "end": 9]],
            code: -32602)
        XCTAssertTrue(past["message"]?.stringValue?.contains("params.selection") ?? false)
        client.notify("textDocument/didChange", ["textDocument": ["uri": 3]])
        client.sync()
        XCTAssertTrue(
            client.take("window/logMessage").first?["message"]?.stringValue?.contains("params.textDocument.uri")
                ?? false)
        checkStateKept()
    }

    func testNegativeApplyOffsets_sayTheyAreNegative() {
        let start = client.callFailing(
            "maskd/apply",
            [
                "mask": "[000]", "text": "12",
                "edit": ["start": -1, "end": 0, "text": ""],
            ], code: -32602)
        XCTAssertEqual(start["message"], "params.edit.start: must not be negative, got -1")
        let end = client.callFailing(
            "maskd/apply",
            [
                "mask": "[000]", "text": "12",
                "selection": ["start": -3, "end": -2],
            ], code: -32602)
        XCTAssertEqual(end["message"], "params.selection.start: must not be negative, got -3")
        checkStateKept()
    }

    /// Every request taking a range refuses one whose end comes before its start, naming `params.range`.
    func testRangeEndingBeforeItsStart_isInvalidParams_forEveryRangeRequest() {
        let backwards = ClientDocument.range(0, 9, 0, 2)
        let requests: [(String, JSONValue)] = [
            ("textDocument/inlayHint", ["textDocument": editor.document.identifier, "range": backwards]),
            (
                "textDocument/rangeFormatting",
                [
                    "textDocument": editor.document.identifier, "range": backwards,
                    "options": ["tabSize": 4, "insertSpaces": true],
                ]
            ),
            (
                "textDocument/codeAction",
                [
                    "textDocument": editor.document.identifier, "range": backwards,
                    "context": ["diagnostics": []],
                ]
            ),
            (
                "maskd/openField",
                [
                    "textDocument": editor.document.identifier, "range": ClientDocument.range(1, 3, 1, 0),
                    "mask": "[000]",
                ]
            ),
        ]
        for (method, params) in requests {
            let error = client.callFailing(method, params, code: -32602)
            XCTAssertEqual(error["message"], "params.range: the range's end comes before its start", method)
        }
        // Across lines too, and also where the lines are past the document's end (which an in-order range may be).
        for range in [ClientDocument.range(1, 0, 0, 5), ClientDocument.range(9, 0, 8, 0)] {
            client.callFailing(
                "textDocument/inlayHint", ["textDocument": editor.document.identifier, "range": range],
                code: -32602)
        }
        XCTAssertEqual(
            client.call(
                "textDocument/inlayHint",
                [
                    "textDocument": editor.document.identifier,
                    "range": ClientDocument.range(8, 0, 9, 0),
                ]), [])
        checkStateKept()
    }
}
