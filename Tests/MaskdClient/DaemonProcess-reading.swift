// maskd's client: the daemon's output read in LSP frames, each body a slice of the read buffer.
import Glibc
import JSON

extension DaemonProcess {
    /// The body of the next message, waiting at most ``timeout`` seconds for each chunk of output.
    ///
    /// The body is a slice of the read buffer, not a copy: read or parse it before the next read.
    /// - Throws: a ``DaemonError``: `.timedOut`, `.closed` (the daemon closed its output), `.read`, or `.framing`
    ///   for bytes that are not a frame, which are then skipped, so reading can go on.
    public func readBody() throws -> ArraySlice<UInt8> {
        try readBody(waitingAtMost: timeout)
    }

    /// The body of the next message, waiting at most `seconds` for each chunk of output, as ``readBody()`` does.
    public func readBody(waitingAtMost seconds: Double) throws -> ArraySlice<UInt8> {
        while true {
            if let body = try takeFrame() { return body }
            try fill(waitingAtMost: seconds)
        }
    }

    /// The rest of the output as it comes, unframed, until the process closes it, waiting at most `seconds` in all:
    /// what a command that is not a daemon (`maskd presets`) prints.
    /// - Returns: the bytes not yet read as frames, then what follows them.
    public func readToEnd(within seconds: Double) -> [UInt8] {
        let rest = Array(buffer[start...])
        buffer.removeAll(keepingCapacity: true)
        start = 0
        return output >= 0 ? rest + readUntilEnd(output, within: seconds) : rest
    }

    /// A complete frame's body from the buffer, or nil when more bytes are needed.
    private func takeFrame() throws -> ArraySlice<UInt8>? {
        let end = buffer.count
        var i = start
        var contentLength: Int? = nil
        var lineStart = start
        // Header lines up to the empty line.
        while i < end {
            if buffer[i] == UInt8(ascii: "\n") {
                var lineEnd = i
                if lineEnd > lineStart, buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
                if lineEnd == lineStart {
                    guard let length = contentLength else {
                        start = i + 1
                        throw DaemonError(.framing, "\(name): sent a header block without Content-Length")
                    }
                    let bodyStart = i + 1
                    guard end - bodyStart >= length else { return nil }
                    start = bodyStart + length
                    return buffer[bodyStart..<start]
                }
                if let length = Self.contentLength(buffer[lineStart..<lineEnd]) {
                    contentLength = length
                } else if !Self.isHeader(buffer[lineStart..<lineEnd]) {
                    start = i + 1
                    let text = String(decoding: buffer[lineStart..<lineEnd].prefix(80), as: UTF8.self)
                    throw DaemonError(.framing, "\(name): sent a line that is not a header: \(text)")
                }
                lineStart = i + 1
            }
            i += 1
        }
        return nil
    }

    /// The value of a `Content-Length` header line, or nil for another line.
    private static func contentLength(_ line: ArraySlice<UInt8>) -> Int? {
        let name = contentLengthName
        guard line.count > name.count else { return nil }
        for (k, c) in zip(line.prefix(name.count), name) where (c >= 0x61 ? k | 0x20 : k) != c { return nil }
        var value = 0
        var seen = false
        for c in line.dropFirst(name.count) {
            if c == UInt8(ascii: " ") { continue }
            guard c >= 0x30, c <= 0x39 else { return nil }
            value = value * 10 + Int(c - 0x30)
            seen = true
        }
        return seen ? value : nil
    }

    /// Whether `line` reads `Name: value`, a header other than `Content-Length` (which is let pass).
    private static func isHeader(_ line: ArraySlice<UInt8>) -> Bool {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else { return false }
        return line[..<colon].allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// Reads more bytes into the buffer, waiting at most `seconds`.
    private func fill(waitingAtMost seconds: Double) throws {
        guard output >= 0 else { throw DaemonError(.closed, "\(name): its stdout was closed by this client") }
        if start > 0, start == buffer.count || start > 1 << 20 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        var pfd = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        let milliseconds = seconds.isFinite ? Int32(clamping: Int64(max(0, seconds) * 1000)) : -1
        let ready = poll(&pfd, 1, milliseconds)
        if ready == 0 { throw DaemonError(.timedOut, "\(name): no answer within \(wholeSeconds(seconds)) s") }
        if ready < 0 {
            if errno == EINTR { return }
            throw DaemonError(.read, "\(name): poll failed: \(String(cString: strerror(errno)))")
        }
        let n = Glibc.read(output, chunk.baseAddress!, chunk.count)
        if n > 0 { buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n])) }
        if n == 0 { throw DaemonError(.closed, "\(name): closed its stdout (exited: \(exitDescription()))") }
        if n < 0, errno != EINTR, errno != EAGAIN {
            throw DaemonError(.read, "\(name): reading its stdout failed: \(String(cString: strerror(errno)))")
        }
    }
}

private let contentLengthName = Array("content-length:".utf8)

/// `seconds` rounded to a whole number, for messages.
private func wholeSeconds(_ seconds: Double) -> String {
    seconds.isFinite ? String(Int(seconds.rounded())) : "unlimited"
}
