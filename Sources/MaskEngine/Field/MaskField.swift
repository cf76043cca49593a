/// A field being edited: a compiled mask plus what its text reads back to, kept between edits.
///
/// `Mask.apply(edit, to: text)` reads the whole text back into the mask on every keystroke. A
/// field that is typed in key by key (an editor's field, as libphonenumber's `AsYouTypeFormatter`
/// is kept per field) can instead keep what the text read back to, so a key costs only the edit.
/// Every result is exactly the stateless call's: when the caller's text is not the one the handle
/// last produced, the handle reads it again, so it never diverges. Kinds that keep nothing yet
/// take the stateless path.
public struct MaskField: Sendable {
    /// The mask the field is edited with.
    public let mask: Mask
    /// The field's text: what the last `apply` or `format` produced, or what `init` or `reset` was given.
    public private(set) var text: String
    /// The caret or selection that came with `text`, in characters.
    public private(set) var selection: Range<Int>
    /// What a slot program (one at a time) keeps: its reading of a text, this one or an earlier one (reading
    /// resumes where they differ); nil until an edit or a format builds it. Held in place, so an edit changes
    /// its arrays without copying them (and a copied handle's are copied when they change).
    private var reading: IncrementalReading?
    /// What a custom field kind keeps between edits (the phone preset's as-you-type formatter of `text`); nil
    /// for the other kinds. Changed in place through `editing!`, so its arrays are not copied.
    private var editing: (any CustomFieldEditing)?

    /// A field whose text is `text` as it stands (it is not formatted).
    /// - Parameter selection: character offsets in `text`; nil means the end of the text.
    public init(_ mask: Mask, text: String = "", selection: Range<Int>? = nil) {
        self.mask = mask
        self.text = text
        self.selection = selection ?? text.count..<text.count
        editing = mask.customField?.editingState()
    }

    /// Applies one edit to the field's own text: the same result as `mask.apply(edit, to: text)`.
    public mutating func apply(_ edit: FieldEdit) -> FieldResult {
        let result: FieldResult
        switch mask.kind {
        case .custom:
            result = editing!.apply(edit, to: text)
        case .slots, .dynamic:
            result = mask.apply(edit, to: text, resuming: &reading)
        case .oneOf, .number:
            result = mask.apply(edit, to: text)
        }
        text = result.text
        selection = result.selection
        return result
    }

    /// Applies one edit to a field whose text is `text`: the same result as `mask.apply(edit, to: text)`.
    ///
    /// When `text` is the handle's text, what was kept is used; otherwise the handle takes `text` first.
    public mutating func apply(_ edit: FieldEdit, to text: String) -> FieldResult {
        if text != self.text { reset(text: text) }
        return apply(edit)
    }

    /// Reads `text` into an empty field: the same result as `mask.format(text, selection: selection)`,
    /// which becomes the field's text.
    public mutating func format(_ text: String, selection: Range<Int>? = nil) -> FieldResult {
        let result: FieldResult
        switch mask.kind {
        case .custom:
            result = editing!.format(text, selection: selection)
        case .slots, .dynamic:
            result = mask.format(text, selection: selection)
            // The next edit reads the formatted text: it is read now, once, so that edit resumes.
            reading = mask.reading(of: result.text)
        case .oneOf, .number:
            result = mask.format(text, selection: selection)
        }
        self.text = result.text
        self.selection = result.selection
        return result
    }

    /// The field's text changed some other way (an undo, a paste the editor made): takes `text` as it
    /// stands. What was kept about another text is dropped, but for a slot program's reading, which the
    /// next edit resumes where the texts differ.
    /// - Parameter selection: character offsets in `text`; nil means the end of the text.
    public mutating func reset(text: String, selection: Range<Int>? = nil) {
        self.text = text
        self.selection = selection ?? text.count..<text.count
        if let field = mask.customField { editing = field.editingState() }
    }
}
