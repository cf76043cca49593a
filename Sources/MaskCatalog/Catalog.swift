import MaskEngine

/// The catalogue's presets: every name of `Presets.names`, compiled as `Protocol/presets.md` describes it.
struct Catalog: MaskPresets {
    func compile(preset name: String, _ spec: MaskSpec) throws -> Mask {
        if name == "phone" { return Mask(spec, custom: try PhoneField(spec)) }
        return try EnginePresets().compile(preset: name, spec)
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

extension Presets {
    /// The regions the `phone` preset's `region` option takes (ISO 3166-1 alpha-2), sorted.
    public static var phoneRegions: [String] { PhoneMetadata.regionCodes }
}
