// maskd: code actions: "Format as <preset>" on a selection, "Close maskd field" in a field.
import JSON
import MaskCatalog
import MaskEngine

/// A preset that fits a selected text, and how well (`Server.rankPresets`).
struct PresetFit: Hashable, Sendable {
    var name: String
    /// The `region` of a `postal` fit.
    var region: String? = nil
    /// The selection read into the preset.
    var result: FieldResult
    /// Letters and digits of the selection that the value keeps.
    var kept: Int
    /// Characters dropped (`rejected`) or cut (`overflow`).
    var dropped: Int
}

extension Server {
    /// The code action kinds the daemon offers (`codeActionProvider.codeActionKinds`).
    static let codeActionKinds = ["refactor", "refactor.rewrite"]
    /// The commands `workspace/executeCommand` carries out (`executeCommandProvider.commands`).
    static let commands = [OpenFieldCommand.name, CloseFieldCommand.name]

    /// Every preset compiled once, in the order of `Presets.names`, with the counts of letters and digits an
    /// identifier's whole number holds (nil for the other presets).
    static let presetMasks: [(name: String, mask: Mask, identifierCounts: ClosedRange<Int>?)] = Presets.names.compactMap
    { name in
        (try? Mask.compile(MaskSpec(.preset(name)))).map { (name, $0, IdentifierCatalog.letterAndDigitCounts(name)) }
    }

    /// The code actions for a range of `uri`.
    ///
    /// - On a one-line selection that overlaps no field, leading and trailing white space left out:
    ///   "Format as <preset>" (kind `refactor.rewrite`) for each preset that fits the selected text,
    ///   best first (`rankPresets`), the first marked preferred; each runs `maskd.openField`.
    /// - When the range lies inside or at the edge of a field: "Close maskd field" (kind
    ///   `refactor`), which runs `maskd.closeField`.
    /// - Parameter only: `context.only`: a kind is kept when it is one of them or below one
    ///   (`refactor` keeps `refactor.rewrite`).
    /// - Returns: `CodeAction[]`, or `Command[]` for a client without `codeActionLiteralSupport`.
    /// - Throws: `-32602` for a document that is not open or a range outside it.
    func codeActions(uri: String, range: TextRange, only: [String]?) throws -> JSONValue {
        let document = try document(uri)
        let start: ScalarPosition
        var end: ScalarPosition
        switch document.scalarRange(range) {
        case .failure(let problem): throw MessageError.invalidParams("params.range: \(problem.reason)")
        case .success(let (s, e)): (start, end) = (s, e)
        }
        // A whole line selected, (L,0)-(L+1,0) as VS Code sends it, is that line: its break is no text of a field.
        if end.line == start.line + 1, end.column == 0 {
            end = ScalarPosition(line: start.line, column: document.lines.length(ofLine: start.line))
        }
        var actions: [(title: String, kind: String, command: JSONValue, arguments: JSONValue)] = []
        if start.line == end.line {
            // The selection and the fields touching it, not the whole line.
            let fields = document.fields(touching: start.line, from: start.column, to: end.column)
            let scalars = Array(
                document.lines.slice(line: start.line, from: start.column, to: end.column).unicodeScalars)
            var s = 0, e = scalars.count
            while s < e, scalars[s].properties.isWhitespace { s += 1 }
            while e > s, scalars[e - 1].properties.isWhitespace { e -= 1 }
            let (from, to) = (start.column + s, start.column + e)
            if s < e, !fields.contains(where: { $0.start < to && from < $0.end }) {
                let selected = String(String.UnicodeScalarView(scalars[s..<e]))
                let fieldRange = TextRange(
                    start: document.position(ScalarPosition(line: start.line, column: from)),
                    end: document.position(ScalarPosition(line: start.line, column: to)))
                for fit in Server.rankPresets(selected, region: client.region) {
                    var mask: JSONValue = ["preset": .string(fit.name)]
                    var title = "Format as \(fit.name)"
                    if let region = fit.region {
                        mask = ["preset": .string(fit.name), "region": .string(region)]
                        title = "Format as postal code (\(region))"
                    }
                    let arguments: JSONValue = [
                        [
                            "textDocument": ["uri": .string(uri), "version": .from(document.version)],
                            "range": .from(fieldRange),
                            "mask": mask,
                        ]
                    ]
                    actions.append((title, "refactor.rewrite", .string(OpenFieldCommand.name), arguments))
                }
            }
            if let span = fields.first(where: { $0.start <= start.column && end.column <= $0.end }) {
                let arguments: JSONValue = [
                    [
                        "textDocument": ["uri": .string(uri), "version": .from(document.version)],
                        "field": .string(span.id),
                    ]
                ]
                // The title names a typing mode the field is in, so the person sees why keys replace or fill from the right.
                let modes = document.sessions[span.id].flatMap { Server.modeSummary($0.spec) }
                let title = modes.map { "Close maskd field (\($0))" } ?? "Close maskd field"
                actions.append((title, "refactor", .string(CloseFieldCommand.name), arguments))
            }
        }
        if let only {
            actions.removeAll { action in !only.contains { action.kind == $0 || action.kind.hasPrefix($0 + ".") } }
        }
        var preferred = true
        return .array(
            actions.map { action in
                let command: JSONValue = [
                    "title": .string(action.title), "command": action.command,
                    "arguments": action.arguments,
                ]
                guard client.codeActionLiterals else { return command }
                var members: [(String, JSONValue)] = [("title", .string(action.title)), ("kind", .string(action.kind))]
                if preferred && action.kind == "refactor.rewrite" {
                    members.append(("isPreferred", true))
                    preferred = false
                }
                members.append(("command", command))
                return .object(JSONObject(members))
            })
    }

