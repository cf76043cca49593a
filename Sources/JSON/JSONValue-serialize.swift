// The JSON layer: serialisation through jansson; see ARCHITECTURE.md.

import CJansson

#if canImport(Glibc)
    import Glibc
#endif

extension JSONValue {
    /// Serialises the value as compact UTF-8 JSON (no spaces), objects in insertion order.
    ///
    /// The outcomes that are not obvious:
    /// - Doubles are written with 17 significant digits, so they read back bit for bit (`0.1` is written
    ///   `0.10000000000000001`); an integral double keeps a `.0` so that it reads back as a double; `-0.0` is
    ///   written `-0.0`.
    /// - NaN and the infinities, which JSON cannot express, are written as `null`.
    /// - NUL characters in strings and keys are written as `\u0000` (though jansson, and so ``parse(_:)-(String)``,
    ///   refuses one in a key); other characters are written as UTF-8, not escaped.
    /// - Arrays and objects nested deeper than ``maximumDepth``, and non-empty ones at that depth (their contents would
    ///   be too deep for jansson's reader), are written as `null`, so serialising never overflows the stack and what
    ///   it writes always parses.
    ///
    /// Complexity: O(n) in the size of the value.
    /// - Returns: the UTF-8 bytes, with no terminator.
    public func serialized() -> [UInt8] {
        let root = makeJansson(self)
        defer { json_decref(root) }
        let flags = Int(JSON_COMPACT | JSON_ENCODE_ANY) | janssonRealPrecision17
        // jansson builds the text in one growing buffer; nil only when memory runs out.
        guard let text = json_dumps(root, flags) else { return Array("null".utf8) }
        defer { janssonFree(text) }
        return [UInt8](UnsafeRawBufferPointer(start: text, count: strlen(text)))
    }

    /// Appends the value's serialisation, as ``serialized()`` writes it, to `bytes`, so a caller can
    /// build a frame (a header, then the body) in one buffer that it reuses.
    ///
    /// A value holding a long array (``piecewiseArrayLength`` elements or more: itself, or a member of its objects up to
    /// three levels down, as a message's `params.diagnostics`) is written
    /// piece by piece: jansson writes each element of the long arrays, and each member key and short member of the
    /// objects around them, from a tree of its own, freed before the next is made, so a list of 100,000 diagnostics
    /// never exists as one jansson tree (several hundred bytes an element). The text is the same as
    /// ``serialized()``'s.
    public func serialize(into bytes: inout [UInt8]) {
        serialize(into: &bytes, depth: 1, threshold: JSONValue.piecewiseArrayLength)
    }

    /// Appends the value, an object, as ``serialize(into:)`` does, with `elements` as the array at `path` (the keys
    /// of the members that lead to it, each object's last member; an empty array stands there in the value).
    /// The elements are made and written one at a time, so a long list exists only as whatever `elements` reads.
    public func serialize(into bytes: inout [UInt8], elementsAt path: [String], _ elements: JSONElements) {
        serialize(into: &bytes, depth: 1, threshold: JSONValue.piecewiseArrayLength, made: (path[...], elements))
    }

    /// The value, an object, as ``serialize(into:elementsAt:_:)`` writes it, in pieces to be written one after
    /// another: the text before the elements (up to the array's `[`), each element (after a `,` but the first), and
    /// the text after them (from the `]`), so a long list's text need never exist whole (a frame written as the
    /// output takes it). The pieces joined are the bytes ``serialize(into:elementsAt:_:)`` writes.
    public func pieces(elementsAt path: [String], _ elements: JSONElements) -> JSONPieces {
        var bytes: [UInt8] = []
        var mark: (offset: Int, depth: Int) = (-1, 0)
        serialize(
            into: &bytes, depth: 1, threshold: JSONValue.piecewiseArrayLength,
            made: (path[...], JSONElements(count: 0) { _ in .null }), mark: &mark)
        // No array where the path leads: no elements are written, as ``serialize(into:elementsAt:_:)`` writes none.
        guard mark.offset >= 0 else {
            return JSONPieces(before: bytes, after: [], elements: JSONElements(count: 0) { _ in .null }, depth: 1)
        }
        // What was written at the mark is the empty array, `[]`.
        return JSONPieces(
            before: Array(bytes[..<(mark.offset + 1)]), after: Array(bytes[(mark.offset + 1)...]),
            elements: elements, depth: mark.depth + 1)
    }

