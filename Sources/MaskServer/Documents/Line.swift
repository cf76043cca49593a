// maskd: one line of an open document and the fields that live on it.

/// How a line ends; the last line of a document has no ending.
enum LineEnding: String, Hashable, Sendable {
    case none = ""
    case lf = "\n"
    case crlf = "\r\n"
    case cr = "\r"

    /// Its length in Unicode scalars.
    var scalarCount: Int {
        switch self {
        case .none: return 0
        case .lf, .cr: return 1
        case .crlf: return 2
        }
    }
}

/// Where a field lies on its line, in Unicode scalar offsets of the line's text.
///
/// Scalars are the unit every position encoding can be converted from exactly, so a span
/// never needs re-encoding when the client's encoding is not the one stored.
struct FieldSpan: Hashable, Sendable {
    var id: String
    var start: Int
    var end: Int
}

/// One line: its text without the line break, the break, and its fields sorted by start.
struct Line: Hashable, Sendable {
    var text: String
    var ending: LineEnding
    var fields: [FieldSpan] = []

    /// The line's text length in Unicode scalars (linear in the line's length).
    var scalarCount: Int { text.unicodeScalars.count }

    /// Splits `text` into lines at `\r\n`, `\n` and `\r`, as LSP counts lines.
    /// - Returns: at least one line; the last one has no ending.
    static func split(_ text: String) -> [Line] {
        var lines: [Line] = []
        var current = String.UnicodeScalarView()
        var iterator = text.unicodeScalars.makeIterator()
        var pending = iterator.next()
        while let scalar = pending {
            pending = iterator.next()
            switch scalar {
            case "\n":
                lines.append(Line(text: String(current), ending: .lf))
                current = String.UnicodeScalarView()
            case "\r":
                if pending == "\n" {
                    pending = iterator.next()
                    lines.append(Line(text: String(current), ending: .crlf))
                } else {
                    lines.append(Line(text: String(current), ending: .cr))
                }
                current = String.UnicodeScalarView()
            default:
                current.append(scalar)
            }
        }
        lines.append(Line(text: String(current), ending: .none))
        return lines
    }
}

extension String {
    /// The index of the `offset`-th Unicode scalar (linear in `offset`).
    /// - Precondition: `0 <= offset <= unicodeScalars.count`.
    func scalarIndex(_ offset: Int) -> String.Index {
        unicodeScalars.index(unicodeScalars.startIndex, offsetBy: offset)
    }

    /// The text between two scalar offsets.
    func scalarSlice(_ start: Int, _ end: Int) -> String {
        let from = scalarIndex(start)
        let to = unicodeScalars.index(from, offsetBy: end - start)
        return String(unicodeScalars[from..<to])
    }

    /// True when the text holds a line break (`\n` or `\r`).
    var containsLineBreak: Bool {
        unicodeScalars.contains { $0 == "\n" || $0 == "\r" }
    }
}
