// maskd: `textDocument/formatting` and `rangeFormatting`: fields brought into form.
import JSON

extension Server {
    /// The edits that bring every field of `uri` (those touching `range`, when given) into form.
    ///
    /// Each field's text is read into its mask afresh, as when it was opened; a field already in
    /// form gives no edit. The edits become pending like a `didFormat`'s, so the `didChange` that
    /// applies them is the daemon's echo.
    /// - Returns: `TextEdit[]`, sorted, against the current version (empty when all is in form).
    /// - Throws: `-32602` for a document that is not open or a range whose end comes before its start.
    func format(uri: String, range: TextRange?) throws -> JSONValue {
        let document = try document(uri)
        if let range { try Server.requireOrdered(range) }
        var ids: [String] = []
        if let range {
            let last = min(range.end.line, document.lines.count - 1)
            if range.start.line <= last {
                for index in range.start.line...last {
                    for span in document.lines[index].fields {
                        guard let field = document.snapshot(span.id),
                              range.start <= field.range.end, field.range.start <= range.end else { continue }
                        ids.append(span.id)
                    }
                }
            }
        } else {
            ids = document.allSnapshots().map(\.id)
        }
        let edits = document.reformat(ids)
        diagnosticsMayHaveChanged(uri)
        return .from(edits)
    }
}
