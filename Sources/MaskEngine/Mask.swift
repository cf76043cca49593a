import Synchronization

/// A compiled mask: the one object every caller formats and edits through.
///
/// `Mask.compile` turns any `MaskSpec` into small immutable programs and caches the result by
/// spec, so a keystroke never recompiles. Every method is pure: the same input gives the same
/// result. Positions are `Character` offsets; `EncodedText` converts them. Internally each call
/// runs over bytes when the text and the mask are ASCII, over `Character`s otherwise.
public final class Mask: @unchecked Sendable {
    /// The spec this mask was compiled from.
    public let spec: MaskSpec
    package let kind: Kind
    package let checks: ValueChecks
    /// Every literal of every program is ASCII: ASCII text may take the byte path.
    private let asciiLiterals: Bool
    /// A right-to-left mask's own notation (its program is compiled reversed: `RightToLeft`); nil otherwise.
    let rightToLeftNotation: String?

    /// One fixed program (`slots`): an edit is never replayed in another.
    private var isSingleProgram: Bool {
        if case .slots = kind { return true }
        return false
    }

    /// The shapes a mask can take once compiled.
    package enum Kind {
        /// Slots and literals.
        case slots(Program)
        /// Several slot programs; the best one for the entered characters wins after every edit.
        case oneOf([Program])
        /// The program follows the entered characters (the card brand, the IBAN country).
        case dynamic(DynamicProgram)
        /// A number grouped from the right.
        case number(NumberField)
        /// A field whose rules are its own (the catalogue's phone numbers and postal codes).
        case custom(any CustomFieldKind)
    }

    package init(spec: MaskSpec, kind: Kind, checks: ValueChecks, rightToLeft notation: String? = nil) {
        self.spec = spec
        rightToLeftNotation = notation
        self.kind = kind
        self.checks = checks
        switch kind {
        case .slots(let program): asciiLiterals = program.asciiLiterals
        case .oneOf(let programs): asciiLiterals = programs.allSatisfy(\.asciiLiterals)
        case .dynamic(let dynamic): asciiLiterals = dynamic.all.allSatisfy(\.asciiLiterals)
        case .number, .custom: asciiLiterals = false
        }
    }

    /// A mask of a custom kind: the field does all, and no option adds a check.
    package convenience init(_ spec: MaskSpec, custom field: any CustomFieldKind) {
        self.init(spec: spec, kind: .custom(field), checks: ValueChecks())
    }

    /// A compiled spec and the presets it was compiled with.
    private struct CacheKey: Hashable {
        let spec: MaskSpec
        let presets: ObjectIdentifier
    }
    private static let cache = Mutex<[CacheKey: Mask]>([:])
    /// Compiled masks kept at most; a client sending endless distinct masks only costs a recompile.
    private static let cacheLimit = 1024

    /// Compiles `spec`, or returns the cached program for it; a preset named in it is `presets`' to compile.
    /// - Throws: `MaskError` naming the problem and its offset in the mask.
    package static func compile(_ spec: MaskSpec, presets: any MaskPresets) throws -> Mask {
        let key = CacheKey(spec: spec, presets: ObjectIdentifier(type(of: presets)))
        if let hit = cache.withLock({ $0[key] }) { return hit }
        let mask = try MaskCompiler.compile(spec, presets: presets)
        cache.withLock { entries in
            if entries.count >= cacheLimit { entries.removeAll(keepingCapacity: true) }
            entries[key] = mask
        }
        return mask
    }

    /// Compiles `spec` afresh, sharing no object with any other compile: for a thread of its own, since
    /// threads sharing one mask's objects contend for their reference counts.
    package static func compileUnshared(_ spec: MaskSpec, presets: any MaskPresets) throws -> Mask {
        try MaskCompiler.compile(spec, presets: presets)
    }

    /// Compiles bracket notation with no options.
    public static func compile(_ notation: String) throws -> Mask {
        try compile(.notation(notation), presets: NoPresets())
    }

    /// The field of a mask whose rules are its own (`Kind.custom`), or nil.
    package var customField: (any CustomFieldKind)? {
        if case .custom(let field) = kind { return field }
        return nil
    }

    /// The canonical notation of an empty field's mask (for `oneOf`, the first alternative).
    public var notation: String {
        if let rightToLeftNotation { return rightToLeftNotation }
        switch kind {
        case .slots(let program): return program.notation
        case .oneOf(let programs): return programs[0].notation
        case .dynamic(let dynamic): return dynamic.broad.notation
        case .number(let field): return field.notation
        case .custom(let field): return field.notation
        }
    }

    /// Reads `text` into an empty field, carrying `selection` through with forward gravity.
    /// - Parameter selection: character offsets in `text`; nil means the end of the text.
    public func format(_ text: String, selection: Range<Int>? = nil) -> FieldResult {
        read(text, selection: selection, padding: true)
    }

    /// `format(text)`'s text and verdict (its `text`, `complete`, `valid` and `problems`), read without what only an
    /// editor's field asks for (the caret, the cuts, the placeholder): for formatting text in bulk.
    public func formatted(_ text: String) -> FormattedText {
        guard readsWhole else { return FormattedText(format(text)) }
        if asciiLiterals, let units = UInt8.units(of: text) { return formatted(units) }
        return formatted(Array(text))
    }

