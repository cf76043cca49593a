// maskd: the edits the daemon proposed and still waits to see echoed, kept by line.

/// An edit the daemon sent and expects the editor to echo, in scalar columns of the daemon's
/// copy (which follows the editor, so it does not hold the edit yet).
struct PendingEdit: Hashable, Sendable {
    var line: Int
    var start: Int
    var end: Int
    var text: String
    var field: String
    /// The field's place among the fields of its line (`LineTree.orderKey`): two fields that meet (an empty one
    /// right before another) can both insert at the same column, and the earlier field's text comes first, as the
    /// order of the edits in the array says (LSP).
    var fieldOrder: Int

    /// The edit with its columns moved by `shift` (to columns of a window that starts there).
    func shifted(by shift: Int) -> PendingEdit {
        var edit = self
        edit.start -= shift
        edit.end -= shift
        return edit
    }

    /// Document order, the field's place breaking ties between insertions at one column.
    static func inOrder(_ a: PendingEdit, _ b: PendingEdit) -> Bool {
        (a.line, a.start, a.fieldOrder) < (b.line, b.start, b.fieldOrder)
    }
}

/// The pending edits of a document, in document order (`PendingEdit.inOrder`), grouped by line so that
/// an echo of one edit costs O(log of the edits on its line), not a pass over every edit waiting: a
/// `didChange` echoing the N edits of N opened fields then costs O(N log), where one flat array cost O(N^2).
///
/// Each line keeps its edits as one array in document order. Echoing an edit moves the edits after it on its
/// line; only edits that overlap (which proposals do not make: fields are disjoint and so are one field's
/// edits) could leave a line out of order, and such a line is searched and shifted edit by edit, exactly as a
/// flat array was, until the next proposal sorts it again.
struct PendingEdits: Sequence {
    private var byLine: [Int: [PendingEdit]] = [:]
    /// Lines whose edits may be out of document order.
    private var unordered: Set<Int> = []
    private(set) var count = 0
    /// Edits looked at, for tests that check an echo's work does not grow with the edits waiting.
    private(set) var work = 0

    var isEmpty: Bool { count == 0 }

    /// Every edit, in document order. - Complexity: O(P + L log L) for P edits on L lines.
    func makeIterator() -> IndexingIterator<[PendingEdit]> {
        byLine.keys.sorted().flatMap { byLine[$0]! }.makeIterator()
    }

    /// The edits on `line`, in order.
    mutating func onLine(_ line: Int) -> [PendingEdit] {
        let edits = byLine[line] ?? []
        work += edits.count
        return edits
    }

    /// The edits on the lines of `span`, in order: O(the span or the lines with edits, whichever is fewer).
    mutating func inLines(_ span: ClosedRange<Int>) -> [PendingEdit] {
        let lines = span.count <= byLine.count ? Array(span) : byLine.keys.filter(span.contains).sorted()
        work += lines.count
        return lines.flatMap { onLine($0) }
    }

    /// Drops the edits on the lines of `span`.
    mutating func removeLines(_ span: ClosedRange<Int>) {
        let lines = span.count <= byLine.count ? Array(span) : byLine.keys.filter(span.contains)
        for line in lines {
            guard let removed = byLine.removeValue(forKey: line) else { continue }
            count -= removed.count
            unordered.remove(line)
        }
    }

    mutating func removeAll() {
        byLine.removeAll()
        unordered.removeAll()
        count = 0
    }

    mutating func removeAll(where drop: (PendingEdit) -> Bool) {
        for line in Array(byLine.keys) {
            byLine[line]!.removeAll(where: drop)
            if byLine[line]!.isEmpty {
                byLine[line] = nil
                unordered.remove(line)
            }
        }
        count = byLine.values.reduce(0) { $0 + $1.count }
    }

    /// Adds `edits` and puts every line they are on, and every line left out of order, in document order: as a
    /// stable sort of the old edits then the new (edits that come after a line's, as one more field's, are
    /// appended).
    mutating func add(_ edits: [PendingEdit]) {
        // Nothing to add and no line to sort: nothing to do (a keystroke the text already fits).
        guard !edits.isEmpty || !unordered.isEmpty else { return }
        var added: [Int: [PendingEdit]] = [:]
        for edit in edits { added[edit.line, default: []].append(edit) }
        count += edits.count
        let unsorted = unordered
        unordered.removeAll()
        for line in unsorted where added[line] == nil {
            guard let i = byLine.index(forKey: line) else { continue }
            byLine.values[i].sort(by: PendingEdit.inOrder)
        }
        for (line, var new) in added {
            new.sort(by: PendingEdit.inOrder)
            guard let i = byLine.index(forKey: line) else {
                byLine[line] = new
                continue
            }
            let appended =
                !unsorted.contains(line)
                && !PendingEdit.inOrder(new[0], byLine.values[i][byLine.values[i].count - 1])
            byLine.values[i].append(contentsOf: new)
            if !appended { byLine.values[i].sort(by: PendingEdit.inOrder) }
        }
    }

    /// Takes out the first edit (in order) that replaces `start..<end` on `line` with `text`, moving the edits
    /// after it on its line by the length it changes; nil when there is none.
    mutating func takeEcho(line: Int, start: Int, end: Int, text: String) -> PendingEdit? {
        guard let slot = byLine.index(forKey: line) else { return nil }
        let ordered = !unordered.contains(line)
        // The line's array is moved out and back, so it is not copied per echo.
        var edits: [PendingEdit] = []
        swap(&edits, &byLine.values[slot])
        func matches(_ e: PendingEdit) -> Bool {
            work += 1
            return e.start == start && e.end == end && e.text.sameScalars(text)
        }
        var found: Int?
        if ordered {
            // The first edit starting at `start`, by bisection; equal starts are adjacent.
            var low = 0, high = edits.count
            while low < high {
                let mid = (low + high) / 2
                work += 1
                if edits[mid].start < start { low = mid + 1 } else { high = mid }
            }
            var k = low
            while k < edits.count, edits[k].start == start {
                if matches(edits[k]) { found = k; break }
                k += 1
            }
        } else {
            found = edits.firstIndex(where: matches)
        }
        guard let i = found else {
            swap(&edits, &byLine.values[slot])
            return nil
        }
        let edit = edits.remove(at: i)
        count -= 1
        let delta = edit.text.unicodeScalars.count - (edit.end - edit.start)
        // The edits after it on its line move with it; an insertion at its start that comes before it (an
        // earlier field's) stays where it is, its text going before this one's. In order, those are all at
        // or after `i`; out of order, any may be.
        let from = ordered ? i : 0
        work += edits.count - from
        for j in from..<edits.count where edits[j].start > edit.end || (edits[j].start == edit.end && j >= i) {
            edits[j].start += delta
            edits[j].end += delta
        }
        // The shift keeps a line in order unless edits overlap: check from the edit before `i`.
        let checkFrom = Swift.max(i, 1)
        if ordered, checkFrom < edits.count,
            (checkFrom..<edits.count).contains(where: { PendingEdit.inOrder(edits[$0], edits[$0 - 1]) })
        {
            unordered.insert(line)
        }
        if edits.isEmpty {
            byLine.remove(at: slot)
            unordered.remove(line)
        } else {
            swap(&edits, &byLine.values[slot])
        }
        return edit
    }
}
