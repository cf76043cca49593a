/// The named masks a compile may use (`{"preset": "card"}`): the engine knows none, `MaskCatalog` gives them.
///
/// `Mask.compile(spec, presets:)` hands every `.preset` form it meets (the spec's own or a `oneOf`
/// alternative's) to `compile(preset:_:)`; a preset's mask is built of the engine's kinds, or of a
/// `CustomFieldKind`.
package protocol MaskPresets: Sendable {
    /// The mask `spec` stands for, its form being `.preset(name)` and its other fields the options.
    /// - Throws: `MaskError` for an unknown name or an option the preset does not take.
    func compile(preset name: String, _ spec: MaskSpec) throws -> Mask
}

/// No presets at all: what `MaskEngine` compiles alone.
package struct NoPresets: MaskPresets {
    package init() {}

    package func compile(preset name: String, _ spec: MaskSpec) throws -> Mask {
        throw MaskError("unknown preset '\(name)': MaskEngine alone knows no presets (MaskCatalog compiles them)")
    }
}
