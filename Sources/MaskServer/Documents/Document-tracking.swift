// maskd: how a change moves, clips and feeds the fields it meets (Protocol/protocol.md, field tracking).
import MaskEngine

extension Document {
    /// Splices `change` into `old` (the lines it spans, from column `firstColumn` of the first, the last ending its
    /// line unless `lastEndsLine` is false) and tracks their
    /// fields, as `FieldChangeKind` classifies the change for each.
    ///
    /// Offsets are "flat": scalars from the start of the first line, line breaks included.
    /// For a field `[fs, fe)` and a change replacing `[S, E)` with `T` scalars:
    /// - a field before the change (`fe < S`) stays; one after it (`fs > E`) shifts;
    /// - typing in the field (the change within its range, boundaries included, no line break put in): the deletion
    ///   clips it and the inserted text belongs to it, except that only one field takes an insertion (the first in
    ///   document order, or `claimant`); a field emptied this way stays, at the change's start;
    /// - a change reaching beyond the field: the field keeps what is left of its own text, or closes
    ///   (`FieldChangeKind.remains`); its text is never read through its mask.
    static func splice(
        _ old: [Line], _ change: ScalarChange, firstLine: Int, firstColumn: Int = 0,
        lastEndsLine: Bool = true, claimant: String? = nil
    ) -> Splice {
        // Flat starts of the old lines.
        var flatStart: [Int] = []
        var offset = 0
        for line in old {
            flatStart.append(offset)
            offset += line.scalarCount + line.ending.scalarCount
        }
        let lastOld = old[old.count - 1]
        let s = change.start.column
        let e = flatStart[old.count - 1] + change.end.column
        let hasBreak = change.text.containsLineBreak
        let t = change.text.scalarCount

        // The new region's text and lines (one line when nothing inserted breaks it: the head and
        // tail come from lines, which hold no break).
        var newLines: [Line]
        if hasBreak {
            let head = old[0].text.scalarSlice(0, s)
            let tail = lastOld.text.scalarSlice(change.end.column, lastOld.scalarCount)
            newLines = Line.split(head + change.text + tail)
            newLines[newLines.count - 1].ending = lastOld.ending
        } else {
            newLines = [
                Line(
                    text: old[0].text.scalarsJoined(upTo: s, change.text, lastOld.text, from: change.end.column),
                    ending: lastOld.ending)
            ]
        }
        var newFlatStart: [Int] = []
        let newLengths = newLines.map(\.scalarCount)
        offset = 0
        for (line, length) in zip(newLines, newLengths) {
            newFlatStart.append(offset)
            offset += length + line.ending.scalarCount
        }
        func locate(_ flat: Int) -> (line: Int, column: Int) {
            var low = 0, high = newLines.count - 1
            while low < high {
                let mid = (low + high + 1) / 2
                if newFlatStart[mid] <= flat { low = mid } else { high = mid - 1 }
            }
            return (low, flat - newFlatStart[low])
        }

        var outcome = Splice(lines: [], caret: ScalarPosition(line: 0, column: 0))
        // A claimant no longer here is a closed field whose padding is being echoed (`closeField`): it stood before
        // the insertion, so an empty field at that point comes after the inserted text, as it would after the field's.
        var claimed = claimant.map { id in !old.contains { $0.fields.contains { $0.id == id } } } ?? false
        for (i, line) in old.enumerated() {
            for span in line.fields {
                let fs = flatStart[i] + span.start, fe = flatStart[i] + span.end
                var newStart: Int, newEnd: Int
                var gains = false  // Whether the field takes the inserted text.
                let kind = FieldChangeKind.of(field: fs, fe, change: s, e, insertsLineBreak: hasBreak)
                if kind != .typing, fe >= s, fs <= e { outcome.nearby.append(span.id) }
                switch kind {
                case .apart:
                    (newStart, newEnd) = fe < s ? (fs, fe) : (fs + t - (e - s), fe + t - (e - s))
                case .typing:
                    let before = fs < s, after = fe > e
                    let takes = t > 0 && (claimant.map { $0 == span.id } ?? !claimed)
                    if takes {
                        claimed = true
                        gains = true
                    }
                    if takes || (before && after) {
                        (newStart, newEnd) = (fs, fe - (e - s) + t)
                    } else if before {
                        (newStart, newEnd) = (fs, s)
                    } else if after {
                        (newStart, newEnd) = (s + t, fe - (e - s) + t)
                    } else {
                        let at = claimed ? s + t : s
                        (newStart, newEnd) = (at, at)
                    }
                case .beyond:
                    // Whether the change takes all the text of the field's line (only an empty field asks).
                    let lineStart = i == 0 ? -firstColumn : flatStart[i]
                    let lineEnds = i < old.count - 1 || lastEndsLine
                    let lineCleared = s < e && s <= lineStart && lineEnds && e >= flatStart[i] + line.scalarCount
                    guard
                        let left = FieldChangeKind.remains(
                            field: fs, fe, change: s, e, inserted: t,
                            atLineStart: firstColumn + s == 0,
                            lineCleared: lineCleared)
                    else {
                        outcome.closed.append(span.id)
                        continue
                    }
                    (newStart, newEnd) = (left.lowerBound, left.upperBound)
                }
                let (line0, column0) = locate(newStart)
                let column1 = min(column0 + (newEnd - newStart), newLengths[line0])
                newLines[line0].fields.append(FieldSpan(id: span.id, start: column0, end: column1))
                guard kind != .apart else { continue }
                // Did the field's text change?
                let oldText = line.text.scalarSlice(span.start, span.end)
                let newText = newLines[line0].text.scalarSlice(column0, column1)
                guard oldText != newText else { continue }
                guard kind == .typing else {
                    outcome.reshaped.append(span.id)
                    continue
                }
                let lower = oldText.characterOffset(ofScalar: s - fs, roundUp: false)
                let upper = max(lower, oldText.characterOffset(ofScalar: e - fs, roundUp: true))
                let text = gains ? change.text : ""
                let edit = text.isEmpty ? FieldEdit.backspace(lower..<upper) : FieldEdit.insert(text, at: lower..<upper)
                outcome.touches.append(FieldTouch(field: span.id, oldText: oldText, edit: edit, newText: newText))
            }
        }
        for i in newLines.indices
        where zip(newLines[i].fields, newLines[i].fields.dropFirst()).contains(where: {
            $0.start > $1.start
        }) {
            newLines[i].fields.sort { $0.start < $1.start }
        }
        let caret = locate(s + t)
        outcome.lines = newLines
        outcome.caret = ScalarPosition(line: firstLine + caret.line, column: caret.column)
        return outcome
    }

