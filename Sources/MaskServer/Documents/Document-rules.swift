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
        for index in indices where !closedLines.contains(index) {
            linesTriedByRules += 1
            let line = lines[index]
            for found in rules.matches(on: line.text, existing: line.fields) {
                let text = line.text.scalarSlice(found.start, found.end)
                let result = found.rule.mask.format(text)
                guard Server.droppedContent(result).isEmpty else { continue }
                let id = newFieldID()
                insertField(id: id, line: index, start: found.start, end: found.end, mask: found.rule.mask)
                ruleOrigins[id] = found.rule.origin
                results[id] = result
            }
        }
        return results
    }

    /// After a `didChange` is committed: moves `closedLines` as its steps moved lines, and places the rules'
    /// fields on the lines the `ruleSteps` among them (a person's changes outside fields) left.
    /// - Parameter steps: every step of the change in order: at `start`, `old` lines became `count` lines.
    func openRuleFields(afterSteps steps: [(start: Int, count: Int, old: [Line])], _ ruleSteps: Set<Int>)
        -> [String: FieldResult] {
        var candidates: [Int] = []
        for (k, step) in steps.enumerated() {
            let delta = step.count - step.old.count
            if delta != 0 {
                let lastOld = step.start + step.old.count - 1
                // A line after the step moves by its delta; one inside it stays inside what replaced it.
                func moved(_ line: Int) -> Int {
                    line > lastOld ? line + delta : line < step.start ? line : min(line, step.start + step.count - 1)
                }
                candidates = candidates.map(moved)
                if !closedLines.isEmpty { closedLines = Set(closedLines.map(moved)) }
            }
            if ruleSteps.contains(k) && !rules.isEmpty { candidates += step.start..<(step.start + step.count) }
        }
        return placeRuleFields(on: Set(candidates).sorted())
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