    /// `formatted` of a text given as its UTF-8 bytes, which must be valid UTF-8, its text appended to `output` as
    /// UTF-8: a line of a file goes from the input to the output without being made a `String`, where the mask and
    /// the line take the byte path.
    /// - Parameter scratch: room to read the text in, lent by a caller that formats many texts one after another
    ///   (one per thread): once it has grown to the longest of them, a text takes none of its own.
    public func formatted(
        utf8 bytes: UnsafeBufferPointer<UInt8>, appendingTextTo output: inout [UInt8],
        reusing scratch: inout FormattingScratch
    ) -> FormattedText.Verdict {
        if readsWhole, asciiLiterals, EncodedText.isSingleByte(bytes) {
            let units = scratch.takeUnits(bytes)
            defer { scratch.units = units }
            return withReadingKept(units, carets: false, skipping: true, arrays: &scratch.cells) {
                program, brand, _, layout, _ in
                program.appendText(of: layout, to: &output)
                return verdict(program, layout, brand: brand, utf8: &scratch.value)
            }
        }
        let whole = formatted(String(decoding: bytes, as: UTF8.self))
        output.append(contentsOf: whole.text.utf8)
        return whole.verdict
    }

    /// `formatted` reads the text itself: a slot mask read left to right. The others give `format`'s result (a
    /// right-to-left field reads its text reversed and carries its caret back; numbers and custom fields are whole).
    private var readsWhole: Bool {
        switch kind {
        case .slots, .oneOf, .dynamic: return rightToLeftNotation == nil
        case .number, .custom: return false
        }
    }

    /// `format` without the zeros a number mask's `padFraction` adds: a field's text brought back into form while
    /// the person is still typing in it (the zeros come when the field is closed or formatted).
    public func reformat(_ text: String, selection: Range<Int>? = nil) -> FieldResult {
        read(text, selection: selection, padding: false)
    }

    private func read(_ text: String, selection: Range<Int>?, padding: Bool) -> FieldResult {
        if let notation = rightToLeftNotation {
            return formatRightToLeft(text, selection: selection, notation: notation, padding: padding)
        }
        return readReversed(text, selection: selection, padding: padding)
    }

    /// Reads `text` from its start: the text as it stands, or a right-to-left field's text reversed.
    func readReversed(_ text: String, selection: Range<Int>?, padding: Bool) -> FieldResult {
        if case .custom(let field) = kind { return field.format(text, selection: selection) }
        if case .number(let field) = kind {
            var r = field.format(text, selection: selection, padding: padding ? nil : false)
            if !checks.isViable(r.value) { r = field.format("", selection: nil) }
            return checked(r)
        }
        return formatUnits(of: text, selection: selection)
    }

    /// `format` reading `text` with every alternative of a `oneOf`, none skipped by its `ReadingBound`: what the
    /// skipping must never change (tests).
    func formatReadingEveryAlternative(_ text: String) -> FieldResult {
        formatUnits(of: text, selection: nil, skipping: false)
    }

    /// Reads `text` over bytes where its literals and the text are ASCII, else over characters.
    private func formatUnits(of text: String, selection: Range<Int>?, skipping: Bool = true) -> FieldResult {
        if asciiLiterals, let units = UInt8.units(of: text) {
            return format(units, selection: selection, skipping: skipping)
        }
        return format(Array(text), selection: selection, skipping: skipping)
    }

    /// What closing a field whose text is `text` makes of it: with a number mask's `padFraction`, the
    /// text with its fraction filled with zeros as `format` fills it (`12.5` gives `12.50`, `12` gives
    /// `12.00`), the caret carried as `format` carries it (one at the end goes after the zeros).
    /// - Parameter caret: the caret in `text`, a character offset; nil means the end.
    /// - Returns: nil when closing leaves the text as it is: another mask, no `padFraction`, no digit, a
    ///   fraction already full, a padded value the `regex` option refuses, or a text not in form (closing
    ///   only adds the zeros; it does not reformat what the person has).
    public func closing(_ text: String, caret: Int? = nil) -> FieldResult? {
        guard case .number(let field) = kind, field.spec.padFraction else { return nil }
        let unpadded = field.format(text, padding: false)
        guard unpadded.text == text, checks.isViable(unpadded.value) else { return nil }
        let padded = field.format(text, selection: caret.map { $0..<$0 })
        guard padded.text != text, checks.isViable(padded.value) else { return nil }
        return checked(padded)
    }

    /// Applies one edit a person made to a field whose text is `text`.
    ///
    /// The edit's range is in characters of `text`. A refused edit (nothing fits, or the value
    /// would fail `regex`) leaves `text` and the selection as they were, with the refusal in
    /// `rejected`.
    /// - Parameter text: the field's text before the edit (normally formatted by this mask).
    public func apply(_ edit: FieldEdit, to text: String) -> FieldResult {
        if let notation = rightToLeftNotation { return applyRightToLeft(edit, to: text, notation: notation) }
        return applyReversed(edit, to: text)
    }

