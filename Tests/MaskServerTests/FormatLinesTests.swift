// maskd tests: `maskd format` over standard input (bulk formatting), run as the built binary.
import Foundation
import JSON
import MaskCatalog
import MaskEngine
import XCTest

final class FormatLinesTests: XCTestCase {
    private let card = #"{"preset": "card"}"#

    private func format(
        _ input: String, _ options: [String] = [], mask: String? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (code: Int32, out: String, err: String) {
        let result = try runMaskd(["format", "--mask", mask ?? card] + options, input: Array(input.utf8))
        return (result.code, String(decoding: result.out, as: UTF8.self), result.err)
    }

    func testLines_oneFormattedLineEach_endingsAndEmptyLinesKept() throws {
        let input = "4111111111111111\r\n\n3782-822463-10005\n4111 11\r\n\r\n55000000000000"
        let expected = "4111 1111 1111 1111\r\n\n3782 822463 10005\n4111 11\r\n\r\n5500 0000 0000 00"
        let plain = try format(input)
        XCTAssertEqual(plain.code, 0, plain.err)
        XCTAssertEqual(plain.out, expected)
        XCTAssertEqual(plain.err, "")
        // `-` is standard input too; a final line break is kept as it came.
        let dash = try format(input + "\n", ["-"])
        XCTAssertEqual(dash.out, expected + "\n")
        XCTAssertEqual(try format("").out, "")
        XCTAssertEqual(try format("\n\r\n").out, "\n\r\n")
    }

    /// Every line reads as `Mask.format` reads it alone, whatever the characters and the endings.
    func testLines_property_sameAsFormattingEachLineAlone() throws {
        var random = SystemRandomNumberGenerator()
        let pieces = ["4", "1", "0", "9", "5", " ", "-", "/", "a", "Z", "é", "٣", "👍🏽", "\r", "\t", "+"]
        for (notation, spec) in [
            ("[0000] [0000]", MaskSpec.notation("[0000] [0000]")),
            (card, MaskSpec(.preset("card"))),
            (#"{"preset": "phone.us"}"#, MaskSpec(.preset("phone.us"))),
            ("[AA]-[00]", MaskSpec.notation("[AA]-[00]")),
        ] {
            let mask = try Mask.compile(spec)
            var input = "", expected = ""
            for _ in 0..<200 {
                let text = (0..<Int.random(in: 0...24, using: &random)).map { _ in pieces.randomElement(using: &random)!
                }
                .joined()
                let ending = ["\n", "\r\n"].randomElement(using: &random)!
                // A `\r` right before the line break is the ending's, not the line's.
                let body = ending == "\n" && text.hasSuffix("\r") ? String(text.dropLast()) + "x" : text
                input += body + ending
                expected += mask.format(body).text + ending
            }
            let result = try format(input, mask: notation)
            XCTAssertEqual(result.code, 0, result.err)
            XCTAssertEqual(result.out, expected, "mask \(notation)")
        }
    }

    func testCheck_reportsEachIncompleteOrInvalidLine_exits1() throws {
        let result = try format("4111111111111111\n41111\n\n4111111111111112\n", ["--check"])
        XCTAssertEqual(result.code, 1)
        XCTAssertEqual(result.out, "4111 1111 1111 1111\n4111 1\n\n4111 1111 1111 1112\n")
        XCTAssertEqual(
            result.err,
            "line 2: 8 more digits needed\nline 3: 16 more digits needed\n"
                + "line 4: check digit does not match\n")
        let valid = try format("4111111111111111\n378282246310005", ["--check"])
        XCTAssertEqual(valid.code, 0, valid.err)
        XCTAssertEqual(valid.out, "4111 1111 1111 1111\n3782 822463 10005")
        XCTAssertEqual(valid.err, "")
        // Without --check, incomplete lines are formatted and nothing is said.
        let unchecked = try format("41111\n")
        XCTAssertEqual(unchecked.code, 0)
        XCTAssertEqual(unchecked.err, "")
    }

    /// `--json`: one `maskd/apply` result per line with `line` first, the same object `maskd format --json TEXT` prints.
    func testJSON_oneApplyResultPerLine() throws {
        let lines = ["4111111111111111", "", "3782 8224", "5500-0000-0000-0004"]
        let result = try format(lines.joined(separator: "\r\n"), ["--json"])
        XCTAssertEqual(result.code, 0, result.err)
        XCTAssertTrue(result.out.hasSuffix("}\n"), result.out)
        let objects = result.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(objects.count, lines.count)
        for (i, (object, text)) in zip(objects, lines).enumerated() {
            var json = try XCTUnwrap(try JSONValue.parse(object).objectValue)
            XCTAssertEqual(json.keys.first, "line")
            XCTAssertEqual(json["line"], .int(Int64(i + 1)))
            json["line"] = nil
            let single = try runMaskd(["format", "--mask", card, "--json", text])
            XCTAssertEqual(JSONValue.object(json), try JSONValue.parse(single.out), "line \(i + 1)")
        }
        XCTAssertEqual(try JSONValue.parse(objects[2])["text"], "3782 8224")
    }

    func testBadMask_exit2_maskErrorOnStderr_nothingOnStdout() throws {
        for mask in ["[00", #"{"preset": "nope"}"#, #"{"groups": [2"#] {
            let result = try format("12\n34\n", mask: mask)
            XCTAssertEqual(result.code, 2, mask)
            XCTAssertEqual(result.out, "", mask)
            XCTAssertTrue(result.err.hasPrefix("maskd: --mask"), result.err)
        }
        let caret = try format("12\n", ["--caret", "1"])
        XCTAssertEqual(caret.code, 2)
        XCTAssertEqual(caret.err, "maskd: --caret needs a TEXT argument\nRun 'maskd --help' for usage.\n")
    }

    /// A line that is not UTF-8 is copied as it came and reported; the lines after it are formatted.
    func testInvalidUTF8_lineCopiedAndReported_restFormatted() throws {
        let input: [UInt8] = Array("4111111111111111\n41".utf8) + [0xFF, 0x31] + Array("\r\n378282246310005\n".utf8)
        let result = try runMaskd(["format", "--mask", card], input: input)
        XCTAssertEqual(result.code, 1)
        XCTAssertEqual(
            result.out,
            Array("4111 1111 1111 1111\n41".utf8) + [0xFF, 0x31]
                + Array("\r\n3782 822463 10005\n".utf8))
        XCTAssertEqual(result.err, "line 2: invalid UTF-8 at byte 2, copied unformatted\n")
        let json = try runMaskd(["format", "--mask", card, "--json", "--check"], input: input)
        XCTAssertEqual(json.code, 1)
        let objects = String(decoding: json.out, as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(objects.count, 3)
        XCTAssertEqual(try JSONValue.parse(String(objects[1])), ["line": 2, "error": "invalid UTF-8 at byte 2"])
        XCTAssertEqual(try JSONValue.parse(String(objects[2]))["line"], 3)
        XCTAssertEqual(json.err, "line 2: invalid UTF-8 at byte 2\n")
    }

    /// A line longer than the read buffer is copied through unformatted, and the next one is formatted.
    func testLongLine_copiedThroughAndReported() throws {
        let long = String(repeating: "1234567890", count: 10_000)
        let result = try format("4111111111111111\n" + long + "\r\n378282246310005\n")
        XCTAssertEqual(result.code, 1)
        XCTAssertEqual(result.out, "4111 1111 1111 1111\n" + long + "\r\n3782 822463 10005\n")
        XCTAssertEqual(result.err, "line 2: longer than 65536 bytes, copied unformatted\n")
        // The longest line read as a field, with either ending, and one byte more.
        for ending in ["\n", "\r\n"] {
            let longest = String(repeating: "7", count: 65_536)
            let edge = try format(longest + ending + longest + "7" + ending + "4111", mask: "[0]")
            XCTAssertEqual(edge.out, "7" + ending + longest + "7" + ending + "4")
            XCTAssertEqual(edge.err, "line 2: longer than 65536 bytes, copied unformatted\n")
        }
    }

    func testHelp_describesBulkFormatting() throws {
        let help = try runMaskd(["--help"])
        XCTAssertEqual(help.code, 0)
        XCTAssertTrue(
            help.out.contains("maskd format --mask M [--json | --output FORM] [--check] [--jobs N] [-]\n"), help.out)
        XCTAssertTrue(help.out.contains("Format standard input line by line"), help.out)
    }

    /// On a terminal a long run shows "N lines, R lines/s", erased before anything else is written and at the end,
    /// and with --check a summary; none of it when standard error is a file (the other tests).
    func testTerminal_progressLineErased_andSummaryWithCheck() throws {
        // A pseudo-terminal from /dev/ptmx, as posix_openpt, unlockpt and ptsname make one (Glibc's module has
        // none of them): TIOCSPTLCK and TIOCGPTN, from <asm-generic/ioctls.h>.
        var master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0, number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw XCTSkip("no pseudo-terminal")
        }
        defer { if master >= 0 { close(master) } }
        let terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        XCTAssertGreaterThanOrEqual(terminal, 0)
        let process = Process()
        process.executableURL = try maskdBinary()
        process.arguments = ["format", "--mask", card, "--check"]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(fileDescriptor: terminal, closeOnDealloc: true)
        try process.run()
        close(terminal)
        // What the terminal shows, read as it comes so the child never blocks on a full terminal.
        let screen = TerminalReader(master)
        master = -1
        // Two halves with pauses between: a run long enough (over half a second) for the progress line.
        let half = String(repeating: "4111111111111111\n", count: 2_000)
        input.fileHandleForWriting.write(Data(half.utf8))
        usleep(700_000)
        input.fileHandleForWriting.write(Data((half + "4111\n" + half).utf8))
        usleep(300_000)
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1)
        let shown = screen.finish()
        let progress = try Regex(#"\r\u{1B}\[K(\d+ lines, [0-9.]+k? lines/s)?"#)
        let drawn = shown.matches(of: progress).filter { $0.output[1].substring != nil }
        XCTAssertFalse(drawn.isEmpty, shown.debugDescription)
        // The terminal's line discipline writes "\n" as "\r\n".
        XCTAssertEqual(
            shown.replacing(progress, with: ""),
            "line 4001: 9 more digits needed\r\n6001 lines: 6000 valid, 1 invalid\r\n", shown.debugDescription)
        // Nothing else is written while the progress line is up: each one is erased before anything else.
        for match in drawn {
            XCTAssertTrue(shown[match.range.upperBound...].hasPrefix("\r\u{1B}[K"), shown.debugDescription)
        }
    }
}

/// Reads a pseudo-terminal's master side on a thread until the terminal is closed.
private final class TerminalReader: @unchecked Sendable {
    private let fd: Int32
    private var bytes: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)

    init(_ fd: Int32) {
        self.fd = fd
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count > 0 { bytes += buffer[..<count] } else if count < 0, errno == EINTR { continue } else { break }
            }
            done.signal()
        }
    }

    /// Everything the terminal received, once its last writer closed it.
    func finish() -> String {
        done.wait()
        close(fd)
        return String(decoding: bytes, as: UTF8.self)
    }
}
