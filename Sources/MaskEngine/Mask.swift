import Synchronization

/// A compiled mask: the one object every caller formats and edits through.
///
/// `Mask.compile` turns any `MaskSpec` into small immutable programs and caches the result by
/// spec, so a keystroke never recompiles. Every method is pure: the same input gives the same
/// result. Positions are `Character` offsets; `EncodedText` converts them.
public final class Mask: @unchecked Sendable {
    /// The spec this mask was compiled from.
    public let spec: MaskSpec
    let kind: Kind
    let checks: ValueChecks

    /// The shapes a mask can take once compiled.
    enum Kind {
        /// Slots and literals.
        case slots(Program)
        /// Several slot programs; the best one for the entered characters wins after every edit.
        case oneOf([Program])
        /// The program follows the entered characters (the card brand, the IBAN country).
        case dynamic(DynamicProgram)
        /// A number grouped from the right.
        case number(NumberField)
    }

    init(spec: MaskSpec, kind: Kind, checks: ValueChecks) {
        self.spec = spec
        self.kind = kind
        self.checks = checks
    }

    private static let cache = Mutex<[MaskSpec: Mask]>([:])
    /// Compiled masks kept at most; a client sending endless distinct masks only costs a recompile.
    private static let cacheLimit = 1024

    /// Compiles `spec`, or returns the cached program for it.
    /// - Throws: `MaskError` naming the problem and its offset in the mask.
    public static func compile(_ spec: MaskSpec) throws -> Mask {
        if let hit = cache.withLock({ $0[spec] }) { return hit }
        let mask = try MaskCompiler.compile(spec)
        cache.withLock { entries in
            if entries.count >= cacheLimit { entries.removeAll(keepingCapacity: true) }
            entries[spec] = mask
        }
        return mask
    }

    /// Compiles bracket notation with no options.
    public static func compile(_ notation: String) throws -> Mask {
        try compile(.notation(notation))
    }

    /// The canonical notation of an empty field's mask (for `oneOf`, the first alternative).
    public var notation: String {
        switch kind {
        case .slots(let program): return program.notation
        case .oneOf(let programs): return programs[0].notation
        case .dynamic(let dynamic): return dynamic.broad.notation
        case .number(let field): return field.notation
        }
    }

    /// Reads `text` into an empty field, carrying `selection` through with forward gravity.
    /// - Parameter selection: character offsets in `text`; nil means the end of the text.
    public func format(_ text: String, selection: Range<Int>? = nil) -> FieldResult {
        let chars = Array(text)
        let selection = clamp(selection ?? chars.count..<chars.count, chars.count)
        if case .number(let field) = kind {
            var r = field.format(text, selection: selection)
            if !checks.isViable(r.value) { r = field.format("", selection: nil) }
            return checked(r)
        }
        let candidates = programs(for: chars)
        var best: (program: Program, d: Program.Decomposition, layout: Layout)? = nil
        for program in candidates {
            let d = program.decompose(chars)
            var layout = d.layout
            program.settle(&layout)
            if let current = best, !better(program, layout, than: current.program, current.layout) { continue }
            best = (program, d, layout)
        }
        let (program, d, firstLayout) = best!
        var layout = firstLayout
        var overflow = d.overflow
        // A value the `regex` option can never accept keeps only its longest viable start.
        if !checks.isViable(program.value(of: layout)) {
            let trimmed = trimToViable(program, layout)
            layout = trimmed.layout
            overflow += trimmed.cut
        }
        let formatted = program.render(layout)
        let length = formatted.count
        let lower = program.carriedOffset(selection.lowerBound, through: d, textLength: length)
        let upper = program.carriedOffset(selection.upperBound, through: d, textLength: length)
        let carried = min(lower, length)..<min(max(upper, lower), length)
        return result(program, layout, text: formatted, selection: carried, rejected: d.rejected, overflow: overflow)
    }