    /// The presets that fit `text`, best first.
    ///
    /// Each preset reads `text` as opening a field over it would. A preset fits when its value keeps
    /// at least half of the text's letters and digits (and at least one) and drops none of them (opening it
    /// would otherwise be refused). They rank by: more letters
    /// and digits kept; then `amount` last, since it takes any digits; then complete and valid
    /// first; then fewer characters dropped or cut (`rejected` plus `overflow`); then the order of
    /// `Presets.names`. An identifier preset fits only a text it takes whole and valid, never when it checks
    /// nothing but its shape, and
    /// ranks after a built-in preset that keeps as many letters and digits. `phone` fits only a text starting with `+`. So a mistyped card number still offers "card" first (its diagnostics say
    /// what is wrong once opened), and no preset that cuts digits beats one that keeps them all.
    ///
    /// `postal` is offered once for each region one of whose codes the text is, whole and as written: for every
    /// such region when they are at most `postalRegionsOffered` and the text has a letter or a separator (a code
    /// that tells its region: `SW1A 1AA`, `K1A 0B1`, `40301-110`), else only for `region` (the client's, from its
    /// locale or `initializationOptions.region`) when it is one of them (`12345` is a code of dozens of regions:
    /// offered as DE's to a client in `de-DE`).
    static func rankPresets(_ text: String, region: String? = nil) -> [PresetFit] {
        let wanted = text.unicodeScalars.filter(isLetterOrDigit).count
        guard wanted > 0 else { return [] }
        var fits: [(fit: PresetFit, order: Int)] = []
        // `phone` takes any digits as an international number: it is offered for one written with its `+`.
        let international = text.first == "+" || text.first == "\u{FF0B}"
        for (order, preset) in presetMasks.enumerated() where preset.name != "phone" || international {
            // An identifier fits only a selection it takes whole: one of another length is not tried (hundreds
            // of them would each read the text).
            if let counts = preset.identifierCounts, !counts.contains(wanted) { continue }
            // One that checks nothing but its shape (`de.wkn`: any six letters or digits) would claim any such text.
            if preset.identifierCounts != nil, !IdentifierCatalog.checksMoreThanShape(preset.name) { continue }
            let result = preset.mask.format(text)
            // Zeros a preset pads in by itself (`40301-` read as a date's `4030-01-`) are not the person's: a
            // preset keeps at most the text's own letters and digits.
            let kept = min(result.value.unicodeScalars.filter(isLetterOrDigit).count, wanted)
            // Opening it would be refused (-32803): it drops some of the person's letters or digits.
            let drops = (result.rejected + result.overflow).unicodeScalars.contains(where: isLetterOrDigit)
            guard kept * 2 >= wanted, !drops else { continue }
            // An identifier is offered only when it takes the selection whole and it checks: complete, valid, keeping
            // every letter and digit (any 20 letters and digits are a LEI's shape; few are one).
            if preset.identifierCounts != nil, !result.valid || kept != wanted { continue }
            fits.append(
                (
                    PresetFit(
                        name: preset.name, result: result, kept: kept,
                        dropped: result.rejected.count + result.overflow.count), order
                ))
        }
        let postalOrder = Presets.names.firstIndex(of: "postal") ?? Presets.names.count
        for code in postalRegions(text, region: region) {
            guard let mask = try? Mask.compile(MaskSpec(.preset("postal"), region: code)) else { continue }
            let result = mask.format(text)
            guard result.valid, result.rejected.isEmpty, result.overflow.isEmpty else { continue }
            let kept = result.value.unicodeScalars.filter(isLetterOrDigit).count
            fits.append((PresetFit(name: "postal", region: code, result: result, kept: kept, dropped: 0), postalOrder))
        }
        // stdnum's postal-code modules read the codes `postal` reads: where `postal` is offered for their region,
        // they would only offer the same code again.
        let postalOffered = Set(fits.compactMap { $0.fit.name == "postal" ? $0.fit.region?.lowercased() : nil })
        fits.removeAll { fit in
            Self.postalIdentifiers.contains(fit.fit.name)
                && postalOffered.contains(String(fit.fit.name.prefix { $0 != "." }))
        }
        fits.sort { a, b in
            let x = a.fit, y = b.fit
            if x.kept != y.kept { return x.kept > y.kept }
            let xFallback = x.name == fallbackPreset, yFallback = y.name == fallbackPreset
            if xFallback != yFallback { return yFallback }
            // The built-in presets come first: an identifier that fits as well is one reading among many (a 16-digit
            // IMEISV has no check digit, and a mistyped card number is still a card).
            let xIdentifier = IdentifierCatalog.summary(x.name) != nil,
                yIdentifier = IdentifierCatalog.summary(y.name) != nil
            if xIdentifier != yIdentifier { return yIdentifier }
            if x.result.valid != y.result.valid { return x.result.valid }
            if x.dropped != y.dropped { return x.dropped < y.dropped }
            return a.order < b.order
        }
        return fits.map(\.fit)
    }

    /// The identifier presets that are a country's postal codes, named after the country's ISO code.
    static let postalIdentifiers: Set<String> = ["at.postleitzahl", "es.postal_code", "nl.postcode", "se.postnummer"]

    /// The most regions a postal code is offered for when the client's region is not among them.
    static let postalRegionsOffered = 3

    /// The regions `postal` is offered for on `text` (see `rankPresets`), the client's `region` first.
    static func postalRegions(_ text: String, region: String?) -> [String] {
        let matching = PostalCodes.regions(matching: text)
        // Digits alone tell no region (`20240229` is a code of BR and LB, and a date): only the client's is offered.
        let tellsItsRegion = matching.count <= postalRegionsOffered && !text.allSatisfy(\.isNumber)
        if let region, matching.contains(region) {
            return [region] + (tellsItsRegion ? matching.filter { $0 != region } : [])
        }
        return tellsItsRegion ? matching : []
    }

    /// The preset that reads any digits, offered after the specific ones.
    static let fallbackPreset = "amount"

    /// A Unicode letter or decimal digit (what `alnum` slots take).
    static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal
    }
}
