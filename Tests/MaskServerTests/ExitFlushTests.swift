// maskd tests: `exit` ends the process only after everything queued before it reached the client.
import JSON
import XCTest

final class ExitFlushTests: XCTestCase {
    func testExit_rightAfterALargeResponse_stillDeliversItAndTheShutdownResponse() throws {
        let client = try DaemonClient()
        client.initialize()
        // A response far larger than a pipe holds, then shutdown and exit in the same write: the
        // daemon must write all of it before it ends.
        let digits = String(repeating: "1234567890", count: 200_000)
        let frames: [JSONValue] = [
            ["jsonrpc": "2.0", "id": 501, "method": "maskd/apply", "params": ["mask": "[0…]", "text": .string(digits)]],
            ["jsonrpc": "2.0", "id": 502, "method": "shutdown"],
            ["jsonrpc": "2.0", "method": "exit"],
        ]
        var bytes: [UInt8] = []
        for frame in frames {
            let body = frame.serialized()
            bytes += Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        }
        client.write(bytes)
        let apply = client.waitFor(timeout: 30) { $0["id"] == 501 }
        XCTAssertEqual(apply?["result"]?["text"]?.stringValue?.count, digits.count)
        let shutdown = client.waitFor(timeout: 30) { $0["id"] == 502 }
        XCTAssertNotNil(shutdown, "the shutdown response was lost")
        XCTAssertEqual(shutdown?["result"], .null)
        XCTAssertEqual(client.waitForExit(), 0)
    }
}