    /// Applies one edit a person made to a field whose text is `text`.
    ///
    /// The edit's range is in characters of `text`. A refused edit (nothing fits, or the value
    /// would fail `regex`) leaves `text` and the selection as they were, with the refusal in
    /// `rejected`.
    /// - Parameter text: the field's text before the edit (normally formatted by this mask).
    public func apply(_ edit: FieldEdit, to text: String) -> FieldResult {
        let chars = Array(text)
        let range = clamp(edit.range, chars.count)
        if case .number(let field) = kind {
            let r = field.apply(edit, to: text)
            if !checks.isViable(r.value) {
                var kept = field.format(text, selection: range)
                kept.text = text
                kept.selection = range
                kept.rejected = edit.text
                kept.overflow = ""
                return checked(kept)
            }
            return checked(r)
        }
        let candidates = programs(for: chars)
        let current = bestProgram(candidates, for: chars)
        let program = candidates[current]
        let d = program.decompose(chars)
        let exact = program.edit(edit, chars: chars, decomposition: d)

        var chosen = (program: program, outcome: exact)
        if candidates.count > 1 {
            for (i, other) in candidates.enumerated() where i != current {
                let replayed = other.replay(before: exact.before, inserted: exact.inserted, after: exact.after)
                if replayed.refused { continue }
                if chosen.outcome.refused || better(other, replayed.layout, than: chosen.program, chosen.outcome.layout,
                                                    preferFirst: i < current) {
                    chosen = (other, replayed)
                }
            }
        }
        if case .dynamic(let dynamic) = kind, !chosen.outcome.refused {
            // The entered characters may now call for another program (the brand changed).
            let entered = chosen.outcome.layout.cells.map(\.char)
            let next = dynamic.program(for: entered).0
            if next !== chosen.program {
                let k = chosen.program.cellCount(beforeOffset: chosen.outcome.caret, in: chosen.outcome.layout)
                var moved = next.replay(before: Array(entered[0..<k]), inserted: nil, after: Array(entered[k...]))
                moved.rejected = chosen.outcome.rejected
                moved.overflow = chosen.outcome.overflow + moved.overflow
                chosen = (next, moved)
            }
        }
        let outcome = chosen.outcome
        if outcome.refused || !checks.isViable(chosen.program.value(of: outcome.layout)) {
            var unchanged = d.layout
            program.settle(&unchanged)
            let rejected = outcome.refused ? outcome.rejected : edit.text
            return result(program, unchanged, text: text, selection: range, rejected: rejected,
                          overflow: outcome.refused ? outcome.overflow : "")
        }
        let newText = chosen.program.render(outcome.layout)
        let caret = min(outcome.caret, newText.count)
        return result(chosen.program, outcome.layout, text: newText, selection: caret..<caret,
                      rejected: outcome.rejected, overflow: outcome.overflow)
    }

    /// Re-flows a field formatted by `previous` into this mask (a mask change mid-input).
    ///
    /// The entered characters are placed into this mask's slots in order; what no longer fits
    /// is cut into `overflow`. The caret keeps its count of entered characters to its left.
    /// - Parameter caret: the caret in `text`; nil means the end.
    public func reflow(_ text: String, from previous: Mask, caret: Int? = nil) -> FieldResult {
        let (raw, k) = previous.entered(text, caret: min(caret ?? text.count, text.count))
        if case .number(let field) = kind {
            var r = field.format(String(raw), selection: k..<k)
            if !checks.isViable(r.value) { r = field.format("", selection: nil) }
            return checked(r)
        }
        var best: (program: Program, outcome: Program.EditOutcome)? = nil
        for program in programs(for: raw) {
            var outcome = program.replay(before: Array(raw[0..<k]), inserted: nil, after: Array(raw[k...]))
            if !checks.isViable(program.value(of: outcome.layout)) {
                let trimmed = trimToViable(program, outcome.layout)
                outcome.layout = trimmed.layout
                outcome.overflow += trimmed.cut
                outcome.caret = program.caretForDeletion(min(k, trimmed.layout.cells.count), trimmed.layout)
            }
            if let current = best, !better(program, outcome.layout, than: current.program, current.outcome.layout) {
                continue
            }
            best = (program, outcome)
        }
        let (program, outcome) = best!
        let newText = program.render(outcome.layout)
        let caretOffset = min(outcome.caret, newText.count)
        return result(program, outcome.layout, text: newText, selection: caretOffset..<caretOffset,
                      rejected: "", overflow: outcome.overflow)
    }

    // MARK: - Choosing among programs

    /// The programs that may format `chars`: every `oneOf` alternative, or the one a dynamic
    /// mask picks for the characters that the text holds.
    func programs(for chars: [Character]) -> [Program] {
        switch kind {
        case .slots(let program): return [program]
        case .oneOf(let programs): return programs
        case .dynamic(let dynamic):
            let entered = dynamic.broad.decompose(chars).layout.cells.map(\.char)
            return [dynamic.program(for: entered).0]
        case .number: return []
        }
    }