    /// Applies `edit` reading from the text's start: to the text as it stands, or to a right-to-left field's
    /// text reversed (`edit` mirrored).
    func applyReversed(_ edit: FieldEdit, to text: String) -> FieldResult {
        if case .custom(let field) = kind { return field.apply(edit, to: text) }
        if case .number(let field) = kind {
            let r = field.apply(edit, to: text)
            guard checks.isViable(r.value) else {
                let count = text.count
                let lower = min(max(edit.range.lowerBound, 0), count)
                var kept = field.format(text, selection: nil)
                kept.text = text
                let range = lower..<min(max(edit.range.upperBound, lower), count)
                if edit.text.isEmpty {
                    let caret = Self.caretBefore(edit, range)
                    kept.selection = caret..<caret
                } else {
                    kept.selection = range
                }
                kept.rejected = edit.text
                kept.overflow = ""
                return checked(kept)
            }
            return checked(r)
        }
        if asciiLiterals, let units = UInt8.units(of: text), let inserted = UInt8.units(of: edit.text) {
            var reading = FreshReading(units: units)
            return apply(edit, inserted: inserted, text: text, reading: &reading)
        }
        var reading = FreshReading(units: Array(text))
        return apply(edit, inserted: Array(edit.text), text: text, reading: &reading)
    }

    /// `apply(edit, to: text)` for a `MaskField`, reading `text` by resuming `reading`, the reading of the text
    /// of the edit before (on the byte path, for one program at a time: not `oneOf`, number or custom).
    func apply(_ edit: FieldEdit, to text: String, resuming reading: inout IncrementalReading?) -> FieldResult {
        switch kind {
        case .slots, .dynamic:
            // A right-to-left field reads its text reversed: nothing is resumed.
            guard asciiLiterals, rightToLeftNotation == nil else { break }
            // Through optional chaining, in place: comparing `reading` with nil copies the reading, arrays and all.
            if !(reading?.take(text) ?? false) { reading = IncrementalReading(text) }
            guard let inserted = reading?.units(inserted: edit.text) else { break }
            return apply(edit, inserted: inserted, text: text, reading: &reading!)
        case .oneOf, .number, .custom: break
        }
        reading = nil
        return apply(edit, to: text)
    }

    /// The reading a `MaskField` resumes for `text` (on the byte path, for one program at a time), or nil.
    func reading(of text: String) -> IncrementalReading? {
        switch kind {
        case .slots, .dynamic:
            guard asciiLiterals, rightToLeftNotation == nil, var reading = IncrementalReading(text),
                let (program, _) = singleCandidate(for: reading.units)
            else { return nil }
            reading.read(with: program)
            return reading
        case .oneOf, .number, .custom: return nil
        }
    }

    /// Re-flows a field formatted by `previous` into this mask (a mask change mid-input).
    ///
    /// The entered characters are placed into this mask's slots in order; what no longer fits
    /// is cut into `overflow`. The caret keeps its count of entered characters to its left.
    /// - Parameter caret: the caret in `text`; nil means the end.
    public func reflow(_ text: String, from previous: Mask, caret: Int? = nil) -> FieldResult {
        let (raw, k) = previous.entered(text, caret: min(caret ?? text.count, text.count))
        if let notation = rightToLeftNotation {
            // The reversed program takes the entered characters from the end; the caret keeps its count to its left.
            let r = reflow(entered: raw.reversed(), before: raw.count - k)
            var m = RightToLeft.mirrored(r, notation: notation)
            // What was cut went from the start: the caret keeps its count of entered characters to its right.
            let kept = enteredRightToLeft(m.text, caret: 0).raw.count
            let caret = offset(afterEntered: max(0, kept - (raw.count - k)), in: m.text)
            m.selection = caret..<caret
            return m
        }
        return reflow(entered: raw, before: k)
    }

    /// `reflow` of the entered characters `raw`, `k` of them before the caret.
    private func reflow(entered raw: [Character], before k: Int) -> FieldResult {
        if case .custom(let field) = kind { return field.format(String(raw), selection: k..<k) }
        if case .number(let field) = kind {
            var r = field.format(String(raw), selection: k..<k)
            if !checks.isViable(r.value) { r = field.format("", selection: nil) }
            return checked(r)
        }
        var best: (program: Program, outcome: Program.EditOutcome<Character>, brand: String?)? = nil
        for (program, brand) in candidates(forEntered: raw) {
            var outcome = program.replay(before: raw[0..<k], inserted: nil, after: raw[k...])
            if !checks.isViable(program.value(of: outcome.layout)) {
                let trimmed = trimToViable(program, outcome.layout)
                outcome.layout = trimmed.layout
                outcome.cuts.cut(trimmed.cut)
                outcome.caret = program.caretForDeletion(min(k, trimmed.layout.cells.count), trimmed.layout)
            }
            if let current = best, !better(program, outcome.layout, than: current.program, current.outcome.layout) {
                continue
            }
            best = (program, outcome, brand)
        }
        let (program, outcome, brand) = best!
        let caretOffset = min(
            outcome.caret, outcome.layout.cells.count + program.literalsBefore[program.limit(of: outcome.layout)])
        return result(
            program, outcome.layout, text: program.text(of: outcome.layout), selection: caretOffset..<caretOffset,
            rejected: "", overflow: outcome.cuts.sorted().overflow, brand: brand)
    }