    /// The array length from which ``serialize(into:)`` writes piece by piece.
    public static let piecewiseArrayLength = 256

    /// ``serialize(into:)`` with the piecewise threshold chosen, for tests that compare both ways on small values.
    public func serialize(into bytes: inout [UInt8], piecewiseFrom threshold: Int) {
        serialize(into: &bytes, depth: 1, threshold: threshold)
    }

    /// Writes the value whose outermost container sits at `depth` (1 for a document).
    /// - Parameter made: an array made element by element, at a path of members from this value.
    fileprivate func serialize(
        into bytes: inout [UInt8], depth: Int, threshold: Int,
        made: (path: ArraySlice<String>, elements: JSONElements)? = nil
    ) {
        var mark = (offset: 0, depth: 0)
        serialize(into: &bytes, depth: depth, threshold: threshold, made: made, mark: &mark)
    }

    /// - Parameter mark: set to where the made array's `[` is written, and the array's depth.
    private func serialize(
        into bytes: inout [UInt8], depth: Int, threshold: Int,
        made: (path: ArraySlice<String>, elements: JSONElements)?,
        mark: inout (offset: Int, depth: Int)
    ) {
        if let made, made.path.isEmpty {
            mark = (bytes.count, depth)
            bytes.append(UInt8(ascii: "["))
            for index in 0..<made.elements.count {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                made.elements.element(index).serialize(into: &bytes, depth: depth + 1, threshold: threshold)
            }
            bytes.append(UInt8(ascii: "]"))
            return
        }
        // Containers near the depth limit are left to jansson whole, which applies the limit.
        guard
            made != nil
                || depth < piecewiseDepthLimit
                    && holdsLongArray(threshold: threshold, objectLevels: piecewiseDepthLimit - depth)
        else {
            dumpWhole(into: &bytes, depth: depth)
            return
        }
        switch self {
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.serialize(into: &bytes, depth: depth + 1, threshold: threshold)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for (index, entry) in object.entries.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONValue.string(entry.key).dumpWhole(into: &bytes, depth: depth + 1)
                bytes.append(UInt8(ascii: ":"))
                let leads = made.map { index == object.entries.count - 1 && $0.path.first == entry.key } ?? false
                entry.value.serialize(
                    into: &bytes, depth: depth + 1, threshold: threshold,
                    made: leads ? (made!.path.dropFirst(), made!.elements) : nil, mark: &mark)
            }
            bytes.append(UInt8(ascii: "}"))
        default:
            dumpWhole(into: &bytes, depth: depth)
        }
    }

    /// Whether this is an array of `threshold` elements or more, or an object that holds one as a member, directly
    /// or through at most `objectLevels` levels of objects (a message's `params` or `result`): only object members
    /// are looked into, so the check costs a message's few members.
    private func holdsLongArray(threshold: Int, objectLevels: Int) -> Bool {
        switch self {
        case .array(let elements):
            return elements.count >= threshold
        case .object(let object):
            guard objectLevels > 0 else { return false }
            for entry in object.entries {
                switch entry.value {
                case .array(let elements):
                    if elements.count >= threshold { return true }
                case .object:
                    if entry.value.holdsLongArray(threshold: threshold, objectLevels: objectLevels - 1) { return true }
                default:
                    continue
                }
            }
            return false
        default:
            return false
        }
    }

    /// Writes the value through one jansson tree, its outermost container at `depth`.
    private func dumpWhole(into bytes: inout [UInt8], depth: Int) {
        withJanssonRegion(true) { release in dumpWhole(into: &bytes, depth: depth, release: release) }
    }

    /// ``dumpWhole(into:depth:)`` in a jansson region, whose `release` frees the tree.
    private func dumpWhole(into bytes: inout [UInt8], depth: Int, release: (UnsafeMutablePointer<json_t>) -> Void) {
        var shortest = 0
        let root = makeJansson(self, depth: depth, shortestText: &shortest)
        defer { release(root) }
        appendJanssonText(of: root, to: &bytes, shortestText: shortest)
    }

    /// Serialises the value as ``serialized()`` does, as a string.
    public func serializedString() -> String {
        String(decoding: serialized(), as: UTF8.self)
    }
}

