// maskd: how a change moves, clips and feeds the fields it meets (PROTOCOL.md, field tracking).
import MaskEngine

extension Document {
    /// Splices `change` into `old` (the lines it spans) and tracks their fields.
    ///
    /// Offsets are "flat": scalars from the start of the first line, line breaks included.
    /// For a field `[fs, fe)` and a change replacing `[S, E)` with `T` scalars:
    /// - a field before the change (`fe < S`) stays; one after it (`fs > E`) shifts;
    /// - otherwise the deletion clips it and the inserted text belongs to it, except that only
    ///   one field takes an insertion (the first in document order, or `claimant`), a field
    ///   never takes a line break: it keeps the inserted text before the first break when it
    ///   reaches the change from the left, the text after the last break when it lies only
    ///   after the change, and a field cut by a break keeps its left part;
    /// - a field emptied stays, at the change's start.
    /// - Returns: the new lines, the fields whose text changed with the change as each field
    ///   sees it, and the caret (the end of the inserted text).
    static func splice(_ old: [Line], _ change: ScalarChange, firstLine: Int, claimant: String? = nil)
        -> ([Line], [FieldTouch], ScalarPosition) {
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
        // The inserted scalars are needed only to cut the text at its line breaks.
        let inserted = hasBreak ? Array(change.text.unicodeScalars) : []
        let t = hasBreak ? inserted.count : change.text.scalarCount
        let firstBreak = inserted.firstIndex { $0 == "\n" || $0 == "\r" }
        let t0 = firstBreak ?? t
        let tLast = hasBreak ? t - 1 - inserted.lastIndex(where: { $0 == "\n" || $0 == "\r" })! : t
        /// The part `range` of the inserted text.
        func insertedText(_ range: Range<Int>) -> String {
            if range.isEmpty { return "" }
            if range == 0..<t { return change.text }
            return String(String.UnicodeScalarView(inserted[range]))
        }

        // The new region's text and lines (one line when nothing inserted breaks it: the head and
        // tail come from lines, which hold no break).
        var newLines: [Line]
        if hasBreak {
            let head = old[0].text.scalarSlice(0, s)
            let tail = lastOld.text.scalarSlice(change.end.column, lastOld.scalarCount)
            newLines = Line.split(head + change.text + tail)
            newLines[newLines.count - 1].ending = lastOld.ending
        } else {
            newLines = [Line(text: old[0].text.scalarsJoined(upTo: s, change.text, lastOld.text, from: change.end.column),
                             ending: lastOld.ending)]
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

        var touches: [FieldTouch] = []
        // A claimant no longer here is a closed field whose padding is being echoed (`closeField`): it stood before
        // the insertion, so an empty field at that point comes after the inserted text, as it would after the field's.
        var claimed = claimant.map { id in !old.contains { $0.fields.contains { $0.id == id } } } ?? false
        for (i, line) in old.enumerated() {
            for span in line.fields {
                let fs = flatStart[i] + span.start, fe = flatStart[i] + span.end
                var newStart: Int, newEnd: Int
                var gained = 0..<0  // The part of the inserted text the field takes.
                let before = fs < s, after = fe > e
                // Only a field the change meets can see its text change; the others keep theirs.
                let meets = !(fe < s || fs > e)
                if fe < s {
                    (newStart, newEnd) = (fs, fe)
                } else if fs > e {
                    (newStart, newEnd) = (fs + t - (e - s), fe + t - (e - s))
                } else {
                    var candidate: Range<Int>
                    if !hasBreak {
                        candidate = 0..<t
                    } else if before || !after {
                        candidate = 0..<t0
                    } else {
                        candidate = (t - tLast)..<t
                    }
                    let takes = !candidate.isEmpty && (claimant.map { $0 == span.id } ?? !claimed)
                    if takes {
                        claimed = true
                        gained = candidate
                    }
                    if !hasBreak {
                        if takes {
                            (newStart, newEnd) = (min(fs, s), max(fe, e) - (e - s) + t)
                        } else if before && after {
                            (newStart, newEnd) = (fs, fe - (e - s) + t)
                        } else if before {
                            (newStart, newEnd) = (fs, s)
                        } else if after {
                            (newStart, newEnd) = (s + t, fe - (e - s) + t)
                        } else {
                            let at = claimed ? s + t : s
                            (newStart, newEnd) = (at, at)
                        }
                    } else if before || !after {
                        // The field keeps its left part (or is emptied) on the first line.
                        let start = before ? fs : s
                        (newStart, newEnd) = (start, s + gained.count)
                        if !takes && !before && claimed && claimant == nil { (newStart, newEnd) = (s, s) }
                    } else {
                        // Only its right part survives, on the last new line.
                        (newStart, newEnd) = (s + t - gained.count, fe - (e - s) + t)
                    }
                }
                let (line0, column0) = locate(newStart)
                let column1 = min(column0 + (newEnd - newStart), newLengths[line0])
                newLines[line0].fields.append(FieldSpan(id: span.id, start: column0, end: column1))
                guard meets else { continue }
                // Did the field's text change?
                let lineText = newLines[line0].text
                let oldText = line.text.scalarSlice(span.start, span.end)
                let newText = lineText.scalarSlice(column0, column1)
                if oldText != newText {
                    let relativeStart = min(max(s - fs, 0), fe - fs)
                    let relativeEnd = min(max(e - fs, 0), fe - fs)
                    var deletedEnd = relativeEnd
                    if hasBreak && before && after && gained.count < t { deletedEnd = fe - fs }
                    let lower = oldText.characterOffset(ofScalar: relativeStart, roundUp: false)
                    let upper = max(lower, oldText.characterOffset(ofScalar: deletedEnd, roundUp: true))
                    let text = insertedText(gained)
                    let edit = text.isEmpty ? FieldEdit.backspace(lower..<upper) : FieldEdit.insert(text, at: lower..<upper)
                    touches.append(FieldTouch(field: span.id, oldText: oldText, edit: edit))
                }
            }
        }
        for i in newLines.indices where zip(newLines[i].fields, newLines[i].fields.dropFirst()).contains(where: {
            $0.start > $1.start
        }) {
            newLines[i].fields.sort { $0.start < $1.start }
        }
        let caret = locate(s + t)
        return (newLines, touches, ScalarPosition(line: firstLine + caret.line, column: caret.column))
    }

    /// `line` with `[start, end)` replaced by `text` (no line break), the insertion going to
    /// field `claimant`: how an edit the daemon proposed for that field moves the fields.
    static func track(line: Line, start: Int, end: Int, text: String, claimant: String) -> Line {
        let change = ScalarChange(start: ScalarPosition(line: 0, column: start),
                                  end: ScalarPosition(line: 0, column: end), text: text)
        return splice([line], change, firstLine: 0, claimant: claimant).0[0]
    }
}
