// The JSON layer: objects written straight from typed values as jansson trees; see ARCHITECTURE.md.

import CJansson

/// A JSON object being made as a jansson tree, member by member, from typed values.
///
/// For a message sent on every keystroke (`maskd/didFormat`): made as a ``JSONValue`` it would be built
/// only to be converted to jansson's tree and thrown away. Written here, the tree is made directly, and its
/// text is what the same members, in the same order, serialise to as a ``JSONValue``
/// (``JSONValue/serialize(into:)``). Members are written in the order they are set, and keys must not repeat.
/// Meant for small, shallow values: nothing is cut at ``JSONValue/maximumDepth``, and the tree is made whole.
public struct JSONObjectWriter {
    let node: UnsafeMutablePointer<json_t>

    /// Appends the text of the object that `fill` writes to `bytes`, as ``JSONValue/serialize(into:)`` appends
    /// a value's; the tree lives only during the call.
    public static func serialize(into bytes: inout [UInt8], _ fill: (JSONObjectWriter) -> Void) {
        withJanssonRegion(true) { release in
            guard let root = json_object() else {
                bytes.append(contentsOf: Array("null".utf8))
                return
            }
            defer { release(root) }
            fill(JSONObjectWriter(node: root))
            appendJanssonText(of: root, to: &bytes, shortestText: 0)
        }
    }

    /// The object that `fill` writes, as a value (for a caller that needs one, as a batch's answer does): the
    /// value whose text is the written object's.
    public static func value(_ fill: (JSONObjectWriter) -> Void) -> JSONValue {
        withJanssonRegion(true) { release in
            guard let root = json_object() else { return .null }
            defer { release(root) }
            fill(JSONObjectWriter(node: root))
            return convert(root, levels: recursiveBuildLevels)
        }
    }

    public func set(_ key: StaticString, _ text: String) {
        put(key, makeString(text))
    }

    /// Sets `key` to `text`, or to `null` when there is none.
    public func set(_ key: StaticString, _ text: String?) {
        put(key, text.map(makeString) ?? json_null())
    }

    public func set(_ key: StaticString, _ number: Int) {
        put(key, json_integer(json_int_t(number)))
    }

    public func set(_ key: StaticString, _ flag: Bool) {
        put(key, flag ? json_true() : json_false())
    }

    public func setNull(_ key: StaticString) {
        put(key, json_null())
    }

    /// Sets `key` to an object whose members `fill` writes.
    public func setObject(_ key: StaticString, _ fill: (JSONObjectWriter) -> Void) {
        put(key, makeObject(fill))
    }

    /// Sets `key` to an array whose elements `fill` appends.
    public func setArray(_ key: StaticString, _ fill: (JSONArrayWriter) -> Void) {
        guard let array = json_array() else { return put(key, json_null()) }
        fill(JSONArrayWriter(node: array))
        put(key, array)
    }

    /// Adds the member, taking the reference to `value`.
    private func put(_ key: StaticString, _ value: UnsafeMutablePointer<json_t>?) {
        key.withUTF8Buffer { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                _ = json_object_setn_new_nocheck(node, chars.baseAddress, chars.count, value)
            }
        }
    }
}

/// A JSON array being made as a jansson tree, element by element (``JSONObjectWriter``).
public struct JSONArrayWriter {
    let node: UnsafeMutablePointer<json_t>

    public func append(_ text: String) {
        _ = json_array_append_new(node, makeString(text))
    }

    /// Appends an object whose members `fill` writes.
    public func appendObject(_ fill: (JSONObjectWriter) -> Void) {
        _ = json_array_append_new(node, makeObject(fill))
    }
}

/// A jansson string for `text` (`null` when memory runs out, as a ``JSONValue``'s conversion makes it).
private func makeString(_ text: String) -> UnsafeMutablePointer<json_t> {
    withUTF8(text) { bytes, length in json_stringn_nocheck(bytes, length) } ?? json_null()
}

/// A jansson object whose members `fill` writes (`null` when memory runs out).
private func makeObject(_ fill: (JSONObjectWriter) -> Void) -> UnsafeMutablePointer<json_t> {
    guard let object = json_object() else { return json_null() }
    fill(JSONObjectWriter(node: object))
    return object
}
