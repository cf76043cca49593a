// maskd tests: the editor's side of a document: text, cursor, and the edits it applies.
import JSON
import MaskdClient

/// A client-side copy of a document, as an editor keeps it, with positions in one encoding.
struct ClientDocument {
    var uri: String
    var lines: [String]
    var version: Int
    var encoding: String
    var cursor = (line: 0, character: 0)

    init(uri: String, text: String, version: Int = 1, encoding: String = "utf-16") {
        self.uri = uri
        self.lines = text.components(separatedBy: "\n")
        self.version = version
        self.encoding = encoding
    }

    var text: String { lines.joined(separator: "\n") }

    func units(_ s: Substring) -> Int {
        switch encoding {
        case "utf-8": return s.utf8.count
        case "utf-32": return s.unicodeScalars.count
        default: return s.utf16.count
        }
    }

    /// The string index of a character offset in `encoding` on `line`.
    func index(line: Int, character: Int) -> String.Index {
        let text = lines[line]
        var index = text.startIndex
        var count = 0
        while count < character, index < text.endIndex {
            let next = text.unicodeScalars.index(after: index)
            count += units(text[index..<next])
            index = next
        }
        return index
    }

    func character(line: Int, of index: String.Index) -> Int { units(lines[line][..<index]) }

    /// The line with `|` at the cursor.
    var cursorLine: String {
        let line = lines[cursor.line]
        let i = index(line: cursor.line, character: cursor.character)
        return String(line[..<i]) + "|" + String(line[i...])
    }

    /// Replaces a single-line range (or one with line breaks in `text`).
    mutating func replace(line: Int, from start: Int, to end: Int, endLine: Int? = nil, with text: String) {
        let endLine = endLine ?? line
        let head = lines[line][..<index(line: line, character: start)]
        let tail = lines[endLine][index(line: endLine, character: end)...]
        let joined = String(head) + text + String(tail)
        lines.replaceSubrange(line...endLine, with: joined.components(separatedBy: "\n"))
    }

    /// Applies LSP `TextEdit`s (all against the current text) as an editor does: from the last.
    mutating func apply(_ edits: JSONValue) {
        let list = (edits.arrayValue ?? []).map { edit -> (Int, Int, Int, Int, String) in
            let r = edit["range"]!
            return (
                r["start"]!["line"]!.intValue!, r["start"]!["character"]!.intValue!,
                r["end"]!["line"]!.intValue!, r["end"]!["character"]!.intValue!, edit["newText"]!.stringValue!
            )
        }
        for (sl, sc, el, ec, text) in list.sorted(by: { ($0.0, $0.1) > ($1.0, $1.1) }) {
            replace(line: sl, from: sc, to: ec, endLine: el, with: text)
        }
    }

    /// Applies a `didFormat`'s edits and cursor. - Returns: the echo changes, last edit first,
    /// as an editor applying them one by one reports them.
    mutating func applyFormat(_ params: JSONValue) -> [JSONValue] {
        let edits = params["edits"]?.arrayValue ?? []
        apply(params["edits"] ?? .array([]))
        let c = params["cursor"]!
        cursor = (c["line"]!.intValue!, c["character"]!.intValue!)
        return edits.reversed().map { ["range": $0["range"]!, "text": $0["newText"]!] }
    }

    static func range(_ sl: Int, _ sc: Int, _ el: Int, _ ec: Int) -> JSONValue { Messages.range(sl, sc, el, ec) }

    var identifier: JSONValue { ["uri": .string(uri)] }

    var openParams: JSONValue { Messages.didOpen(uri: uri, text: text, version: version) }

    func changeParams(_ changes: [JSONValue]) -> JSONValue {
        Messages.didChange(uri: uri, version: version, changes: changes)
    }
}