    // MARK: - The slot path, over bytes or characters

    /// `apply` forced onto the `Character` path, so tests can compare it with the byte path.
    func _applyAsCharacters(_ edit: FieldEdit, to text: String) -> FieldResult {
        var reading = FreshReading(units: Array(text))
        return apply(edit, inserted: Array(edit.text), text: text, reading: &reading)
    }

    private func format<U: FieldUnit>(_ chars: [U], selection: Range<Int>?, skipping: Bool = true) -> FieldResult {
        let selection = clamp(selection ?? chars.count..<chars.count, chars.count)
        // A selection at the text's end goes to the formatted text's end, with no character's place to carry it.
        let carets = selection.lowerBound < chars.count
        var arrays = CellArrays<U>()
        return withReadingKept(chars, carets: carets, skipping: skipping, arrays: &arrays) {
            program, brand, d, layout, cut in
            written(program, brand: brand, d, layout, cut: cut, selection: selection)
        }
    }

    /// `formatted(text)` over units: the reading kept, with no carets.
    private func formatted<U: FieldUnit>(_ chars: [U]) -> FormattedText {
        var arrays = CellArrays<U>()
        var utf8: [UInt8] = []
        return withReadingKept(chars, carets: false, skipping: true, arrays: &arrays) { program, brand, _, layout, _ in
            FormattedText(text: program.text(of: layout), verdict: verdict(program, layout, brand: brand, utf8: &utf8))
        }
    }

    /// The verdict on a reading kept, its value written only for the checks that read it.
    /// - Parameter utf8: where the value's UTF-8 bytes are written for the checks that read them.
    private func verdict<U: FieldUnit>(_ program: Program, _ layout: Layout<U>, brand: String?, utf8: inout [UInt8])
        -> FormattedText.Verdict
    {
        var value = U.deferredValue(program, layout.cells, limit: program.limit(of: layout))
        let (missing, problems) = missingAndProblems(program, layout, brand: brand, value: &value, utf8: &utf8)
        return FormattedText.Verdict(complete: missing == 0, problems: problems)
    }

    /// Reads `chars` with the program that reads it best, and hands `body` that reading: the program, its brand,
    /// the decomposition, its layout settled, and what the `regex` option cut of it.
    /// - Parameters:
    ///   - skipping: skip the `oneOf` alternatives whose `ReadingBound` says they cannot win (false: tests).
    ///   - arrays: the arrays the readings' cells go into; each is given back once its reading is dropped.
    @inline(__always)
    private func withReadingKept<U: FieldUnit, R>(
        _ chars: [U], carets: Bool, skipping: Bool, arrays: inout CellArrays<U>,
        _ body: (Program, String?, Program.Decomposition<U>, Layout<U>, String) -> R
    ) -> R {
        // One program (a slot mask's, or the one a dynamic mask picks) has nothing to choose between.
        // The reading kept is held in plain variables: a generic struct or tuple holding it was made and destroyed
        // through runtime metadata on every call.
        if let (program, brand) = singleCandidate(for: chars) {
            let d = program.decompose(chars, carets: carets, tracing: false, into: arrays.take())
            let (layout, cut) = settled(d.layout, program)
            defer { arrays.give(layout.cells) }
            return body(program, brand, d, layout, cut)
        }
        guard case .oneOf(let programs) = kind else { preconditionFailure("only slot masks are read whole") }
        // Only a run of `RefusedRuns.shortest` characters is kept for the other alternatives.
        let runs = chars.count >= RefusedRuns.shortest ? RefusedRuns() : nil
        // The alternative that may hold the most cells is read first: the rest then rarely beat its reading by
        // their bounds (a `oneOf` of one layout per length reads one layout, not one per length up to the text's).
        // The winner does not depend on the order: ties go to the earlier alternative, whenever it is read.
        let first = skipping ? Self.mostCellsFirst(programs, reading: chars.count) : 0
        var best = -1
        var bestD = Program.Decomposition<U>(layout: Layout())
        var bestLayout = Layout<U>()
        var bestCut = ""
        var bestReproduces = false
        for step in programs.indices {
            // `first`, then the others in their order.
            let i = step == 0 ? first : step <= first ? step - 1 : step
            let program = programs[i]
            if skipping, best >= 0,
                !mayBeat(programs[best], bestLayout, bestReproduces, program, chars, earlier: i < best)
            {
                continue
            }
            let d = program.decompose(chars, carets: carets, runs: runs, tracing: false, into: arrays.take())
            let (layout, cut) = settled(d.layout, program)
            // An alternative that gives the text back unchanged formatted it, and keeps it: another
            // may read more of its literals as entered characters. This keeps formatting idempotent.
            let reproduces = chars.isEmpty || program.renders(layout, as: chars)
            if best >= 0 {
                let wins =
                    reproduces != bestReproduces
                    ? reproduces : better(program, layout, than: programs[best], bestLayout, preferFirst: i < best)
                guard wins else {
                    arrays.give(layout.cells)
                    continue
                }
                arrays.give(bestLayout.cells)
            }
            (best, bestD, bestLayout, bestCut, bestReproduces) = (i, d, layout, cut, reproduces)
        }
        defer { arrays.give(bestLayout.cells) }
        return body(programs[best], nil, bestD, bestLayout, bestCut)
    }

