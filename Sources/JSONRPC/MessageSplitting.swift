// The JSONRPC layer: LSP base-protocol framing over bytes, with no I/O; see ARCHITECTURE.md.

import JSON

/// Splits a byte stream into `Content-Length` framed message bodies, as the LSP base protocol defines them.
///
/// Feed bytes with `append` as they arrive, then call ``next()`` until it returns nil (more bytes needed).
/// The splitter does no I/O and never fails: a problem in the stream is an ``FrameEvent/error(_:)`` event, after
/// which the splitter resynchronises and keeps serving frames.
///
/// The rules:
/// - A header block is lines ending in `\r\n` (a bare `\n` is accepted), closed by an empty line.
/// - Header names are case-insensitive. `Content-Length` (decimal, required) gives the body size. `Content-Type`
///   is accepted and ignored when its charset is absent, `utf-8` or `utf8`; another charset refuses the frame.
///   Unknown headers are ignored. When `Content-Length` appears twice, the last one counts.
/// - A frame whose body is larger than `maxMessageSize` is refused with an error and its body is skipped as it
///   streams in, without being buffered.
/// - Bytes that are not a well-formed header line (garbage, the tail of a body whose `Content-Length` was too
///   short, a header line longer than ``maxHeaderLineLength``) are skipped up to the next well-formed header line;
///   a `Content-Length` header that starts in the middle of such a line is found. One error reports each skipped
///   run, just before the frame that follows it.
/// - A header block without a valid `Content-Length` is reported and dropped; its body is then skipped as garbage.
///
/// Memory stays bounded by ``maxHeaderLineLength``, `maxMessageSize` and the size of the chunks appended.
///
/// Import `JSON` for ``FrameEvent/chunkedMessage(_:)``'s ``ByteChunks``.
public struct FrameSplitter {
    /// The longest header line accepted, in bytes without its line ending.
    public static let maxHeaderLineLength = 4096

    /// The largest body accepted, in bytes.
    public let maxMessageSize: Int

    /// Bodies this long or longer are kept in the chunks they arrived in (``FrameEvent/chunkedMessage(_:)``); nil: never.
    public let chunkingFrom: Int?

    private var buffer: [UInt8] = []
    /// The chunks of the large body being read.
    private var largeBody = ByteChunks()
    /// The index in `buffer` of the first byte not yet consumed.
    private var start = 0
    private var state = State.header
    private var block = HeaderBlock()
    /// Bytes skipped as garbage and not yet reported.
    private var skipped = 0
    /// Whether the unreported skipped bytes included a header line that was too long.
    private var skippedLongLine = false
    /// Whether the current line was cut out of a longer one, so a header may begin at its very first byte.
    private var lineWasCut = false

    private enum State {
        case header
        case body(Int)
        /// A large body, of which this many bytes are still to come (in `largeBody` as they do).
        case chunkedBody(Int)
        case skipping(Int)
    }

    /// What the header lines read so far in the current block have said.
    private struct HeaderBlock {
        var lineCount = 0
        var byteCount = 0
        var contentLength: Int?
        var invalidContentLength: String?
        var unsupportedCharset: String?
    }

    /// Creates a splitter.
    ///
    /// - Parameters:
    ///   - maxMessageSize: the largest body accepted, in bytes (default 64 MiB).
    ///   - chunkingFrom: bodies this long or longer are given as the chunks they arrived in, never gathered into one
    ///     buffer, so they can be parsed and freed a chunk at a time (nil, the default: every body is one array).
    public init(maxMessageSize: Int = 64 << 20, chunkingFrom: Int? = nil) {
        self.maxMessageSize = max(0, maxMessageSize)
        self.chunkingFrom = chunkingFrom
    }

    /// The number of bytes held, waiting to be split.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Whether the splitter is between frames, with nothing but skipped garbage pending.
    ///
    /// At end of input, false means the input ended in the middle of a frame.
    public var isAtFrameBoundary: Bool {
        if case .header = state { return block.lineCount == 0 && bufferedByteCount == 0 }
        return false
    }

