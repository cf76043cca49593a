/// The presets that are still the engine's: every name of `Presets.names` but `phone`.
package struct EnginePresets: MaskPresets {
    package init() {}

    package func compile(preset name: String, _ spec: MaskSpec) throws -> Mask {
        if name == "postal" { return Mask(spec, custom: try PostalField(spec)) }
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
            return Mask(spec: spec, kind: .slots(try Presets.calendarProgram(name, expanded)), checks: checks)
        default:
            let inner = try MaskCompiler.compile(expanded, presets: self)
            return Mask(spec: spec, kind: inner.kind, checks: checks)
        }
    }
}
