// maskd tests: an editor driving one document against the daemon, as a plugin would.
import JSON
import XCTest

/// How the editor reports the edits of a `didFormat` it applied.
enum EchoStyle {
    /// One `didChange` holding every edit, last first (as editors apply them).
    case together
    /// One `didChange` per edit.
    case split
    /// One full-content `didChange`.
    case fullContent
    /// The editor drops the `didFormat` (its document moved on).
    case none
}

final class Editor {
    let client: DaemonClient
    var document: ClientDocument
    /// Every version step skips values, as Neovim's changedtick does.
    var versionStep = 2
    var echo = EchoStyle.together

    init(_ client: DaemonClient, uri: String = "file:///tmp/form.txt", text: String, encoding: String = "utf-16") {
        self.client = client
        document = ClientDocument(uri: uri, text: text, version: 3, encoding: encoding)
        client.notify("textDocument/didOpen", document.openParams)
    }

    /// Opens a field and applies (and echoes) its edits. - Returns: the result.
    @discardableResult
    func openField(
        _ line: Int, _ start: Int, _ end: Int, mask: JSONValue, id: String? = nil,
        file: StaticString = #filePath, lineNumber: UInt = #line
    ) -> JSONValue {
        var params: JSONObject = [
            "textDocument": document.identifier, "range": ClientDocument.range(line, start, line, end),
            "mask": mask,
        ]
        if let id { params["field"] = .string(id) }
        let result = client.call("maskd/openField", .object(params), file: file, line: lineNumber)
        applyAndEcho(result, file: file, line: lineNumber)
        return result
    }

    /// Applies the edits of a `didFormat` or a field result, moves the cursor, and echoes them.
    func applyAndEcho(_ params: JSONValue, file: StaticString = #filePath, line: UInt = #line) {
        let edits = params["edits"]?.arrayValue ?? []
        if echo == .none { return }
        document.apply(params["edits"] ?? .array([]))
        if let c = params["cursor"], !c.isNull { document.cursor = (c["line"]!.intValue!, c["character"]!.intValue!) }
        guard !edits.isEmpty else { return }
        let changes: [JSONValue] = edits.reversed().map { ["range": $0["range"]!, "text": $0["newText"]!] }
        switch echo {
        case .together:
            document.version += 3
            client.notify("textDocument/didChange", document.changeParams(changes))
        case .split:
            for change in changes {
                document.version += 1
                client.notify("textDocument/didChange", document.changeParams([change]))
            }
        case .fullContent:
            document.version += 1
            client.notify("textDocument/didChange", document.changeParams([["text": .string(document.text)]]))
        case .none:
            break
        }
        client.sync()
        XCTAssertEqual(
            client.take("maskd/didFormat").count, 0, "the echo must not be formatted", file: file, line: line)
    }

    /// Sends person changes (already applied locally by `edit`), then handles the `didFormat`.
    /// - Returns: the `didFormat` params, or nil when none came.
    @discardableResult
    func send(_ changes: [JSONValue], file: StaticString = #filePath, line: UInt = #line) -> JSONValue? {
        document.version += versionStep
        client.notify("textDocument/didChange", document.changeParams(changes))
        client.sync()
        let formats = client.take("maskd/didFormat")
        XCTAssertLessThanOrEqual(formats.count, 1, file: file, line: line)
        guard let format = formats.first else { return nil }
        XCTAssertEqual(format["textDocument"]?["version"]?.intValue, document.version, file: file, line: line)
        XCTAssertEqual(format["textDocument"]?["uri"]?.stringValue, document.uri, file: file, line: line)
        applyAndEcho(format, file: file, line: line)
        return format
    }

    /// Replaces a range on one line (the cursor goes to the end of the new text), as a person does.
    func change(_ line: Int, _ start: Int, _ end: Int, _ text: String) -> JSONValue {
        document.replace(line: line, from: start, to: end, with: text)
        let lastLine = line + text.filter { $0 == "\n" }.count
        let tail = text.split(separator: "\n", omittingEmptySubsequences: false).last!
        let endCharacter = (lastLine == line ? start : 0) + document.units(tail)
        document.cursor = (lastLine, endCharacter)
        return ["range": ClientDocument.range(line, start, line, end), "text": .string(text)]
    }

    /// Types `text` at the cursor, one grapheme per `didChange`.
    /// - Returns: the last `didFormat`.
    @discardableResult
    func type(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONValue? {
        var last: JSONValue?
        for key in text {
            let (l, c) = document.cursor
            last = send([change(l, c, c, String(key))], file: file, line: line)
        }
        return last
    }

    /// A backspace at the cursor (the grapheme before it).
    @discardableResult
    func backspace(file: StaticString = #filePath, line: UInt = #line) -> JSONValue? {
        let (l, c) = document.cursor
        let lineText = document.lines[l]
        let i = document.index(line: l, character: c)
        guard i > lineText.startIndex else { return nil }
        let p = document.character(line: l, of: lineText.index(before: i))
        return send([change(l, p, c, "")], file: file, line: line)
    }

    var fields: JSONValue { client.call("maskd/fields", ["textDocument": document.identifier]) }
}
