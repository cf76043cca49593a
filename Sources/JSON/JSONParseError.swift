// The JSON layer: parse errors; see ARCHITECTURE.md.

/// Why a byte sequence is not a JSON document, and where jansson stopped reading it.
public struct JSONParseError: Error, Hashable, CustomStringConvertible {
    /// What is wrong, as jansson words it (for example "unable to decode byte 0xff").
    public var message: String
    /// The 1-based line of the problem (0 when jansson could not tell).
    public var line: Int
    /// The column of the problem, counted in characters (0 when jansson could not tell).
    public var column: Int
    /// The number of bytes read before the problem was found.
    public var offset: Int

    /// Creates a parse error.
    public init(message: String, line: Int, column: Int, offset: Int) {
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// The message with its position, for a person.
    public var description: String { "line \(line), column \(column) (byte \(offset)): \(message)" }
}
