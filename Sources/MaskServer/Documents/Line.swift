// maskd: one line of an open document and the fields that live on it.

/// How a line ends; the last line of a document has no ending.
enum LineEnding: String, Hashable, Sendable {
    case none = ""
    case lf = "\n"
    case crlf = "\r\n"
    case cr = "\r"

    /// Its length in Unicode scalars.
    var scalarCount: Int {
        switch self {
        case .none: return 0
        case .lf, .cr: return 1
        case .crlf: return 2
        }
    }
}

/// Where a field lies on its line, in Unicode scalar offsets of the line's text.
///
/// Scalars are the unit every position encoding can be converted from exactly, so a span
/// never needs re-encoding when the client's encoding is not the one stored.
struct FieldSpan: Hashable, Sendable {
    var id: String
    var start: Int
    var end: Int
}

/// One line: its text without the line break, the break, and its fields sorted by start.
///
/// A value made for an edit; the document stores lines compactly in its `LineTree`.
struct Line: Hashable, Sendable {
    var text: String
    var ending: LineEnding
    var fields: [FieldSpan] = []

    /// The line's text length in Unicode scalars (linear in the line's length).
    var scalarCount: Int { text.scalarCount }

    /// Splits `text` into lines at `\r\n`, `\n` and `\r`, as LSP counts lines.
    /// - Returns: at least one line; the last one has no ending.
    static func split(_ text: String) -> [Line] {
        text.withUTF8Bytes { bytes in
            var lines: [Line] = []
            var start = 0, i = 0
            func add(_ end: Int, _ ending: LineEnding) {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                lines.append(Line(text: text, ending: ending))
            }
            // Line breaks are single bytes that never occur inside a multi-byte scalar.
            while i < bytes.count {
                switch bytes[i] {
                case 0x0A:
                    add(i, .lf)
                    start = i + 1
                case 0x0D:
                    if i + 1 < bytes.count, bytes[i + 1] == 0x0A {
                        add(i, .crlf)
                        i += 1
                    } else {
                        add(i, .cr)
                    }
                    start = i + 1
                default:
                    break
                }
                i += 1
            }
            if start == 0 { return [Line(text: text, ending: .none)] }
            add(bytes.count, .none)
            return lines
        }
    }
}

/// Scalar arithmetic over UTF-8 bytes: a scalar starts at every byte that is not a continuation byte.
enum UTF8Scan {
    static func isScalarStart(_ byte: UInt8) -> Bool { byte & 0xC0 != 0x80 }

    /// The number of scalars in `bytes`.
    static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes where isScalarStart(byte) { count += 1 }
        return count
    }

    /// The byte offset where scalar `offset` starts (the length for the end).
    /// - Precondition: `0 <= offset <= scalarCount(bytes)`.
    static func byteOffset(ofScalar offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var remaining = offset
        var i = 0
        while remaining > 0 {
            i += 1
            while i < bytes.count, !isScalarStart(bytes[i]) { i += 1 }
            remaining -= 1
        }
        return i
    }

    /// Whether every byte is ASCII.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte >= 0x80 { return false }
        return true
    }
}

extension String {
    /// Whether the two hold the same Unicode scalars. `==` on strings is canonical equivalence (a precomposed
    /// `é` equals `e` + U+0301), but the editor's text is what the daemon must hold, scalar for scalar.
    func sameScalars(_ other: String) -> Bool {
        // Lengths first (O(1) for native strings), then the bytes in place.
        guard utf8.count == other.utf8.count else { return false }
        return withUTF8Bytes { mine in other.withUTF8Bytes { theirs in mine.elementsEqual(theirs) } }
    }

    /// Calls `body` with the string's UTF-8 bytes, without copying a native string.
    func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }

    /// The length in Unicode scalars (linear, over bytes).
    var scalarCount: Int { withUTF8Bytes(UTF8Scan.scalarCount) }

    /// The index of the `offset`-th Unicode scalar (linear in `offset`).
    /// - Precondition: `0 <= offset <= unicodeScalars.count`.
    func scalarIndex(_ offset: Int) -> String.Index {
        utf8.index(utf8.startIndex, offsetBy: withUTF8Bytes { UTF8Scan.byteOffset(ofScalar: offset, in: $0) })
    }

    /// The text between two scalar offsets.
    func scalarSlice(_ start: Int, _ end: Int) -> String {
        withUTF8Bytes { bytes in
            let from = UTF8Scan.byteOffset(ofScalar: start, in: bytes)
            let to =
                from
                + UTF8Scan.byteOffset(
                    ofScalar: end - start,
                    in: UnsafeBufferPointer(rebasing: bytes[from...]))
            if from == 0, to == bytes.count { return self }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
        }
    }

    /// The scalars of `self` before `start`, then `middle`, then the scalars of `tail` from `end` on: a line with
    /// one change spliced in, made in one allocation rather than a slice, a slice and two appends.
    func scalarsJoined(upTo start: Int, _ middle: String, _ tail: String, from end: Int) -> String {
        withUTF8Bytes { head in
            tail.withUTF8Bytes { tail in
                middle.withUTF8Bytes { middle in
                    let headCount = UTF8Scan.byteOffset(ofScalar: start, in: head)
                    let tailStart = UTF8Scan.byteOffset(ofScalar: end, in: tail)
                    let total = headCount + middle.count + tail.count - tailStart
                    return String(unsafeUninitializedCapacity: total) { buffer in
                        var at = buffer.initialize(fromContentsOf: head[..<headCount])
                        at += UnsafeMutableBufferPointer(rebasing: buffer[at...]).initialize(fromContentsOf: middle)
                        at += UnsafeMutableBufferPointer(rebasing: buffer[at...])
                            .initialize(fromContentsOf: tail[tailStart...])
                        return at
                    }
                }
            }
        }
    }

    /// True when the text holds a line break (`\n` or `\r`).
    var containsLineBreak: Bool {
        withUTF8Bytes { bytes in bytes.contains { $0 == 0x0A || $0 == 0x0D } }
    }

    /// Whether every scalar is one character (grapheme) on its own: ASCII without a `\r`, which
    /// `\r\n` would join with the next. Character and scalar offsets are then the same.
    var isOneScalarPerCharacter: Bool {
        withUTF8Bytes { bytes in
            for byte in bytes where byte >= 0x80 || byte == 0x0D { return false }
            return true
        }
    }
}
