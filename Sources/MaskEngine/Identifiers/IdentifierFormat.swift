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
    /// The bracket notation of each length, shortest first: literals where `format()` puts separators,
    /// `{c}` where only the letter `c` may stand.
    let notations: [String]
    /// The slot characters of the notations that are not built in, each a character class (`[0-9A-Z]`).
    let definitions: [Character: String]
    /// Every check must pass for the number to be valid; the first that fails is the problem.
    let checks: [IdentifierCheck]

    /// The spec the preset stands for: one notation, or a `oneOf` of every length's.
    func spec(options: MaskSpec) -> MaskSpec {
        let form: MaskSpec.Form = notations.count == 1
            ? .notation(notations[0]) : .oneOf(notations.map { MaskSpec(.notation($0)) })
        return MaskSpec(form, eager: options.eager, letterCase: upper ? .upper : nil, regex: options.regex,
                        placeholderChar: options.placeholderChar, overwrite: options.overwrite,
                        definitions: definitions.isEmpty ? nil : definitions)
    }

    /// The problem with a complete value (the compact number), or nil when it is valid.
    func problem(_ value: String) -> String? {
        let chars = Array(value.utf8)
        for check in checks {
            if let problem = check.problem(chars) { return problem }
        }
        return nil
    }

    /// `Brazil: CPF (Cadastro de Pessoas Físicas, Brazilian national identifier)`.
    var summary: String {
        country == "International" ? title : "\(country): \(title)"
    }
}