    /// Adds bytes read from the stream.
    ///
    /// Bytes of a refused body are dropped here, without being copied.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var bytes = bytes[...]
        if case .skipping(let remaining) = state, bufferedByteCount == 0 {
            let dropped = min(remaining, bytes.count)
            bytes = bytes.dropFirst(dropped)
            state = remaining == dropped ? .header : .skipping(remaining - dropped)
        }
        if case .chunkedBody(let remaining) = state, remaining > 0 {
            let taken = min(remaining, bytes.count)
            largeBody.append(UnsafeRawBufferPointer(rebasing: bytes.prefix(taken)))
            bytes = bytes.dropFirst(taken)
            state = .chunkedBody(remaining - taken)
        }
        if start > 0, start == buffer.count || (start >= 1 << 16 && start * 2 >= buffer.count) {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Adds bytes read from the stream, as ``append(_:)-(UnsafeRawBufferPointer)`` does.
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Returns the next message body or framing error, or nil when more bytes are needed.
    public mutating func next() -> FrameEvent? {
        while true {
            switch state {
            case .skipping(let remaining):
                let dropped = min(remaining, bufferedByteCount)
                start += dropped
                guard remaining == dropped else {
                    state = .skipping(remaining - dropped)
                    return nil
                }
                state = .header
            case .chunkedBody(let remaining):
                guard remaining == 0 else { return nil }
                state = .header
                let body = largeBody
                largeBody = ByteChunks()
                return .chunkedMessage(body)
            case .body(let length):
                if let chunkingFrom, length >= chunkingFrom {
                    // What has arrived of it is its first chunk; the rest is kept as it comes (`append`).
                    let taken = min(length, bufferedByteCount)
                    buffer.withUnsafeBytes {
                        largeBody.append(UnsafeRawBufferPointer(rebasing: $0[start..<start + taken]))
                    }
                    start += taken
                    state = .chunkedBody(length - taken)
                    continue
                }
                guard bufferedByteCount >= length else { return nil }
                state = .header
                guard length >= 1 << 20 else {
                    let body = Array(buffer[start..<start + length])
                    start += length
                    return .message(body)
                }
                // A large body (a didOpen of a big document) is moved out of the buffer rather than copied, so it is not
                // held twice, and the buffer does not keep its room after it.
                buffer.removeFirst(start)
                let rest = Array(buffer[length...])
                buffer.removeLast(buffer.count - length)
                let body = buffer
                buffer = rest
                start = 0
                return .message(body)
            case .header:
                switch readHeaderLine() {
                case .needMore: return nil
                case .progress: continue
                case .event(let event): return event
                }
            }
        }
    }

    // MARK: - Header lines

    private enum LineOutcome {
        case needMore
        case progress
        case event(FrameEvent)
    }

    /// Reads one header line, or cuts an over-long one, and updates the header block.
    private mutating func readHeaderLine() -> LineOutcome {
        let limit = Self.maxHeaderLineLength
        let searchEnd = min(buffer.count, start + limit + 2)
        guard let newline = buffer[start..<searchEnd].firstIndex(of: 0x0A) else {
            guard bufferedByteCount > limit + 1 else { return .needMore }
            cutLongLine()
            return .progress
        }
        var lineEnd = newline
        if lineEnd > start, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        guard lineEnd - start <= limit else {
            cutLongLine()
            return .progress
        }
        let lineStart = start
        let consumed = newline + 1 - start
        let wasCut = lineWasCut
        lineWasCut = false
        if wasCut, let found = findContentLength(from: lineStart, to: lineEnd), found > lineStart {
            // The rest of an over-long line is garbage up to a Content-Length that starts inside it, even past a
            // colon: fed at once, the line would have been cut right there.
            skip(found - lineStart)
            lineWasCut = true
            return .progress
        }

        if lineEnd == lineStart {
            start += consumed
            guard block.lineCount > 0 else {
                skipped += consumed
                return .progress
            }
            block.byteCount += consumed
            return finishBlock()
        }
        guard let colon = headerNameEnd(lineStart, lineEnd) else {
            // Not a header line: skip to a Content-Length header inside it, or skip all of it.
            if let found = findContentLength(from: wasCut ? lineStart : lineStart + 1, to: lineEnd) {
                skip(found - lineStart)
            } else {
                skip(consumed)
            }
            return .progress
        }
        let nameLength = colon - lineStart
        if nameLength > contentLengthName.count,
            equalsIgnoringCase(colon - contentLengthName.count..<colon, contentLengthName)
        {
            // Garbage without a line break ran into a Content-Length header (`...}Content-Length: 5`).
            skip(nameLength - contentLengthName.count)
            return .progress
        }
        if wasCut, !(nameLength == contentLengthName.count && equalsIgnoringCase(lineStart..<colon, contentLengthName))
        {
            // The rest of an over-long line is garbage however it arrived, even where it holds a colon: so the
            // bytes skipped, and the errors reported, do not depend on how the input was cut into reads.
            skip(consumed)
            return .progress
        }
        start += consumed
        block.lineCount += 1
        block.byteCount += consumed
        readHeader(name: lineStart..<colon, value: colon + 1..<lineEnd)
        if block.lineCount == 1, skipped > 0 { return .event(.error(reportSkipped())) }
        return .progress
    }

    /// Skips part of a line that is too long, keeping a Content-Length header that starts inside it.
    ///
    /// The skip never crosses the end of the over-long line: the lines after it are read one by one, as they are
    /// when they arrive in later reads, so the bytes skipped and the errors reported do not depend on how the
    /// input was cut.
    private mutating func cutLongLine() {
        skippedLongLine = true
        let newline = buffer[start...].firstIndex(of: 0x0A)
        // A Content-Length at the very start would be this over-long line itself, so look after it.
        if let found = findContentLength(from: start + 1, to: newline ?? buffer.count) {
            skip(found - start)
            lineWasCut = true
        } else if let newline {
            // The whole over-long line, with its line ending, is garbage.
            skip(newline + 1 - start)
            lineWasCut = false
        } else {
            // Keep a tail too short to hold the whole header name, in case the name continues in later bytes.
            skip(bufferedByteCount - (contentLengthName.count - 1))
            lineWasCut = true
        }
    }

    /// Drops `count` bytes, and the current header block, as garbage.
    private mutating func skip(_ count: Int) {
        skipped += block.byteCount + count
        block = HeaderBlock()
        start += count
    }

    /// The error that reports the garbage skipped so far, which it then forgets.
    private mutating func reportSkipped() -> FramingError {
        let count = skipped
        let longLine = skippedLongLine
        skipped = 0
        skippedLongLine = false
        if longLine {
            return FramingError(
                .headerLineTooLong,
                "skipped \(count) bytes, including a header line longer than \(Self.maxHeaderLineLength) bytes")
        }
        return FramingError(.unframedBytes, "skipped \(count) bytes that were not a well-formed message header")
    }

    /// Ends a header block at its empty line: starts reading the body, or reports why the frame is refused.
    private mutating func finishBlock() -> LineOutcome {
        let finished = block
        block = HeaderBlock()
        if let text = finished.invalidContentLength {
            return .event(.error(FramingError(.invalidContentLength, "invalid Content-Length \"\(text)\"")))
        }
        guard let length = finished.contentLength else {
            return .event(.error(FramingError(.missingContentLength, "a header block without Content-Length")))
        }
        if let charset = finished.unsupportedCharset {
            state = .skipping(length)
            return .event(
                .error(
                    FramingError(
                        .unsupportedCharset, "unsupported charset \"\(charset)\" (only utf-8); skipped \(length) bytes")
                ))
        }
        if length > maxMessageSize {
            state = .skipping(length)
            return .event(
                .error(
                    FramingError(
                        .messageTooLarge,
                        "a message of \(length) bytes exceeds the maximum of \(maxMessageSize); skipped it")))
        }
        state = .body(length)
        return .progress
    }

    /// Records what one well-formed header line says.
    private mutating func readHeader(name: Range<Int>, value: Range<Int>) {
        if equalsIgnoringCase(name, contentLengthName) {
            let text = trimmed(value)
            if !text.isEmpty, text.count <= 18, text.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                block.contentLength = text.reduce(0) { $0 * 10 + Int($1 - 0x30) }
                block.invalidContentLength = nil
            } else {
                block.invalidContentLength = String(decoding: text.prefix(40), as: UTF8.self)
            }
        } else if equalsIgnoringCase(name, contentTypeName) {
            let text = String(decoding: trimmed(value), as: UTF8.self).lowercased()
            for parameter in text.split(separator: ";").dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces() }
                guard pair.count == 2, pair[0] == "charset" else { continue }
                var charset = pair[1]
                if charset.count >= 2, charset.hasPrefix("\""), charset.hasSuffix("\"") {
                    charset = charset.dropFirst().dropLast()
                }
                block.unsupportedCharset = charset == "utf-8" || charset == "utf8" ? nil : String(charset.prefix(40))
            }
        }
    }

    /// The index of the colon that ends a header name (one or more token characters), or nil for another line.
    private func headerNameEnd(_ from: Int, _ to: Int) -> Int? {
        var index = from
        while index < to, isTokenCharacter(buffer[index]) { index += 1 }
        return index > from && index < to && buffer[index] == UInt8(ascii: ":") ? index : nil
    }

    /// The index where `Content-Length` (in any case) begins in `buffer[from..<to]`, or nil.
    private func findContentLength(from: Int, to: Int) -> Int? {
        let name = contentLengthName
        guard to - from >= name.count else { return nil }
        var index = from
        while index <= to - name.count {
            if buffer[index] | 0x20 == name[0], equalsIgnoringCase(index..<index + name.count, name) { return index }
            index += 1
        }
        return nil
    }

    /// Whether `buffer[range]` equals the lowercase ASCII `name`, ignoring case.
    private func equalsIgnoringCase(_ range: Range<Int>, _ name: [UInt8]) -> Bool {
        guard range.count == name.count else { return false }
        var offset = 0
        for index in range {
            let byte = buffer[index]
            let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            if lower != name[offset] { return false }
            offset += 1
        }
        return true
    }

    /// The bytes of `range` without surrounding spaces and tabs.
    private func trimmed(_ range: Range<Int>) -> ArraySlice<UInt8> {
        var slice = buffer[range]
        while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
        return slice
    }
}