    /// What splicing a change did: the new lines, the fields it typed into (each with its edit as the field sees
    /// it), those whose text a change reaching beyond them clipped (kept as it is, not formatted), those it closed,
    /// those it touched or overlapped without typing into them and where they stood before it, and the caret (the
    /// end of the inserted text).
    struct Splice {
        var lines: [Line]
        var touches: [FieldTouch] = []
        var reshaped: [String] = []
        var closed: [String] = []
        var nearby: [String] = []
        var places: [Place] = []
        var caret: ScalarPosition
    }

    /// Where a field stood before a change that touched it without typing into it: its line's text and its columns.
    struct Place {
        var field: String
        var line: String
        var start: Int
        var end: Int

        /// Longer lines are not kept for an undo to give back (a line of a megabyte would be copied per change).
        static let longestLine = 4_096
    }

    /// `line` with `[start, end)` replaced by `text` (no line break), the insertion going to
    /// field `claimant`: how an edit the daemon proposed for that field moves the fields.
    static func track(line: Line, start: Int, end: Int, text: String, claimant: String) -> Line {
        let change = ScalarChange(
            start: ScalarPosition(line: 0, column: start),
            end: ScalarPosition(line: 0, column: end), text: text)
        return splice([line], change, firstLine: 0, claimant: claimant).lines[0]
    }
}
