// maskd tests: the JSON-RPC transport through the built binary: cancellation, batches, logging.
import Foundation
import JSON
import XCTest

final class TransportTests: XCTestCase {
    private func frame(_ message: JSONValue) -> [UInt8] {
        let body = message.serialized()
        return Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    private func apply(_ id: JSONValue, _ text: String) -> JSONValue {
        [
            "jsonrpc": "2.0", "id": id, "method": "maskd/apply",
            "params": ["mask": "[00]{.}[00]", "text": .string(text)],
        ]
    }

    /// A request and its `$/cancelRequest` in one write: the request is still queued when the cancel is read, so it
    /// is answered `-32800` and never handled; the request after them is served.
    func testCancelRequest_ofAQueuedRequest_isRequestCancelled() throws {
        let client = try DaemonClient()
        client.initialize()
        client.write(
            frame(apply("c-1", "1234"))
                + frame(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": "c-1"]])
                + frame(apply("c-2", "5678")))
        let cancelled = client.waitFor { $0["id"] == "c-1" }
        XCTAssertEqual(cancelled?["error"]?["code"], -32800, cancelled?.serializedString() ?? "no answer")
        XCTAssertNil(cancelled?["result"])
        XCTAssertEqual(client.waitFor { $0["id"] == "c-2" }?["result"]?["text"], "56.78")
        // A cancel for a request already answered (or never sent) changes nothing and gets no answer.
        client.notify("$/cancelRequest", ["id": "c-2"])
        XCTAssertEqual(client.call("maskd/apply", ["mask": "[0]", "text": "7"])["text"], "7")
        XCTAssertNil(client.waitFor(timeout: 0.2) { $0["id"] == "c-2" })
    }

    /// A batch is answered as one array, in order, with no answers for its notifications.
    func testBatch_isAnsweredAsOneArray() throws {
        let client = try DaemonClient()
        client.initialize()
        let document = ClientDocument(uri: "file:///batch.txt", text: "Tel: 5551234")
        let batch: JSONValue = [
            apply(101, "1234"),
            ["jsonrpc": "2.0", "method": "textDocument/didOpen", "params": document.openParams],
            [
                "jsonrpc": "2.0", "id": 102, "method": "maskd/openField",
                "params": [
                    "textDocument": document.identifier, "range": ClientDocument.range(0, 5, 0, 12),
                    "mask": "+1 ([000]) [000]-[0000]", "field": "tel",
                ],
            ],
            ["jsonrpc": "2.0", "id": 103, "method": "maskd/nothing"],
        ]
        client.writeFrame(batch.serialized())
        let replies = client.waitForBatch() ?? []
        XCTAssertEqual(replies.map { $0["id"] }, [101, 102, 103])
        if replies.count == 3 {
            XCTAssertEqual(replies[0]["result"]?["text"], "12.34")
            XCTAssertEqual(replies[1]["result"]?["state"]?["text"], "+1 (555) 123-4")
            XCTAssertEqual(replies[2]["error"]?["code"], -32601)
        }
        // The empty batch: one Invalid Request error with a null id, not an array.
        client.writeFrame(Array("[]".utf8))
        let empty = client.waitFor { $0["error"] != nil }
        XCTAssertEqual(empty?["id"], .null)
        XCTAssertEqual(empty?["error"]?["code"], -32600)
        // Elements that are not objects: one such error each, in the batch's array.
        client.writeFrame(Array("[1,2]".utf8))
        let broken = client.waitForBatch() ?? []
        XCTAssertEqual(broken.map { $0["id"] }, [.null, .null])
        XCTAssertEqual(broken.map { $0["error"]?["code"] }, [-32600, -32600])
        // A batch of notifications only is not answered; the daemon goes on serving.
        client.writeFrame(Array(#"[{"jsonrpc":"2.0","method":"$/setTrace","params":{"value":"off"}}]"#.utf8))
        XCTAssertEqual(client.call("maskd/fields", ["textDocument": document.identifier]).arrayValue?.count, 1)
        XCTAssertNil(client.waitFor(timeout: 0.2) { $0.arrayValue != nil })
        XCTAssertEqual(client.stdoutProblems, [])
    }

    /// `--log-file PATH --log-level debug` logs every message's handling (method, id, time) to the file, and
    /// nothing but frames goes to stdout (nor anything to stderr).
    func testLogFile_atDebug_logsEveryMessage_andStdoutHasOnlyFrames() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent(
                "maskd-transport-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).log"
            ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let client = try DaemonClient(arguments: ["--stdio", "--log-file", path, "--log-level", "debug"])
        client.initialize()
        XCTAssertEqual(client.call("maskd/apply", ["mask": "[00]{.}[00]", "text": "1234"])["text"], "12.34")
        client.callFailing("maskd/nothing", [:], code: -32601)
        client.call("shutdown", nil)
        client.notify("exit", nil)
        XCTAssertEqual(client.waitForExit(), 0)

        let log = try String(contentsOfFile: path, encoding: .utf8)
        let handled = log.split(separator: "\n").filter { $0.hasPrefix("[debug] handled ") }.map(String.init)
        let expected = [
            "request 'initialize' id 1 in ", "notification 'initialized' in ",
            "request 'maskd/apply' id 2 in ", "request 'maskd/nothing' id 3 -> error -32601 in ",
            "request 'shutdown' id 4 in ", "notification 'exit' in ",
        ]
        XCTAssertEqual(handled.count, expected.count, log)
        for (line, start) in zip(handled, expected) {
            XCTAssertTrue(line.hasPrefix("[debug] handled " + start), line)
            XCTAssertTrue(line.hasSuffix(" ms"), line)
        }
        XCTAssertEqual(client.stdoutProblems, [])
        XCTAssertEqual(client.stderrText, "")

        // At the default level the same session logs no handling at all.
        let quiet = FileManager.default.temporaryDirectory
            .appendingPathComponent("maskd-transport-quiet-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: quiet) }
        let other = try DaemonClient(arguments: ["--log-file", quiet])
        other.initialize()
        other.call("maskd/apply", ["mask": "[0]", "text": "1"])
        XCTAssertEqual(other.finish(), 1)
        XCTAssertFalse(try String(contentsOfFile: quiet, encoding: .utf8).contains("handled"))
        XCTAssertEqual(other.stdoutProblems, [])
    }
}
