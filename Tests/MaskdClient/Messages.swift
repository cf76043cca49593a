// maskd's client: the params of the messages a client sends (Protocol/protocol.md), built as JSON values.
import JSON

/// The params of the LSP messages every client of the daemon sends, as JSON values.
///
/// Positions are in the encoding the client negotiated at `initialize`.
public enum Messages {
    /// An LSP `Position`.
    public static func position(_ line: Int, _ character: Int) -> JSONValue {
        ["line": .int(Int64(line)), "character": .int(Int64(character))]
    }

    /// An LSP `Range` from (`startLine`, `startCharacter`) to (`endLine`, `endCharacter`).
    public static func range(_ startLine: Int, _ startCharacter: Int, _ endLine: Int, _ endCharacter: Int)
        -> JSONValue
    {
        ["start": position(startLine, startCharacter), "end": position(endLine, endCharacter)]
    }

    /// An LSP `Range` over `[start, end)` of one line.
    public static func range(line: Int, from start: Int, to end: Int) -> JSONValue {
        ["start": position(line, start), "end": position(line, end)]
    }

    /// `textDocument/didOpen` of a plain-text document.
    public static func didOpen(uri: String, text: String, version: Int = 1) -> JSONValue {
        [
            "textDocument": [
                "uri": .string(uri), "languageId": "plaintext", "version": .int(Int64(version)), "text": .string(text),
            ]
        ]
    }

    /// `maskd/openField` over `[start, end)` of `line`.
    public static func openField(uri: String, line: Int, from start: Int, to end: Int, mask: JSONValue) -> JSONValue {
        ["textDocument": ["uri": .string(uri)], "range": range(line: line, from: start, to: end), "mask": mask]
    }

    /// One change replacing `[start, end)` of `line` with `text`.
    public static func change(line: Int, from start: Int, to end: Int, text: String) -> JSONValue {
        ["range": range(line: line, from: start, to: end), "text": .string(text)]
    }

    /// `textDocument/didChange` with `changes`, applied in order.
    public static func didChange(uri: String, version: Int, changes: [JSONValue]) -> JSONValue {
        ["textDocument": ["uri": .string(uri), "version": .int(Int64(version))], "contentChanges": .array(changes)]
    }
}
