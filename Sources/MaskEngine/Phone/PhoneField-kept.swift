/// The `phone` preset's part of a `MaskField`: what it keeps between edits.
///
/// For now nothing is kept and every edit takes the stateless path; a kept formatter state can
/// be added here without changing `MaskField`.
extension PhoneField {
    /// What a `MaskField` keeps between edits of a phone field; `Kept()` is "nothing kept".
    struct Kept: Sendable {
        init() {}
    }

    /// `apply(edit, to: text)`, using and updating `kept`.
    ///
    /// `kept` is either `Kept()` or what this function (or `format(_:selection:keeping:)`) left
    /// after producing `text`: `MaskField` resets it whenever its caller's text is another.
    func apply(_ edit: FieldEdit, to text: String, keeping kept: inout Kept) -> FieldResult {
        apply(edit, to: text)
    }

    /// `format(text, selection:)`, leaving in `kept` the state of the result's text.
    func format(_ text: String, selection: Range<Int>?, keeping kept: inout Kept) -> FieldResult {
        format(text, selection: selection)
    }
}