    /// The entered characters of a field's text and how many stand before `caret`.
    func entered(_ text: String, caret: Int) -> (raw: [Character], before: Int) {
        let chars = Array(text)
        if case .number = kind {
            let raw = chars.filter { $0.isNumber || $0 == "." || $0 == "-" }
            let before = chars[0..<caret].filter { $0.isNumber || $0 == "." || $0 == "-" }.count
            return (raw, before)
        }
        let candidates = programs(for: chars)
        let d = candidates[bestProgram(candidates, for: chars)].decompose(chars)
        return (d.layout.cells.map(\.char), d.cellCount(before: caret))
    }

    /// The program that reads `chars` best: the one the text was most likely formatted with.
    func bestProgram(_ candidates: [Program], for chars: [Character]) -> Int {
        if candidates.count == 1 { return 0 }
        var best = 0
        var bestLayout = Layout()
        for (i, program) in candidates.enumerated() {
            var layout = program.decompose(chars).layout
            program.settle(&layout)
            if i == 0 || better(program, layout, than: candidates[best], bestLayout) {
                best = i
                bestLayout = layout
            }
        }
        return best
    }

    /// `oneOf`'s rule: more entered characters kept wins, then complete over incomplete; on a
    /// full tie the earlier program (the incumbent unless `preferFirst`) stays.
    private func better(_ a: Program, _ la: Layout, than b: Program, _ lb: Layout, preferFirst: Bool = false) -> Bool {
        if la.cells.count != lb.cells.count { return la.cells.count > lb.cells.count }
        let ca = a.missing(in: la).count == 0, cb = b.missing(in: lb).count == 0
        if ca != cb { return ca }
        return preferFirst
    }

    /// Cuts entered characters from the end until the `regex` option can still accept the value.
    private func trimToViable(_ program: Program, _ layout: Layout) -> (layout: Layout, cut: String) {
        var layout = layout
        var cut: [Character] = []
        while !layout.cells.isEmpty, !checks.isViable(program.value(of: layout)) {
            cut.append(layout.cells.removeLast().char)
            layout.end = 0
            program.settle(&layout)
        }
        return (layout, String(cut.reversed()))
    }

    private func clamp(_ range: Range<Int>, _ count: Int) -> Range<Int> {
        let lower = min(max(range.lowerBound, 0), count)
        return lower..<min(max(range.upperBound, lower), count)
    }

    // MARK: - Results

    private func result(_ program: Program, _ layout: Layout, text: String, selection: Range<Int>,
                        rejected: String, overflow: String) -> FieldResult {
        let value = program.value(of: layout)
        let missing = program.missing(in: layout)
        var problems: [String] = []
        var brand: String? = nil
        if case .dynamic(let dynamic) = kind {
            brand = dynamic.program(for: layout.cells.map(\.char)).brand
        }
        if missing.count > 0 {
            let what = missing.allDigits ? (missing.count == 1 ? "digit" : "digits")
                : (missing.count == 1 ? "character" : "characters")
            problems.append("\(missing.count) more \(what) needed")
        } else {
            if case .dynamic(let dynamic) = kind {
                problems += dynamic.problems(layout.cells.map(\.char), brand)
            }
            problems += checks.problems(value)
        }
        return FieldResult(
            text: text, selection: selection, value: value, complete: missing.count == 0,
            valid: problems.isEmpty, problems: problems, next: program.nextSlot(in: layout),
            placeholder: program.placeholder(of: layout), mask: program.notation, brand: brand,
            rejected: rejected, overflow: overflow)
    }

    /// A number field's result with the mask's `regex` and validators applied.
    private func checked(_ r: FieldResult) -> FieldResult {
        guard r.complete else { return r }
        var r = r
        r.problems += checks.problems(r.value)
        r.valid = r.problems.isEmpty
        return r
    }
}

extension Program {
    /// How many cells stand before text offset `offset` of a rendered layout.
    func cellCount(beforeOffset offset: Int, in layout: Layout) -> Int {
        var k = 0
        while k < layout.cells.count, textOffset(afterCell: k, in: layout.cells) <= offset { k += 1 }
        return k
    }
}

/// The value checks a mask's options add: `regex` and `validate`.
struct ValueChecks: @unchecked Sendable {
    /// Whether the value can still become acceptable (nil: always).
    var viable: ((String) -> Bool)? = nil
    /// Problems with a complete value, as sentences.
    var validators: [(String) -> String?] = []

    func isViable(_ value: String) -> Bool { viable?(value) ?? true }

    func problems(_ value: String) -> [String] { validators.compactMap { $0(value) } }
}
