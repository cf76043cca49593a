// maskd tests: `maskd/openFields` (many fields, one request) and "opening never destroys content" (-32803).
import JSON
import XCTest

final class OpenFieldsTests: XCTestCase {
    var client: DaemonClient!

    override func setUpWithError() throws {
        client = try DaemonClient()
        client.initialize()
    }

    override func tearDown() {
        _ = client?.finish()
        client = nil
    }

    func entry(_ line: Int, _ start: Int, _ end: Int, _ mask: JSONValue, id: String? = nil, force: Bool? = nil)
        -> JSONValue
    {
        var object: JSONObject = ["range": ClientDocument.range(line, start, line, end), "mask": mask]
        if let id { object["field"] = .string(id) }
        if let force { object["force"] = .bool(force) }
        return .object(object)
    }

    func testOpenFields_eachEntryOpensOrFailsInItsOwnSlot_inOrder() {
        let editor = Editor(client, text: "Tel: 5551234567\nCard: 4111111111111111\nName: Ann\nWhen: 20240229")
        let result = client.call(
            "maskd/openFields",
            [
                "textDocument": editor.document.identifier,
                "fields": [
                    entry(0, 5, 15, ["preset": "phone.us"], id: "tel"),
                    entry(1, 6, 22, "[0000] [0000] [000"),  // a bad mask
                    entry(1, 6, 22, ["preset": "card"]),
                    entry(1, 10, 12, "[00]"),  // overlaps the card field just opened
                    entry(2, 0, 9, ["preset": "phone.us"]),  // would drop N, a, m, e, A, n, n
                    entry(3, 6, 14, ["preset": "date"], id: "tel"),  // an id in use
                    entry(0, 0, 1, "[0]"),
                    .string("not an entry"),
                    entry(3, 6, 14, ["preset": "date"]),
                ],
            ])
        XCTAssertEqual(result["version"], 3)
        let results = result["results"]?.arrayValue ?? []
        XCTAssertEqual(results.count, 9)
        XCTAssertEqual(results[0]["field"], "tel")
        XCTAssertEqual(results[0]["state"]?["text"], "+1 (555) 123-4567")
        XCTAssertEqual(results[1]["error"]?["code"], -32602)
        XCTAssertEqual(
            results[1]["error"]?["message"]?.stringValue?.hasPrefix("params.fields[1].mask"), true,
            results[1].serializedString())
        XCTAssertEqual(results[2]["state"]?["text"], "4111 1111 1111 1111")
        let card = results[2]["field"]?.stringValue ?? ""
        XCTAssertEqual(results[3]["error"]?["message"], .string("params.fields[3].range: overlaps field '\(card)'"))
        XCTAssertEqual(results[4]["error"]?["code"], -32803)
        XCTAssertEqual(
            results[4]["error"]?["message"], "'Name: Ann' does not fit phone.us: N, a, m, e, A, n, n would be dropped")
        XCTAssertEqual(
            results[5]["error"]?["message"],
            "params.fields[5].field: field 'tel' is already open in 'file:///tmp/form.txt'")
        XCTAssertEqual(results[6]["error"]?["code"], -32803, "T does not fit a digit")
        XCTAssertEqual(results[7]["error"]?["message"], "params.fields[7]: expected an object, got a string")
        XCTAssertEqual(results[8]["state"]?["text"], "2024-02-29")

        // Each result's edits are its own field's, against the one version: applied together they format the document.
        var edits: [JSONValue] = []
        for r in results { edits += r["edits"]?.arrayValue ?? [] }
        editor.applyAndEcho([
            "edits": .array(
                edits.sorted { a, b in
                    (a["range"]!["start"]!["line"]!.intValue!, a["range"]!["start"]!["character"]!.intValue!)
                        < (b["range"]!["start"]!["line"]!.intValue!, b["range"]!["start"]!["character"]!.intValue!)
                })
        ])
        XCTAssertEqual(
            editor.document.text, "Tel: +1 (555) 123-4567\nCard: 4111 1111 1111 1111\nName: Ann\nWhen: 2024-02-29")
        XCTAssertEqual(
            editor.fields.arrayValue?.map { $0["text"]!.stringValue! },
            ["+1 (555) 123-4567", "4111 1111 1111 1111", "2024-02-29"])

        // Typing goes on in a field opened in the batch.
        editor.document.cursor = (3, 16)
        editor.backspace()
        XCTAssertEqual(editor.document.lines[3], "When: 2024-02-2")
    }

