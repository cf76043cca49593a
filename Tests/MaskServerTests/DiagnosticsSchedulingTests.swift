// maskd tests: when diagnostics go out: after a pause, once; pulled; off. The server is driven in-process with a
// clock the test moves, so the delay is exercised without waiting (the connection's timer: DiagnosticsTests).
import JSON
import JSONRPC
@testable import MaskServer
import XCTest

final class DiagnosticsSchedulingTests: XCTestCase {
    var now: UInt64 = 1_000_000
    var sent: [(method: String, params: JSONValue)] = []
    var server: Server!
    var outbound: RecordingOutbound!
    var version = 1
    let uri = "file:///rows.txt"

    override func setUp() {
        sent = []
        outbound = RecordingOutbound { [unowned self] method, params, _ in sent.append((method, params)) }
        server = Server(version: "test", outbound: outbound, clock: { [unowned self] in now })
    }

    /// One message, then what the connection does once a read's messages are handled.
    @discardableResult
    func request(_ method: String, _ params: JSONValue, file: StaticString = #filePath, line: UInt = #line) -> JSONValue
    {
        let result = server.handleRequest(method, params)
        server.publishChanges()
        switch result {
        case .success(let value): return value
        case .failure(let error):
            XCTFail("\(method): \(error)", file: file, line: line)
            return .null
        }
    }

    func notify(_ method: String, _ params: JSONValue) {
        server.handleNotification(method, params)
        server.publishChanges()
    }

    /// The messages of `method` sent since the last call.
    func take(_ method: String) -> [JSONValue] {
        let matching = sent.filter { $0.method == method }.map(\.params)
        sent.removeAll { $0.method == method }
        return matching
    }

    func initialize(capabilities: JSONValue = [:], options: JSONValue? = nil) -> JSONValue {
        var params: JSONObject = ["processId": nil, "capabilities": capabilities]
        if let options { params["initializationOptions"] = options }
        let result = request("initialize", .object(params))
        notify("initialized", [:])
        return result
    }

    /// A document of `count` rows, each a card number one digit short with a card field over it.
    func openRows(_ count: Int) {
        let rows = (0..<count).map { String(format: "row %05d: 4111 1111 1111 111", $0) }
        notify(
            "textDocument/didOpen",
            [
                "textDocument": [
                    "uri": .string(uri), "languageId": "plaintext",
                    "version": .int(Int64(version)),
                    "text": .string(rows.joined(separator: "\n")),
                ]
            ])
        let fields: [JSONValue] = (0..<count).map {
            ["range": ClientDocument.range($0, 11, $0, 29), "mask": ["preset": "card"]]
        }
        let opened = request("maskd/openFields", ["textDocument": ["uri": .string(uri)], "fields": .array(fields)])
        XCTAssertEqual(opened["results"]?.arrayValue?.count, count)
    }

    func change(_ line: Int, _ start: Int, _ end: Int, _ text: String) {
        version += 1
        notify(
            "textDocument/didChange",
            [
                "textDocument": ["uri": .string(uri), "version": .int(Int64(version))],
                "contentChanges": [
                    [
                        "range": ClientDocument.range(line, start, line, end),
                        "text": .string(text),
                    ]
                ],
            ])
    }

    func testBurstOfKeystrokes_in10000ProblemFields_publishesNothingUntilThePause_thenOnce() {
        _ = initialize()
        openRows(10_000)
        XCTAssertEqual(take("textDocument/publishDiagnostics").count, 0, "not before the document is quiet")
        now += 250
        server.publishChanges()
        let first = take("textDocument/publishDiagnostics")
        XCTAssertEqual(first.count, 1)
        XCTAssertEqual(first.first?["diagnostics"]?.arrayValue?.count, 10_000)

        // A person types at the end of row 5000, a key every 40 ms: a 16th digit (valid), then backspace (invalid).
        for _ in 0..<15 {
            now += 40
            change(5000, 29, 29, "1")
            now += 40
            change(5000, 29, 30, "")
            XCTAssertEqual(take("textDocument/publishDiagnostics").count, 0, "nothing while the person types")
        }
        let formats = take("maskd/didFormat")
        XCTAssertEqual(formats.count, 30, "every keystroke is formatted at once")
        XCTAssertEqual(formats.map { $0["edits"] }, Array(repeating: [], count: 30))
        XCTAssertEqual(formats.last?["fields"]?[0]?["text"], "4111 1111 1111 111")
        now += 249
        server.publishChanges()
        XCTAssertEqual(server.millisecondsUntilDue, 1)
        XCTAssertEqual(take("textDocument/publishDiagnostics").count, 0)
        now += 1
        XCTAssertEqual(server.millisecondsUntilDue, 0)
        server.publishChanges()
        // The row ends as it began: nothing to publish; one keystroke more changes row 5000's diagnostic.
        XCTAssertEqual(take("textDocument/publishDiagnostics").count, 0, "the same list is not sent again")
        XCTAssertNil(server.millisecondsUntilDue)
        change(5000, 29, 29, "1")
        now += 250
        server.publishChanges()
        let last = take("textDocument/publishDiagnostics")
        XCTAssertEqual(last.count, 1)
        XCTAssertEqual(last.first?["version"], .int(Int64(version)))
        let diagnostics = last.first?["diagnostics"]?.arrayValue ?? []
        XCTAssertEqual(diagnostics.count, 9_999, "row 5000 is a valid card now")
        XCTAssertFalse(diagnostics.contains { $0["range"]?["start"]?["line"] == 5000 })
    }

    /// While the transport still writes a long list, pushed diagnostics wait (looked at again every 20 ms, not in a
    /// spin), then go out once, as the document is by then.
    func testPublication_heldWhileALongListIsWritten_thenSentOnceAsItIsThen() {
        _ = initialize()
        openRows(300)
        now += 250
        outbound.isWritingLongList = true
        server.publishChanges()
        XCTAssertEqual(take("textDocument/publishDiagnostics").count, 0, "held while a long list is written")
        XCTAssertEqual(server.millisecondsUntilDue, 20)
        change(7, 29, 29, "1")
        now += 250
        server.publishChanges()
        XCTAssertEqual(take("textDocument/publishDiagnostics").count, 0)
        outbound.isWritingLongList = false
        XCTAssertEqual(server.millisecondsUntilDue, 0)
        server.publishChanges()
        let sent = take("textDocument/publishDiagnostics")
        XCTAssertEqual(sent.count, 1)
        XCTAssertEqual(sent.first?["version"], .int(Int64(version)))
        XCTAssertEqual(sent.first?["diagnostics"]?.arrayValue?.count, 299, "row 7 is a valid card now")
        XCTAssertNil(server.millisecondsUntilDue)
    }

    func testDelayOption_andOff_andBadOptions() {
        let result = initialize(options: ["diagnosticsDelay": 1000])
        XCTAssertEqual(result["capabilities"]?["experimental"]?["maskd"]?["diagnosticsDelay"], 1000)
        XCTAssertNil(result["capabilities"]?["diagnosticProvider"], "push: no diagnosticProvider")
        openRows(3)
        now += 999
        server.publishChanges()
        XCTAssertEqual(take("textDocument/publishDiagnostics").count, 0)
        now += 1
        server.publishChanges()
        XCTAssertEqual(take("textDocument/publishDiagnostics").count, 1)

        setUp()
        _ = initialize(options: ["diagnostics": "off"])
        openRows(3)
        now += 100_000
        server.publishChanges()
        XCTAssertNil(server.millisecondsUntilDue)
        XCTAssertEqual(take("textDocument/publishDiagnostics").count, 0, "off: never pushed")

        for (options, message) in [
            (
                ["diagnostics": "loud"],
                "params.initializationOptions.diagnostics: expected \"push\", \"pull\" or \"off\", got 'loud'"
            ),
            (
                ["diagnosticsDelay": -1],
                "params.initializationOptions.diagnosticsDelay: expected milliseconds from 0 to 3600000, got -1"
            ),
            (
                ["diagnosticsDelay": "250"],
                "params.initializationOptions.diagnosticsDelay: expected milliseconds from 0 to 3600000, got a string"
            ),
        ] as [(JSONValue, String)] {
            setUp()
            let answer = server.handleRequest("initialize", ["capabilities": [:], "initializationOptions": options])
            guard case .failure(let error) = answer else { return XCTFail("\(options) should be refused") }
            XCTAssertEqual(error.code, -32602)
            XCTAssertEqual(error.message, message)
        }
    }

    func testPull_aClientWithTheCapability_pullsAndGetsNoPushes_unchangedForTheSameResult() {
        let result = initialize(capabilities: [
            "textDocument": ["diagnostic": [:]],
            "workspace": ["diagnostics": ["refreshSupport": true]],
        ])
        XCTAssertEqual(
            result["capabilities"]?["diagnosticProvider"],
            ["interFileDependencies": false, "workspaceDiagnostics": false])
        XCTAssertEqual(result["capabilities"]?["experimental"]?["maskd"]?["diagnostics"], "pull")
        openRows(3)
        now += 250
        server.publishChanges()
        XCTAssertEqual(take("textDocument/publishDiagnostics").count, 0, "pull: never pushed")
        XCTAssertEqual(
            take("workspace/diagnostic/refresh").count, 1, "fields opened with no text change: refresh, once")

        let full = request("textDocument/diagnostic", ["textDocument": ["uri": .string(uri)]])
        XCTAssertEqual(full["kind"], "full")
        XCTAssertEqual(full["items"]?.arrayValue?.count, 3)
        XCTAssertEqual(full["items"]?[0]?["range"], ClientDocument.range(0, 11, 0, 29))
        let id = full["resultId"] ?? .null
        XCTAssertEqual(
            request("textDocument/diagnostic", ["textDocument": ["uri": .string(uri)], "previousResultId": id]),
            ["kind": "unchanged", "resultId": id])

        // A change that fixes row 1: a new, full report; a change that moves nothing of them: unchanged.
        change(1, 29, 29, "1")
        let fixed = request("textDocument/diagnostic", ["textDocument": ["uri": .string(uri)], "previousResultId": id])
        XCTAssertEqual(fixed["kind"], "full")
        XCTAssertEqual(fixed["items"]?.arrayValue?.count, 2)
        change(2, 0, 0, "x")
        change(2, 0, 1, "")
        let same = request(
            "textDocument/diagnostic",
            [
                "textDocument": ["uri": .string(uri)],
                "previousResultId": fixed["resultId"] ?? .null,
            ])
        XCTAssertEqual(same["kind"], "unchanged")
        XCTAssertNotEqual(same["resultId"], fixed["resultId"], "the new revision's id, for the next pull")
        now += 1000
        server.publishChanges()
        XCTAssertEqual(take("textDocument/publishDiagnostics").count, 0)
        XCTAssertEqual(take("workspace/diagnostic/refresh").count, 0, "after text changes the client pulls by itself")
    }

    func testAPullClientWithoutRefreshSupport_isPushedTo_soAFieldOpenedEmptyShowsItsHintWithoutAnEdit() {
        let result = initialize(capabilities: ["textDocument": ["diagnostic": [:]], "workspace": ["applyEdit": true]])
        XCTAssertNil(result["capabilities"]?["diagnosticProvider"], "nothing to pull: it would never be asked again")
        XCTAssertEqual(result["capabilities"]?["experimental"]?["maskd"]?["diagnostics"], "push")
        notify(
            "textDocument/didOpen",
            [
                "textDocument": [
                    "uri": .string(uri), "languageId": "plaintext", "version": 1,
                    "text": "Card: ",
                ]
            ])
        request(
            "workspace/executeCommand",
            [
                "command": "maskd.openField",
                "arguments": [
                    [
                        "textDocument": ["uri": .string(uri)], "range": ClientDocument.range(0, 6, 0, 6),
                        "mask": ["preset": "card"],
                    ]
                ],
            ])
        now += 250
        server.publishChanges()
        let pushed = take("textDocument/publishDiagnostics")
        XCTAssertEqual(pushed.count, 1)
        XCTAssertEqual(pushed.first?["diagnostics"]?.arrayValue?.count, 1)
        XCTAssertEqual(pushed.first?["diagnostics"]?[0]?["code"], "incomplete")
        XCTAssertEqual(pushed.first?["diagnostics"]?[0]?["range"], ClientDocument.range(0, 6, 0, 6))
    }

    func testPull_chosenByOption_withoutTheCapability_andPushChosenOverIt() {
        let pulled = initialize(options: ["diagnostics": "pull"])
        XCTAssertNotNil(pulled["capabilities"]?["diagnosticProvider"])
        setUp()
        let pushed = initialize(capabilities: ["textDocument": ["diagnostic": [:]]], options: ["diagnostics": "push"])
        XCTAssertNil(pushed["capabilities"]?["diagnosticProvider"])
        openRows(2)
        now += 250
        server.publishChanges()
        XCTAssertEqual(take("textDocument/publishDiagnostics").count, 1)
    }

    func testInlayHintRefresh_oneForABurstOfOpenings_onceQuiet() {
        _ = initialize(capabilities: ["workspace": ["inlayHint": ["refreshSupport": true]]])
        notify(
            "textDocument/didOpen",
            [
                "textDocument": [
                    "uri": .string(uri), "languageId": "plaintext", "version": 1,
                    "text": "a: \nb: \nc: ",
                ]
            ])
        for line in 0..<3 {
            now += 100
            request(
                "maskd/openField",
                [
                    "textDocument": ["uri": .string(uri)], "range": ClientDocument.range(line, 3, line, 3),
                    "mask": ["preset": "phone.us"],
                ])
            XCTAssertEqual(take("workspace/inlayHint/refresh").count, 0, "not while fields are being opened")
        }
        now += 250
        server.publishChanges()
        XCTAssertEqual(take("workspace/inlayHint/refresh").count, 1)
        now += 1000
        server.publishChanges()
        XCTAssertEqual(take("workspace/inlayHint/refresh").count, 0)
    }

    /// The delay runs from the end of a read: a request that took longer than the delay (100,000 fields) still
    /// gets its answer before the diagnostics it changed (a client waiting for the answer reads them after it).
    func testDelay_countsFromTheEndOfTheRead_notFromWithinALongRequest() {
        _ = initialize()
        notify(
            "textDocument/didOpen",
            [
                "textDocument": [
                    "uri": .string(uri), "languageId": "plaintext", "version": 1,
                    "text": "a: 4000 1234 5678 901",
                ]
            ])
        _ = server.handleRequest(
            "maskd/openFields",
            [
                "textDocument": ["uri": .string(uri)],
                "fields": [
                    ["range": ClientDocument.range(0, 3, 0, 21), "mask": ["preset": "card"]]
                ],
            ])
        now += 5000  // as long as the request took
        server.publishChanges()
        XCTAssertEqual(take("textDocument/publishDiagnostics").count, 0, "not before the read is over and quiet")
        now += 250
        server.publishChanges()
        XCTAssertEqual(take("textDocument/publishDiagnostics").count, 1)
    }
}
