/// What formatting a text whole makes of it: `FieldResult`'s text and verdict, without the caret, the cuts, the
/// placeholder and the value, which an editor's field reads and a file of lines formatted in bulk does not.
public struct FormattedText: Hashable, Sendable {
    /// The formatted text.
    public var text: String
    /// No required slot and no `{}` literal is left to fill.
    public var complete: Bool
    /// Complete, and every validator (and the `regex` option) passes.
    public var valid: Bool
    /// Why the text is not valid, as short sentences (an incomplete one's says what is missing); empty when it is.
    public var problems: [String]

    init(text: String, complete: Bool, problems: [String]) {
        self.text = text
        self.complete = complete
        self.valid = problems.isEmpty
        self.problems = problems
    }

    /// The text and verdict of a whole `FieldResult`.
    public init(_ result: FieldResult) {
        text = result.text
        complete = result.complete
        valid = result.valid
        problems = result.problems
    }
}
