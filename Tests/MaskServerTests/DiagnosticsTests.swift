// maskd tests: `textDocument/publishDiagnostics` as a card number is typed, mistyped and corrected.
import JSON
import XCTest

final class DiagnosticsTests: XCTestCase {
    var client: DaemonClient!

    override func setUpWithError() throws {
        client = try DaemonClient()
        client.initializeLSP()
    }

    override func tearDown() {
        _ = client?.finish()
        client = nil
    }

    func diagnostic(_ range: JSONValue, _ severity: Int, _ code: String, _ message: String) -> JSONValue {
        [
            "range": range, "severity": .int(Int64(severity)), "code": .string(code), "source": "maskd",
            "message": .string(message),
        ]
    }

    /// The one publication since the last check, or a failure.
    func published(_ editor: Editor, file: StaticString = #filePath, line: UInt = #line) -> [JSONValue]? {
        let all = client.takeDiagnostics(editor.document.uri)
        XCTAssertEqual(all.count, 1, "publications: \(all.map { $0.diagnostics })", file: file, line: line)
        guard let last = all.last else { return nil }
        if let version = last.version {
            XCTAssertEqual(
                version, editor.document.version, "diagnostics describe the editor's version", file: file, line: line)
        }
        return last.diagnostics
    }

    func testDiagnostics_cardTypedMistypedAndCorrected_hintThenErrorThenCleared() {
        let editor = Editor(client, text: "Card: ")
        editor.openField(0, 6, 6, mask: ["preset": "card"], id: "card")
        XCTAssertEqual(
            published(editor), [diagnostic(ClientDocument.range(0, 6, 0, 6), 4, "incomplete", "16 more digits needed")])
        editor.document.cursor = (0, 6)

        editor.type("4")
        XCTAssertEqual(
            published(editor), [diagnostic(ClientDocument.range(0, 6, 0, 7), 4, "incomplete", "12 more digits needed")])
        editor.type("111")
        XCTAssertEqual(client.takeDiagnostics(editor.document.uri).count, 3, "one publication per keystroke")
        editor.type("1")
        // A separator came with the fifth digit: published once, after its echo, for the echoed text.
        XCTAssertEqual(editor.document.lines[0], "Card: 4111 1")
        XCTAssertEqual(
            published(editor),
            [
                diagnostic(
                    ClientDocument.range(0, 6, 0, 12), 4, "incomplete",
                    "8 more digits needed")
            ])
        editor.type("11111111112")
        XCTAssertEqual(editor.document.lines[0], "Card: 4111 1111 1111 1112")
        let last = client.takeDiagnostics(editor.document.uri).last?.diagnostics
        XCTAssertEqual(
            last, [diagnostic(ClientDocument.range(0, 6, 0, 25), 1, "invalid", "check digit does not match")])

        // A change that moves the field moves its diagnostic; one that leaves it alone publishes nothing.
        _ = editor.send([editor.change(0, 0, 0, "My ")])
        XCTAssertEqual(published(editor)?.first?["range"], ClientDocument.range(0, 9, 0, 28))
        _ = editor.send([editor.change(0, 0, 3, "")])
        XCTAssertEqual(published(editor)?.first?["range"], ClientDocument.range(0, 6, 0, 25))
        XCTAssertNil(editor.send([editor.change(0, 25, 25, "\n")]), "Enter after a field leaves it")
        _ = editor.send([editor.change(1, 0, 0, "ok")])
        XCTAssertEqual(client.takeDiagnostics(editor.document.uri).count, 0)

        // The last digit corrected: 15 digits first (still an error), then 16 with a good check digit: cleared.
        editor.document.cursor = (0, 25)
        editor.backspace()
        XCTAssertEqual(
            published(editor),
            [
                diagnostic(
                    ClientDocument.range(0, 6, 0, 24), 1, "invalid",
                    "Visa numbers have 13, 16 or 19 digits; check digit does not match")
            ])
        editor.type("1")
        XCTAssertEqual(editor.document.lines[0], "Card: 4111 1111 1111 1111")
        XCTAssertEqual(published(editor), [])

        // Closing a field without diagnostics publishes nothing.
        client.call("maskd/closeField", ["textDocument": editor.document.identifier, "field": "card"])
        client.sync()
        XCTAssertEqual(client.takeDiagnostics(editor.document.uri).count, 0)
    }

