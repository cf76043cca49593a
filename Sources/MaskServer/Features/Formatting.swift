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
            for id in document.fieldIDs(touching: range) {
                guard let field = document.snapshot(id), range.start <= field.range.end,
                    field.range.start <= range.end
                else { continue }
                ids.append(id)
            }
        } else {
            ids = document.allSnapshots().map(\.id)
        }
        let edits = document.reformat(ids)
        diagnosticsMayHaveChanged(uri)
        return .from(edits)
    }
}
