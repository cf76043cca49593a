import MaskEngine

/// Formats a phone number one key at a time as libphonenumber's `AsYouTypeFormatter` does,
/// written from its documented behaviour (the `phonenumbers` package's is the reference the
/// conformance vectors are taken from).
///
/// The keys are ASCII digits and a `+` as the first key. In outline:
/// - up to three keys nothing is formatted; at the third the formatter looks for an
///   international prefix (`+`, or the region's, `00` for GB) and then a calling code, or else
///   for a national prefix (`0` in GB, `1` before `[2-9]` in NANPA regions) it sets apart;
/// - the formats of the region in force whose leading-digits patterns match the national number
///   so far (the k-th pattern for k + 3 digits) are candidates; a number that matches a
///   candidate's whole pattern is shown as that format shows it, otherwise the first candidate
///   that can hold the digits gives a template (the format applied to the longest run of 9s its
///   pattern takes) filled digit by digit;
/// - when no candidate is left, or the digits outgrow every template, the keys are shown as typed;
///   a longer national prefix may still be found and formatting start again.
/// The formatter is a value: copying it keeps a typed prefix's state, so a field can resume it.
struct AsYouTypeFormatter: Sendable {
    private static let plus = UInt8(ascii: "+")
    private static let space = UInt8(ascii: " ")
    private static let plusOnly = try! CapturingRegex("\\+")

    /// The region the field reads numbers of, nil for international input only.
    private let defaultRegion: String?
    /// The metadata in force: the default region's calling code's, until a calling code is typed.
    private(set) var metadata: PhoneRegion? {
        didSet { table = Self.table(metadata, international: candidatesAreInternational) }
    }
    /// The text for the keys so far.
    private(set) var output: [UInt8] = []
    /// The length `output` had before the last key, when that key only appended to it (the key went into
    /// the template, as most keys do); nil when the output was made anew.
    private(set) var outputAppendedFrom: Int?
    /// When `output` is the prefix (and its space) then the template up to a place: the prefix's length
    /// with the space, and the place. A key filling a later place then appends the template's bytes after
    /// the old place rather than writing the output anew. Whatever writes the output anew (`clearOutput`)
    /// forgets it.
    private var outputTemplateForm: (head: Int, place: Int)?
    /// The offset just after the last key in `output`, when the last key's formatting read the keys back.
    private(set) var outputAfterLastKey: Int?
    /// Every key so far.
    private(set) var keys: [UInt8] = []
    /// The digits after the international prefix and calling code or the national prefix.
    private(set) var nationalNumber: [UInt8] = []
    /// What is shown before the national number: `+44 `, `0`, `00 44 `.
    private var prefix: [UInt8] = []
    private var extractedNationalPrefix: [UInt8] = []
    private var template: [UInt8] = []
    private var lastMatch = 0
    private var currentPattern: Int?
    /// The candidate whose template is in use (its pattern is `currentPattern`), while the table is the one
    /// it was taken from: a key that leaves it first needs no other template, which is most keys.
    private var templateCandidate: Int?
    /// Indexes of the candidate formats in `table`.
    private var candidates: [Int] = []
    /// Every candidate matched its last leading-digits pattern, which then matches whatever digits
    /// follow: narrowing them again keeps them all.
    private var candidatesSettled = false
    private var candidatesAreInternational = false {
        didSet { table = Self.table(metadata, international: candidatesAreInternational) }
    }
    /// The formats candidates are taken from (the metadata's national or international ones), nil while no
    /// metadata is in force.
    private var table: PhoneRegion.FormatTable? {
        didSet { templateCandidate = nil }
    }
    /// The lengths some candidate's whole pattern may take, as bits (`FormatTable.Traits.wholeLengths`);
    /// nil when the candidates changed since it was taken.
    private var candidatesWholeLengths: UInt64?
    private var ableToFormat = true
    /// An international or national prefix was typed: the number is a whole national number.
    private(set) var isCompleteNumber = false
    private var expectingCallingCode = false
    private var spaceAfterNationalPrefix = false
    /// The calling code typed, once one is.
    private(set) var callingCode: Int?

    init(region: String?) {
        defaultRegion = region
        metadata = region.flatMap(PhoneMetadata.callingCode(of:)).flatMap(PhoneMetadata.mainRegion(forCallingCode:))
        table = Self.table(metadata, international: false)
    }