/// The elements of an array made one at a time as it is written (``JSONValue/serialize(into:elementsAt:_:)``).
public struct JSONElements {
    public let count: Int
    public let element: (Int) -> JSONValue

    public init(count: Int, element: @escaping (Int) -> JSONValue) {
        self.count = count
        self.element = element
    }

    /// The elements as values, all at once.
    public var values: [JSONValue] { (0..<count).map(element) }
}

/// A value's text in pieces, made as they are asked for (``JSONValue/pieces(elementsAt:_:)``).
public struct JSONPieces {
    /// The text up to the elements, the array's `[` included.
    public let before: [UInt8]
    /// The text from the array's `]` on.
    public let after: [UInt8]
    public let elements: JSONElements
    /// How deep the elements sit (for the depth limit).
    let depth: Int

    /// Appends element `index`'s text, after a `,` when it is not the first.
    public func append(element index: Int, to bytes: inout [UInt8]) {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        elements.element(index).serialize(into: &bytes, depth: depth, threshold: JSONValue.piecewiseArrayLength)
    }

    /// The length of the whole text, every element made once to measure it (in a buffer reused for each).
    public func byteCount() -> Int {
        var total = before.count + after.count
        var scratch: [UInt8] = []
        for index in 0..<elements.count {
            scratch.removeAll(keepingCapacity: true)
            append(element: index, to: &scratch)
            total += scratch.count
        }
        return total
    }
}

/// Where `json_dump_callback` writes: a staging buffer in front of the caller's bytes.
private struct DumpTarget {
    var bytes: UnsafeMutablePointer<[UInt8]>
    var staging: UnsafeMutableBufferPointer<UInt8>
    var staged = 0

    mutating func flush() {
        bytes.pointee.append(contentsOf: UnsafeBufferPointer(rebasing: staging[..<staged]))
        staged = 0
    }

    /// jansson's dump callback: `context` is a `DumpTarget`.
    static let append: json_dump_callback_t = { piece, count, context in
        guard let piece, let context else { return -1 }
        let target = context.assumingMemoryBound(to: DumpTarget.self)
        let bytes = UnsafeRawBufferPointer(start: piece, count: count)
        if target.pointee.staged + count > target.pointee.staging.count { target.pointee.flush() }
        if count > target.pointee.staging.count {
            target.pointee.bytes.pointee.append(contentsOf: bytes)
        } else {
            UnsafeMutableRawPointer(target.pointee.staging.baseAddress! + target.pointee.staged).copyMemory(
                from: piece, byteCount: count)
            target.pointee.staged += count
        }
        return 0
    }
}

