// maskd: one field session: a mask in force over a region of one line.
import MaskEngine

/// A field the client opened: its mask and, when it cannot be recomputed, the engine's last word on it.
///
/// Where the field lies is not stored here: the field's slot in the document's `LineTree` (its
/// span on its line) is the only record of its place, so edits shift it in one spot. The slot keeps
/// a session as numbers (its mask's in a table of the document's distinct masks, the kept state in a
/// side table) so that a document can hold a hundred thousand fields: the mask is the compile
/// cache's shared object, and a state that is just `mask.format` of the field's current text (a
/// field opened over text already in form and not typed into since) is not kept.
struct FieldSession {
    private(set) var mask: Mask
    /// The state after the last formatting, or nil when it is `mask.format(the field's text)`.
    private(set) var kept: KeptResult?

    init(mask: Mask, kept: KeptResult? = nil) {
        self.mask = mask
        self.kept = kept
    }

    /// The spec the mask was compiled from (the compile cache is keyed by spec, so it is the one
    /// the client sent).
    var spec: MaskSpec { mask.spec }

    /// The field's state (value, complete, next, ...), given its current text.
    func result(fieldText: @autoclosure () -> String) -> FieldResult {
        kept?.result ?? mask.format(fieldText())
    }

    mutating func setMask(_ spec: MaskSpec, _ mask: Mask) {
        self.mask = mask
    }

    /// Keeps `result` settled: a session outlives its keystroke, and a deferred value would keep the
    /// keystroke's cells alive in every field typed into (the soak's RSS grew 8% over 50,000 keys).
    mutating func keep(_ result: FieldResult?) {
        kept = result.map { KeptResult($0.settled()) }
    }
}

/// A field state kept by reference, so a session without one costs a null pointer.
final class KeptResult {
    let result: FieldResult

    init(_ result: FieldResult) {
        self.result = result
    }
}

/// A field's state as clients see it: `FieldState` of the protocol, before encoding to JSON.
public struct FieldSnapshot: Hashable, Sendable {
    public var id: String
    public var range: TextRange
    public var text: String
    public var result: FieldResult
    /// The field rule that opened the field, when one did.
    var rule: RuleOrigin? = nil
}
