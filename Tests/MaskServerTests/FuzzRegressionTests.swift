// maskd tests: the server bugs the fuzz target found (fuzz/targets/server.swift, RELIABILITY.md).
import Foundation
import JSON
import XCTest

final class ServerFuzzRegressionTests: XCTestCase {
    private func open(_ client: DaemonClient, _ text: String) {
        client.notify("textDocument/didOpen", ["textDocument": ["uri": "file:///a", "languageId": "plaintext",
                                                                "version": 1, "text": .string(text)]])
    }

    private func change(_ client: DaemonClient, _ version: Int, _ changes: JSONValue) {
        client.notify("textDocument/didChange", ["textDocument": ["uri": "file:///a", "version": .int(Int64(version))],
                                                 "contentChanges": changes])
    }

    /// S1: a `\r` typed right before a `\n` makes one `\r\n` line break, as the editor counts lines.
    func testS1_carriageReturnBeforeLineFeed_isOneLineBreak() throws {
        let client = try DaemonClient()
        client.initialize()
        open(client, "a\nb")
        change(client, 2, [["range": ClientDocument.range(0, 1, 0, 1), "text": "\r"]])
        let result = client.call("maskd/openField", ["textDocument": ["uri": "file:///a"],
                                                     "range": ClientDocument.range(1, 0, 1, 1), "mask": "[*]"])
        XCTAssertEqual(result["state"]?["text"], "b")
        _ = client.finish()
    }

    /// S2: a full-content change while an openField's and a setMask's edits await their echo.
    func testS2_fullChangeOverPendingOpenFieldAndSetMask_keepsServing() throws {
        let client = try DaemonClient()
        client.initialize()
        open(client, "abcdefg")
        client.call("maskd/openField", ["textDocument": ["uri": "file:///a"], "range": ClientDocument.range(0, 2, 0, 7),
                                        "mask": "[AAA]-[000]", "field": "f1"])
        // A mask change over edits the editor has not applied yet is refused: they would not fit its text.
        client.callFailing("maskd/setMask", ["textDocument": ["uri": "file:///a"], "field": "f1", "mask": "[000]"],
                           code: -32801)
        change(client, 2, [["text": ""]])
        let fields = client.call("maskd/fields", ["textDocument": ["uri": "file:///a"]])
        XCTAssertNotNil(fields.arrayValue, "the daemon answers after the change")
        _ = client.finish()
    }
}