    func testDiagnostics_impossibleDate_isAnError_andClosingTheFieldOrDocumentClears() {
        let editor = Editor(client, text: "Born: 20230229\nDue: 2024-13")
        editor.openField(0, 6, 14, mask: ["preset": "date"], id: "born")
        XCTAssertEqual(editor.document.lines[0], "Born: 2023-02-29")
        XCTAssertEqual(
            published(editor),
            [
                diagnostic(
                    ClientDocument.range(0, 6, 0, 16), 1, "invalid",
                    "February has 28 days in 2023 at most")
            ])
        editor.openField(1, 5, 12, mask: ["preset": "date"], id: "due")
        let both = client.takeDiagnostics(editor.document.uri).last?.diagnostics
        XCTAssertEqual(both?.count, 2)
        XCTAssertEqual(both?[1]["severity"], 4)
        XCTAssertEqual(both?[1]["range"], ClientDocument.range(1, 5, 1, 12))

        client.call("maskd/closeField", ["textDocument": editor.document.identifier, "field": "born"])
        client.sync()
        XCTAssertEqual(published(editor)?.count, 1)
        client.notify("textDocument/didClose", ["textDocument": editor.document.identifier])
        client.sync()
        let closed = client.takeDiagnostics(editor.document.uri)
        XCTAssertEqual(closed.count, 1)
        XCTAssertEqual(closed.first?.diagnostics, [])
        XCTAssertNil(closed.first?.version)
    }

    func testDiagnostics_setMask_republishes_andReopeningTheDocumentClears() {
        let editor = Editor(client, text: "Id: 1234")
        editor.openField(0, 4, 8, mask: "[0000]", id: "id")
        XCTAssertEqual(client.takeDiagnostics(editor.document.uri).count, 0, "a complete, valid field has none")
        let result = client.call(
            "maskd/setMask",
            [
                "textDocument": editor.document.identifier, "field": "id",
                "mask": "[000000]",
            ])
        editor.applyAndEcho(result)
        XCTAssertEqual(
            published(editor), [diagnostic(ClientDocument.range(0, 4, 0, 8), 4, "incomplete", "2 more digits needed")])
        client.notify("textDocument/didOpen", editor.document.openParams)
        client.sync()
        let reopened = client.takeDiagnostics(editor.document.uri)
        XCTAssertEqual(reopened.map(\.diagnostics), [[]])
    }

    /// A plugin restoring many fields at once sends their openField requests in one burst: the daemon publishes
    /// the document's diagnostics once for the burst (not once per field, which made a burst quadratic), and
    /// that publication lists every field that has a problem, in document order.
    func testDiagnostics_burstOfOpenFields_publishedOnceForTheBurst() {
        let count = 2_000
        // Every line a card with a wrong check digit, already in form: the fields propose no edits.
        let lines = (0..<count).map { _ in "card 4111 1111 1111 1112" }
        let editor = Editor(client, text: lines.joined(separator: "\n"))
        var frames: [UInt8] = []
        for line in 0..<count {
            let request: JSONValue = [
                "jsonrpc": "2.0", "id": .string("open-\(line)"), "method": "maskd/openField",
                "params": [
                    "textDocument": editor.document.identifier,
                    "range": ClientDocument.range(line, 5, line, 24),
                    "mask": ["preset": "card"], "field": .string("c\(line)"),
                ],
            ]
            let body = request.serialized()
            frames += Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        }
        client.write(frames)
        XCTAssertNotNil(client.waitFor { $0["id"] == .string("open-\(count - 1)") })
        client.sync()
        let publications = client.takeDiagnostics(editor.document.uri)
        XCTAssertGreaterThan(publications.count, 0)
        XCTAssertLessThan(publications.count, count / 10, "one publication per read of the burst, not per field")
        let last = publications.last?.diagnostics ?? []
        XCTAssertEqual(last.count, count)
        // The whole list, made as the output took it, is every field's diagnostic in order.
        XCTAssertEqual(
            last,
            (0..<count).map {
                diagnostic(ClientDocument.range($0, 5, $0, 24), 1, "invalid", "check digit does not match")
            })

        // Typing into one of them republishes with that field's new state, the others unchanged.
        editor.document.cursor = (1000, 24)
        editor.backspace()
        let after = client.takeDiagnostics(editor.document.uri).last?.diagnostics ?? []
        XCTAssertEqual(after.count, count)
        XCTAssertEqual(after[1000]["code"], "invalid")
        XCTAssertEqual(after[1000]["range"], ClientDocument.range(1000, 5, 1000, 23))
        XCTAssertEqual(after[999], last[999])
    }

