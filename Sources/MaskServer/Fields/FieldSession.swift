// maskd: one field session: a mask in force over a region of one line.
import MaskEngine

/// A field the client opened: its mask and the engine's last word on it.
///
/// Where the field lies is not stored here: the field's `FieldSpan` on its line in the
/// document's `LineTree` is the only record of its place, so edits shift it in one spot.
final class FieldSession {
    let id: String
    private(set) var spec: MaskSpec
    private(set) var mask: Mask
    /// The state after the last formatting (value, complete, next, ...).
    var result: FieldResult

    init(id: String, spec: MaskSpec, mask: Mask, result: FieldResult) {
        self.id = id
        self.spec = spec
        self.mask = mask
        self.result = result
    }

    func setMask(_ spec: MaskSpec, _ mask: Mask) {
        self.spec = spec
        self.mask = mask
    }
}

/// A field's state as clients see it: `FieldState` of the protocol, before encoding to JSON.
public struct FieldSnapshot: Hashable, Sendable {
    public var id: String
    public var range: TextRange
    public var text: String
    public var result: FieldResult
}
