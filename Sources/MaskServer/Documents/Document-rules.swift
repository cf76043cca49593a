// maskd: the fields a document's rules open on its lines.
import MaskEngine

extension Document {
    /// Places the fields the rules find on `indices` (nothing is proposed: the caller formats them with the
    /// rest). A line where the person closed a field is skipped, and so is a match whose text the mask would
    /// lose a letter or digit of (opening never destroys content).
    /// - Returns: each new field's state, `mask.format` of its text.
    /// - Complexity: per line O(log n + the line × the rules' patterns).
    func placeRuleFields(on indices: some Sequence<Int>) -> [String: FieldResult] {
        guard !rules.isEmpty else { return [:] }
        var results: [String: FieldResult] = [:]
        // The length first: a line too long to try is never read whole.
        for index in indices
        where !closedLines.contains(index)
            && lines.length(ofLine: index) <= DocumentRules.maxLineLength
        {
            linesTriedByRules += 1
            let line = lines[index]
            for found in rules.matches(on: line.text, existing: line.fields) {
                let text = line.text.scalarSlice(found.start, found.end)
                let result = found.rule.mask.format(text)
                guard Server.droppedContent(result).isEmpty else { continue }
                let id = newFieldID()
                insertField(id: id, line: index, start: found.start, end: found.end, mask: found.rule.mask)
                ruleOrigins[id] = found.rule.origin
                // An undo of the formatting gives this text back.
                remember(text)
                results[id] = result
            }
        }
        return results
    }

    /// After a `didChange` is committed: moves `closedLines` as its steps moved lines, and places the rules'
    /// fields on the lines left by the steps that open them (a person's changes outside fields).
    /// - Returns: the fields to format (`mask.format` of their text): those whose whole text the person just wrote
    ///   (typed or pasted exactly over the rule's capture, within one line); and those opened over their text as it
    ///   stands, proposing nothing: any other text (an undo or a paste that restores a line, a joined line, a label
    ///   edited before a value), which is kept exactly as the editor has it.
    /// - Complexity: O(steps × (the candidate and closed lines)) to follow the lines, plus `placeRuleFields`.
    func openRuleFields(after steps: [LineStep]) -> (formatted: [String: FieldResult], asTheyStand: [String]) {
        var candidates: [(line: Int, written: LineStep.Written?)] = []
        for step in steps {
            let delta = step.newCount - step.oldCount
            if delta != 0 {
                let lastOld = step.start + step.oldCount - 1
                // A line after the step moves by its delta; one inside it stays inside what replaced it.
                func moved(_ line: Int) -> Int {
                    line > lastOld ? line + delta : line < step.start ? line : min(line, step.start + step.newCount - 1)
                }
                candidates = candidates.map { (moved($0.line), $0.written) }
                if !closedLines.isEmpty { closedLines = Set(closedLines.map(moved)) }
            }
            if step.opensRuleFields && !rules.isEmpty {
                candidates += (step.start..<(step.start + step.newCount)).map { ($0, step.written) }
            }
        }
        guard !candidates.isEmpty else { return ([:], []) }
        // The last change on each line says what the person wrote there.
        var written: [Int: LineStep.Written?] = [:]
        for candidate in candidates { written[candidate.line] = candidate.written }
        var results = placeRuleFields(on: written.keys.sorted())
        var asTheyStand: [String] = []
        for id in results.keys {
            guard let (line, span, text) = fieldText(id) else { continue }
            if let typed = written[line] ?? nil, typed.column == span.start, typed.text.sameScalars(text) { continue }
            results[id] = nil
            asTheyStand.append(id)
        }
        return (results, asTheyStand)
    }

    /// Opens the rules' fields on every line (the document just opened, or the rules changed) and proposes
    /// their formatting in one pass.
    /// - Returns: the edits (against the current version) and the new fields' states, in document order.
    /// - Complexity: O(n log n + the text × the rules' patterns) for n lines.
    func openRuleFieldsEverywhere() -> (edits: [TextEdit], fields: [FieldSnapshot]) {
        let results = placeRuleFields(on: 0..<lines.count)
        guard !results.isEmpty else { return ([], []) }
        return proposeOpenedTogether(results)
    }
}

/// How one change of a `didChange` moved lines: at `start`, `oldCount` lines became `newCount`.
struct LineStep: Hashable, Sendable {
    var start: Int
    var oldCount: Int
    var newCount: Int
    /// A person's change outside fields: the rules are tried on the lines it left.
    var opensRuleFields: Bool

    /// A change within one line: the column it starts at and the text it wrote there.
    var written: Written?

    struct Written: Hashable, Sendable {
        var column: Int
        var text: String
    }

    init(_ change: ScalarChange, opensRuleFields: Bool) {
        start = change.start.line
        oldCount = change.end.line - change.start.line + 1
        newCount = 1 + change.text.lineBreakCount
        self.opensRuleFields = opensRuleFields
        if oldCount == 1 && newCount == 1 { written = Written(column: change.start.column, text: change.text) }
    }
}

extension String {
    /// Its line breaks as LSP counts them (`\r\n` is one).
    var lineBreakCount: Int {
        var count = 0
        var afterCR = false
        for byte in utf8 {
            if byte == 0x0A { if !afterCR { count += 1 } } else if byte == 0x0D { count += 1 }
            afterCR = byte == 0x0D
        }
        return count
    }
}
