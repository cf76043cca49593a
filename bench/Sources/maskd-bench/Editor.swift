// maskd-bench: a client that edits as an editor does: a person's change, the daemon's
// `maskd/didFormat`, its edits applied and echoed back in a `didChange` of their own.
import JSON
import MaskEngine
import MaskdClient

/// One key a person presses in a field.
enum Key {
    case digit(Character)
    case backspace
}

/// What the person types into a field: a 19-digit card number key by key, then backspaces
/// until the field is empty, and again.
struct TypingScript {
    static let digits = Array("4000123456789017123")

    /// Digits in the field now.
    private(set) var entered: Int
    private var typing: Bool

    /// Starts with `entered` digits in the field, typing when it is empty, deleting otherwise.
    init(entered: Int) {
        self.entered = entered
        typing = entered == 0
    }

    /// The next key; after it the field holds `entered` digits.
    mutating func next() -> Key {
        if typing {
            let key = Key.digit(TypingScript.digits[entered])
            entered += 1
            if entered == TypingScript.digits.count { typing = false }
            return key
        }
        entered -= 1
        if entered == 0 { typing = true }
        return .backspace
    }
}

/// A field as the person sees it: its line, the text around it (which never changes) and the caret.
struct FieldCursor {
    var line: Int
    var caret: Int
    /// The line's bytes before the field.
    var prefix: [UInt8]
    /// The line's bytes after the field.
    var suffix: [UInt8]
}

/// An editor's copy of one document and the loop it runs with the server for each keystroke.
///
/// Text is kept as lines of ASCII bytes, so the UTF-16 offsets on the wire are byte offsets.
final class EditorClient {
    let server: DaemonProcess
    let uri: String
    private(set) var lines: [[UInt8]]
    private(set) var version = 1
    /// `didFormat`s for a version the client had already moved past (an answered echo), dropped.
    private(set) var staleFormats = 0
    /// Keystrokes whose `didFormat` carried edits, so the client sent an echo `didChange`.
    private(set) var echoes = 0
    /// Round trips of the keystrokes that `type` ran right after an echo (which the server
    /// then reads first), and of the others.
    private(set) var afterEcho = Samples()
    private(set) var afterNoEcho = Samples()
    private var echoed = false
    /// Called with every `didFormat`'s params this client acts on (the contract floor's recording).
    var formatRecorder: ((JSONValue) -> Void)?

    init(server: DaemonProcess, uri: String, lines: [[UInt8]]) {
        self.server = server
        self.uri = uri
        self.lines = lines
    }