    /// With the daemon's default delay, diagnostics come once the person stops typing, with no further message:
    /// the connection's poll timeout carries the timer.
    func testDiagnostics_pushedAfterThePause_byThePollLoopsTimer() throws {
        _ = client.finish()
        client = try DaemonClient()
        let result = client.initializeLSP(diagnosticsDelay: nil)
        XCTAssertEqual(result["capabilities"]?["experimental"]?["maskd"]?["diagnosticsDelay"], 250)
        let editor = Editor(client, text: "Card: ")
        editor.openField(0, 6, 6, mask: ["preset": "card"], id: "card")
        editor.document.cursor = (0, 6)
        editor.type("41111")
        XCTAssertEqual(editor.document.lines[0], "Card: 4111 1")
        // Nothing is sent from here on: only the daemon's timer can publish.
        let published = client.waitFor(timeout: 20) { message in
            message["method"] == "textDocument/publishDiagnostics"
                && message["params"]?["version"] == .int(Int64(editor.document.version))
        }
        XCTAssertEqual(
            published?["params"]?["diagnostics"],
            [diagnostic(ClientDocument.range(0, 6, 0, 12), 4, "incomplete", "8 more digits needed")])
    }

    /// No diagnostics ever come between a person's `didChange` and the `didFormat` it causes, even when they are
    /// published as soon as possible (delay 0).
    func testDidFormat_alwaysComesBeforeAnyDiagnosticsOfItsChange() {
        var document = ClientDocument(uri: "file:///order.txt", text: "Card: ", version: 1)
        client.notify("textDocument/didOpen", document.openParams)
        let opened = client.call(
            "maskd/openField",
            [
                "textDocument": document.identifier,
                "range": ClientDocument.range(0, 6, 0, 6), "mask": ["preset": "card"],
            ])
        XCTAssertEqual(opened["edits"], [])
        document.cursor = (0, 6)
        var personVersions: [Int] = []
        for key in "41111111111111119" {
            document.version += 1
            personVersions.append(document.version)
            let (l, c) = document.cursor
            document.replace(line: l, from: c, to: c, with: String(key))
            client.notify(
                "textDocument/didChange",
                document.changeParams([
                    ["range": ClientDocument.range(l, c, l, c), "text": .string(String(key))]
                ]))
            guard let format = client.waitFor({ $0["method"] == "maskd/didFormat" }) else {
                return XCTFail("no didFormat")
            }
            let echo = document.applyFormat(format["params"] ?? .null)
            if !echo.isEmpty {
                document.version += 1
                client.notify("textDocument/didChange", document.changeParams(echo))
            }
        }
        client.sync()
        XCTAssertEqual(document.lines[0], "Card: 4111 1111 1111 1111 9")
        var formatted: Set<Int> = []
        var publications = 0
        for message in client.notifications {
            let version =
                message["params"]?["textDocument"]?["version"]?.intValue ?? message["params"]?["version"]?.intValue
            switch message["method"]?.stringValue {
            case "maskd/didFormat":
                formatted.insert(version ?? -1)
            case "textDocument/publishDiagnostics":
                publications += 1
                let owed = personVersions.filter { $0 <= version ?? Int.max && !formatted.contains($0) }
                XCTAssertEqual(owed, [], "diagnostics for version \(version ?? -1) before these changes' didFormat")
            default:
                break
            }
        }
        XCTAssertEqual(formatted.count, personVersions.count)
        XCTAssertGreaterThan(publications, 2, "diagnostics were published along the way")
    }
}
