// Field typing for the engine and catalogue tests: compile a mask, type into it as a text field does, and
// compare what a person sees.
import MaskCatalog
import MaskEngine
import XCTest

/// The one helper most engine tests go through: compile, run steps, compare what a person sees.
///
/// A text with a `|` marks the caret (`"+1 (555) 12|3"`); a text without one is checked alone.
public func compiled(_ notation: String, file: StaticString = #filePath, line: UInt = #line) -> Mask {
    do {
        return try Mask.compile(notation)
    } catch {
        XCTFail("mask \(notation) does not compile: \(error)", file: file, line: line)
        return try! Mask.compile("[0]")
    }
}

/// Splits `"12|34"` into the text and the caret offset.
public func caretText(_ marked: String) -> (text: String, caret: Int?) {
    guard let bar = marked.firstIndex(of: "|") else { return (marked, nil) }
    var text = marked
    text.remove(at: bar)
    return (text, marked.distance(from: marked.startIndex, to: bar))
}

/// `result` as a text with the caret marked.
public func marked(_ result: FieldResult) -> String {
    var text = Array(result.text)
    if result.selection.isEmpty {
        text.insert("|", at: result.caret)
    } else {
        text.insert("]", at: result.selection.upperBound)
        text.insert("[", at: result.selection.lowerBound)
    }
    return String(text)
}

/// A field being typed into, as a text field holds it: text plus selection.
public struct TypingField {
    public let mask: Mask
    public var text: String
    public var selection: Range<Int>
    public var last: FieldResult?

    public init(_ mask: Mask, _ marked: String = "|") {
        self.mask = mask
        let (text, caret) = caretText(marked)
        self.text = text
        let c = caret ?? text.count
        selection = c..<c
    }

    @discardableResult
    public mutating func run(_ edit: FieldEdit) -> FieldResult {
        let result = mask.apply(edit, to: text)
        text = result.text
        selection = result.selection
        last = result
        return result
    }

    /// Types each character as its own insertion.
    @discardableResult
    public mutating func type(_ keys: String) -> FieldResult {
        var result = last ?? mask.format(text, selection: selection)
        for key in keys { result = run(.insert(String(key), at: selection)) }
        return result
    }

    @discardableResult
    public mutating func paste(_ text: String) -> FieldResult { run(.insert(text, at: selection)) }

    @discardableResult
    public mutating func backspace() -> FieldResult {
        if !selection.isEmpty { return run(.backspace(selection)) }
        let c = selection.lowerBound
        return run(.backspace(max(c - 1, 0)..<c))
    }

    @discardableResult
    public mutating func forwardDelete() -> FieldResult {
        if !selection.isEmpty { return run(.forwardDelete(selection)) }
        let c = selection.lowerBound
        return run(.forwardDelete(c..<min(c + 1, text.count)))
    }

    public mutating func select(_ range: Range<Int>) { selection = range }

    public var marked: String { TypingField.mark(text, selection) }

    public static func mark(_ text: String, _ selection: Range<Int>) -> String {
        var chars = Array(text)
        if selection.isEmpty {
            chars.insert("|", at: selection.lowerBound)
        } else {
            chars.insert("]", at: selection.upperBound)
            chars.insert("[", at: selection.lowerBound)
        }
        return String(chars)
    }
}

/// Asserts the field shows `expected` (caret marked with `|`).
public func check(_ field: TypingField, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(field.marked, expected, file: file, line: line)
}

/// The texts a person gets typing `text` key by key, and pasting it, into an empty field of `mask`:
/// `Protocol/engine.md` says they are the same.
public func typedAndPasted(_ mask: Mask, _ text: String) -> (typed: String, pasted: String) {
    var typed = TypingField(mask, "|")
    typed.text = mask.format("").text
    typed.selection = typed.text.count..<typed.text.count
    var pasted = typed
    typed.type(text)
    pasted.paste(text)
    return (typed.text, pasted.text)
}
