// maskd tests: the server bugs the fuzz target found (fuzz/targets/server.swift), each as its smallest session.
import Foundation
import JSON
import XCTest

final class ServerFuzzRegressionTests: XCTestCase {
    private func open(_ client: DaemonClient, _ text: String) {
        client.notify(
            "textDocument/didOpen",
            [
                "textDocument": [
                    "uri": "file:///a", "languageId": "plaintext",
                    "version": 1, "text": .string(text),
                ]
            ])
    }

    private func change(_ client: DaemonClient, _ version: Int, _ changes: JSONValue) {
        client.notify(
            "textDocument/didChange",
            [
                "textDocument": ["uri": "file:///a", "version": .int(Int64(version))],
                "contentChanges": changes,
            ])
    }

    /// a `\r` typed right before a `\n` makes one `\r\n` line break, as the editor counts lines.
    func testCarriageReturnBeforeLineFeed_isOneLineBreak() throws {
        let client = try DaemonClient()
        client.initialize()
        open(client, "a\nb")
        change(client, 2, [["range": ClientDocument.range(0, 1, 0, 1), "text": "\r"]])
        let result = client.call(
            "maskd/openField",
            [
                "textDocument": ["uri": "file:///a"],
                "range": ClientDocument.range(1, 0, 1, 1), "mask": "[*]",
            ])
        XCTAssertEqual(result["state"]?["text"], "b")
        _ = client.finish()
    }

    /// a full-content change while an openField's and a setMask's edits await their echo.
    func testFullChangeOverPendingOpenFieldAndSetMask_keepsServing() throws {
        let client = try DaemonClient()
        client.initialize()
        open(client, "abcdefg")
        client.call(
            "maskd/openField",
            [
                "textDocument": ["uri": "file:///a"], "range": ClientDocument.range(0, 2, 0, 7),
                "mask": "[AAA]-[000]", "field": "f1", "force": true,
            ])
        // A mask change over edits the editor has not applied yet is refused: they would not fit its text.
        client.callFailing(
            "maskd/setMask", ["textDocument": ["uri": "file:///a"], "field": "f1", "mask": "[000]"],
            code: -32801)
        change(client, 2, [["text": ""]])
        let fields = client.call("maskd/fields", ["textDocument": ["uri": "file:///a"]])
        XCTAssertNotNil(fields.arrayValue, "the daemon answers after the change")
        _ = client.finish()
    }

    /// two fields that meet (an empty one right before another) both insert at one column. The `didFormat`
    /// lists the earlier field's insertion first, so its text comes first (LSP), and the editor's echo of the two,
    /// in either order, is recognised as the echo: it gets no `didFormat` of its own.
    func testInsertionsOfTwoFieldsAtOneColumn_areEchoedInEitherOrder() throws {
        for reversed in [false, true] {
            let client = try DaemonClient()
            client.initialize()
            open(client, "---2")
            // Field f1 over the whole line (its formatting waits for an echo that never comes), then an empty field
            // x at its start: x comes first on the line.
            client.call(
                "maskd/openField",
                [
                    "textDocument": ["uri": "file:///a"], "range": ClientDocument.range(0, 0, 0, 4),
                    "mask": "+1 ([000]) [000]-[0000]", "field": "f1",
                ])
            client.call(
                "maskd/openField",
                [
                    "textDocument": ["uri": "file:///a"], "range": ClientDocument.range(0, 0, 0, 0),
                    "mask": "+1 ([000]) [000]-[0000]", "field": "x",
                ])
            // The person's changes (the fuzzer's): the pending openField edits are dropped, both fields change.
            change(
                client, 2,
                [
                    ["range": ClientDocument.range(0, 0, 0, 0), "text": ""],
                    ["range": ClientDocument.range(0, 0, 0, 3), "text": "111"],
                    ["range": ClientDocument.range(0, 0, 0, 1), "text": ""],
                ])
            guard let format = client.waitFor({ $0["method"] == "maskd/didFormat" }),
                let edits = format["params"]?["edits"]?.arrayValue
            else {
                return XCTFail("no didFormat for the person's change")
            }
            // The editor applies the edits and echoes each one, last first (as most editors do) or first first.
            var echo = edits.map { ["range": $0["range"] ?? .null, "text": $0["newText"] ?? .null] as JSONValue }
            if !reversed {
                echo.reverse()
            } else {
                // Applied first to last, each later edit's range moves by what the earlier ones inserted there.
                var shifted: [JSONValue] = []
                var moved = 0
                for edit in echo {
                    let start = edit["range"]?["start"]?["character"]?.intValue ?? 0
                    let end = edit["range"]?["end"]?["character"]?.intValue ?? 0
                    let text = edit["text"]?.stringValue ?? ""
                    shifted.append([
                        "range": ClientDocument.range(0, start + moved, 0, end + moved), "text": .string(text),
                    ])
                    moved += text.unicodeScalars.count - (end - start)
                }
                echo = shifted
            }
            change(client, 3, .array(echo))
            client.sync()
            XCTAssertEqual(
                client.take("maskd/didFormat").count, 1,
                "the echo (\(reversed ? "first to last" : "last first")) "
                    + "got a didFormat: \(echo)")
            // After the echo the daemon holds what the didFormat promised, field by field.
            let promised = (format["params"]?["fields"]?.arrayValue ?? []).map { [$0["field"], $0["text"]] }
            let fields = client.call("maskd/fields", ["textDocument": ["uri": "file:///a"]]).arrayValue ?? []
            let held = fields.map { [$0["field"], $0["text"]] }
            XCTAssertFalse(promised.isEmpty)
            XCTAssertEqual(
                held.filter { promised.contains($0) }.count, promised.count, "held \(held), promised \(promised)")
            _ = client.finish()
        }
    }

