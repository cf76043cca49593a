import MaskEngine

/// One identifier of python-stdnum's catalogue as a preset: how it is shown, what each place
/// holds, and the checks that make it valid. Every value here is data, generated into
/// `IdentifierData.swift` by `scripts/identifier-metadata`.
struct IdentifierFormat: Sendable {
    /// The preset name: stdnum's module path without `stdnum.` (`br.cpf`, `isbn`).
    let name: String
    /// The country in words, or `International` for schemes of no one country.
    let country: String
    /// The identifier in words, the first line of stdnum's description.
    let title: String
    /// A valid number as stdnum's `format()` shows it.
    let example: String
    /// Letters are upper-cased as typed (stdnum's `compact` does so).
    let upper: Bool
    /// Letters are lower-cased as typed (stdnum's `compact` does so: `mac`).
    var lower = false
    /// The bracket notation of each length, shortest first: literals where `format()` puts separators,
    /// `{c}` where only the letter `c` may stand.
    let notations: [String]
    /// The slot characters of the notations that are not built in, each a character class (`[0-9A-Z]`).
    let definitions: [Character: String]
    /// Every check must pass for the number to be valid; the first that fails is the problem.
    let checks: [IdentifierCheck]

    /// The spec the preset stands for: one notation, or a `oneOf` of every length's.
    func spec(options: MaskSpec) -> MaskSpec {
        let form: MaskSpec.Form =
            notations.count == 1
            ? .notation(notations[0]) : .oneOf(notations.map { MaskSpec(.notation($0)) })
        return MaskSpec(
            form, eager: options.eager, letterCase: upper ? .upper : lower ? .lower : nil, regex: options.regex,
            placeholderChar: options.placeholderChar, overwrite: options.overwrite,
            definitions: definitions.isEmpty ? nil : definitions)
    }

    /// The format with its checks prepared to run on many numbers (`IdentifierCheck.prepared`).
    func prepared() -> IdentifierFormat {
        IdentifierFormat(
            name: name, country: country, title: title, example: example, upper: upper, lower: lower,
            notations: notations, definitions: definitions, checks: checks.map { $0.prepared() })
    }

    /// Whether a check tells the identifier's numbers from other text of its shape: a check character, a date, a
    /// table or a rule of its own (not only "not all zeros"). Without one (`de.wkn`: any six letters or digits)
    /// any text of its length and alphabet passes. GS1-128 data has a rule, but about a quarter of all runs of
    /// digits pass it (`00` and any 18 characters are a shipping container code).
    var checksMoreThanShape: Bool {
        name != "gs1_128"
            && checks.contains {
                switch $0 {
                case .notZero, .notAllSame: return false
                default: return true
                }
            }
    }

    /// The problem with a complete value (the compact number, as UTF-8 bytes), or nil when it is valid: the first
    /// check's that fails. Each check is held by a closure of its own, which reads it in place: a check copied out of
    /// `checks` for every number retained and released its weights and tables.
    func valueProblem() -> ([UInt8]) -> String? {
        let problems = checks.map { check in { (chars: [UInt8]) in check.problem(chars) } }
        return { chars in
            for problem in problems {
                if let found = problem(chars) { return found }
            }
            return nil
        }
    }

    /// How many letters and digits a whole number holds, fewest to most: its lengths, less the places
    /// whose class also takes other characters (the century sign of a Finnish HETU). A selection with
    /// another count of letters and digits is never this identifier, whole. A notation with a `…` slot
    /// (a court's name, GS1 data) has no most.
    public var letterAndDigitCounts: ClosedRange<Int> {
        var fewest = Int.max, most = 0
        for notation in notations {
            var length = 0, other = 0
            var inSlot = false, inLiteral = false, escaped = false
            for c in notation {
                if escaped { escaped = false; if inSlot || inLiteral { length += 1 }; continue }
                switch c {
                case "\\": escaped = true
                case "…" where inSlot: most = Int.max
                case "[": inSlot = true
                case "]": inSlot = false
                case "{": inLiteral = true
                case "}": inLiteral = false
                default:
                    guard inSlot || inLiteral else { continue }
                    length += 1
                    if inLiteral ? !(c.isASCII && (c.isLetter || c.isNumber)) : mayHoldOther(c) { other += 1 }
                }
            }
            fewest = min(fewest, length - other)
            most = max(most, length)
        }
        return fewest...max(fewest, most)
    }

    /// Whether slot character `c` may take a character that is neither a letter nor a digit.
    private func mayHoldOther(_ c: Character) -> Bool {
        guard let regex = definitions[c] else { return false }
        // A class like `[+\-A-FU-Y]`: an escaped character or one that is not a letter, digit or range dash.
        let inner = regex.dropFirst().dropLast()
        return inner.contains("\\") || inner.contains { !($0.isASCII && ($0.isLetter || $0.isNumber)) && $0 != "-" }
    }

    /// `Brazil: CPF (Cadastro de Pessoas Físicas, Brazilian national identifier)`.
    var summary: String {
        country == "International" ? title : "\(country): \(title)"
    }
}
