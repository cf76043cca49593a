// maskd: a document's positions as the client counts them, and the scalar positions the document keeps.
import MaskEngine

/// Why a position does not exist in the document.
struct PositionProblem: Error, Hashable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

extension Document {
    /// Converts a client position to a scalar position, or explains why it is impossible. A character past the line's
    /// end is its end (LSP 3.17: it "defaults back to the line length"); a line past the document's is a problem.
    func scalarPosition(_ position: Position, roundUp: Bool = false) -> Result<ScalarPosition, PositionProblem> {
        guard position.line >= 0, position.character >= 0 else {
            return .failure(PositionProblem("negative position \(position.line):\(position.character)"))
        }
        guard position.line < lines.count else {
            return .failure(
                PositionProblem("line \(position.line) is past the end (the document has \(lines.count) lines)"))
        }
        let column = lines.scalarColumn(line: position.line, units: position.character, in: encoding, roundUp: roundUp)
        return .success(ScalarPosition(line: position.line, column: column ?? lines.length(ofLine: position.line)))
    }

    /// Converts a client range; the end rounds up inside a scalar, an empty range stays empty.
    func scalarRange(_ range: TextRange) -> Result<(ScalarPosition, ScalarPosition), PositionProblem> {
        let start: ScalarPosition, end: ScalarPosition
        switch scalarPosition(range.start) {
        case .failure(let problem): return .failure(problem)
        case .success(let s): start = s
        }
        switch scalarPosition(range.end, roundUp: range.end != range.start) {
        case .failure(let problem): return .failure(problem)
        case .success(let e): end = e
        }
        guard start <= end else { return .failure(PositionProblem("the range's end comes before its start")) }
        return .success((start, end))
    }

    /// The client position of a scalar position, in O(log n + the piece it is in).
    func position(_ p: ScalarPosition) -> Position {
        Position(line: p.line, character: lines.units(line: p.line, column: p.column, in: encoding))
    }
}
