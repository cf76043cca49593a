// Fuzz target `frames`: the Content-Length frame splitter (Sources/JSONRPC/MessageSplitting.swift).
//
// Built by `fuzz/run frames SECONDS` with the splitter's source, against the JSON module (for `ByteChunks`).
// The first input byte chooses a mode, the next ones a message size limit, a body length from which the splitter
// hands bodies over in chunks, and a chunking of the input.
// - Mode "raw" (even first byte): the rest is an arbitrary byte stream, fed in chunks.
//   The splitter must not crash, its buffer must stay bounded after every drain, every message must be a
//   contiguous piece of the input no larger than the limit, and cutting the stream differently, or gathering
//   every body instead of chunking the long ones, must give the same messages and the same errors.
// - Mode "framed" (odd first byte): the rest is cut into bodies at each 0xFF byte; they are framed correctly
//   (with header variations) and the splitter, chunking bodies or not, must give back exactly those bodies and
//   no error.

#if canImport(Glibc)
    import Glibc
#endif

/// Stops the run with a message that libFuzzer records next to the crashing input.
func fail(_ message: String) -> Never {
    fatalError("frames: " + message)
}

/// Everything a splitter produced from one stream.
struct Transcript: Equatable {
    var events: [FrameEvent] = []
    var largestBuffer = 0
    var atBoundary = true
}

/// Feeds `stream` cut into chunks whose sizes come from `sizes` (cycled; 0 means "the rest"), draining after each.
/// With `chunkingFrom`, bodies that long or longer come as chunks; they are recorded joined, as `.message`, so a
/// transcript does not depend on whether the splitter chunked.
func run(_ stream: [UInt8], sizes: [Int], limit: Int, chunkingFrom: Int? = nil) -> Transcript {
    var splitter = FrameSplitter(maxMessageSize: limit, chunkingFrom: chunkingFrom)
    var transcript = Transcript()
    var offset = 0
    var turn = 0
    while offset < stream.count {
        let wanted = sizes.isEmpty ? stream.count : sizes[turn % sizes.count]
        turn += 1
        let size = wanted == 0 ? stream.count - offset : min(wanted, stream.count - offset)
        stream.withUnsafeBytes { splitter.append(UnsafeRawBufferPointer(rebasing: $0[offset..<offset + size])) }
        offset += size
        while let event = splitter.next() {
            if case .chunkedMessage(let chunks) = event {
                guard let chunkingFrom, chunks.count >= chunkingFrom else {
                    fail("a chunked body of \(chunks.count) bytes from a splitter chunking from \(chunkingFrom ?? -1)")
                }
                transcript.events.append(.message(chunks.joined))
            } else {
                transcript.events.append(event)
            }
        }
        // After a drain, the splitter holds at most a header line in progress or a body in progress.
        let bound = max(FrameSplitter.maxHeaderLineLength + 1, limit)
        if splitter.bufferedByteCount > bound {
            fail("holds \(splitter.bufferedByteCount) bytes after a drain, more than \(bound)")
        }
        transcript.largestBuffer = max(transcript.largestBuffer, splitter.bufferedByteCount)
    }
    if splitter.next() != nil { fail("an event appeared without new input") }
    transcript.atBoundary = splitter.isAtFrameBoundary
    return transcript
}

/// Whether `needle` occurs in `haystack` at or after `from`; returns the index after it.
func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
    if needle.isEmpty { return from }
    guard haystack.count >= needle.count else { return nil }
    var i = from
    while i + needle.count <= haystack.count {
        if haystack[i] == needle[0], Array(haystack[i..<i + needle.count]) == needle { return i + needle.count }
        i += 1
    }
    return nil
}

/// How many skipped bytes an error reports once depended on how the input was cut when a header line is too long
/// (4,201 `A`s then `Coutf8t-Length: 2\r\n\r\nok`: `skipped 4216 bytes, including a header line longer than 4096
/// bytes` fed at once, `skipped 4089 bytes, ...` fed 7 bytes at a time), and so could the number of errors.
/// Messages were the same either way; skipping known bugs (`skipKnownBugs`), only they are compared.
func sameEvents(_ a: [FrameEvent], _ b: [FrameEvent]) -> Bool {
    guard skipKnownBugs else { return a == b }
    func messages(_ events: [FrameEvent]) -> [[UInt8]] {
        events.compactMap { if case .message(let body) = $0 { return body } else { return nil } }
    }
    return messages(a) == messages(b)
}