/// One result of ``FrameSplitter/next()``.
public enum FrameEvent: Hashable, Sendable {
    /// A complete message body, which is not yet known to be JSON.
    case message([UInt8])
    /// A complete large body, in the chunks it arrived in (a splitter made with `chunkingFrom`).
    case chunkedMessage(ByteChunks)
    /// A problem in the stream; the splitter has already resynchronised.
    case error(FramingError)
}

/// A problem in a framed byte stream, worded for a person.
public struct FramingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of problem.
    public enum Kind: Hashable, Sendable {
        /// A header block had no `Content-Length`.
        case missingContentLength
        /// A `Content-Length` was not a decimal number.
        case invalidContentLength
        /// A `Content-Type` named a charset other than UTF-8; the body was skipped.
        case unsupportedCharset
        /// A body was larger than the maximum; it was skipped.
        case messageTooLarge
        /// Garbage was skipped, and it included a header line longer than the maximum.
        case headerLineTooLong
        /// Bytes that were not a well-formed header were skipped.
        case unframedBytes
    }

    /// What kind of problem this is.
    public var kind: Kind
    /// The problem in words.
    public var message: String

    /// Creates a framing error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

// MARK: - Helpers

private let contentLengthName = Array("content-length".utf8)
private let contentTypeName = Array("content-type".utf8)

/// Whether `byte` may appear in a header name (an RFC 9110 token character).
private func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        return true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
        UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
        return true
    default:
        return false
    }
}

extension Substring {
    /// The substring without surrounding spaces and tabs.
    fileprivate func trimmingSpaces() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