    /// The document's text as `didOpen` sends it: every line ended by a line break when
    /// `finalNewline`, else joined by them.
    func text(finalNewline: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines.reduce(0) { $0 + $1.count + 1 })
        for (i, line) in lines.enumerated() {
            bytes.append(contentsOf: line)
            if finalNewline || i < lines.count - 1 { bytes.append(UInt8(ascii: "\n")) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func open(finalNewline: Bool) throws {
        try server.notify("textDocument/didOpen", Messages.didOpen(uri: uri, text: text(finalNewline: finalNewline)))
    }

    /// One keystroke by the person at `field`'s caret: the `didChange`, timed until its
    /// `maskd/didFormat` has been read; then the edits applied and echoed (not timed).
    /// - Returns: nanoseconds from writing the change to reading the complete `didFormat`.
    func press(_ key: Key, in field: inout FieldCursor) throws -> UInt64 {
        let start: Int, inserted: String
        switch key {
        case .digit(let c): (start, inserted) = (field.caret, String(c))
        case .backspace: (start, inserted) = (field.caret - 1, "")
        }
        guard start >= 0 else { throw BenchFailure("backspace at the start of line \(field.line)") }
        replace(line: field.line, from: start, to: field.caret, with: Array(inserted.utf8))
        version += 1
        let sent = version
        let change = Messages.change(line: field.line, from: start, to: field.caret, text: inserted)
        let frame = DaemonProcess.frame(
            DaemonProcess.notification(
                "textDocument/didChange", Messages.didChange(uri: uri, version: sent, changes: [change])))

        let t0 = nowNS()
        try server.write(frame)
        var t1: UInt64
        var params: JSONValue
        while true {
            let body = try server.readBody()
            t1 = nowNS()
            let message = try body.withUnsafeBytes { try JSONValue.parse($0) }
            guard message["method"]?.stringValue == "maskd/didFormat", let p = message["params"] else { continue }
            let answered = p["textDocument"]?["version"]?.intValue ?? -1
            if answered == sent {
                params = p
                formatRecorder?(p)
                break
            }
            if answered < sent {
                staleFormats += 1
                continue
            }
            throw BenchFailure("\(server.name): didFormat for version \(answered), newer than the \(sent) sent")
        }

        guard let edits = params["edits"]?.arrayValue, let cursor = params["cursor"] else {
            throw BenchFailure("\(server.name): didFormat without edits or cursor: \(params.serializedString())")
        }
        var echo: [JSONValue] = []
        // Sorted and disjoint: applied from the last, each leaves the earlier ranges in place,
        // and the echo lists them in that order so that each range holds when it is applied.
        for edit in edits.reversed() {
            guard let range = edit["range"], let newText = edit["newText"]?.stringValue,
                let line = range["start"]?["line"]?.intValue, range["end"]?["line"]?.intValue == line,
                let from = range["start"]?["character"]?.intValue, let to = range["end"]?["character"]?.intValue,
                line >= 0, line < lines.count, from >= 0, from <= to, to <= lines[line].count
            else {
                throw BenchFailure("\(server.name): an edit this client cannot apply: \(edit.serializedString())")
            }
            guard newText.utf8.allSatisfy({ $0 < 0x80 }) else {
                throw BenchFailure("\(server.name): a non-ASCII edit: \(edit.serializedString())")
            }
            replace(line: line, from: from, to: to, with: Array(newText.utf8))
            echo.append(Messages.change(line: line, from: from, to: to, text: newText))
        }
        guard cursor["line"]?.intValue == field.line, let caret = cursor["character"]?.intValue,
            caret >= 0, caret <= lines[field.line].count
        else {
            throw BenchFailure("\(server.name): a cursor off the field's line: \(cursor.serializedString())")
        }
        field.caret = caret
        echoed = !echo.isEmpty
        if !echo.isEmpty {
            version += 1
            echoes += 1
            try server.notify("textDocument/didChange", Messages.didChange(uri: uri, version: version, changes: echo))
        }
        return t1 - t0
    }

    /// Runs `count` keystrokes of `script` in `field`, each round trip a sample.
    ///
    /// With `mask`, the field is checked against what the engine makes of the same digits each
    /// time it is full or empty, so a daemon that stopped formatting cannot pass for a fast one.
    func type(
        _ count: Int, script: inout TypingScript, field: inout FieldCursor, checkingWith mask: Mask?,
        into samples: inout Samples
    ) throws {
        for _ in 0..<count {
            let followsEcho = echoed
            let ns = Double(try press(script.next(), in: &field))
            samples.add(ns)
            if followsEcho { afterEcho.add(ns) } else { afterNoEcho.add(ns) }
            if let mask, script.entered == 0 || script.entered == TypingScript.digits.count {
                try check(field, holds: script.entered, mask: mask)
            }
        }
    }

    /// Whether `field`'s line reads its prefix, the first `count` digits formatted, its suffix.
    func check(_ field: FieldCursor, holds count: Int, mask: Mask) throws {
        let expected = mask.format(String(TypingScript.digits.prefix(count))).text
        let line = lines[field.line]
        if line != field.prefix + Array(expected.utf8) + field.suffix {
            throw BenchFailure(
                "\(server.name): line \(field.line) reads \"\(String(decoding: line, as: UTF8.self))\" "
                    + "after \(count) digits; the engine makes the field \"\(expected)\"")
        }
    }

    private func replace(line: Int, from start: Int, to end: Int, with bytes: [UInt8]) {
        lines[line].replaceSubrange(start..<end, with: bytes)
    }
}
