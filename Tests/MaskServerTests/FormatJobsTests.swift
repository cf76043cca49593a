// maskd tests: `maskd format --jobs N` writes what `--jobs 1` writes, and streams batch after batch.
import Foundation
import XCTest

final class FormatJobsTests: XCTestCase {
    private let card = #"{"preset": "card"}"#

    /// Random inputs with every kind of line the reader treats apart: long lines (around the 64 KiB buffer and far
    /// past it), invalid UTF-8, `\r\n` endings, empty lines, a last line with or without a break; the bytes on
    /// stdout and stderr and the exit code are the same for 1, 2 and 3 threads, with and without --json and --check.
    func testJobs_property_sameBytesAsOneThread() throws {
        var random = SystemRandomNumberGenerator()
        for round in 0..<4 {
            var input: [UInt8] = []
            for _ in 0..<Int.random(in: 500...3_000, using: &random) {
                switch Int.random(in: 0..<100, using: &random) {
                case 0:
                    input += [UInt8](
                        repeating: 0x34, count: [65_535, 65_536, 65_537, 140_000].randomElement(using: &random)!)
                case 1: input += [0x34, 0x31, 0xFF, 0x31]
                case 2: input += Array("4111111111111111\r".utf8)
                case 3: break
                default: input += Array(String(UInt64.random(in: 0...9_999_999_999_999_999, using: &random)).utf8)
                }
                input.append(0x0A)
            }
            if round % 2 == 0 { input += Array("378282246310005".utf8) }
            for options in [[], ["--json"], ["--check"]] {
                let one = try runMaskd(["format", "--mask", card, "--jobs", "1"] + options, input: input)
                for jobs in ["2", "3"] {
                    let many = try runMaskd(["format", "--mask", card, "--jobs", jobs] + options, input: input)
                    XCTAssertEqual(many.code, one.code, "--jobs \(jobs) \(options)")
                    XCTAssertTrue(many.out == one.out, "--jobs \(jobs) \(options): other output bytes")
                    XCTAssertEqual(many.err, one.err, "--jobs \(jobs) \(options)")
                }
            }
        }
    }

    /// A caller that keeps one process writes a line and reads its line back before writing the next: every
    /// line read is written before the reader waits for more input.
    func testJobs_streamsEachLineBeforeWaitingForMore() throws {
        let process = Process()
        process.executableURL = try maskdBinary()
        process.arguments = ["format", "--mask", card, "--jobs", "2"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var pending: [UInt8] = []
        func readLine() -> String {
            while !pending.contains(0x0A) {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                pending += data
            }
            let end = pending.firstIndex(of: 0x0A) ?? pending.count
            defer { pending.removeFirst(min(end + 1, pending.count)) }
            return String(decoding: pending[..<end], as: UTF8.self)
        }
        let formatted = [
            "4111111111111111": "4111 1111 1111 1111", "5555555555554444": "5555 5555 5555 4444",
            "378282246310005": "3782 822463 10005", "": "",
        ]
        for batch in [["4111111111111111"], ["5555555555554444", "378282246310005", ""]] {
            input.fileHandleForWriting.write(Data((batch.joined(separator: "\n") + "\n").utf8))
            let lines = batch.map { _ in readLine() }
            XCTAssertEqual(lines, batch.map { formatted[$0]! })
        }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }

    func testJobs_badCountsAndATextArgumentAreRefused() throws {
        let zero = try runMaskd(["format", "--mask", card, "--jobs", "0"], input: [])
        XCTAssertEqual(zero.code, 2)
        XCTAssertTrue(zero.err.contains("--jobs takes a number of threads, 1 or more, got 0"), zero.err)
        let word = try runMaskd(["format", "--mask", card, "--jobs", "many"], input: [])
        XCTAssertEqual(word.code, 2)
        XCTAssertTrue(word.err.contains("--jobs takes a number, got 'many'"), word.err)
        let text = try runMaskd(["format", "--mask", card, "--jobs", "2", "4111"])
        XCTAssertEqual(text.code, 2)
        XCTAssertTrue(text.err.contains("--jobs is for lines on standard input"), text.err)
    }
}
