// Tests for Content-Length framing: every stream is fed whole, in small chunks and byte by byte.

import JSON
import JSONRPC
import XCTest

/// An expected splitter event: a body as text, or an error of some kind.
private enum Expected: Equatable {
    case message(String)
    case error(FramingError.Kind)
}

/// A frame with a correct Content-Length.
private func frame(_ body: String) -> String { "Content-Length: \(body.utf8.count)\r\n\r\n\(body)" }

final class MessageSplittingTests: XCTestCase {
    /// Feeds `input` whole and in `chunks` (of 7 bytes and byte by byte unless told), and checks the events each time.
    private func check(
        _ input: String, _ expected: [Expected], maxMessageSize: Int = 64 << 20, chunks: [Int] = [7, 1],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let bytes = Array(input.utf8)
        // Also with bodies kept in the chunks they arrive in (all of them, or those of 5 bytes or more): the same events.
        for chunking in [nil, 1, 5] as [Int?] {
            for chunk in [bytes.count] + chunks where chunk > 0 {
                var splitter = FrameSplitter(maxMessageSize: maxMessageSize, chunkingFrom: chunking)
                var events: [Expected] = []
                var offset = 0
                while offset < bytes.count {
                    splitter.append(Array(bytes[offset..<min(bytes.count, offset + chunk)]))
                    offset += chunk
                    while let event = splitter.next() {
                        switch event {
                        case .message(let body): events.append(.message(String(decoding: body, as: UTF8.self)))
                        case .chunkedMessage(let body):
                            events.append(.message(String(decoding: body.joined, as: UTF8.self)))
                        case .error(let error): events.append(.error(error.kind))
                        }
                    }
                }
                XCTAssertEqual(
                    events, expected, "fed in chunks of \(chunk), chunking \(chunking.map(String.init) ?? "off")",
                    file: file, line: line)
            }
        }
    }

    func testOneFrame() {
        check(frame("{\"a\":1}"), [.message("{\"a\":1}")])
    }

    /// A body of a mebibyte or more is moved out of the splitter's buffer: the bytes after it (the next frames) stay.
    func testLargeBody_thenMoreFrames() {
        let large = "[\"" + String(repeating: "0123456789", count: 150_000) + "\"]"
        check(
            frame(large) + frame("[2]") + frame("[3]"), [.message(large), .message("[2]"), .message("[3]")],
            chunks: [1 << 16, 4_093])
    }

    func testManyFramesInOneRead() {
        check(frame("[1]") + frame("[2]") + frame("[3]"), [.message("[1]"), .message("[2]"), .message("[3]")])
    }

    func testHeaderNames_ignoreCase() {
        check("content-length: 3\r\n\r\n[1]CONTENT-LENGTH:3\r\n\r\n[2]", [.message("[1]"), .message("[2]")])
    }

    func testBareNewlines_accepted() {
        check("Content-Length: 3\n\n[1]Content-Length: 3\r\n\n[2]", [.message("[1]"), .message("[2]")])
    }

    func testContentType_acceptedWithUTF8() {
        check(
            "Content-Length: 3\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n[1]"
                + "Content-Type: application/vscode-jsonrpc; charset=\"UTF8\"\r\nContent-Length: 3\r\n\r\n[2]"
                + "Content-Type: application/json\r\nContent-Length: 3\r\n\r\n[3]",
            [.message("[1]"), .message("[2]"), .message("[3]")])
    }

    func testContentType_otherCharset_refusedAndSkipped() {
        check(
            "Content-Length: 3\r\nContent-Type: text/plain; charset=latin1\r\n\r\n[1]" + frame("[2]"),
            [.error(.unsupportedCharset), .message("[2]")])
    }

    func testUnknownHeaders_ignored() {
        check("X-Trace: 12\r\nContent-Length: 3\r\nX-Other:\r\n\r\n[1]", [.message("[1]")])
    }

    func testEmptyBody_isAMessage() {
        check("Content-Length: 0\r\n\r\n" + frame("[1]"), [.message(""), .message("[1]")])
    }

    func testMissingContentLength_reportedThenResynchronised() {
        check(
            "X-Trace: 1\r\n\r\n{\"lost\":1}" + frame("[2]"),
            [
                .error(.missingContentLength), .error(.unframedBytes),
                .message("[2]"),
            ])
    }

    func testInvalidContentLength_reportedThenResynchronised() {
        check(
            "Content-Length: -3\r\n\r\n[1]" + frame("[2]"),
            [
                .error(.invalidContentLength), .error(.unframedBytes),
                .message("[2]"),
            ])
        check(
            "Content-Length: 3x\r\n\r\n[1]" + frame("[2]"),
            [
                .error(.invalidContentLength), .error(.unframedBytes),
                .message("[2]"),
            ])
    }

    func testContentLengthTooShort_tailSkippedThenNextServed() {
        // The first body is cut to `{"a":`; its tail `1}` runs into the next header line and is skipped.
        check(
            "Content-Length: 5\r\n\r\n{\"a\":1}" + frame("[2]"),
            [
                .message("{\"a\":"), .error(.unframedBytes),
                .message("[2]"),
            ])
    }

    func testContentLengthTooLong_eatsTheNextHeaderThenResynchronises() {
        // The first body takes `[1]Content-`, leaving `Length: 3` as an unknown header without Content-Length.
        check(
            "Content-Length: 11\r\n\r\n[1]" + frame("[2]") + frame("[3]"),
            [.message("[1]Content-"), .error(.missingContentLength), .error(.unframedBytes), .message("[3]")])
    }

