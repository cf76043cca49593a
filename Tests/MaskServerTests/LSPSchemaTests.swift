// maskd tests: every message of full LSP sessions checked against LSP 3.17 by Python's lsprotocol.
import Foundation
import XCTest

final class LSPSchemaTests: XCTestCase {
    /// Runs `Tests/lsp-schema/run.sh` against the built binary; it installs lsprotocol into a
    /// virtual environment on first use and skips (with its reason) when PyPI cannot be reached.
    func testEveryMessageTheDaemonSends_isValidLSP317() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = root.appendingPathComponent("Tests/lsp-schema/run.sh")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path, try maskdBinary().path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        print(text, terminator: "")
        if let skipped = text.split(separator: "\n").first(where: { $0.hasPrefix("skipped:") }) {
            throw XCTSkip(String(skipped))
        }
        XCTAssertEqual(process.terminationStatus, 0, text)
        XCTAssertTrue(text.contains(" 0 failed"), text)
    }
}
