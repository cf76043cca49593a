// maskd tests: initialize, shutdown, exit, and the errors around them, over real pipes.
import Foundation
import JSON
import XCTest

final class LifecycleTests: XCTestCase {
    func testInitialize_result_hasCapabilitiesAndServerInfo() throws {
        let client = try DaemonClient()
        let result = client.initialize()
        let capabilities = result["capabilities"]
        XCTAssertEqual(capabilities?["positionEncoding"], "utf-16")
        XCTAssertEqual(capabilities?["textDocumentSync"], ["openClose": true, "change": 2])
        XCTAssertEqual(capabilities?["experimental"]?["maskd"]?["version"], 1)
        XCTAssertNotNil(capabilities?["experimental"]?["maskd"]?["presets"]?.arrayValue)
        XCTAssertEqual(capabilities?["experimental"]?["maskd"]?["presets"]?.arrayValue?.first, "phone")
        let regions = capabilities?["experimental"]?["maskd"]?["phoneRegions"]?.arrayValue ?? []
        XCTAssertTrue(
            regions.contains("GB") && regions.contains("CN") && regions.count >= 240, "\(regions.count) regions")
        let postal = capabilities?["experimental"]?["maskd"]?["postalRegions"]?.arrayValue ?? []
        XCTAssertTrue(
            postal.contains("GB") && postal.contains("BR") && postal.count >= 180, "\(postal.count) postal regions")
        XCTAssertEqual(result["serverInfo"]?["name"], "maskd")
        XCTAssertNotNil(result["serverInfo"]?["version"]?.stringValue)
        XCTAssertEqual(client.callFailing("initialize", ["capabilities": [:]], code: -32600)["code"], -32600)
    }

    /// LSP: when the process `initialize` names is gone, the server exits. The "editor" here is a child process
    /// that the test kills, while the test still holds the daemon's input open (so only the watch can end it).
    func testEditorProcessGone_theDaemonExits_whileItsInputIsStillOpen() throws {
        let editor = Process()
        editor.executableURL = URL(fileURLWithPath: "/bin/sleep")
        editor.arguments = ["60"]
        try editor.run()
        let client = try DaemonClient()
        client.call("initialize", ["processId": .int(Int64(editor.processIdentifier)), "capabilities": [:]])
        client.notify("initialized", [:])
        client.sync()
        XCTAssertTrue(client.daemon.isRunning, "the editor is alive: the daemon serves")
        editor.terminate()
        editor.waitUntilExit()
        XCTAssertEqual(client.waitForExit(timeout: 20), 1, "gone without shutdown: exit code 1")
    }

    func testInitialize_encodings_preferUTF16ThenUTF8ThenUTF32() throws {
        let cases: [([String]?, String)] = [
            (nil, "utf-16"), ([], "utf-16"), (["utf-8"], "utf-8"), (["utf-32", "utf-8"], "utf-8"),
            (["utf-32"], "utf-32"), (["utf-8", "utf-16"], "utf-16"), (["latin-1"], "utf-16"),
        ]
        for (offered, expected) in cases {
            let client = try DaemonClient()
            XCTAssertEqual(
                client.initialize(encodings: offered)["capabilities"]?["positionEncoding"]?.stringValue,
                expected, "offered \(String(describing: offered))")
            _ = client.finish()
        }
    }

    func testRequestBeforeInitialize_isServerNotInitialized_andNotificationsAreDropped() throws {
        let client = try DaemonClient()
        client.callFailing("maskd/apply", ["mask": "[0]", "text": "1"], code: -32002)
        client.notify("textDocument/didOpen", ClientDocument(uri: "file:///early", text: "x").openParams)
        client.initialize()
        client.callFailing("maskd/fields", ["textDocument": ["uri": "file:///early"]], code: -32602)
    }

    func testShutdown_withNullParams_thenRequestsAreInvalid_andExitIsZero() throws {
        let client = try DaemonClient()
        client.initialize()
        client.send(["jsonrpc": "2.0", "id": 99, "method": "shutdown", "params": nil])
        let response = client.waitFor { $0["id"] == 99 }
        XCTAssertEqual(response?["result"], .null)
        XCTAssertNil(response?["error"])
        client.callFailing("maskd/apply", ["mask": "[0]", "text": "1"], code: -32600)
        client.send(["jsonrpc": "2.0", "method": "exit", "params": nil])
        XCTAssertEqual(client.waitForExit(), 0)
    }

    func testExit_withoutShutdown_isOne() throws {
        let client = try DaemonClient()
        client.initialize()
        client.notify("exit", nil)
        XCTAssertEqual(client.waitForExit(), 1)
    }

    func testEndOfInput_withoutShutdown_isOne_afterShutdown_isZero() throws {
        let a = try DaemonClient()
        a.initialize()
        XCTAssertEqual(a.finish(), 1)
        let b = try DaemonClient()
        b.initialize()
        b.call("shutdown", nil)
        XCTAssertEqual(b.finish(), 0)
    }

    func testUnknownMethod_isMethodNotFound() throws {
        let client = try DaemonClient()
        client.initialize()
        let error = client.callFailing("maskd/frobnicate", [:], code: -32601)
        XCTAssertTrue(error["message"]?.stringValue?.contains("maskd/frobnicate") ?? false)
        client.notify("$/setTrace", ["value": "off"])
        client.notify("workspace/didChangeConfiguration", ["settings": nil])
        XCTAssertEqual(client.call("maskd/apply", ["mask": "[00]", "text": "12"])["text"], "12")
    }

    func testDemo_playsItsSession_andChecksItself() throws {
        let process = Process()
        process.executableURL = try maskdBinary()
        process.arguments = ["demo"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("Phone: +1 (800) 555-0199|"), text)
        XCTAssertTrue(text.contains("Card: 4111 1|"), "the card is shown key by key: \(text)")
        XCTAssertTrue(text.contains("Pay with: 4|782 8224 6310 005"), "a brand switch: \(text)")
        XCTAssertTrue(text.contains("brand: visa"), text)
        XCTAssertTrue(text.contains("check digit does not match"), text)
        XCTAssertTrue(text.contains("Amount: 1,234,567.89|"), text)
    }

    func testCommandLine_versionHelpAndBadArguments() throws {
        let version = try runMaskd(["--version"])
        XCTAssertEqual(version.0, 0)
        XCTAssertTrue(version.1.hasPrefix("maskd "))
        XCTAssertTrue(try runMaskd(["--help"]).1.contains("maskd format"))
        XCTAssertEqual(try runMaskd(["--bogus"]).0, 2)
        XCTAssertEqual(try runMaskd(["format", "--mask", "[00", "1"]).0, 2)
        let formatted = try runMaskd(["format", "--mask", "+1 ([000]) [000]-[0000]", "5551234"])
        XCTAssertEqual(formatted.0, 0)
        XCTAssertTrue(formatted.1.hasPrefix("+1 (555) 123-4|\n"), formatted.1)
        let edited = try runMaskd([
            "edit", "--mask", "[0000] [0000]", "--text", "1234 5678", "--selection", "5:5",
            "--backspace", "--json",
        ])
        XCTAssertEqual(edited.0, 0)
        let json = try JSONValue.parse(edited.1.trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertEqual(json["text"], "1235 678")
        XCTAssertEqual(json["caret"], 3)
        XCTAssertEqual(try runMaskd(["edit", "--mask", "[00]", "--text", "1", "--selection", "1:1"]).0, 2)
    }
}
