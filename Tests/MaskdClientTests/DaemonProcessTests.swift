// MaskdClient tests: the shared client against small shell commands standing in for a daemon.
import JSON
import MaskdClient
import XCTest

final class DaemonProcessTests: XCTestCase {
    /// A child running `script` in `sh`.
    private func shell(_ script: String, timeout: Double = 10) throws -> DaemonProcess {
        try DaemonProcess(name: "sh", executable: "/bin/sh", arguments: ["-c", script], timeout: timeout)
    }

    /// What `read()` gives until the output ends: each message, or the kind of each failure.
    private func readAll(_ process: DaemonProcess) -> [String] {
        var seen: [String] = []
        while true {
            do {
                seen.append(try process.read().serializedString())
            } catch let error as DaemonError {
                seen.append("\(error.kind)")
                if error.kind != .framing && error.kind != .notJSON { return seen }
            } catch {
                return seen + ["\(error)"]
            }
        }
    }

    func testRead_strayBytesBetweenFrames_areReportedAndTheFramesAfterThemRead() throws {
        let process = try shell(
            #"printf 'hello\nContent-Length: 2\r\n\r\n{}Content-Length: 3\r\n\r\nabc'"#
                + #"; printf 'X-Other: 1\r\nContent-Length: 7\r\n\r\n{"a":1}\r\n'"#)
        XCTAssertEqual(
            readAll(process), ["framing", "{}", "notJSON", #"{"a":1}"#, "framing", "closed"])
        XCTAssertEqual(process.waitForExit(within: 10), 0)
    }

    func testReadBody_aFrameInPieces_isOneBody() throws {
        let process = try shell(
            #"printf 'Content-Len'; sleep 0.1; printf 'gth: 7\r'; sleep 0.1; printf '\n\r\n[1,'; sleep 0.1"#
                + #"; printf '2,3]Content-Length: 2\r\n\r\n[]'"#)
        XCTAssertEqual(Array(try process.readBody()), Array("[1,2,3]".utf8))
        XCTAssertEqual(try process.read(), [])
    }

    func testRequest_answeredAfterANotification_givesTheResult_orThrowsItsError() throws {
        // `cat` sends back what it is sent: a notification, then a response to request 1, then an error for 2.
        let process = try DaemonProcess(name: "cat", executable: "/bin/cat", arguments: [], timeout: 10)
        try process.notify("window/logMessage", ["message": "hi"])
        try process.send(["jsonrpc": "2.0", "id": 1, "result": ["text": "4111"]])
        try process.send(["jsonrpc": "2.0", "id": 2, "error": ["code": -32602, "message": "bad"]])
        XCTAssertEqual(try process.readResponse(id: 1), ["text": "4111"])
        XCTAssertThrowsError(try process.readResponse(id: 2)) {
            XCTAssertEqual(($0 as? DaemonError)?.kind, .failed)
        }
        process.closeInput()
        XCTAssertEqual(process.waitForExit(within: 10), 0)
    }

    func testReadBody_whenNothingComes_timesOut_andKillEndsTheProcess() throws {
        let process = try shell("exec sleep 30", timeout: 0.1)
        XCTAssertThrowsError(try process.readBody()) { XCTAssertEqual(($0 as? DaemonError)?.kind, .timedOut) }
        XCTAssertTrue(process.isRunning)
        process.kill()
        XCTAssertEqual(process.exitCode, -SIGKILL)
    }

    func testWriteWithin_whenNothingReads_timesOut_andWhenReadTakesAll() throws {
        let megabyte = [UInt8](repeating: 0x31, count: 1 << 20)
        let stuck = try shell("exec sleep 30")
        XCTAssertThrowsError(try stuck.write(megabyte, within: 0.2)) {
            XCTAssertEqual(($0 as? DaemonError)?.kind, .timedOut)
        }
        stuck.kill()
        let counting = try shell("wc -c")
        try counting.write(megabyte, within: 10)
        counting.closeInput()
        XCTAssertEqual(String(decoding: counting.readToEnd(within: 10), as: UTF8.self), "1048576\n")
    }

    func testReadToEnd_afterAFrame_givesTheRestUnframed() throws {
        let process = try shell(#"printf 'Content-Length: 2\r\n\r\n{}tail'; sleep 0.1; printf ' and more'"#)
        XCTAssertEqual(try process.read(), [:])
        XCTAssertEqual(String(decoding: process.readToEnd(within: 10), as: UTF8.self), "tail and more")
    }

    func testCloseOutput_aChildThatWrites_endsOnSIGPIPE_andReadingThrowsClosed() throws {
        let process = try DaemonProcess(name: "yes", executable: "/usr/bin/yes", arguments: [], timeout: 10)
        process.closeOutput()
        XCTAssertEqual(process.waitForExit(within: 10), -SIGPIPE)
        XCTAssertThrowsError(try process.readBody()) { XCTAssertEqual(($0 as? DaemonError)?.kind, .closed) }
    }

    func testReadErrorOutput_givesWhatTheChildWroteToStderr() throws {
        let process = try DaemonProcess(
            name: "sh", executable: "/bin/sh", arguments: ["-c", "echo out; echo oops >&2; exit 3"], timeout: 10,
            errorOutput: .pipe)
        XCTAssertEqual(String(decoding: process.readErrorOutput(within: 10), as: UTF8.self), "oops\n")
        XCTAssertEqual(process.waitForExit(within: 10), 3)
        XCTAssertEqual(try shell("true").readErrorOutput(within: 10), [])
    }

    func testFrameBody_sendsBytesAsTheyAre() throws {
        XCTAssertEqual(DaemonProcess.frame(body: [0x7B, 0xFF]), Array("Content-Length: 2\r\n\r\n{".utf8) + [0xFF])
    }

    func testInit_withoutAnExecutable_throws() {
        XCTAssertThrowsError(try DaemonProcess(name: "x", executable: "/nonexistent", arguments: [], timeout: 1)) {
            XCTAssertEqual(($0 as? DaemonError)?.kind, .spawn)
        }
    }
}
