// maskd: a full-content didChange as one change against the document.

extension Document {
    /// The full new content as one change against the current text: the part between their common prefix and common
    /// suffix, or nil when they are equal.
    ///
    /// The new text's bytes are compared with the document a line at a time from each end, so nothing the size of
    /// the document is made besides the text itself (a one-character change of a 10 MB document peaks at a few
    /// times its text, not a dozen). A CRLF is never cut in two, nor a scalar.
    func fullContentChange(_ newText: String) -> ScalarChange? {
        newText.withUTF8Bytes { new -> ScalarChange? in
            let lineCount = lines.count
            // The common prefix: `prefix` bytes of the new text, ending at byte `startByte` of line `startLine` (its
            // text and ending).
            var prefix = 0
            var startLine = 0
            var startByte = 0
            var startLineBytes: [UInt8] = []
            while startLine < lineCount {
                let bytes = lineBytes(startLine)
                var k = 0
                while k < bytes.count, prefix + k < new.count, bytes[k] == new[prefix + k] { k += 1 }
                if k == bytes.count, startLine + 1 < lineCount || prefix + k == new.count {
                    prefix += k
                    startLine += 1
                    if startLine == lineCount { break }
                    continue
                }
                prefix += k
                startByte = k
                startLineBytes = bytes
                break
            }
            // Every line is equal, and the new text ends with the last of them.
            if startLine == lineCount { return nil }
            // Back to a scalar's start, and never between the `\r` and `\n` of a CRLF.
            while startByte > 0, startByte < startLineBytes.count, !UTF8Scan.isScalarStart(startLineBytes[startByte]) {
                startByte -= 1
                prefix -= 1
            }
            if startByte > 0, startByte < startLineBytes.count, startLineBytes[startByte - 1] == 0x0D,
                startLineBytes[startByte] == 0x0A
            {
                startByte -= 1
                prefix -= 1
            }
            // The common suffix, not overlapping the prefix in either text: `suffix` bytes, starting at byte
            // `endByte` of line `endLine`.
            var suffix = 0
            var endLine = lineCount - 1
            var endLineBytes = endLine == startLine ? startLineBytes : lineBytes(endLine)
            var endByte = 0
            while true {
                let floor = endLine == startLine ? startByte : 0
                var m = endLineBytes.count
                while m > floor, new.count - suffix - (endLineBytes.count - m) > prefix,
                    endLineBytes[m - 1] == new[new.count - suffix - (endLineBytes.count - m) - 1]
                { m -= 1 }
                if m == 0, endLine > startLine {
                    suffix += endLineBytes.count
                    endLine -= 1
                    endLineBytes = endLine == startLine ? startLineBytes : lineBytes(endLine)
                    continue
                }
                suffix += endLineBytes.count - m
                endByte = m
                break
            }
            // Forward to a scalar's start, and never between the `\r` and `\n` of a CRLF.
            while endByte < endLineBytes.count, !UTF8Scan.isScalarStart(endLineBytes[endByte]) {
                endByte += 1
                suffix -= 1
            }
            if endByte > 0, endByte < endLineBytes.count, endLineBytes[endByte - 1] == 0x0D,
                endLineBytes[endByte] == 0x0A
            {
                endByte += 1
                suffix -= 1
            }
            let start = ScalarPosition(line: startLine, column: scalarColumn(startLineBytes, startByte))
            let textLength = endLineBytes.count - lines.ending(ofLine: endLine).scalarCount
            let end =
                endByte > textLength && endLine + 1 < lineCount
                ? ScalarPosition(line: endLine + 1, column: 0)
                : ScalarPosition(line: endLine, column: scalarColumn(endLineBytes, min(endByte, textLength)))
            let inserted = UnsafeBufferPointer(rebasing: new[prefix..<(new.count - suffix)])
            return ScalarChange(start: start, end: end, text: String(decoding: inserted, as: UTF8.self))
        }
    }

    /// Line `index`'s text and line break, as bytes.
    private func lineBytes(_ index: Int) -> [UInt8] {
        Array(lines.text(at: index).utf8) + Array(lines.ending(ofLine: index).rawValue.utf8)
    }

    /// The scalar column of byte `offset` of a line's bytes.
    private func scalarColumn(_ bytes: [UInt8], _ offset: Int) -> Int {
        var column = 0
        for byte in bytes[..<offset] where UTF8Scan.isScalarStart(byte) { column += 1 }
        return column
    }
}
