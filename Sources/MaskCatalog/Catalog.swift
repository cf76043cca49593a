import MaskEngine

/// The catalogue's presets: every name of `Presets.names`, compiled as `Protocol/presets.md` describes it.
///
/// The engine hands each `.preset` form it meets to `compile(preset:_:)`; `Mask.compile(_:)` below is the
/// compile every caller uses.
struct Catalog: MaskPresets {
    func compile(preset name: String, _ spec: MaskSpec) throws -> Mask {
        switch name {
        case "phone": return Mask(spec, custom: try PhoneField(spec))
        case "postal": return Mask(spec, custom: try PostalField(spec))
        default: break
        }
        if let identifier = IdentifierCatalog.format(named: name) {
            return try IdentifierCatalog.compile(identifier, options: spec)
        }
        let expanded = try Presets.expand(name, options: spec)
        let checks = try MaskCompiler.valueChecks(expanded)
        switch name {
        case "card": return Mask(spec: spec, kind: .dynamic(try DynamicProgram.card(expanded)), checks: checks)
        case "iban": return Mask(spec: spec, kind: .dynamic(try DynamicProgram.iban(expanded)), checks: checks)
        case "id.cn": return Mask(spec: spec, kind: .slots(try Presets.program(name, expanded)), checks: checks)
        case "date", "time", "datetime", "expiry":
            return Mask(spec: spec, kind: .slots(try FormCompiler.calendarProgram(name, expanded)), checks: checks)
        default:
            let inner = try MaskCompiler.compile(expanded, presets: self)
            return Mask(spec: spec, kind: inner.kind, checks: checks)
        }
    }
}

extension Mask {
    /// Compiles `spec`, or returns the cached program for it; its presets are the catalogue's.
    /// - Throws: `MaskError` naming the problem and its offset in the mask.
    public static func compile(_ spec: MaskSpec) throws -> Mask {
        try compile(spec, presets: Catalog())
    }

    /// Compiles `spec` afresh, sharing no object with any other compile: for a thread of its own, since
    /// threads sharing one mask's objects contend for their reference counts.
    public static func compileUnshared(_ spec: MaskSpec) throws -> Mask {
        try compileUnshared(spec, presets: Catalog())
    }
}
