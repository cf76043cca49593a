// maskd-bench: the messages a client sends (Protocol/protocol.md), built as JSON values.
import Glibc
import JSON

enum Messages {
    static func initializeParams() -> JSONValue {
        [
            "processId": .int(Int64(getpid())),
            "clientInfo": ["name": "maskd-bench"],
            "rootUri": .null,
            "capabilities": ["general": ["positionEncodings": ["utf-16"]]],
        ]
    }

    static func position(_ line: Int, _ character: Int) -> JSONValue {
        ["line": .int(Int64(line)), "character": .int(Int64(character))]
    }

    static func range(line: Int, from start: Int, to end: Int) -> JSONValue {
        ["start": position(line, start), "end": position(line, end)]
    }

    static func didOpen(uri: String, text: String) -> JSONValue {
        ["textDocument": ["uri": .string(uri), "languageId": "plaintext", "version": 1, "text": .string(text)]]
    }

    static func openField(uri: String, line: Int, from start: Int, to end: Int, mask: JSONValue) -> JSONValue {
        ["textDocument": ["uri": .string(uri)], "range": range(line: line, from: start, to: end), "mask": mask]
    }

    /// One change replacing `[start, end)` of `line` with `text`.
    static func change(line: Int, from start: Int, to end: Int, text: String) -> JSONValue {
        ["range": range(line: line, from: start, to: end), "text": .string(text)]
    }

    static func didChange(uri: String, version: Int, changes: [JSONValue]) -> JSONValue {
        ["textDocument": ["uri": .string(uri), "version": .int(Int64(version))], "contentChanges": .array(changes)]
    }
}
