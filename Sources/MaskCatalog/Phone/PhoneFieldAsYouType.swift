import MaskEngine

/// The `phone` preset's part of a `MaskField`: the as-you-type formatter of the field's text.
///
/// A phone field typed key by key is what libphonenumber's `AsYouTypeFormatter` is built for: one
/// formatter per field, fed a digit per key. The handle holds the same: the formatter after the
/// keys of the field's text. A digit typed after every element of that text (the caret at the end
/// of the number, as when typing it) is one more `input` to that formatter; any other edit
/// takes the stateless path, whose formatter the handle holds in its turn. Either way the result is the
/// stateless `apply`'s (`MaskFieldTests` and `PhoneKeyByKeyTests` compare them at every step).
extension PhoneField {
    /// What a `MaskField` holds between edits of a phone field: the formatter of its text, when it has one;
    /// `AsYouTypeState()` holds none.
    ///
    /// A value the handle holds and passes `inout`: a key changes it in place (its arrays are not copied,
    /// their storage being unshared), and a copied handle copies it as any value.
    struct AsYouTypeState: Sendable {
        /// The text's formatter, when `holdsState`. Not an optional: reading a field of an optional's payload in
        /// place copies the payload, arrays and all.
        fileprivate var current: TextState
        /// Whether a text's formatter is held (the next digit typed at the end is one `input`).
        private(set) var holdsState = false

        init() {
            current = TextState(
                Typed(formatter: AsYouTypeFormatter(region: nil), full: false), count: 0, afterLastElement: 0)
        }

        /// Holds `state`, or nothing.
        fileprivate mutating func hold(_ state: TextState?) {
            if let state { current = state }
            holdsState = state != nil
        }
    }

    /// The formatter after the keys of a text the field shows, and where that text ends and its last key stands.
    fileprivate struct TextState: Sendable {
        /// The formatter after the keys of `text`, and whether the number was full.
        var typed: Typed
        /// The length of the text the state is of (it is ASCII: the formatter's output), and the offset just
        /// after its last element. The text itself is not held: the caller's text is the one the state is of
        /// (`MaskField` resets the state whenever its text is another), and only its length is checked again.
        var count = 0
        var afterLastElement = 0
        /// The number's patterns' states after its digits (held only while its keys are typed one by one).
        var reading = PhoneNumber.KeyByKeyReading()

        init(_ typed: Typed, count: Int, afterLastElement: Int) {
            self.typed = typed
            self.count = count
            self.afterLastElement = afterLastElement
        }

        /// The state behind the field the formatter of `typed` shows as `text`, when reading the
        /// text back gives its keys (it always should: the formatter shows every key as typed).
        init?(_ typed: Typed, text: String) {
            guard let after = PhoneField.afterLastKey(typed.formatter.keys, in: typed.formatter.output),
                typed.formatter.output.elementsEqual(text.utf8)
            else { return nil }
            self.init(typed, count: typed.formatter.output.count, afterLastElement: after)
        }

        /// The ASCII digit `edit` types after every element of the text, when that is all it does
        /// and the number can take it; nil for any other edit, which the stateless path reads.
        ///
        /// The stateless path then reads the text's keys, appends the digit (nothing is deleted: the
        /// range is empty; nothing comes after it), and feeds the formatter the keys: the held
        /// formatter's keys and the digit. A full number refuses the digit, and an empty international
        /// field adds the `+` first: both take the stateless path.
        ///
        /// Mutating only so that it reads the state in place: a non-mutating call on the handle's state copies
        /// all of it first. The same goes for `afterLastKey()`.
        mutating func typedDigit(_ edit: FieldEdit, to text: String, in field: PhoneField) -> UInt8? {
            guard !typed.full, text.utf8.count == count, field.region != nil || !typed.formatter.keys.isEmpty else {
                return nil
            }
            let utf8 = edit.text.utf8
            guard utf8.count == 1 else { return nil }
            let key = utf8[utf8.startIndex]
            guard key >= 0x30, key <= 0x39 else { return nil }
            // The range as the stateless path clamps it to the text.
            let lower = min(max(edit.range.lowerBound, 0), count)
            let upper = min(max(edit.range.upperBound, 0), count)
            guard lower == upper, lower >= afterLastElement else { return nil }
            return key
        }

        /// Feeds the formatter `key`: the keys read as a number, and the offset just after the last key in
        /// the text; nil when the text does not read back as the keys (never expected: the formatter shows
        /// every key as typed). `count` is still the text's before the key.
        mutating func type(_ key: UInt8, in field: PhoneField) -> (number: PhoneNumber, afterLastKey: Int)? {
            let number = typed.type(key, in: field, reading: &reading)
            guard let after = afterLastKey() else { return nil }
            return (number, after)
        }

        /// `afterLastKey(keys, in: output)` for the formatter after one more key: when the formatter read
        /// the keys back, its answer; when the key only appended to the text this state was of (whose keys
        /// read back), what the appended bytes say.
        private mutating func afterLastKey() -> Int? {
            if let after = typed.formatter.outputAfterLastKey { return after }
            guard let from = typed.formatter.outputAppendedFrom, from == count, let key = typed.formatter.keys.last
            else {
                return PhoneField.afterLastKey(typed.formatter.keys, in: typed.formatter.output)
            }
            return typed.formatter.output.withUnsafeBufferPointer { shown in
                var after: Int?
                for offset in from..<shown.count {
                    let byte = shown[offset]
                    guard byte == UInt8(ascii: "+") || (byte &- 0x30) < 10 else { continue }
                    // The appended bytes read back as the one key typed.
                    guard after == nil, byte == key else { return nil }
                    after = offset + 1
                }
                return after
            }
        }
    }