    /// A reading's layout settled, and cut to what the `regex` option can accept: a value it can never accept keeps
    /// only its longest viable start (`cut` is the rest).
    private func settled<U: FieldUnit>(_ read: Layout<U>, _ program: Program) -> (layout: Layout<U>, cut: String) {
        var layout = read
        program.settle(&layout)
        // (The value is written only for a `regex` option to check.)
        guard let viable = checks.viable, !viable(program.value(of: layout)) else { return (layout, "") }
        return trimToViable(program, layout)
    }

    /// The result of the reading kept, `selection` carried into its text.
    private func written<U: FieldUnit>(
        _ program: Program, brand: String?, _ d: Program.Decomposition<U>, _ layout: Layout<U>, cut: String,
        selection: Range<Int>
    ) -> FieldResult {
        // Only the decomposition kept sorts the rest of the text, however many programs read it.
        var cuts = d.cuts
        cuts.cut(cut)
        let (rejected, overflow) = cuts.sorted()
        let length = layout.cells.count + program.literalsBefore[program.limit(of: layout)]
        let lower = program.carriedOffset(selection.lowerBound, through: d, textLength: length)
        let upper = program.carriedOffset(selection.upperBound, through: d, textLength: length)
        let carried = min(lower, length)..<min(max(upper, lower), length)
        return result(
            program, layout, text: program.text(of: layout), selection: carried, rejected: rejected,
            overflow: overflow, brand: brand)
    }

    /// - Parameter reading: the text's units and how to read them (a `MaskField` resumes its `IncrementalReading`).
    private func apply<R: FieldReading>(_ edit: FieldEdit, inserted: [R.Unit], text: String, reading: inout R)
        -> FieldResult
    {
        typealias U = R.Unit
        let count = reading.units.count
        let range = clamp(edit.range, count)
        // Only `oneOf` has several candidates; the others skip building a list.
        let single = singleCandidate(for: reading.units, select: { reading.program(of: $0, forPrefix: $1) })
        let candidates = single == nil ? candidates(for: reading.units) : []
        let current = single == nil ? bestProgram(candidates.map(\.0), for: reading.units) : 0
        let (program, currentBrand) = single ?? candidates[current]
        // The alternatives of a `oneOf` read the inserted text once between them where they refuse it alike.
        let runs = candidates.count > 1 ? RefusedRuns() : nil
        var outcome = reading.edit(edit, inserted: inserted, with: program, replayable: !isSingleProgram, runs: runs)
        var chosen = (program: program, brand: currentBrand)
        // A deletion with nothing to delete changes nothing, in any alternative.
        if candidates.count > 1, !(outcome.refused && outcome.inserted == nil) {
            let exact = outcome
            for (i, other) in candidates.enumerated() where i != current {
                let replayed = other.0.replay(
                    before: exact.before.lazy.map { $0.char }, inserted: exact.inserted,
                    after: exact.after.lazy.map { $0.char }, runs: runs)
                if replayed.refused { continue }
                if outcome.refused
                    || better(other.0, replayed.layout, than: chosen.program, outcome.layout, preferFirst: i < current)
                {
                    chosen = (other.0, other.1)
                    outcome = replayed
                }
            }
        }
        if case .dynamic(let dynamic) = kind, !outcome.refused {
            // The entered characters may now call for another program (the brand changed).
            let (next, brand) = reading.program(
                of: dynamic, forPrefix: U.alnumPrefix(outcome.layout.cells.lazy.map { $0.char }))
            if next !== chosen.program {
                // The edit is replayed in the new program from every entered character (those before
                // it, the inserted text, those after it), not from the cells the old program kept: a
                // longer brand takes what the shorter one cut. What the new program cuts is then the
                // whole overflow, in text order, and the caret keeps its count of characters to its left.
                outcome = next.replay(
                    before: outcome.before.lazy.map { $0.char }, inserted: outcome.inserted,
                    after: outcome.after.lazy.map { $0.char })
                chosen.program = next
            }
            chosen.brand = brand
        }
        // The value is written here only for a `regex` option to check; otherwise when it is read.
        let value = checks.viable == nil || outcome.refused ? nil : chosen.program.value(of: outcome.layout)
        if outcome.refused || !checks.isViable(value ?? "") {
            var unchanged = reading.layout
            program.settle(&unchanged)
            // Refused by the mask, it reports its own cuts; refused by the `regex`, the whole edit's text.
            let cuts = outcome.refused ? outcome.cuts.sorted() : (rejected: edit.text, overflow: "")
            // A refused insertion leaves the selection as it was (the one sent with the edit, else the
            // edit's range); a deletion that changes nothing leaves a collapsed caret: where the deletion
            // rule puts it when there was nothing to delete, else (the `regex` refused it) where the key
            // was pressed.
            var selection = edit.selection.map { clamp($0, count) } ?? range
            if inserted.isEmpty {
                let caret = outcome.refused ? min(outcome.caret, count) : Self.caretBefore(edit, range)
                selection = caret..<caret
            }
            return result(
                program, unchanged, text: text, selection: selection,
                rejected: cuts.rejected, overflow: cuts.overflow,
                brand: currentBrand)
        }
        let length =
            outcome.layout.cells.count + chosen.program.literalsBefore[chosen.program.limit(of: outcome.layout)]
        let caret = min(outcome.caret, length)
        let cuts = outcome.cuts.isEmpty ? (rejected: "", overflow: "") : outcome.cuts.sorted()
        let edited = reading.took(chosen.program, outcome.layout)
        return result(
            chosen.program, outcome.layout, text: edited, value: value,
            selection: caret..<caret, rejected: cuts.rejected, overflow: cuts.overflow, brand: chosen.brand)
    }