    func testGarbageBeforeAHeader_skippedAndReported() {
        check("hello\r\n\r\nnonsense" + frame("[1]"), [.error(.unframedBytes), .message("[1]")])
        check("{\"no\":\"header\"}" + frame("[1]"), [.error(.unframedBytes), .message("[1]")])
    }

    func testMalformedHeaderLine_dropsItsBlock() {
        check(
            "Content-Length: 3\r\nthis is not a header\r\n\r\n[1]" + frame("[2]"),
            [.error(.unframedBytes), .message("[2]")])
    }

    func testOversizeFrame_skippedThenNextServed() {
        let big = String(repeating: "x", count: 100)
        check(frame(big) + frame("[1]"), [.error(.messageTooLarge), .message("[1]")], maxMessageSize: 99)
        check(frame(big) + frame("[1]"), [.message(big), .message("[1]")], maxMessageSize: 100)
    }

    func testOversizeFrame_bodyIsNotBuffered() {
        var splitter = FrameSplitter(maxMessageSize: 1000)
        splitter.append(Array("Content-Length: 10000000\r\n\r\n".utf8))
        XCTAssertEqual(splitter.next().map(kind), .messageTooLarge)
        let chunk = [UInt8](repeating: 0x78, count: 4096)
        for _ in 0..<(10_000_000 / 4096) {
            splitter.append(chunk)
            XCTAssertNil(splitter.next())
            XCTAssertEqual(splitter.bufferedByteCount, 0)
        }
        splitter.append([UInt8](repeating: 0x78, count: 10_000_000 % 4096) + Array(frame("[1]").utf8))
        XCTAssertEqual(splitter.next(), .message(Array("[1]".utf8)))
        XCTAssertNil(splitter.next())
    }

    func testHeaderLineTooLong_skippedAndReported() {
        let long = "X-Long: " + String(repeating: "y", count: FrameSplitter.maxHeaderLineLength)
        check(long + "\r\n" + frame("[1]"), [.error(.headerLineTooLong), .message("[1]")])
        check(String(repeating: "z", count: 10_000) + frame("[1]"), [.error(.headerLineTooLong), .message("[1]")])
    }

    /// Bug F2 (found by the `frames` fuzzer): fed at once, an over-long line was skipped past its end, over the
    /// well-formed header line after it, up to a later Content-Length (or to the end of what was buffered); fed in
    /// reads, that header line began a block. The events, with their skipped-byte counts, must not depend on the cut.
    func testHeaderLineTooLong_thenHeaderLine_sameEventsHoweverCut() {
        let input = String(repeating: "A", count: 4200) + "\r\nX: y\r\n\r\n" + frame("ok")
        let expected: [FrameEvent] = [
            .error(
                FramingError(.headerLineTooLong, "skipped 4202 bytes, including a header line longer than 4096 bytes")),
            .error(FramingError(.missingContentLength, "a header block without Content-Length")),
            .message(Array("ok".utf8)),
        ]
        XCTAssertEqual(exactEvents(input, chunk: nil), expected, "fed at once")
        XCTAssertEqual(exactEvents(input, chunk: 7), expected, "fed in chunks of 7")
        XCTAssertEqual(exactEvents(input, chunk: 1), expected, "fed byte by byte")
    }

    /// The rest of an over-long line that arrives in a later read is garbage up to a Content-Length inside it, even
    /// past a colon, as it is when the line arrives at once.
    func testHeaderLineTooLong_contentLengthAfterAColon_foundHoweverCut() {
        let input = String(repeating: "A", count: 5000) + "h: 1" + frame("ok")
        let expected: [FrameEvent] = [
            .error(
                FramingError(.headerLineTooLong, "skipped 5004 bytes, including a header line longer than 4096 bytes")),
            .message(Array("ok".utf8)),
        ]
        for chunk in [nil, 7, 1] {
            XCTAssertEqual(exactEvents(input, chunk: chunk), expected, "fed in chunks of \(chunk ?? input.utf8.count)")
        }
    }

    /// Feeds `input` at once (`chunk` nil) or in chunks, draining after each, and returns the events as they are.
    private func exactEvents(_ input: String, chunk: Int?) -> [FrameEvent] {
        let bytes = Array(input.utf8)
        let size = chunk ?? bytes.count
        var splitter = FrameSplitter(maxMessageSize: 64)
        var events: [FrameEvent] = []
        var offset = 0
        while offset < bytes.count {
            splitter.append(Array(bytes[offset..<min(bytes.count, offset + size)]))
            offset += size
            while let event = splitter.next() { events.append(event) }
        }
        return events
    }

    func testHeaderLineTooLong_memoryStaysBounded() {
        var splitter = FrameSplitter()
        for _ in 0..<1000 {
            splitter.append([UInt8](repeating: 0x7A, count: 1000))
            XCTAssertNil(splitter.next())
            XCTAssertLessThanOrEqual(splitter.bufferedByteCount, FrameSplitter.maxHeaderLineLength + 1000)
        }
    }

    func testFrameBoundary_tracksPartialFrames() {
        var splitter = FrameSplitter()
        XCTAssertTrue(splitter.isAtFrameBoundary)
        splitter.append(Array("Content-Length: 3\r\n\r\n[".utf8))
        XCTAssertNil(splitter.next())
        XCTAssertFalse(splitter.isAtFrameBoundary)
        splitter.append(Array("1]".utf8))
        XCTAssertEqual(splitter.next(), .message(Array("[1]".utf8)))
        XCTAssertTrue(splitter.isAtFrameBoundary)
    }
}

private func kind(_ event: FrameEvent) -> FramingError.Kind? {
    if case .error(let error) = event { return error.kind }
    return nil
}
