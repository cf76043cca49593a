/// The `phone` preset's part of a `MaskField`: what it keeps between edits.
///
/// A phone field typed key by key is what libphonenumber's `AsYouTypeFormatter` is built for: one
/// formatter per field, fed a digit per key. The handle keeps the same: the formatter after the
/// keys of the field's text. A digit typed after every element of that text (the caret at the end
/// of the number, as when typing it) is one more `input` to the kept formatter; any other edit
/// takes the stateless path, whose formatter is kept in its turn. Either way the result is the
/// stateless `apply`'s (`MaskFieldTests` and `PhoneKeptTests` compare them at every step).
extension PhoneField {
    /// What a `MaskField` keeps between edits of a phone field; `Kept()` is "nothing kept".
    ///
    /// A value the handle holds and passes `inout`: a key changes it in place (its arrays are not copied,
    /// their storage being unshared), and a copied handle copies it as any value.
    struct Kept: Sendable {
        /// The state, when `holdsState`. Not an optional: reading a field of an optional's payload in place
        /// copied the payload, arrays and all.
        fileprivate var state: State
        /// Whether a formatter state is kept (the next digit typed at the end is one `input`).
        private(set) var holdsState = false

        init() { state = State(Typed(formatter: AsYouTypeFormatter(region: nil), full: false), count: 0, afterLastElement: 0) }

        /// Keeps `state`, or nothing.
        fileprivate mutating func keep(_ state: State?) {
            if let state { self.state = state }
            holdsState = state != nil
        }
    }

    /// The kept state.
    fileprivate struct State: Sendable {
        /// The formatter after the keys of `text`, and whether the number was full.
        var typed: Typed
        /// The length of the text the state is of (it is ASCII: the formatter's output), and the offset just
        /// after its last element. The text itself is not kept: the caller's text is the one the state is of
        /// (`MaskField` resets the state whenever its text is another), and only its length is checked again
        /// (keeping the string to compare cost a retain and a release a key).
        var count = 0
        var afterLastElement = 0
        /// The number's patterns' states after its digits (kept only while its keys are typed one by one).
        var reading = PhoneNumber.Reading()

        init(_ typed: Typed, count: Int, afterLastElement: Int) {
            self.typed = typed
            self.count = count
            self.afterLastElement = afterLastElement
        }

        /// The state behind the field the formatter of `typed` shows as `text`, when reading the
        /// text back gives its keys (it always should: the formatter shows every key as typed).
        init?(_ typed: Typed, text: String) {
            guard let after = PhoneField.afterLastKey(typed.formatter.keys, in: typed.formatter.output),
                  typed.formatter.output.elementsEqual(text.utf8) else { return nil }
            self.init(typed, count: typed.formatter.output.count, afterLastElement: after)
        }

        /// The ASCII digit `edit` types after every element of the kept text, when that is all it does
        /// and the number can take it; nil for any other edit, which the stateless path reads.
        ///
        /// The stateless path then reads the text's keys, appends the digit (nothing is deleted: the
        /// range is empty; nothing comes after it), and feeds the formatter the keys: the kept
        /// formatter's keys and the digit. A full number refuses the digit, and an empty international
        /// field adds the `+` first: both take the stateless path.
        ///
        /// Mutating only so that it reads the state in place: a call on the handle's state that cannot
        /// change it copied all of it (280 bytes) first. The same goes for `afterLastKey()`.
        mutating func typedDigit(_ edit: FieldEdit, to text: String, in field: PhoneField) -> UInt8? {
            guard !typed.full, text.utf8.count == count, field.region != nil || !typed.formatter.keys.isEmpty else { return nil }
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
            guard let from = typed.formatter.outputAppendedFrom, from == count, let key = typed.formatter.keys.last else {
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

    /// `apply(edit, to: text)`, using and updating `kept`.
    ///
    /// `kept` is either `Kept()` or what this function (or `format(_:selection:keeping:)`) left
    /// after producing `text`: `MaskField` resets it whenever its caller's text is another.
    func apply(_ edit: FieldEdit, to text: String, keeping kept: inout Kept) -> FieldResult {
        if !kept.holdsState, text.isEmpty, region != nil {
            // An empty national field: the formatter before any key (an international one shows a `+` first).
            kept.keep(State(Typed(formatter: blank, full: false), count: 0, afterLastElement: 0))
        }
        if kept.holdsState, let key = kept.state.typedDigit(edit, to: text, in: self) {
            if let (number, after) = kept.state.type(key, in: self) {
                // As the stateless path: the caret after the keys before the edit and the one typed, which is
                // the end of the text.
                let shown = kept.state.typed.formatter.output.count
                let result = result(keys: kept.state.typed.formatter.keys, text: kept.state.typed.formatter.output,
                                    full: kept.state.typed.full, number: number, selection: shown..<shown,
                                    rejected: "", overflow: [])
                kept.state.count = shown
                kept.state.afterLastElement = after
                return result
            }
            // Never expected: the stateless path shows it.
            kept.keep(nil)
        }
        let (result, typed) = applying(edit, to: text)
        kept.keep(typed.flatMap { State($0, text: result.text) })
        return result
    }

    /// `format(text, selection:)`, leaving in `kept` the state of the result's text.
    func format(_ text: String, selection: Range<Int>?, keeping kept: inout Kept) -> FieldResult {
        let (result, typed) = formatting(text, selection: selection)
        kept.keep(State(typed, text: result.text))
        return result
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
    mutating func type(_ key: UInt8, in field: PhoneField, reading: inout PhoneNumber.Reading) -> PhoneNumber {
        formatter.input(key)
        let number = PhoneNumber.read(formatter.keys, home: field.home, reading: &reading)
        full = field.isFull(keys: formatter.keys, callingCode: formatter.callingCode, metadata: formatter.metadata,
                            nationalDigits: formatter.nationalNumber.count) { number }
        return number
    }
}