    private static func table(_ metadata: PhoneRegion?, international: Bool) -> PhoneRegion.FormatTable? {
        guard let metadata else { return nil }
        return international ? metadata.internationalTable : metadata.nationalTable
    }

    /// Reads one key: an ASCII digit, or `+` as the first key.
    mutating func input(_ key: UInt8) {
        if keys.isEmpty {
            // One allocation each for a number's keys, digits and text, rather than one per doubling.
            keys.reserveCapacity(PhoneField.maximumDigits + 1)
            nationalNumber.reserveCapacity(PhoneField.maximumDigits)
            output.reserveCapacity(2 * PhoneField.maximumDigits)
        }
        keys.append(key)
        if key != Self.plus { nationalNumber.append(key) }
        outputAppendedFrom = nil
        outputAfterLastKey = nil
        if !ableToFormat {
            // Formatting may start again once a longer prefix is set apart.
            if extractInternationalPrefix() {
                if extractCallingCode() {
                    chooseWithPrefixExtracted()
                    return
                }
            } else if extractLongerNationalPrefix() {
                prefix.append(Self.space)
                chooseWithPrefixExtracted()
                return
            }
            showKeys()
            return
        }
        if keys.count <= 2 {
            showKeys()
            return
        }
        if keys.count == 3 {
            if extractInternationalPrefix() {
                expectingCallingCode = true
            } else {
                extractedNationalPrefix = removeNationalPrefix()
                chooseFormat()
                return
            }
        }
        if expectingCallingCode {
            if extractCallingCode() { expectingCallingCode = false }
            clearOutput()
            output.append(contentsOf: prefix)
            output.append(contentsOf: nationalNumber)
            return
        }
        guard !candidates.isEmpty else {
            chooseFormat()
            return
        }
        let filled = fillTemplate(with: key)
        if formatWholeNumber() { return }
        narrowCandidates(nationalNumber)
        if makeTemplate() {
            fillTemplateWithNationalNumber()
        } else if ableToFormat {
            // The key went into the template (this is most keys).
            guard case .upTo(let place) = filled else {
                clearOutput()
                appendPrefix()
                output.append(contentsOf: keys)
                return
            }
            let head = prefix.count + (separatesPrefix ? 1 : 0)
            if let form = outputTemplateForm, form.head == head, form.place < place {
                // The output is the head and the template up to the last place: the bytes up to this one follow.
                outputAppendedFrom = output.count
                for offset in (form.place + 1)...place { output.append(template[offset]) }
            } else {
                clearOutput()
                appendPrefix()
                output.append(contentsOf: template[...place])
            }
            outputTemplateForm = (head, place)
        } else {
            showKeys()
        }
    }

    private mutating func chooseWithPrefixExtracted() {
        ableToFormat = true
        expectingCallingCode = false
        candidates = []
        candidatesWholeLengths = nil
        lastMatch = 0
        template = []
        currentPattern = nil
        templateCandidate = nil
        chooseFormat()
    }

    /// Shows the keys as typed, copied into `output`'s own storage: sharing `keys`' would make the next key's
    /// append copy them.
    private mutating func showKeys() {
        clearOutput()
        output.append(contentsOf: keys)
    }

    /// Picks candidates once the national number has three digits and shows the number with them.
    private mutating func chooseFormat() {
        guard nationalNumber.count >= 3 else { return showWithPrefix(nationalNumber) }
        collectCandidates()
        if formatWholeNumber() { return }
        if makeTemplate() { fillTemplateWithNationalNumber() } else { showKeys() }
    }

    /// The formats that may apply, judged by how the number was typed (with a national prefix, an
    /// international one, or neither) and by its leading digits.
    private mutating func collectCandidates() {
        candidatesSettled = false
        let international = isCompleteNumber && extractedNationalPrefix.isEmpty
        candidatesAreInternational = international && !(metadata?.internationalFormats.isEmpty ?? true)
        candidatesWholeLengths = nil
        guard let table else { return }
        let chosen = table.candidates(nationalPrefix: !extractedNationalPrefix.isEmpty, complete: isCompleteNumber)
        if candidates.isEmpty { candidates = chosen } else { candidates += chosen }
        narrowCandidates(nationalNumber)
    }