    func testOpenFields_oneBadMaskAmongAThousand_theOthersOpen_publishedOnce() {
        let rows = (0..<1000).map { String(format: "row %05d: 4111 1111 1111 111", $0) }
        let editor = Editor(client, text: rows.joined(separator: "\n"))
        var fields: [JSONValue] = (0..<1000).map { entry($0, 11, 29, ["preset": "card"]) }
        fields[500] = entry(500, 11, 29, ["preset": "no.such.preset"])
        let result = client.call(
            "maskd/openFields", ["textDocument": editor.document.identifier, "fields": .array(fields)])
        let results = result["results"]?.arrayValue ?? []
        XCTAssertEqual(results.count, 1000)
        XCTAssertEqual(results[500]["error"]?["code"], -32602)
        XCTAssertEqual(results[500]["error"]?["message"]?.stringValue?.hasPrefix("params.fields[500].mask"), true)
        XCTAssertEqual(results.filter { $0["error"] == nil }.count, 999)
        XCTAssertEqual(results[999]["state"]?["text"], "4111 1111 1111 111")
        XCTAssertEqual(
            results[999]["state"]?["problems"], ["Visa numbers have 13, 16 or 19 digits", "check digit does not match"])
        XCTAssertEqual(results.allSatisfy { ($0["edits"]?.arrayValue ?? []).isEmpty }, true, "already in form")
        XCTAssertEqual(editor.fields.arrayValue?.count, 999)
        client.sync()
        let published = client.take("textDocument/publishDiagnostics")
        XCTAssertEqual(published.count, 1, "one publication for the request")
        XCTAssertEqual(published.first?["diagnostics"]?.arrayValue?.count, 999)
    }

    func testOpenFields_wholeRequestErrors_areForTheRequest() {
        let editor = Editor(client, text: "x")
        client.callFailing("maskd/openFields", ["textDocument": editor.document.identifier], code: -32602)
        client.callFailing("maskd/openFields", ["textDocument": ["uri": "file:///nope"], "fields": []], code: -32602)
        client.callFailing(
            "maskd/openFields",
            [
                "textDocument": ["uri": .string(editor.document.uri), "version": 99],
                "fields": [],
            ], code: -32801)
        XCTAssertEqual(
            client.call("maskd/openFields", ["textDocument": editor.document.identifier, "fields": []]),
            ["results": [], "version": 3])
    }

    func testOpenField_overALabel_isRefused_nothingChanges_andForceOpensAnyway() {
        let editor = Editor(client, text: "Phone: 5551234567")
        let error = client.callFailing(
            "maskd/openField",
            [
                "textDocument": editor.document.identifier,
                "range": ClientDocument.range(0, 0, 0, 6),
                "mask": ["preset": "phone.us"],
            ], code: -32803)
        XCTAssertEqual(error["message"], "'Phone:' does not fit phone.us: P, h, o, n, e would be dropped")
        XCTAssertEqual(editor.fields, [])
        // Digits cut at the mask's end are lost too; punctuation and spaces may go.
        let cut = client.callFailing(
            "maskd/openField",
            [
                "textDocument": editor.document.identifier,
                "range": ClientDocument.range(0, 7, 0, 17),
                "mask": "[000]-[000]",
            ], code: -32803)
        XCTAssertEqual(cut["message"], "'5551234567' does not fit [000]-[000]: 4, 5, 6, 7 would be dropped")
        XCTAssertEqual(editor.fields, [])
        editor.openField(0, 6, 17, mask: ["preset": "phone.us"], id: "tel")
        XCTAssertEqual(editor.document.lines[0], "Phone:+1 (555) 123-4567", "the space went: a separator")

        let forced = client.call(
            "maskd/openField",
            [
                "textDocument": editor.document.identifier,
                "range": ClientDocument.range(0, 0, 0, 5),
                "mask": ["preset": "phone.us"], "force": true,
            ])
        XCTAssertEqual(forced["state"]?["text"], "")
        XCTAssertEqual(forced["rejected"], "Phone")
    }

    func testSetMask_thatWouldCutDigits_isRefused_theFieldKeepsItsMask() {
        let editor = Editor(client, text: "Card: 4111111111111111")
        editor.openField(0, 6, 22, mask: ["preset": "card"], id: "card")
        let error = client.callFailing(
            "maskd/setMask",
            [
                "textDocument": editor.document.identifier, "field": "card",
                "mask": "[0000] [0000]",
            ], code: -32803)
        XCTAssertEqual(
            error["message"],
            "'4111 1111 1111 1111' does not fit [0000] [0000]: 1, 1, 1, 1, 1, 1, 1, 1 would be dropped")
        XCTAssertEqual(editor.fields[0]?["mask"], "[0000] [0000] [0000] [0999] [999]")
        let result = client.call(
            "maskd/setMask",
            [
                "textDocument": editor.document.identifier, "field": "card",
                "mask": "[0000] [0000]", "force": true,
            ])
        XCTAssertEqual(result["overflow"], "11111111")
        editor.applyAndEcho(result)
        XCTAssertEqual(editor.document.lines[0], "Card: 4111 1111")
    }
}