    // MARK: - Choosing among programs

    /// The programs that may format `chars`, with the brand each stands for: every `oneOf`
    /// alternative, or the one a dynamic mask picks for the text's first letters and digits.
    func candidates<U: FieldUnit>(for chars: [U]) -> [(Program, String?)] {
        if case .slots(let program) = kind { return [(program, nil)] }
        switch kind {
        case .slots(let program): return [(program, nil)]
        case .oneOf(let programs): return programs.map { ($0, nil) }
        case .dynamic(let dynamic):
            let chosen = dynamic.program(forPrefix: U.alnumPrefix(chars))
            return [chosen]
        case .number, .custom: return []
        }
    }

    /// The one program of a mask that is not `oneOf`, chosen for `chars`; nil for `oneOf`.
    /// - Parameter select: a dynamic mask's program for a prefix (a `MaskField` remembers the last one).
    @inline(__always)
    private func singleCandidate<U: FieldUnit>(
        for chars: [U],
        select: (DynamicProgram, AlnumPrefix) -> (Program, brand: String?) = { $0.program(forPrefix: $1) }
    ) -> (Program, String?)? {
        switch kind {
        case .slots(let program): return (program, nil)
        case .dynamic(let dynamic): return select(dynamic, U.alnumPrefix(chars))
        case .oneOf, .number, .custom: return nil
        }
    }

    /// The candidates for a field holding exactly the entered characters `raw`.
    private func candidates(forEntered raw: [Character]) -> [(Program, String?)] { candidates(for: raw) }

    /// The programs a text may be read with (for tests and tools).
    func programs(for chars: [Character]) -> [Program] { candidates(for: chars).map(\.0) }

    /// The entered characters of a field's text and how many stand before `caret`.
    func entered(_ text: String, caret: Int) -> (raw: [Character], before: Int) {
        if rightToLeftNotation != nil { return enteredRightToLeft(text, caret: caret) }
        return enteredReversed(text, caret: caret)
    }

    /// `entered` reading from the text's start (a right-to-left field's text reversed).
    func enteredReversed(_ text: String, caret: Int) -> (raw: [Character], before: Int) {
        if case .custom(let field) = kind { return field.entered(text, caret: caret) }
        let chars = Array(text)
        if case .number = kind {
            let keep: (Character) -> Bool = { $0.isNumber || $0 == "." || $0 == "-" }
            return (chars.filter(keep), chars[0..<caret].filter(keep).count)
        }
        let programs = programs(for: chars)
        let d = programs[bestProgram(programs, for: chars)].decompose(chars)
        return (d.layout.cells.map { $0.char }, d.cellCount(before: caret))
    }

    /// The program that reads `chars` best: the one the text was most likely formatted with.
    /// - Parameter skipping: skip the programs whose `ReadingBound` says they cannot read it better (false: tests).
    func bestProgram<U: FieldUnit>(_ programs: [Program], for chars: [U], skipping: Bool = true) -> Int {
        if programs.count == 1 { return 0 }
        var best = 0
        var bestLayout = Layout<U>()
        var bestReproduces = false
        let runs = RefusedRuns()
        for (i, program) in programs.enumerated() {
            if skipping, i > 0, !mayBeat(programs[best], bestLayout, bestReproduces, program, chars) { continue }
            var layout = program.decompose(chars, runs: runs, tracing: false).layout
            program.settle(&layout)
            // The program that renders the text exactly is the one it was formatted with, even if
            // another would read more of its literals as entered characters.
            let reproduces = chars.isEmpty || program.renders(layout, as: chars)
            if i == 0 || (reproduces && !bestReproduces)
                || (reproduces == bestReproduces && better(program, layout, than: programs[best], bestLayout))
            {
                best = i
                bestLayout = layout
                bestReproduces = reproduces
            }
        }
        return best
    }