    /// a full-content change that only decomposes an `é` (canonically equal, other scalars) reaches the
    /// daemon's copy: it holds the editor's scalars, not text that merely compares equal.
    func testFullContentChange_toCanonicallyEqualText_isApplied() throws {
        let client = try DaemonClient()
        client.initialize()
        open(client, "x\u{E9}")
        change(client, 2, [["text": "x\u{65}\u{301}"]])
        // Two UTF-16 units after the x: only there if the decomposed form arrived.
        let result = client.call(
            "maskd/openField",
            [
                "textDocument": ["uri": "file:///a"],
                "range": ClientDocument.range(0, 1, 0, 3), "mask": "[*]",
            ])
        XCTAssertEqual(result["state"]?["text"]?.stringValue?.unicodeScalars.map(\.value), [0x65, 0x301])
        _ = client.finish()
    }

    /// the echo of a formatting edit that empties a line between a `\r` and a `\n` joins them into one line
    /// break, as the editor counts lines (the same rule as a typed `\r`).
    func testEchoEmptyingALineBetweenCRAndLF_joinsThem() throws {
        let client = try DaemonClient()
        client.initialize()
        open(client, "Z\rZZ\r")
        client.call(
            "maskd/openField",
            [
                "textDocument": ["uri": "file:///a"], "range": ClientDocument.range(1, 0, 1, 2),
                "mask": ["oneOf": ["[00]", "[AA]"]], "field": "f1",
            ])
        change(client, 2, [["range": ClientDocument.range(1, 2, 1, 2), "text": "\n"]])
        // Letters do not fit a Chinese phone number: the new mask's edit (forced) deletes them, emptying line 1.
        let result = client.call(
            "maskd/setMask",
            [
                "textDocument": ["uri": "file:///a"], "field": "f1",
                "mask": ["preset": "phone.cn"], "force": true,
            ])
        XCTAssertEqual(result["edits"], [["range": ClientDocument.range(1, 0, 1, 2), "newText": ""]])
        change(client, 3, [["range": ClientDocument.range(1, 0, 1, 2), "text": ""]])
        // "Z\r\n\r": three lines for the editor ("Z", "", "").
        let past = client.callFailing(
            "maskd/formatHints",
            [
                "textDocument": ["uri": "file:///a"],
                "position": ["line": 3, "character": 0],
            ], code: -32602)
        XCTAssertTrue(past["message"]?.stringValue?.contains("the document has 3 lines") == true, "\(past)")
        _ = client.finish()
    }
}
