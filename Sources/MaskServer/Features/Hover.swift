// maskd: a field's state as a hover, in Markdown.
import JSON
import MaskCatalog
import MaskEngine

extension Server {
    /// The hover of the field containing or touching `position` (the first in document order), or
    /// `null` away from fields.
    /// - Throws: `-32602` for a document that is not open or a position outside it.
    func hover(uri: String, position: Position) throws -> JSONValue {
        let document = try document(uri)
        if case .failure(let problem) = document.scalarPosition(position) {
            throw MessageError.invalidParams("params.position: \(problem.reason)")
        }
        guard let field = document.field(at: position), let session = document.sessions[field.id] else { return .null }
        return [
            "contents": ["kind": "markdown", "value": .string(Server.hoverMarkdown(field, spec: session.spec))],
            "range": .from(field.range),
        ]
    }

    /// The Markdown of a field's hover: a heading line, then one list item per part of its state.
    ///
    /// ```
    /// **maskd field** `f1` · preset `card`: payment card; brand by prefix, ...
    ///
    /// - mask: `[0000] [0000] [0000] [0999] [999]`
    /// - value: `4111111111111112`
    /// - complete: yes · valid: no
    /// - problems: check digit does not match
    /// - brand: visa
    /// - still to fill: ` ___`
    /// ```
    static func hoverMarkdown(_ field: FieldSnapshot, spec: MaskSpec) -> String {
        let state = field.result
        var heading = "**maskd field** \(code(field.id))"
        if case .preset(let name) = spec.form {
            heading += " · preset \(code(name))"
            if let summary = Presets.summaries[name] { heading += ": " + escaped(summary) }
        }
        var lines = [heading, ""]
        lines.append("- mask: \(code(state.mask))")
        if let modes = modeSummary(spec) { lines.append("- typing: " + modes) }
        if let definitions = spec.definitions, !definitions.isEmpty {
            let listed = definitions.keys.sorted().map { "\(code(String($0))) = \(code(definitions[$0]!))" }
            lines.append("- slot definitions: " + listed.joined(separator: ", "))
        }
        lines.append("- value: " + (state.value.isEmpty ? "(empty)" : code(state.value)))
        lines.append("- complete: \(state.complete ? "yes" : "no") · valid: \(state.valid ? "yes" : "no")")
        if !state.problems.isEmpty { lines.append("- problems: " + escaped(state.problems.joined(separator: "; "))) }
        if let brand = state.brand { lines.append("- brand: \(brand)") }
        if state.isPhone {
            lines.append("- region: \(state.region ?? "unknown") · type: \(state.phoneType ?? "unknown")")
        }
        if !state.placeholder.isEmpty { lines.append("- still to fill: \(code(state.placeholder))") }
        return lines.joined(separator: "\n")
    }

    /// How the field takes keys when it is not the default (insertion, left to right): `overwrite`, `right to
    /// left`, or both; nil for the default.
    static func modeSummary(_ spec: MaskSpec) -> String? {
        var modes: [String] = []
        if spec.overwrite == true { modes.append("overwrite") }
        if spec.rightToLeft == true { modes.append("right to left") }
        return modes.isEmpty ? nil : modes.joined(separator: ", ")
    }

    /// `text` as a Markdown code span: fenced by one more backtick than its longest run of
    /// backticks, padded with spaces when it starts or ends with a backtick or a space.
    static func code(_ text: String) -> String {
        var longest = 0, run = 0
        for c in text {
            run = c == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = text.first == "`" || text.last == "`" || text.first == " " || text.last == " " ? " " : ""
        return fence + pad + text + pad + fence
    }

    /// `text` with Markdown's inline punctuation escaped, so a problem sentence reads as written.
    static func escaped(_ text: String) -> String {
        var result = ""
        for c in text {
            if "\\`*_[]<>#|".contains(c) { result.append("\\") }
            result.append(c)
        }
        return result
    }
}
