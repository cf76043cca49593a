/// What formatting a text whole makes of it: `FieldResult`'s text and verdict, without the caret, the cuts, the
/// placeholder and the value, which an editor's field reads and a file of lines formatted in bulk does not.
public struct FormattedText: Hashable, Sendable {
    /// The formatted text.
    public var text: String
    public var verdict: Verdict

    /// Whether a formatted text is complete and valid, and why not.
    public struct Verdict: Hashable, Sendable {
        /// No required slot and no `{}` literal is left to fill.
        public var complete: Bool
        /// Complete, and every validator (and the `regex` option) passes.
        public var valid: Bool
        /// Why the text is not valid, as short sentences (an incomplete one's says what is missing); empty when
        /// it is.
        public var problems: [String]

        init(complete: Bool, problems: [String]) {
            self.complete = complete
            self.valid = problems.isEmpty
            self.problems = problems
        }

        /// The verdict of a whole `FieldResult`.
        public init(_ result: FieldResult) {
            complete = result.complete
            valid = result.valid
            problems = result.problems
        }
    }

    init(text: String, verdict: Verdict) {
        self.text = text
        self.verdict = verdict
    }

    /// The text and verdict of a whole `FieldResult`.
    public init(_ result: FieldResult) {
        text = result.text
        verdict = Verdict(result)
    }
}
