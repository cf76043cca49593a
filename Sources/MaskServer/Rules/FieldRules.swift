// maskd: field rules: fields that open themselves where a line matches.
import JSON
import JSONRPC
import MaskEngine

/// Where a rule was written: `{"source": uri or "initializationOptions", "index": n}` in `FieldState.rule`.
struct RuleOrigin: Hashable, Sendable {
    /// The `.maskd.json` file's URI, or `initializationOptions` (the client's rules, which
    /// `workspace/didChangeConfiguration` may replace).
    var source: String
    /// The rule's index in its `rules` array.
    var index: Int

    static let clientSource = "initializationOptions"

    /// How a message names it: `/w/.maskd.json rules[2]`.
    var name: String { "\(source) rules[\(index)]" }
}

/// One compiled rule: `{"files": glob?, "languages": [languageId]?, "match": regex, "mask": MaskSpec}`.
struct FieldRule: Sendable {
    let origin: RuleOrigin
    let files: Glob?
    let languages: Set<String>?
    let match: CapturingRegex
    let mask: Mask

    /// The longest `match` accepted, in characters: every line a rule is tried on costs the pattern's states.
    static let maxMatchLength = 4096

    /// Compiles a rule as written in a `rules` array.
    /// - Throws: `RuleError` naming what is wrong (the caller adds the rule's name).
    init(_ value: JSONValue, origin: RuleOrigin) throws {
        self.origin = origin
        guard let object = value.objectValue else { throw RuleError("expected an object, got \(value.kindName)") }
        let known: Set<String> = ["files", "languages", "match", "mask"]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw RuleError("unknown member '\(unknown)' (a rule has files, languages, match and mask)")
        }
        switch object["files"] {
        case nil, .null?: files = nil
        case .string(let glob)?:
            do { files = try Glob(glob) } catch let error as GlobError {
                throw RuleError("files: bad glob '\(glob)': \(error)")
            }
        case let other?: throw RuleError("files: expected a glob string, got \(other.kindName)")
        }
        switch object["languages"] {
        case nil, .null?: languages = nil
        case .array(let items)? where items.allSatisfy({ $0.stringValue != nil }):
            languages = Set(items.compactMap(\.stringValue))
        case let other?: throw RuleError("languages: expected an array of languageIds, got \(other.kindName)")
        }
        guard let pattern = object["match"]?.stringValue else {
            throw RuleError("match: expected a regex string, got \(object["match"]?.kindName ?? "nothing")")
        }
        guard pattern.unicodeScalars.count <= FieldRule.maxMatchLength else {
            throw RuleError("match: longer than \(FieldRule.maxMatchLength) characters")
        }
        do { match = try CapturingRegex(pattern) } catch let error as MaskError {
            throw RuleError("match: bad regex '\(pattern)': \(error.description)")
        }
        guard match.groupCount == 1 else {
            throw RuleError(
                "match: '\(pattern)' has \(match.groupCount) capture groups; a rule's has exactly one "
                    + "(the field), others are written (?:...)")
        }
        guard let maskValue = object["mask"] else { throw RuleError("mask: missing") }
        do { (_, mask) = try MaskSpec.compileJSON(maskValue, path: "mask") } catch let error as MessageError {
            throw RuleError(error.message)
        }
    }

    /// Whether the rule applies to a document at `path` (relative to its workspace folder) of `languageId`.
    func applies(path: String, languageId: String) -> Bool {
        if let languages, !languages.contains(languageId) { return false }
        return files?.matches(path) ?? true
    }
}

/// Why a rule does not compile; the rule is skipped and the others apply.
struct RuleError: Error, Hashable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The rules of one source (a `.maskd.json`, or the client's), compiled once when read.
struct RuleSource: Sendable {
    /// The workspace folder whose file this is (its path, no trailing `/`); nil for the client's rules, which
    /// apply in every folder and outside them.
    var folder: String?
    var rules: [FieldRule]
}

/// The rules one open document is under: those whose `files` and `languages` accept it, in order (its
/// folder's file first, then the client's).
struct DocumentRules: Sendable {
    let rules: [FieldRule]

    static let none = DocumentRules(rules: [])

    /// Rules try no line longer than this (in scalars): a keystroke on a megabyte line must not run a regex
    /// over the whole of it, and data files' lines are short.
    static let maxLineLength = 10_000

    var isEmpty: Bool { rules.isEmpty }

    /// The fields the rules would open on a line: per rule, the first match's capture group, when it is not
    /// empty and overlaps neither an existing field nor one found before it. The caller keeps lines longer than
    /// `maxLineLength` away.
    /// - Complexity: O(the line's length × the patterns' states), per rule.
    func matches(on text: String, existing: [FieldSpan]) -> [(start: Int, end: Int, rule: FieldRule)] {
        guard !rules.isEmpty else { return [] }
        let scalars = Array(text.unicodeScalars)
        var found: [(start: Int, end: Int, rule: FieldRule)] = []
        for rule in rules {
            guard let slots = rule.match.search(scalars) else { continue }
            let start = slots[2], end = slots[3]
            // An empty capture opens nothing: the field opens with the first character typed into it, so the
            // separator typed before it (`phone: `) is not read into the mask.
            guard start >= 0, end > start else { continue }
            if existing.contains(where: { $0.start < end && start < $0.end }) { continue }
            if found.contains(where: { $0.start < end && start < $0.end }) { continue }
            found.append((start, end, rule))
        }
        return found
    }
}

extension Server {
    /// Compiles a `rules` array from `source`; each bad rule is one `window/showMessage` naming the source, its
    /// index and the problem, and is left out.
    func compileRules(_ value: JSONValue, source: String) -> [FieldRule] {
        guard let items = value.arrayValue else {
            showMessage(
                .warn,
                "\(source): 'rules' should be an array of rules, got \(value.kindName); no rule of "
                    + "it applies")
            return []
        }
        var rules: [FieldRule] = []
        for (index, item) in items.enumerated() {
            let origin = RuleOrigin(source: source, index: index)
            do {
                rules.append(try FieldRule(item, origin: origin))
            } catch {
                showMessage(.warn, "\(origin.name): \(error); this rule is skipped, the others apply")
            }
        }
        return rules
    }
}