    /// `oneOf`'s rule: more entered characters kept wins, then complete over incomplete; on a
    /// full tie the earlier program (the incumbent unless `preferFirst`) stays.
    private func better<U>(
        _ a: Program, _ la: Layout<U>, than b: Program, _ lb: Layout<U>,
        preferFirst: Bool = false
    ) -> Bool {
        if la.cells.count != lb.cells.count { return la.cells.count > lb.cells.count }
        let ca = a.missing(in: la) == 0, cb = b.missing(in: lb) == 0
        if ca != cb { return ca }
        return preferFirst
    }

    /// Whether reading `chars` with `candidate` may beat the best reading so far (`layout`, read by `program`) by
    /// `format`'s rule (a reading that renders the text, then `better`), as far as `ReadingBound` tells without
    /// reading. On a full tie the earlier program wins.
    /// - Parameter earlier: the candidate comes before the best reading's program (else after it).
    private func mayBeat<U: FieldUnit>(
        _ program: Program, _ layout: Layout<U>, _ reproduces: Bool, _ candidate: Program, _ chars: [U],
        earlier: Bool = false
    ) -> Bool {
        let bound = candidate.readingBound
        let mayReproduce = bound.mayRender(chars)
        if mayReproduce != reproduces { return mayReproduce }
        let cells = layout.cells.count, most = bound.mostCells(reading: chars.count)
        if most != cells { return most > cells }
        return earlier || program.missing(in: layout) != 0
    }

    /// The first of `programs` whose bound holds the most cells of a text of `count` units.
    private static func mostCellsFirst(_ programs: [Program], reading count: Int) -> Int {
        var first = 0, most = -1
        for (i, program) in programs.enumerated() {
            let cells = program.readingBound.mostCells(reading: count)
            if cells > most { (first, most) = (i, cells) }
        }
        return first
    }

    /// Cuts entered characters from the end until the `regex` option can still accept the value.
    ///
    /// Viability is closed under prefixes, so a binary search over the number of cells kept
    /// finds the longest viable start with O(log n) regex runs.
    private func trimToViable<U>(_ program: Program, _ layout: Layout<U>) -> (layout: Layout<U>, cut: String) {
        func kept(_ n: Int) -> Layout<U> {
            var trimmed = Layout(cells: Array(layout.cells.prefix(n)), end: 0)
            program.settle(&trimmed)
            return trimmed
        }
        var low = 0, high = layout.cells.count  // kept(low) is viable (or low == 0); kept(high) is not
        while low + 1 < high {
            let mid = (low + high) / 2
            if checks.isViable(program.value(of: kept(mid))) { low = mid } else { high = mid }
        }
        let cut = String(layout.cells[low...].map { $0.char.character })
        return (kept(low), cut)
    }

    /// Where the caret stood for a deletion over `range`: after it for a backspace, before it for
    /// a forward delete.
    private static func caretBefore(_ edit: FieldEdit, _ range: Range<Int>) -> Int {
        edit.direction == .forward ? range.lowerBound : range.upperBound
    }

    private func clamp(_ range: Range<Int>, _ count: Int) -> Range<Int> {
        let lower = min(max(range.lowerBound, 0), count)
        return lower..<min(max(range.upperBound, lower), count)
    }

    // MARK: - Results

    /// - Parameter known: the layout's value when it was written already; else it is written when read, but for a
    ///   complete field with validators, which check it now.
    @inline(never)
    private func result<U>(
        _ program: Program, _ layout: Layout<U>, text: String, value known: String? = nil,
        selection: Range<Int>, rejected: String, overflow: String, brand: String?
    ) -> FieldResult {
        let tail = program.tail(of: layout)
        var value =
            known.map { DeferredValue.string($0) }
            ?? U.deferredValue(program, layout.cells, limit: program.limit(of: layout))
        var utf8: [UInt8] = []
        let (_, problems) = missingAndProblems(program, layout, brand: brand, value: &value, utf8: &utf8)
        return FieldResult(
            text: text, selection: selection, complete: tail.missing == 0, valid: problems.isEmpty, problems: problems,
            next: tail.next, placeholder: tail.placeholder, mask: program.notation, brand: brand, rejected: rejected,
            overflow: overflow, region: nil, phoneType: nil, deferredValue: value)
    }

    /// How many required slots and `{}` literals a layout still lacks, and its problems: what is missing, or a
    /// complete field's own.
    /// - Parameter utf8: where the value's UTF-8 bytes are written for the checks that read them (`ValueChecks`).
    private func missingAndProblems<U>(
        _ program: Program, _ layout: Layout<U>, brand: String?, value: inout DeferredValue, utf8: inout [UInt8]
    ) -> (missing: Int, problems: [String]) {
        let missing = program.missingCount(of: layout)
        if missing > 0 { return (missing, program.missingProblem(missing)) }
        return (0, problemsOfComplete(program, layout, brand: brand, value: &value, utf8: &utf8))
    }