    /// `apply(edit, to: text)`, resuming and updating `state`.
    ///
    /// `state` is either `AsYouTypeState()` or what this function (or `format(_:selection:resuming:)`) left
    /// after producing `text`: `MaskField` resets it whenever its caller's text is another.
    func apply(_ edit: FieldEdit, to text: String, resuming state: inout AsYouTypeState) -> FieldResult {
        if !state.holdsState, text.isEmpty, region != nil {
            // An empty national field: the formatter before any key (an international one shows a `+` first).
            state.hold(TextState(Typed(formatter: blank, full: false), count: 0, afterLastElement: 0))
        }
        if state.holdsState, let key = state.current.typedDigit(edit, to: text, in: self) {
            if let (number, after) = state.current.type(key, in: self) {
                // As the stateless path: the caret after the keys before the edit and the one typed, which is
                // the end of the text.
                let shown = state.current.typed.formatter.output.count
                let result = result(
                    keys: state.current.typed.formatter.keys, text: state.current.typed.formatter.output,
                    full: state.current.typed.full, number: number, selection: shown..<shown,
                    rejected: "", overflow: [])
                state.current.count = shown
                state.current.afterLastElement = after
                return result
            }
            // Never expected: the stateless path shows it.
            state.hold(nil)
        }
        let (result, typed) = applying(edit, to: text)
        state.hold(typed.flatMap { TextState($0, text: result.text) })
        return result
    }

    /// `format(text, selection:)`, leaving in `state` the formatter of the result's text.
    func format(_ text: String, selection: Range<Int>?, resuming state: inout AsYouTypeState) -> FieldResult {
        let (result, typed) = formatting(text, selection: selection)
        state.hold(TextState(typed, text: result.text))
        return result
    }

    /// What a `MaskField` keeps for a phone field: the as-you-type formatter of its text.
    func editingState() -> any CustomFieldEditing { AsYouTypeEditing(field: self) }
}

/// A phone field's `CustomFieldEditing`: the field and the as-you-type state its edits resume.
private struct AsYouTypeEditing: CustomFieldEditing {
    let field: PhoneField
    var state = PhoneField.AsYouTypeState()

    mutating func apply(_ edit: FieldEdit, to text: String) -> FieldResult {
        field.apply(edit, to: text, resuming: &state)
    }

    mutating func format(_ text: String, selection: Range<Int>?) -> FieldResult {
        state = PhoneField.AsYouTypeState()
        return field.format(text, selection: selection, resuming: &state)
    }
}

extension PhoneField {
    /// The offset just after the last key in `text`, when reading `text` back gives exactly `keys`
    /// (its digits and `+`, in order); nil otherwise.
    static func afterLastKey(_ keys: [UInt8], in text: [UInt8]) -> Int? {
        keys.withUnsafeBufferPointer { keys in
            text.withUnsafeBufferPointer { text in
                var read = 0, after = 0
                for offset in 0..<text.count {
                    let byte = text[offset]
                    guard byte == UInt8(ascii: "+") || (byte &- 0x30) < 10 else { continue }
                    guard read < keys.count, keys[read] == byte else { return nil }
                    read += 1
                    after = offset + 1
                }
                return read == keys.count ? after : nil
            }
        }
    }
}

extension PhoneField.Typed {
    /// Feeds the formatter one more key (in place: no copy of its arrays), and gives its keys read
    /// as a number, resuming `reading`.
    mutating func type(_ key: UInt8, in field: PhoneField, reading: inout PhoneNumber.KeyByKeyReading) -> PhoneNumber {
        formatter.input(key)
        let number = PhoneNumber.read(formatter.keys, home: field.home, reading: &reading)
        full = field.isFull(
            keys: formatter.keys, callingCode: formatter.callingCode, metadata: formatter.metadata,
            nationalDigits: formatter.nationalNumber.count
        ) { number }
        return number
    }
}