/// Appends the compact text of the jansson tree `root` to `bytes`, as ``JSONValue/serialize(into:)`` writes it.
/// - Parameter shortestText: a length the text cannot be shorter than (0 when not known).
func appendJanssonText(of root: UnsafeMutablePointer<json_t>, to bytes: inout [UInt8], shortestText: Int) {
    let flags = Int(JSON_COMPACT | JSON_ENCODE_ANY) | janssonRealPrecision17
    // A message's text (most are a few hundred bytes) is dumped by jansson into one stack buffer and appended
    // in one copy: jansson's own buffer writer, with no call into Swift for each of its many small pieces.
    // `json_dumpb` reports the length it needs when the buffer is short, having written nothing usable: a
    // value whose text cannot fit (its strings and keys alone are too long) goes straight to the callback.
    if shortestText <= dumpBufferSize {
        let written = withUnsafeTemporaryAllocation(of: CChar.self, capacity: dumpBufferSize) { buffer -> Int in
            let length = json_dumpb(root, buffer.baseAddress, dumpBufferSize, flags)
            if length > 0, length <= dumpBufferSize {
                bytes.append(contentsOf: UnsafeRawBufferPointer(start: buffer.baseAddress, count: length))
            }
            return length
        }
        if written > 0, written <= dumpBufferSize { return }
    }
    // jansson hands its text over in many small pieces: they are gathered on the stack and appended to `bytes` in
    // a few large copies, with no text of jansson's own to grow, measure and free.
    let failed = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2048) { staging in
        withUnsafeMutablePointer(to: &bytes) { bytes in
            var target = DumpTarget(bytes: bytes, staging: staging)
            let status = withUnsafeMutablePointer(to: &target) {
                json_dump_callback(root, DumpTarget.append, $0, flags)
            }
            target.flush()
            return status != 0
        }
    }
    if failed { bytes.append(contentsOf: Array("null".utf8)) }
}

/// The stack buffer a value is dumped into whole when its text may fit (``JSONValue/serialize(into:)``).
private let dumpBufferSize = 4096

/// jansson's `JSON_REAL_PRECISION(17)`, a function-like macro that Swift does not import.
private let janssonRealPrecision17 = (17 & 0x1F) << 11

// MARK: - Conversion to jansson

/// One array or object whose children are still to be added to its jansson counterpart.
private struct BuildFrame {
    var target: UnsafeMutablePointer<json_t>
    var elements: [JSONValue] = []
    var entries: [JSONObject.Entry] = []
    var isObject: Bool
    var index = 0
    var count: Int
}

/// How deep ``JSONValue/serialize(into:)`` writes piece by piece: deeper, one jansson tree applies the depth limit.
private let piecewiseDepthLimit = 4

/// Builds a jansson tree for `value`, whose outermost container sits at `depth`, with an explicit stack; the caller
/// owns the returned reference.
private func makeJansson(_ value: JSONValue, depth: Int = 1) -> UnsafeMutablePointer<json_t> {
    var shortest = 0
    return makeJansson(value, depth: depth, shortestText: &shortest)
}

/// Builds a jansson tree as ``makeJansson(_:depth:)`` does, and adds to `shortestText` a length the tree's compact
/// text cannot be shorter than: its strings and keys, unescaped, with their quotes.
///
/// The first ``recursiveBuildLevels`` levels (all of a message's) are built by recursion, which walks the values in
/// place; deeper containers by an explicit stack, so depth costs heap, not call stack.
private func makeJansson(_ value: JSONValue, depth: Int, shortestText: inout Int) -> UnsafeMutablePointer<json_t> {
    makeJansson(value, depth: depth, levels: recursiveBuildLevels, shortestText: &shortestText)
}

/// How many levels of containers ``makeJansson(_:depth:shortestText:)`` and parsing's conversion build by recursion.
let recursiveBuildLevels = 32