    /// Keeps the candidates whose leading-digits pattern for this many digits matches.
    private mutating func narrowCandidates(_ leading: [UInt8]) {
        if candidatesSettled { return }
        guard let table else { return }
        let which = leading.count - 3
        var settled = true
        let count = candidates.count
        // Compacted in place, in order (the first candidate left is the one tried first).
        let kept = candidates.withUnsafeMutableBufferPointer { candidates in
            var kept = 0
            for index in candidates {
                let patterns = table.traits[index].leadingCount
                if patterns > 0 {
                    // Fewer than three digits take the last pattern, as the reference does.
                    let (matches, byAutomaton) = table.leadingMatches(
                        index, which < 0 ? patterns - 1 : min(which, patterns - 1),
                        leading[...])
                    guard matches else { continue }
                    // Only the last pattern is asked of longer numbers (fewer digits than three also take it, but
                    // three take the first).
                    settled = settled && which >= patterns - 1 && byAutomaton
                }
                candidates[kept] = index
                kept += 1
            }
            return kept
        }
        if kept != count {
            candidates.removeLast(count - kept)
            candidatesWholeLengths = nil
        }
        candidatesSettled = settled
    }

    /// Shows the number as the first candidate whose whole pattern it matches shows it, when that shows
    /// every key; false otherwise, the output left as it was.
    private mutating func formatWholeNumber() -> Bool {
        // No candidate's whole pattern takes this many digits (most keys; asked before the table is).
        if let lengths = candidatesWholeLengths, nationalNumber.count < 64,
            lengths & 1 << UInt64(nationalNumber.count) == 0
        {
            return false
        }
        guard let table else { return false }
        let lengths = candidatesWholeLengths ?? candidates.reduce(0) { $0 | table.traits[$1].wholeLengths }
        candidatesWholeLengths = lengths
        // No candidate's whole pattern takes this many digits: none can format the number (most keys).
        if nationalNumber.count < 64, lengths & 1 << UInt64(nationalNumber.count) == 0 { return false }
        for index in candidates where table.matchesWhole(index, nationalNumber[...]) {
            let format = table.formats[index]
            spaceAfterNationalPrefix = format.ruleSeparatesPrefix
            // Should the keys not read back, what follows writes the output anew (`clearOutput` forgot its form).
            clearOutput()
            appendPrefix()
            format.format(nationalNumber[...], into: &output)
            if let after = PhoneField.afterLastKey(keys, in: output) {
                outputAfterLastKey = after
                return true
            }
        }
        return false
    }

    /// Takes the first candidate that gives a template long enough; false when none does.
    private mutating func makeTemplate() -> Bool {
        if let first = candidates.first, first == templateCandidate { return false }
        guard let table else {
            ableToFormat = false
            return false
        }
        while let first = candidates.first {
            if currentPattern == table.traits[first].patternID { return false }
            let format = table.formats[first]
            if let template = format.template, format.templateDigits >= nationalNumber.count {
                self.template = template
                currentPattern = format.patternID
                templateCandidate = first
                spaceAfterNationalPrefix = format.ruleSeparatesPrefix
                lastMatch = 0
                return true
            }
            candidates.removeFirst()
            candidatesWholeLengths = nil
        }
        ableToFormat = false
        return false
    }

    /// Where `fillTemplate` put a digit: up to a place of the template, or nowhere (the template is
    /// full) and the keys stand as typed.
    private enum Filled {
        case upTo(Int), keys
    }

    /// Puts `digit` in the template's next free place.
    private mutating func fillTemplate(with digit: UInt8) -> Filled {
        let free = template.withUnsafeBufferPointer { template -> Int? in
            // A plain scan: the slice's generic `firstIndex` cost twice as much.
            var place = lastMatch
            while place < template.count {
                if template[place] == PhoneRegion.placeholder { return place }
                place += 1
            }
            return nil
        }
        guard let place = free else {
            if candidates.count == 1 { ableToFormat = false }
            currentPattern = nil
            templateCandidate = nil
            return .keys
        }
        template[place] = digit
        lastMatch = place
        return .upTo(place)
    }

    /// Shows the national number filled into the template.
    private mutating func fillTemplateWithNationalNumber() {
        guard !nationalNumber.isEmpty else {
            clearOutput()
            output.append(contentsOf: prefix)
            return
        }
        var filled = Filled.keys
        for digit in nationalNumber { filled = fillTemplate(with: digit) }
        guard ableToFormat else { return showKeys() }
        switch filled {
        case .upTo(let place):
            showWithPrefix(template[...place])
            outputTemplateForm = (prefix.count + (separatesPrefix ? 1 : 0), place)
        case .keys: showWithPrefix(keys)
        }
    }