    /// A complete field's problems: its blocks', the card brand's, the validators' (which read the value: it is
    /// written now, and kept written where a check reads it as text).
    private func problemsOfComplete<U>(
        _ program: Program, _ layout: Layout<U>, brand: String?,
        value: inout DeferredValue, utf8: inout [UInt8]
    ) -> [String] {
        // Most lists are empty: one is taken as it is, and only a second one is appended.
        var problems = program.blockProblems(layout)
        if case .dynamic(let dynamic) = kind {
            let more = dynamic.problems(U.alnumPrefix(layout.cells.lazy.map { $0.char }), layout.cells.count, brand)
            if problems.isEmpty { problems = more } else { problems += more }
        }
        if checks.onlyLuhn, program.extractsNoLiterals,
            let sum = Checks.luhnSum(asciiDigits: layout.cells.lazy.map { $0.char.asciiByte ?? 0 })
        {
            // The value is the cells' characters, all digits: Luhn's sum is taken over them, and the value stays unwritten.
            if sum % 10 != 0 { problems.append(Checks.luhnMismatch) }
        } else if !checks.validators.isEmpty {
            let more = checks.problems(of: &value, utf8: &utf8)
            if problems.isEmpty { problems = more } else { problems += more }
        }
        return problems
    }

    /// A number field's result with the mask's `regex` and validators applied.
    private func checked(_ r: FieldResult) -> FieldResult {
        guard r.complete, !checks.validators.isEmpty else { return r }
        var r = r
        r.problems += checks.problems(r.value)
        r.valid = r.problems.isEmpty
        return r
    }
}

/// A field's text as `Mask.apply` reads it: its units, read with a program, and the programs a dynamic mask
/// chooses. `FreshReading` reads the text anew; a `MaskField`'s `IncrementalReading` resumes its reading of the
/// text before and holds what the edit made for the next.
protocol FieldReading {
    associatedtype Unit: FieldUnit
    /// The field's text.
    var units: [Unit] { get }
    /// Reads the text with `program` and applies `edit` to the reading (an incremental reading lends its spare cells);
    /// `runs` are the runs of `inserted` other programs refused.
    mutating func edit(
        _ edit: FieldEdit, inserted: [Unit], with program: Program, replayable: Bool, runs: RefusedRuns?
    ) -> Program.EditOutcome<Unit>
    /// What the text read back to, for an edit that changes nothing.
    var layout: Layout<Unit> { get }
    /// `dynamic.program(forPrefix: prefix)`.
    mutating func program(of dynamic: DynamicProgram, forPrefix prefix: AlnumPrefix) -> (Program, brand: String?)
    /// The text of the edit's `layout`, rendered with `program`; it is the field's text now.
    mutating func took(_ program: Program, _ layout: Layout<Unit>) -> String
}

/// The stateless reading: the text read anew with every edit.
struct FreshReading<Unit: FieldUnit>: FieldReading {
    let units: [Unit]
    private(set) var layout = Layout<Unit>()

    mutating func edit(
        _ edit: FieldEdit, inserted: [Unit], with program: Program, replayable: Bool, runs: RefusedRuns?
    ) -> Program.EditOutcome<Unit> {
        let d = program.decompose(units)
        layout = d.layout
        return program.edit(
            edit, inserted: inserted, chars: units, decomposition: d, replayable: replayable, runs: runs)
    }

    func program(of dynamic: DynamicProgram, forPrefix prefix: AlnumPrefix) -> (Program, brand: String?) {
        dynamic.program(forPrefix: prefix)
    }

    func took(_ program: Program, _ layout: Layout<Unit>) -> String { program.text(of: layout) }
}

/// The value checks a mask's options add: `regex` and `validate`.
package struct ValueChecks: @unchecked Sendable {
    /// Whether the value can still become acceptable (nil: always).
    package var viable: ((String) -> Bool)? = nil
    /// Problems with a complete value, as sentences, in order.
    package var validators: [Validation] = []
    /// The one check is `Validator.luhn` (the `card` preset's), which a field of digits can take over its cells.
    package var onlyLuhn = false

    /// A check of a complete value: nil when it passes, else its problem. It reads the value as text, or as its
    /// UTF-8 bytes, which a field on the byte path writes without making a string (an identifier's checks).
    package enum Validation {
        case text((String) -> String?)
        case utf8(([UInt8]) -> String?)
    }

    func isViable(_ value: String) -> Bool { viable?(value) ?? true }

    func problems(_ value: String) -> [String] {
        var value = DeferredValue.string(value)
        var utf8: [UInt8] = []
        return problems(of: &value, utf8: &utf8)
    }

    /// The problems of a complete value, written only in the forms the checks read; a value written as text stays
    /// written in `value`.
    /// - Parameter utf8: where the value's UTF-8 bytes are written when a check reads them (its room is kept: a
    ///   caller checking many values lends the same array to each).
    func problems(of value: inout DeferredValue, utf8: inout [UInt8]) -> [String] {
        var wroteUTF8 = false
        var problems: [String] = []
        for validation in validators {
            let problem: String?
            switch validation {
            case .text(let check):
                let text = value.string
                value = .string(text)
                problem = check(text)
            case .utf8(let check):
                if !wroteUTF8 {
                    utf8.removeAll(keepingCapacity: true)
                    value.appendUTF8(to: &utf8)
                    wroteUTF8 = true
                }
                problem = check(utf8)
            }
            if let problem { problems.append(problem) }
        }
        return problems
    }
}