/// Builds by recursion for `levels` more levels of containers, then with a stack.
private func makeJansson(_ value: JSONValue, depth: Int, levels: Int, shortestText: inout Int)
    -> UnsafeMutablePointer<json_t>
{
    switch value {
    case .array(let elements) where levels > 0:
        guard janssonAccepts(depth: depth, isEmpty: elements.isEmpty), let node = json_array() else {
            return json_null()
        }
        for element in elements {
            _ = json_array_append_new(
                node,
                makeJansson(
                    element, depth: depth + 1, levels: levels - 1,
                    shortestText: &shortestText))
        }
        return node
    case .object(let object) where levels > 0:
        guard janssonAccepts(depth: depth, isEmpty: object.isEmpty), let node = json_object() else {
            return json_null()
        }
        for entry in object.entries {
            let child = makeJansson(entry.value, depth: depth + 1, levels: levels - 1, shortestText: &shortestText)
            withUTF8(entry.key) { key, length in
                shortestText += length + 3
                _ = json_object_setn_new_nocheck(node, key, length, child)
            }
        }
        return node
    case .array, .object:
        return makeJanssonWithStack(value, depth: depth, shortestText: &shortestText)
    default:
        var unused: [BuildFrame] = []
        return makeNode(value, depth: depth, stack: &unused, shortestText: &shortestText)
    }
}

/// Whether a container at `depth` is kept: jansson's parser refuses a value below the deepest container, so a
/// non-empty one there is cut too (written `null`).
private func janssonAccepts(depth: Int, isEmpty: Bool) -> Bool {
    depth < JSONValue.maximumDepth || (depth == JSONValue.maximumDepth && isEmpty)
}

/// Builds a jansson tree with an explicit stack, as ``makeJansson(_:depth:shortestText:)`` does.
private func makeJanssonWithStack(_ value: JSONValue, depth: Int, shortestText: inout Int)
    -> UnsafeMutablePointer<json_t>
{
    var stack: [BuildFrame] = []
    let root = makeNode(value, depth: depth, stack: &stack, shortestText: &shortestText)
    while !stack.isEmpty {
        let top = stack.count - 1
        let index = stack[top].index
        guard index < stack[top].count else {
            stack.removeLast()
            continue
        }
        stack[top].index += 1
        let target = stack[top].target
        if stack[top].isObject {
            let entry = stack[top].entries[index]
            let child = makeNode(entry.value, depth: depth + stack.count, stack: &stack, shortestText: &shortestText)
            withUTF8(entry.key) { key, length in
                shortestText += length + 3
                _ = json_object_setn_new_nocheck(target, key, length, child)
            }
        } else {
            let child = makeNode(
                stack[top].elements[index], depth: depth + stack.count, stack: &stack,
                shortestText: &shortestText)
            _ = json_array_append_new(target, child)
        }
    }
    return root
}

/// Makes the jansson node for `value`; a non-empty container is returned empty and pushed to be filled.
private func makeNode(_ value: JSONValue, depth: Int, stack: inout [BuildFrame], shortestText: inout Int)
    -> UnsafeMutablePointer<json_t>
{
    switch value {
    case .null:
        return json_null()
    case .bool(let flag):
        return flag ? json_true() : json_false()
    case .int(let number):
        return json_integer(json_int_t(number))
    case .double(let number):
        // json_real refuses NaN and the infinities.
        return json_real(number) ?? json_null()
    case .string(let text):
        return withUTF8(text) { bytes, length in
            shortestText += length + 2
            return json_stringn_nocheck(bytes, length)
        } ?? json_null()
    case .array(let elements):
        guard janssonAccepts(depth: depth, isEmpty: elements.isEmpty), let node = json_array() else {
            return json_null()
        }
        if !elements.isEmpty {
            stack.append(BuildFrame(target: node, elements: elements, isObject: false, count: elements.count))
        }
        return node
    case .object(let object):
        guard janssonAccepts(depth: depth, isEmpty: object.isEmpty), let node = json_object() else {
            return json_null()
        }
        if !object.isEmpty {
            stack.append(BuildFrame(target: node, entries: object.entries, isObject: true, count: object.count))
        }
        return node
    }
}

/// Calls `body` with a string's UTF-8 bytes as a C pointer (never nil) and a length.
func withUTF8<R>(_ text: String, _ body: (UnsafePointer<CChar>, Int) -> R) -> R {
    var text = text
    return text.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) { chars in
            if let base = chars.baseAddress { return body(base, chars.count) }
            var empty: CChar = 0
            return body(&empty, 0)
        }
    }
}
