// maskd tests: a plain client's formatting is held while the person types and sent once the document is quiet, for
// the version the client's text is at. The server is driven in-process with a clock the test moves.
import JSON
import JSONRPC
@testable import MaskServer
import XCTest

final class HeldEditsTests: XCTestCase {
    var now: UInt64 = 1_000_000
    var sent: [(method: String, params: JSONValue, id: RequestID?)] = []
    var server: Server!
    var document = ClientDocument(uri: "file:///w/people.yaml", text: "")

    override func setUp() {
        sent = []
        let outbound = RecordingOutbound { [unowned self] method, params, id in sent.append((method, params, id)) }
        server = Server(version: "test", outbound: outbound, clock: { [unowned self] in now })
    }

    /// One notification, then what the connection does once a read's messages are handled.
    func notify(_ method: String, _ params: JSONValue) {
        server.handleNotification(method, params)
        server.publishChanges()
    }

    /// Time passes with no input: what the connection's poll timeout does.
    func wait(_ milliseconds: UInt64) {
        now += milliseconds
        server.publishChanges()
    }

    /// The `workspace/applyEdit` requests sent since the last call.
    func takeApplyEdits() -> [(params: JSONValue, id: RequestID)] {
        let taken = sent.filter { $0.method == "workspace/applyEdit" }.map { ($0.params, $0.id!) }
        sent.removeAll { $0.method == "workspace/applyEdit" }
        return taken
    }

    /// Starts a plain client (versioned edits or not) whose rule opens a `phone.us` field on `phone:` lines.
    func start(documentChanges: Bool, text: String) {
        let params: JSONValue = [
            "processId": nil, "rootUri": "file:///w",
            "capabilities": [
                "workspace": ["applyEdit": true, "workspaceEdit": ["documentChanges": .bool(documentChanges)]]
            ],
            "initializationOptions": [
                "edits": "applyEdit",
                "rules": [
                    ["match": "^\\s*phone:\\s*(.*)$", "mask": ["preset": "phone.us"]]
                ],
            ],
        ]
        guard case .success(let result) = server.handleRequest("initialize", params) else {
            return XCTFail("initialize")
        }
        XCTAssertEqual(result["capabilities"]?["experimental"]?["maskd"]?["applyEditDelay"], 250)
        notify("initialized", [:])
        document = ClientDocument(uri: "file:///w/people.yaml", text: text)
        notify("textDocument/didOpen", document.openParams)
    }

    /// The person types `text` at the end of line `line` as one change.
    func type(_ text: String, line: Int) {
        let end = document.lines[line].utf16.count
        document.replace(line: line, from: end, to: end, with: text)
        document.version += 1
        notify(
            "textDocument/didChange",
            document.changeParams([
                [
                    "range": ClientDocument.range(line, end, line, end),
                    "text": .string(text),
                ]
            ]))
    }

    /// Applies an `applyEdit` as an editor that cannot refuse it does, to whatever its text is now, echoes it and
    /// answers it.
    func apply(_ request: (params: JSONValue, id: RequestID)) {
        let edit = request.params["edit"] ?? .null
        let edits = edit["changes"]?[document.uri] ?? edit["documentChanges"]?[0]?["edits"] ?? .null
        document.apply(edits)
        document.version += 1
        let changes: [JSONValue] = (edits.arrayValue ?? []).reversed().map {
            ["range": $0["range"]!, "text": $0["newText"]!]
        }
        notify("textDocument/didChange", document.changeParams(changes))
        _ = server.handle(.response(id: request.id, result: ["applied": true]))
        server.publishChanges()
    }

    func testABurstIntoARuleLineJustOpened_isFormattedOnceQuiet_forTheTextTheClientHas() {
        for documentChanges in [false, true] {
            setUp()
            start(documentChanges: documentChanges, text: "name: Ann")
            document.lines.append("")
            document.version += 1
            notify(
                "textDocument/didChange",
                document.changeParams([
                    [
                        "range": ClientDocument.range(0, 9, 0, 9),
                        "text": "\n",
                    ]
                ]))
            type("phone: ", line: 1)
            wait(1000)
            XCTAssertEqual(takeApplyEdits().count, 0, "the field opened empty: nothing to edit")
            type("2", line: 1)
            wait(100)
            type("015550123", line: 1)
            wait(249)
            XCTAssertEqual(takeApplyEdits().count, 0, "nothing while the person may still be typing")
            wait(1)
            let requests = takeApplyEdits()
            XCTAssertEqual(requests.count, 1)
            XCTAssertNil(requests.first?.params["label"], "no label: Neovim prints it")
            XCTAssertEqual(
                requests.first?.params["edit"]?["documentChanges"]?[0]?["textDocument"]?["version"],
                documentChanges ? .int(Int64(document.version)) : nil)
            apply(requests[0])
            XCTAssertEqual(document.lines[1], "phone: +1 (201) 555-0123", "documentChanges: \(documentChanges)")
            wait(1000)
            XCTAssertEqual(takeApplyEdits().count, 0, "the echo is not formatted again")
        }
    }

    func testKeysAtAnyPace_endInForm_andNoEditIsSentForAVersionTheClientHasLeft() {
        // Card digits, each key a change, some a few ms apart and some after a pause longer than the delay.
        var random = SystemRandomNumberGenerator()
        for round in 0..<20 {
            setUp()
            start(documentChanges: false, text: "phone: ")
            var typed = ""
            for key in "2015550123" {
                type(String(key), line: 0)
                typed.append(key)
                let pause = UInt64.random(in: 0...400, using: &random)
                now += pause
                server.publishChanges()
                for request in takeApplyEdits() {
                    // Sent only for the version the client is at: applying it here can never garble.
                    XCTAssertEqual(server.documents[document.uri]?.version, document.version)
                    apply(request)
                }
            }
            wait(300)
            for request in takeApplyEdits() { apply(request) }
            XCTAssertEqual(document.lines[0], "phone: +1 (201) 555-0123", "round \(round)")
        }
    }

    func testHeldEdits_waitForTheAnswerToTheEditsBeforeThem() {
        start(documentChanges: false, text: "phone: ")
        type("201", line: 0)
        wait(250)
        let first = takeApplyEdits()
        XCTAssertEqual(first.count, 1)
        // The editor applies the first edits (its echo arrives), the person types on, the answer is slow.
        let edits = first[0].params["edit"]?["changes"]?[document.uri] ?? .null
        document.apply(edits)
        document.version += 1
        let echo: [JSONValue] = (edits.arrayValue ?? []).reversed().map {
            ["range": $0["range"]!, "text": $0["newText"]!]
        }
        notify("textDocument/didChange", document.changeParams(echo))
        type("5", line: 0)
        wait(1000)
        XCTAssertEqual(takeApplyEdits().count, 0, "the first applyEdit is not answered yet")
        _ = server.handle(.response(id: first[0].id, result: ["applied": true]))
        server.publishChanges()
        let second = takeApplyEdits()
        XCTAssertEqual(second.count, 1)
        apply(second[0])
        XCTAssertEqual(document.lines[0], "phone: +1 (201) 5")
    }

    func testApplyEditDelay_badValuesAreRefused() {
        let answer = server.handleRequest(
            "initialize", ["capabilities": [:], "initializationOptions": ["applyEditDelay": -1]])
        guard case .failure(let error) = answer else { return XCTFail("refused") }
        XCTAssertEqual(
            error.message,
            "params.initializationOptions.applyEditDelay: expected milliseconds from 0 to 3600000, got -1")
    }
}
