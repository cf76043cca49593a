/// What a field looks like after formatting or an edit, and what it still needs.
///
/// Positions are offsets in `Character`s (grapheme clusters) into `text`; `EncodedText`
/// converts them to and from UTF-8, UTF-16 or UTF-32 code-unit offsets.
public struct FieldResult: Hashable, Sendable {
    /// The field's formatted text.
    public var text: String
    /// The caret, or the selection carried through formatting, in characters.
    public var selection: Range<Int>
    /// The extracted value: the entered characters plus the `{}` literals shown.
    ///
    /// A slot mask's value is written out when it is read, not with every keystroke's result (an editor's
    /// field reads it far less often than it types); each read writes it anew.
    public var value: String {
        get { deferredValue.string }
        set { deferredValue = .string(newValue) }
    }
    /// No required slot and no `{}` literal is left to fill.
    public var complete: Bool
    /// Complete, and every validator (and the `regex` option) passes.
    public var valid: Bool
    /// Why the field is not valid, as short sentences; empty when it is.
    public var problems: [String]
    /// What the next slot takes, or nil when the field is full.
    public var next: SlotKind?
    /// The tail still to fill: slots as the placeholder character, literals as themselves.
    public var placeholder: String
    /// The canonical bracket notation of the mask in force (the chosen one for `oneOf`).
    public var mask: String
    /// The card brand, for masks that choose one; nil otherwise or while undecided.
    public var brand: String?
    /// Entered characters that fit nowhere and were dropped.
    public var rejected: String
    /// Entered characters cut because the mask was full or they no longer fit after re-flow.
    public var overflow: String
    /// The `phone` preset: the region of the number as typed (ISO 3166-1, `001` for
    /// non-geographic numbers); nil while unknown and for other masks.
    public var region: String?
    /// The `phone` preset: the kind of number (`mobile`, `fixed`, ...); nil while unknown.
    public var phoneType: String?
    /// The `phone` preset: the extension's digits (nil when there is none), and the number's E.164 and
    /// RFC 3966 forms once its length is possible (nil before).
    public var phoneExtension: String? = nil
    public var e164: String? = nil
    public var rfc3966: String? = nil
    /// `value`, or how to write it.
    var deferredValue: DeferredValue

    /// The caret: the end of `selection`.
    public var caret: Int { selection.upperBound }

    /// The same result with its value written out, for a result kept long after its edit: a deferred
    /// value holds the edit's cell arrays, which a kept result would otherwise keep alive.
    public func settled() -> FieldResult {
        guard case .string = deferredValue else {
            var copy = self
            copy.deferredValue = .string(deferredValue.string)
            return copy
        }
        return self
    }

    // Equal results read the same: `value` compares as the text it writes, however it is kept.
    public static func == (a: FieldResult, b: FieldResult) -> Bool {
        a.text == b.text && a.selection == b.selection && a.complete == b.complete && a.valid == b.valid
            && a.next == b.next && a.problems == b.problems && a.placeholder == b.placeholder && a.mask == b.mask
            && a.brand == b.brand && a.rejected == b.rejected && a.overflow == b.overflow && a.region == b.region
            && a.phoneType == b.phoneType && a.phoneExtension == b.phoneExtension && a.e164 == b.e164
            && a.rfc3966 == b.rfc3966 && a.value == b.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(selection)
        hasher.combine(value)
        hasher.combine(problems)
        hasher.combine(placeholder)
        hasher.combine(mask)
        hasher.combine(brand)
    }
}

extension FieldResult {
    /// A result whose value is written already (the memberwise initializer takes a `DeferredValue`).
    package init(
        text: String, selection: Range<Int>, value: String, complete: Bool, valid: Bool, problems: [String],
        next: SlotKind?, placeholder: String, mask: String, brand: String?, rejected: String, overflow: String,
        region: String? = nil, phoneType: String? = nil, phoneExtension: String? = nil, e164: String? = nil,
        rfc3966: String? = nil
    ) {
        self.init(
            text: text, selection: selection, complete: complete, valid: valid, problems: problems, next: next,
            placeholder: placeholder, mask: mask, brand: brand, rejected: rejected, overflow: overflow,
            region: region, phoneType: phoneType, phoneExtension: phoneExtension, e164: e164, rfc3966: rfc3966,
            deferredValue: .string(value))
    }
}

/// A result's value, or the field state it is written from: a program and its cells up to the element
/// the text ends at (the cells are shared with the edit that made them, so keeping them copies nothing).
enum DeferredValue: Sendable {
    case string(String)
    case bytes(Program, [Cell<UInt8>], limit: Int)
    case characters(Program, [Cell<Character>], limit: Int)

    var string: String {
        switch self {
        case .string(let value): return value
        case .bytes(let program, let cells, let limit): return program.value(of: cells, limit: limit)
        case .characters(let program, let cells, let limit): return program.value(of: cells, limit: limit)
        }
    }

    /// Appends the value's UTF-8 bytes to `output`: from the cells themselves on the byte path, with no string made.
    func appendUTF8(to output: inout [UInt8]) {
        switch self {
        case .string(let value): output.append(contentsOf: value.utf8)
        case .bytes(let program, let cells, let limit): program.appendValue(of: cells, limit: limit, to: &output)
        case .characters(let program, let cells, let limit): program.appendValue(of: cells, limit: limit, to: &output)
        }
    }
}

/// What a slot accepts, as `next` reports it.
public enum SlotKind: String, Hashable, Sendable {
    case digit, letter, alnum, any
}

/// One edit a person made to a field's text.
public struct FieldEdit: Hashable, Sendable {
    /// How a deletion was made; an insertion ignores it.
    public enum Direction: Hashable, Sendable {
        case backward, forward
    }

    /// The replaced range, in characters of the text before the edit.
    public var range: Range<Int>
    /// The inserted text; empty for a deletion.
    public var text: String
    /// Backspace (backward) or forward delete, for deletions.
    public var direction: Direction
    /// The caret or selection before the edit, when the caller knows it and it is not `range` (a
    /// selection elsewhere in the field): a refused insertion gives it back unchanged.
    public var selection: Range<Int>? = nil

    public init(range: Range<Int>, text: String, direction: Direction = .backward) {
        self.range = range
        self.text = text
        self.direction = direction
    }

    /// Typing or pasting `text` over `range`.
    public static func insert(_ text: String, at range: Range<Int>) -> FieldEdit {
        FieldEdit(range: range, text: text)
    }

    /// Backspace over `range` (a collapsed caret deletes the character before it).
    public static func backspace(_ range: Range<Int>) -> FieldEdit {
        FieldEdit(range: range, text: "", direction: .backward)
    }

    /// Forward delete over `range`.
    public static func forwardDelete(_ range: Range<Int>) -> FieldEdit {
        FieldEdit(range: range, text: "", direction: .forward)
    }
}