    /// Whether a space goes between the prefix and the national number (the format's national
    /// prefix rule has one, and the prefix does not end with one).
    private var separatesPrefix: Bool {
        guard spaceAfterNationalPrefix, let last = prefix.last else { return false }
        return last != Self.space
    }

    /// Appends the prefix, and the space after it when `separatesPrefix`, to `output`.
    private mutating func appendPrefix() {
        output.append(contentsOf: prefix)
        if separatesPrefix { output.append(Self.space) }
    }

    /// Empties the output to write it anew (keeping its storage), forgetting its form.
    private mutating func clearOutput() {
        output.removeAll(keepingCapacity: true)
        outputTemplateForm = nil
    }

    /// Shows the prefix and `national`, with a space between when the format's national prefix rule has one.
    private mutating func showWithPrefix(_ national: some Collection<UInt8>) {
        clearOutput()
        appendPrefix()
        output.append(contentsOf: national)
    }

    /// Sets apart a national prefix at the start of the national number, and returns it.
    private mutating func removeNationalPrefix() -> [UInt8] {
        var start = 0
        if metadata?.callingCode == 1, nationalNumber.count >= 2, nationalNumber[0] == UInt8(ascii: "1"),
            nationalNumber[1] != UInt8(ascii: "0"), nationalNumber[1] != UInt8(ascii: "1")
        {
            // NANPA: a 1 before [2-9] is the national prefix.
            start = 1
            prefix += [UInt8(ascii: "1"), Self.space]
            isCompleteNumber = true
        } else if let parsing = metadata?.nationalPrefixForParsing,
            let end = parsing.matchEnd(nationalNumber[...], whole: false), end > 0
        {
            isCompleteNumber = true
            start = end
            prefix += nationalNumber[0..<start]
        }
        // No prefix (most numbers typed without one): no array made for it, nor any digit moved.
        guard start > 0 else { return [] }
        let removed = Array(nationalNumber[0..<start])
        nationalNumber.removeFirst(start)
        return removed
    }

    /// Sets apart `+` or the region's international prefix at the start of the keys.
    private mutating func extractInternationalPrefix() -> Bool {
        let pattern = metadata?.internationalPrefix ?? Self.plusOnly
        guard let end = pattern.matchEnd(keys[...], whole: false) else { return false }
        isCompleteNumber = true
        nationalNumber = Array(keys[end...])
        prefix = Array(keys[0..<end])
        if keys[0] != Self.plus { prefix.append(Self.space) }
        return true
    }

    /// Sets apart a calling code at the start of the national number and switches to its metadata.
    private mutating func extractCallingCode() -> Bool {
        guard let (code, length) = Self.callingCode(at: nationalNumber[...]) else { return false }
        nationalNumber.removeFirst(length)
        callingCode = code
        let main = PhoneMetadata.regions(forCallingCode: code).first
        if main == "001" {
            metadata = PhoneMetadata.region("001-\(code)")
        } else if main != defaultRegion {
            metadata = PhoneMetadata.mainRegion(forCallingCode: code)
        }
        prefix += Array(String(code).utf8) + [Self.space]
        extractedNationalPrefix = []
        return true
    }

    /// The calling code `digits` start with (one to three digits, never starting with 0) and its length.
    static func callingCode(at digits: ArraySlice<UInt8>) -> (Int, Int)? {
        guard let first = digits.first, first != UInt8(ascii: "0") else { return nil }
        var code = 0
        for (length, digit) in digits.prefix(3).enumerated() {
            code = code * 10 + Int(digit - 0x30)
            if !PhoneMetadata.regions(forCallingCode: code).isEmpty { return (code, length + 1) }
        }
        return nil
    }

    /// Puts the national prefix set apart back and looks for a longer one; true when one differs.
    private mutating func extractLongerNationalPrefix() -> Bool {
        if !extractedNationalPrefix.isEmpty {
            nationalNumber = extractedNationalPrefix + nationalNumber
            // The reference cuts the prefix at the last occurrence of the national prefix (and,
            // finding none, drops its last character).
            var cut = prefix.count - 1
            let n = extractedNationalPrefix.count
            if prefix.count >= n {
                for start in stride(from: prefix.count - n, through: 0, by: -1)
                where Array(prefix[start..<(start + n)]) == extractedNationalPrefix {
                    cut = start
                    break
                }
            }
            prefix.removeSubrange(max(cut, 0)...)
        }
        return extractedNationalPrefix != removeNationalPrefix()
    }
}