/// The bugs this target found, checked once at start-up unless skipping known bugs.
func checkRegressions() {
    guard !skipKnownBugs else { return }
    var stream = [UInt8](repeating: UInt8(ascii: "A"), count: 4201)
    stream += Array("Coutf8t-Length: 2\r\n\r\nok".utf8)
    let whole = run(stream, sizes: [], limit: 64), cut = run(stream, sizes: [7], limit: 64)
    if whole.events != cut.events {
        fputs(
            "frames regression long-line-skip-count: the skipped-byte count of an error depends on chunking: FAILS\n",
            stderr)
        fail(
            "long-line-skip-count: 4,201 A then Coutf8t-Length: 2, at once: \(whole.events.first.map { "\($0)" } ?? "-"); "
                + "7 bytes at a time: \(cut.events.first.map { "\($0)" } ?? "-")")
    }
    // long-line-skip-end: fed at once, an over-long line was skipped past its end, over the well-formed header line after it
    // (`skipped 4210 bytes`, then the message); fed 7 bytes at a time, that line began a block (`skipped 4202
    // bytes`, a block without Content-Length, then the message).
    var stream2 = [UInt8](repeating: UInt8(ascii: "A"), count: 4200)
    stream2 += Array("\r\nX: y\r\n\r\nContent-Length: 2\r\n\r\nok".utf8)
    let whole2 = run(stream2, sizes: [], limit: 64)
    for sizes in [[7], [1]] {
        let cut2 = run(stream2, sizes: sizes, limit: 64)
        if whole2.events != cut2.events {
            fputs(
                "frames regression long-line-skip-end: an over-long line's skip crosses its line end when fed at once: FAILS\n",
                stderr)
            fail(
                "long-line-skip-end: 4,200 A then a line X: y, at once: \(whole2.events); in chunks \(sizes): \(cut2.events)"
            )
        }
    }
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    checkRegressions()
    return 0
}

func checkRaw(_ source: inout ByteSource) {
    let limit = Int(source.uint8()) * 4
    // 0: the splitter gathers every body; else bodies this long or longer come as chunks.
    let chunkingByte = Int(source.uint8())
    let chunkingFrom = chunkingByte == 0 ? nil : chunkingByte
    var sizes: [Int] = []
    for _ in 0..<Int(source.uint8() % 8) { sizes.append(Int(source.uint8())) }
    let stream = source.rest()

    let chunked = run(stream, sizes: sizes, limit: limit, chunkingFrom: chunkingFrom)
    var position = 0
    for event in chunked.events {
        switch event {
        case .message(let body):
            if body.count > limit { fail("a message of \(body.count) bytes passed the limit \(limit)") }
            // Messages come out in stream order, each a contiguous run of input bytes.
            guard let end = find(body, in: stream, from: position) else { fail("a message that is not in the input") }
            position = end
        case .error(let error):
            if error.message.isEmpty { fail("an error without a message") }
        case .chunkedMessage:
            fail("a chunked message left in a transcript")
        }
    }
    // How the stream was cut does not matter.
    let whole = run(stream, sizes: [], limit: limit)
    // Byte by byte costs a call per byte; long streams get one-to-three-byte chunks instead.
    let bytewise = run(stream, sizes: stream.count <= 2048 ? [1] : [1, 3, 2], limit: limit)
    for (name, other) in [("whole", whole), ("byte-wise", bytewise)] where !sameEvents(other.events, chunked.events) {
        let i =
            (0..<min(other.events.count, chunked.events.count)).first { other.events[$0] != chunked.events[$0] }
            ?? min(other.events.count, chunked.events.count)
        let a = i < other.events.count ? "\(other.events[i])" : "nothing"
        let b = i < chunked.events.count ? "\(chunked.events[i])" : "nothing"
        fail(
            "chunking changed event \(i): fed \(name), \(String(a.prefix(300))); fed in chunks \(sizes), \(String(b.prefix(300)))"
        )
    }
    if whole.atBoundary != chunked.atBoundary || bytewise.atBoundary != chunked.atBoundary {
        fail("chunking changed whether the stream ended on a frame boundary")
    }
}

func checkFramed(_ source: inout ByteSource) {
    var sizes: [Int] = []
    for _ in 0..<Int(source.uint8() % 8) { sizes.append(Int(source.uint8())) }
    let style = source.uint8()
    let rest = source.rest()
    let bodies = rest.split(separator: 0xFF, omittingEmptySubsequences: false).map(Array.init)
    var stream: [UInt8] = []
    for (i, body) in bodies.enumerated() {
        let variant = (Int(style) + i) % 5
        var header: String
        switch variant {
        case 0: header = "Content-Length: \(body.count)\r\n\r\n"
        case 1:
            header = "content-length:\(body.count)\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"
        case 2: header = "X-Other: 1\r\nCONTENT-LENGTH: \t\(body.count) \r\n\r\n"
        case 3: header = "Content-Length: \(body.count)\n\n"
        default:
            header =
                "Content-Length: 999\r\nContent-Length: \(body.count)\r\nContent-Type: text/x; charset=\"UTF8\"\r\n\r\n"
        }
        stream += Array(header.utf8) + body
    }
    let limit = 1 << 20
    let chunkingFrom = style & 0x80 == 0 ? nil : Int(style & 0x7F)
    let transcript = run(stream, sizes: sizes, limit: limit, chunkingFrom: chunkingFrom)
    let expected = bodies.map { FrameEvent.message($0) }
    if transcript.events != expected {
        fail("well-formed frames came back as \(transcript.events.count) events, expected \(expected.count) messages")
    }
    if !transcript.atBoundary { fail("a stream of whole frames did not end on a boundary") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var source = ByteSource(Array(UnsafeBufferPointer(start: data, count: size)))
    if source.uint8() & 1 == 0 {
        checkRaw(&source)
    } else {
        checkFramed(&source)
    }
    return 0
}
