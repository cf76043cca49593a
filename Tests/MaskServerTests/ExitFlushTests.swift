// maskd tests: `exit` ends the process only after everything queued before it reached the client.
import JSON
import XCTest

final class ExitFlushTests: XCTestCase {
    func testExit_rightAfterLargeAnswers_stillDeliversThemAndTheShutdownResponse() throws {
        let client = try DaemonClient()
        client.initialize()
        // A document with many fields, so that a short maskd/fields request has a long answer.
        let uri = "file:///many.txt"
        client.notify(
            "textDocument/didOpen",
            ClientDocument(
                uri: uri,
                text: Array(repeating: "5551234567", count: 500)
                    .joined(separator: "\n")
            ).openParams)
        var opening: [UInt8] = []
        for line in 0..<500 {
            opening += frame([
                "jsonrpc": "2.0", "id": .int(Int64(10_000 + line)), "method": "maskd/openField",
                "params": [
                    "textDocument": ["uri": .string(uri)],
                    "range": ClientDocument.range(line, 0, line, 10), "mask": ["preset": "phone.us"],
                ],
            ])
        }
        client.write(opening)
        XCTAssertNotNil(client.waitFor(timeout: 30) { $0["id"] == 10_499 })
        // Answers far larger than a pipe holds, then shutdown and exit, all in one short write: the
        // daemon must write every answer before it ends.
        var burst: [UInt8] = []
        for i in 0..<40 {
            burst += frame([
                "jsonrpc": "2.0", "id": .int(Int64(1000 + i)), "method": "maskd/fields",
                "params": ["textDocument": ["uri": .string(uri)]],
            ])
        }
        burst +=
            frame(["jsonrpc": "2.0", "id": 502, "method": "shutdown"]) + frame(["jsonrpc": "2.0", "method": "exit"])
        client.write(burst)
        let last = client.waitFor(timeout: 30) { $0["id"] == 1039 }
        XCTAssertEqual(last?["result"]?.arrayValue?.count, 500)
        let shutdown = client.waitFor(timeout: 30) { $0["id"] == 502 }
        XCTAssertNotNil(shutdown, "the shutdown response was lost")
        XCTAssertEqual(shutdown?["result"], .null)
        XCTAssertEqual(client.waitForExit(), 0)
    }

    func frame(_ message: JSONValue) -> [UInt8] {
        let body = message.serialized()
        return Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }
}
