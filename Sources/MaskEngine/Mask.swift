/// A compiled mask: the one object every caller formats and edits through.
///
/// `Mask.compile` turns any `MaskSpec` into a small immutable program and caches it by spec,
/// so a keystroke never recompiles. Every method is pure: the same input gives the same result.
public final class Mask: @unchecked Sendable {
    /// The spec this mask was compiled from.
    public let spec: MaskSpec

    init(spec: MaskSpec) {
        self.spec = spec
    }

    /// Compiles `spec`, or returns the cached program for it.
    /// - Throws: `MaskError` naming the problem and its offset in the mask.
    public static func compile(_ spec: MaskSpec) throws -> Mask {
        fatalError("not yet")
    }

    /// The canonical bracket notation (for `oneOf`, of the first alternative).
    public var notation: String { fatalError("not yet") }

    /// Reads `text` into an empty field, carrying `selection` through with forward gravity.
    /// - Parameter selection: character offsets in `text`; nil means the end of the text.
    public func format(_ text: String, selection: Range<Int>? = nil) -> FieldResult {
        fatalError("not yet")
    }

    /// Applies one edit a person made to a field whose text is `text`.
    /// - Parameter text: the field's text before the edit (normally formatted by this mask).
    public func apply(_ edit: FieldEdit, to text: String) -> FieldResult {
        fatalError("not yet")
    }

    /// Re-flows a field formatted by `previous` into this mask (a mask change mid-input).
    /// - Parameter caret: the caret in `text`; it keeps its count of entered characters to its left.
    public func reflow(_ text: String, from previous: Mask, caret: Int? = nil) -> FieldResult {
        fatalError("not yet")
    }
}
