// maskd: what a field still needs, as ghost text after it.
import JSON

extension Server {
    /// An inlay hint at the end of every field in `range` whose placeholder is not empty: the
    /// placeholder (slots as the placeholder character, literals as themselves) as its label.
    ///
    /// A field is in the range when its end is (both ends count). Lines past the document's end are
    /// ignored, so a client may ask for a generous range.
    /// - Complexity: O(log n + f log n + the range's text) for f fields in the range.
    /// - Throws: `-32602` for a document that is not open or a range whose end comes before its start.
    func inlayHints(uri: String, range: TextRange) throws -> JSONValue {
        let document = try document(uri)
        try Server.requireOrdered(range)
        var hints: [JSONValue] = []
        for id in document.fieldIDs(touching: range) {
            guard let field = document.snapshot(id), !field.result.placeholder.isEmpty,
                range.start <= field.range.end, field.range.end <= range.end
            else { continue }
            hints.append([
                "position": .from(field.range.end),
                "label": .string(field.result.placeholder),
                "paddingLeft": false,
                "paddingRight": false,
            ])
        }
        return .array(hints)
    }
}
