import MaskEngine

/// The identifier presets: python-stdnum's formats by name, from the generated data.
public enum IdentifierCatalog {
    /// Every format by preset name, as generated: its checks are prepared when a preset is compiled
    /// (`format(named:)`), so a process that formats one identifier does not prepare the tables of all.
    static let byName: [String: IdentifierFormat] = Dictionary(
        generated.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    /// Every identifier preset name, grouped by country (international schemes first), then by name.
    public static let names: [String] = generated.map { ($0.country == "International" ? "" : $0.country, $0.name) }
        .sorted { $0 < $1 }.map(\.1)

    /// The format a preset name stands for, its checks prepared, or nil.
    static func format(named name: String) -> IdentifierFormat? { byName[name]?.prepared() }

    /// `Brazil: CPF (...)`, for `maskd presets` and hovers.
    public static func summary(_ name: String) -> String? { byName[name]?.summary }

    /// How many letters and digits a whole number of the identifier holds (`IdentifierFormat.letterAndDigitCounts`).
    public static func letterAndDigitCounts(_ name: String) -> ClosedRange<Int>? { byName[name]?.letterAndDigitCounts }

    /// Whether the identifier's checks tell its numbers from other text of its shape (`IdentifierFormat.checksMoreThanShape`).
    public static func checksMoreThanShape(_ name: String) -> Bool { byName[name]?.checksMoreThanShape ?? false }

    /// A valid number as stdnum shows it.
    public static func example(_ name: String) -> String? { byName[name]?.example }

    /// The identifier's mask, with `options` (the user's spec: `eager`, `placeholderChar`, `overwrite`,
    /// `regex`, `validate`) laid on top; `valid` is the identifier's checks, then any validators named.
    static func compile(_ format: IdentifierFormat, options: MaskSpec) throws -> Mask {
        let inner = try MaskCompiler.compile(format.spec(options: options))
        var checks = inner.checks
        var extra = options
        extra.regex = nil
        let named = try MaskCompiler.valueChecks(extra)
        checks.validators.insert(.utf8(format.valueProblem()), at: 0)
        checks.validators += named.validators
        checks.onlyLuhn = false
        return Mask(spec: options, kind: inner.kind, checks: checks)
    }
}
