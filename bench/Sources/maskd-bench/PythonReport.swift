// maskd-bench: the Python baselines' scripts, run for the JSON report each prints.
import Foundation
import JSON
import MaskdClient

/// Runs a Python script that prints one JSON object, and gives that object; `label` (the bench's section)
/// begins every error.
func pythonReport(_ python: String, _ arguments: [String], timeout: Double, label: String) throws -> JSONValue {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.standardError
    try process.run()
    // Read before waiting: the output may not fit in the pipe's buffer.
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let deadline = nowNS() + UInt64(timeout * 1e9)
    while process.isRunning, nowNS() < deadline { usleep(1000) }
    let script = arguments.first ?? python
    if process.isRunning {
        process.terminate()
        throw BenchFailure("\(label): \(script) did not end within \(fixed(timeout, 0)) s")
    }
    guard process.terminationStatus == 0 else {
        throw BenchFailure("\(label): \(script) exited with status \(process.terminationStatus)")
    }
    do { return try JSONValue.parse([UInt8](data)) } catch {
        throw BenchFailure("\(label): \(script) printed no JSON: \(error)")
    }
}
