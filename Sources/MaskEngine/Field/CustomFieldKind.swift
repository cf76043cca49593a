/// A kind of field the engine runs without knowing its rules: the catalogue's phone numbers and postal codes.
///
/// A mask of this kind (`Mask.Kind.custom`) hands each call over whole: the field reads its own text and
/// returns the whole result, so one edit costs one call through this protocol, never one per character.
/// Such a field takes no `regex`, `validate` or right-to-left option, and is never a `oneOf` alternative.
package protocol CustomFieldKind: AnyObject, Sendable {
    /// The mask's canonical notation (`Mask.notation`), e.g. `phone(region: GB)`.
    var notation: String { get }
    /// Reads `text` into an empty field (`Mask.format`).
    /// - Parameter selection: character offsets in `text`; nil means the end of the text.
    func format(_ text: String, selection: Range<Int>?) -> FieldResult
    /// Applies one edit to a field whose text is `text` (`Mask.apply`).
    func apply(_ edit: FieldEdit, to text: String) -> FieldResult
    /// The entered characters of `text`, which a reflow carries into another mask, and how many stand
    /// before `caret`.
    func entered(_ text: String, caret: Int) -> (raw: [Character], before: Int)
    /// What a `MaskField` keeps between edits of this field; by default nothing (the stateless calls).
    func editingState() -> any CustomFieldEditing
}

/// What a `MaskField` keeps between edits of a `CustomFieldKind` field, so a key costs only the key (the
/// phone's as-you-type formatter). Its results equal the stateless calls': the handle makes a new one
/// whenever its text is another.
package protocol CustomFieldEditing: Sendable {
    /// `apply(edit, to: text)`, where `text` is the text of the last result (or a new state's).
    mutating func apply(_ edit: FieldEdit, to text: String) -> FieldResult
    /// `format(text, selection:)`, starting afresh.
    mutating func format(_ text: String, selection: Range<Int>?) -> FieldResult
}

extension CustomFieldKind {
    package func editingState() -> any CustomFieldEditing { StatelessEditing(field: self) }
}

/// The editing state of a field that keeps none: every call is the stateless one.
private struct StatelessEditing: CustomFieldEditing {
    let field: any CustomFieldKind

    func apply(_ edit: FieldEdit, to text: String) -> FieldResult { field.apply(edit, to: text) }

    func format(_ text: String, selection: Range<Int>?) -> FieldResult { field.format(text, selection: selection) }
}
