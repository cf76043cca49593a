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
    /// One reference, so that handing it between the handle and the field costs a retain, not a
    /// copy of the formatter's arrays; copied before it is changed when shared (a copied handle),
    /// so the handle stays a value.
    struct Kept: Sendable {
        fileprivate var state: State?

        init() {}

        /// Whether a formatter state is kept (the next digit typed at the end is one `input`).
        var holdsState: Bool { state != nil }
    }

    /// The kept state: changed only while uniquely referenced, so copies shared between threads
    /// are never written.
    fileprivate final class State: @unchecked Sendable {
        // Changed only by the one thread holding the handle (the reference is unique then): no dynamic
        // exclusivity checks, which were 5% of a key.
        /// The formatter after the keys of `text`, and whether the number was full.
        @exclusivity(unchecked) var typed: Typed
        /// The text the state is of (the handle's own; checked again, since a string compares cheaply).
        @exclusivity(unchecked) var text: String
        /// The text's length (it is ASCII) and the offset just after its last element.
        @exclusivity(unchecked) var count = 0
        @exclusivity(unchecked) var afterLastElement = 0
        /// The number's patterns' states after its digits (kept only while its keys are typed one by one).
        @exclusivity(unchecked) var reading = PhoneNumber.Reading()

        init(_ typed: Typed, text: String, count: Int, afterLastElement: Int) {
            self.typed = typed
            self.text = text
            self.count = count
            self.afterLastElement = afterLastElement
        }

        /// The state behind the field the formatter of `typed` shows as `text`, when reading the
        /// text back gives its keys (it always should: the formatter shows every key as typed).
        convenience init?(_ typed: Typed, text: String) {
            guard let after = PhoneField.afterLastKey(typed.formatter.keys, in: typed.formatter.output),
                  typed.formatter.output.elementsEqual(text.utf8) else { return nil }
            self.init(typed, text: text, count: typed.formatter.output.count, afterLastElement: after)
        }
    }

    /// `apply(edit, to: text)`, using and updating `kept`.
    ///
    /// `kept` is either `Kept()` or what this function (or `format(_:selection:keeping:)`) left
    /// after producing `text`: `MaskField` resets it whenever its caller's text is another.
    func apply(_ edit: FieldEdit, to text: String, keeping kept: inout Kept) -> FieldResult {
        if kept.state == nil, text.isEmpty, region != nil {
            // An empty national field: the formatter before any key (an international one shows a `+` first).
            kept.state = State(Typed(formatter: blank, full: false), text: "", count: 0, afterLastElement: 0)
        }
        if let key = typedDigit(edit, to: text, kept.state) {
            if !isKnownUniquelyReferenced(&kept.state!) {
                let shared = kept.state!
                kept.state = State(shared.typed, text: shared.text, count: shared.count,
                                   afterLastElement: shared.afterLastElement)
                kept.state!.reading = shared.reading
            }
            let state = kept.state!
            let number = state.typed.type(key, in: self, reading: &state.reading)
            let keys = state.typed.formatter.keys, shown = state.typed.formatter.output
            if let afterLastKey = Self.afterLastKey(keys, in: shown, after: state) {
                // As the stateless path: the caret after the keys before the edit and the one typed,
                // which is the end of the text.
                let result = result(keys: keys, text: shown, full: state.typed.full, number: number,
                                    selection: shown.count..<shown.count, rejected: "", overflow: [])
                state.text = result.text
                state.count = shown.count
                state.afterLastElement = afterLastKey
                return result
            }
            // Never expected (the formatter shows every key as typed): the stateless path shows it.
            kept.state = nil
        }
        let (result, typed) = applying(edit, to: text)
        kept.state = typed.flatMap { State($0, text: result.text) }
        return result
    }

    /// `format(text, selection:)`, leaving in `kept` the state of the result's text.
    func format(_ text: String, selection: Range<Int>?, keeping kept: inout Kept) -> FieldResult {
        let (result, typed) = formatting(text, selection: selection)
        kept.state = State(typed, text: result.text)
        return result
    }

    /// The ASCII digit `edit` types after every element of the kept text, when that is all it does
    /// and the number can take it; nil for any other edit, which the stateless path reads.
    ///
    /// The stateless path then reads the text's keys, appends the digit (nothing is deleted: the
    /// range is empty; nothing comes after it), and feeds the formatter the keys: the kept
    /// formatter's keys and the digit. A full number refuses the digit, and an empty international
    /// field adds the `+` first: both take the stateless path.
    private func typedDigit(_ edit: FieldEdit, to text: String, _ state: State?) -> UInt8? {
        guard let state, !state.typed.full, state.text == text,
              region != nil || !state.typed.formatter.keys.isEmpty else { return nil }
        let utf8 = edit.text.utf8
        guard utf8.count == 1, let key = utf8.first, key >= 0x30, key <= 0x39 else { return nil }
        // The range as the stateless path clamps it to the text.
        let lower = min(max(edit.range.lowerBound, 0), state.count)
        let upper = min(max(edit.range.upperBound, 0), state.count)
        guard lower == upper, lower >= state.afterLastElement else { return nil }
        return key
    }
}

extension PhoneField {
    /// `afterLastKey(keys, in: shown)` for the formatter of `state` after one more key: when the key only
    /// appended to the text `state` was of (whose keys read back), only the appended bytes are read, and
    /// when the formatter read the keys back, its answer is taken.
    private static func afterLastKey(_ keys: [UInt8], in shown: [UInt8], after state: State) -> Int? {
        // The formatter read them back itself (a whole number's formatting).
        if let after = state.typed.formatter.outputAfterLastKey { return after }
        guard let from = state.typed.formatter.outputAppendedFrom, from == state.count, let key = keys.last else {
            return afterLastKey(keys, in: shown)
        }
        return shown.withUnsafeBufferPointer { shown in
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
        full = field.isFull(formatter, number: number)
        return number
    }
}
