// The JSON layer: parsing through jansson; see ARCHITECTURE.md.

import CJansson

extension JSONValue {
    /// The deepest nesting of arrays and objects that parsing accepts (jansson's `JSON_PARSER_MAX_DEPTH`).
    public static let maximumDepth = 2048

    /// Parses one JSON document (any value, not only an object or array) from UTF-8 bytes.
    ///
    /// The outcomes that are not obvious:
    /// - `\u0000` in a string is kept (jansson's `JSON_ALLOW_NUL`); in an object key it is an error, which jansson
    ///   does not support.
    /// - Invalid UTF-8, and escaped lone surrogates such as `"\ud800"`, are errors.
    /// - An integer that fits in `Int64` is an exact ``int(_:)``, also beyond 2^53; one outside `Int64` reads as the
    ///   nearest ``double(_:)``, a number beyond the double range (`1e400`) as the largest finite double of its sign
    ///   (valid JSON is read whatever its numbers); an underflowing double reads as `0.0`.
    /// - A repeated object key keeps its first place and its last value, as JavaScript's `JSON.parse` does.
    /// - Nesting deeper than ``maximumDepth`` is an error; conversion to Swift values recurses only through a
    ///   message's few levels, so depth costs heap, not call stack.
    /// - Whitespace may surround the value; anything else after it is an error.
    ///
    /// - Parameter bytes: the document, with no terminator needed.
    /// - Returns: the value.
    /// - Throws: ``JSONParseError`` with jansson's message and position.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws -> JSONValue {
        do {
            return try parseAsWritten(bytes)
        } catch let error as JSONParseError {
            // Valid JSON whose numbers jansson refuses is read with them widened (``NumberWidening``); only a failed parse
            // pays for the look.
            guard let widened = NumberWidening.rewritten(bytes) else { throw error }
            return try widened.withUnsafeBytes { try parseAsWritten($0) }
        }
    }

    /// Parses `bytes` as jansson reads them.
    private static func parseAsWritten(_ bytes: UnsafeRawBufferPointer) throws -> JSONValue {
        // A message's tree (a few KB for most) is made in the thread's jansson region; a long document's is not.
        try withJanssonRegion(bytes.count <= 64 << 10) { release in try parse(bytes, release: release) }
    }

    /// ``parse(_:)-(UnsafeRawBufferPointer)`` with `release` freeing jansson's tree.
    private static func parse(_ bytes: UnsafeRawBufferPointer, release: (UnsafeMutablePointer<json_t>) -> Void) throws
        -> JSONValue
    {
        var error = json_error_t()
        let flags = Int(JSON_DECODE_ANY | JSON_ALLOW_NUL)
        let root: UnsafeMutablePointer<json_t>?
        if let base = bytes.baseAddress {
            root = json_loadb(base.assumingMemoryBound(to: CChar.self), bytes.count, flags, &error)
        } else {
            var empty: CChar = 0
            root = json_loadb(&empty, 0, flags, &error)
        }
        guard let root else { throw JSONParseError(jansson: &error) }
        defer { release(root) }
        return convert(root, levels: recursiveBuildLevels)
    }

    /// Parses one JSON document from UTF-8 bytes, as ``parse(_:)-(UnsafeRawBufferPointer)`` does.
    ///
    /// - Throws: ``JSONParseError``.
    public static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        try bytes.withUnsafeBytes { try parse($0) }
    }

    /// Parses one JSON document from a string, as ``parse(_:)-(UnsafeRawBufferPointer)`` does.
    ///
    /// - Throws: ``JSONParseError``.
    public static func parse(_ text: String) throws -> JSONValue {
        var text = text
        return try text.withUTF8 { try parse(UnsafeRawBufferPointer($0)) }
    }
}

/// A document's bytes in pieces, in order, each given up once parsing has read it: a large body (a `didOpen` of a
/// 10 MB document) is never held whole while jansson reads it (jansson keeps its own copy of the string it is
/// reading and the decoded string besides).
public final class ByteChunks: Hashable, @unchecked Sendable {
    fileprivate var chunks: [[UInt8]]
    /// The chunk being read, and the next byte of it to read.
    fileprivate var index = 0
    fileprivate var offset = 0

    public init(_ chunks: [[UInt8]] = []) {
        self.chunks = chunks
    }

    /// Reads are gathered into chunks of this many bytes: each is then a mapping of its own, which `free` gives back
    /// to the system once it is read (reads of 64 KiB each were on the heap, which kept them resident after they
    /// were given up, for the rest of the parse and after: 8 MB of a 10 MB `didOpen`).
    static let gathering = 1 << 20

    /// Adds bytes at the end.
    public func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Adds bytes at the end (a copy).
    public func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        let last = chunks.count - 1
        if last >= index, chunks[last].capacity - chunks[last].count >= bytes.count {
            chunks[last].append(contentsOf: bytes)
        } else {
            var chunk: [UInt8] = []
            chunk.reserveCapacity(max(ByteChunks.gathering, bytes.count))
            chunk.append(contentsOf: bytes)
            chunks.append(chunk)
        }
    }

    /// The bytes not yet read, in all.
    public var count: Int { chunks[index...].reduce(0) { $0 + $1.count } - offset }

    /// The bytes not yet read, in one array (for tests and small bodies).
    public var joined: [UInt8] { Array(chunks[index...].joined().dropFirst(offset)) }

    /// Chunks are equal when the bytes still to read are.
    public static func == (lhs: ByteChunks, rhs: ByteChunks) -> Bool { lhs.joined == rhs.joined }

    public func hash(into hasher: inout Hasher) { hasher.combine(joined) }

    /// What jansson reads: the bytes with ``NumberWidening`` applied, made a piece at a time.
    private var widening = NumberWidening()
    private var widened: [UInt8] = []
    private var widenedStart = 0
    private var wideningFinished = false

    /// Copies up to `room` bytes to `target` with the numbers jansson refuses widened (``NumberWidening``), giving up
    /// each chunk once it is read. - Returns: the bytes copied; 0 at the end.
    fileprivate func readWidening(into target: UnsafeMutableRawPointer, room: Int) -> Int {
        var copied = 0
        while copied < room {
            guard widenedStart == widened.count else {
                let take = min(room - copied, widened.count - widenedStart)
                widened.withUnsafeBytes {
                    (target + copied).copyMemory(from: $0.baseAddress! + widenedStart, byteCount: take)
                }
                widenedStart += take
                copied += take
                continue
            }
            widened.removeAll(keepingCapacity: true)
            widenedStart = 0
            guard index < chunks.count else {
                if wideningFinished { break }
                wideningFinished = true
                widening.finish(into: &widened)
                continue
            }
            let take = min(chunks[index].count - offset, 1 << 16)
            chunks[index].withUnsafeBytes { bytes in
                widening.pass(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + take)]), into: &widened)
            }
            offset += take
            if offset == chunks[index].count {
                chunks[index] = []
                index += 1
                offset = 0
            }
        }
        return copied
    }
}

extension JSONValue {
    /// Parses one JSON document given in chunks, as ``parse(_:)-(UnsafeRawBufferPointer)`` parses the same bytes
    /// (the same value, or the same error and position), giving up each chunk once jansson has read it.
    ///
    /// - Throws: ``JSONParseError``.
    public static func parse(_ chunks: ByteChunks) throws -> JSONValue {
        var error = json_error_t()
        let flags = Int(JSON_DECODE_ANY | JSON_ALLOW_NUL)
        let reader: json_load_callback_t = { buffer, room, context in
            guard let buffer, let context else { return 0 }
            return Unmanaged<ByteChunks>.fromOpaque(context).takeUnretainedValue().readWidening(
                into: buffer, room: room)
        }
        let root = withExtendedLifetime(chunks) {
            json_load_callback(reader, Unmanaged.passUnretained(chunks).toOpaque(), flags, &error)
        }
        // A large document's tree is jansson's own (malloc), not in the thread's region: freed here.
        guard let root else { throw JSONParseError(jansson: &error) }
        defer { json_decref(root) }
        return convert(root, levels: recursiveBuildLevels)
    }
}

extension JSONParseError {
    /// Reads jansson's error record.
    init(jansson error: inout json_error_t) {
        let text = withUnsafeBytes(of: &error.text) { raw -> String in
            // The last byte holds jansson's error code, so the message ends at the first NUL before it.
            let limited = raw.prefix(raw.count - 1)
            let end = limited.firstIndex(of: 0) ?? limited.endIndex
            return String(decoding: limited[..<end], as: UTF8.self)
        }
        self.init(message: text, line: Int(error.line), column: Int(error.column), offset: Int(error.position))
    }
}

// MARK: - Conversion from jansson

/// One array or object whose children are being converted.
private struct Frame {
    var container: UnsafeMutablePointer<json_t>
    var isObject: Bool
    /// For arrays: the index of the next child to visit.
    var index = 0
    var count = 0
    var elements: [JSONValue] = []
    /// For objects: the iterator at the next member to visit, and the key of the member being converted.
    var iterator: UnsafeMutableRawPointer?
    var key = ""
    var entries: [JSONObject.Entry] = []
}

/// Converts a jansson tree to a ``JSONValue``, by recursion for `levels` levels of containers (every level of a
/// message: no stack of frames to keep), then with an explicit stack.
func convert(_ node: UnsafeMutablePointer<json_t>, levels: Int) -> JSONValue {
    switch node.pointee.type {
    case JSON_ARRAY where levels > 0:
        let count = json_array_size(node)
        var elements: [JSONValue] = []
        elements.reserveCapacity(count)
        for index in 0..<count { elements.append(convert(json_array_get(node, index), levels: levels - 1)) }
        return .array(elements)
    case JSON_OBJECT where levels > 0:
        var entries: [JSONObject.Entry] = []
        entries.reserveCapacity(json_object_size(node))
        var iterator = json_object_iter(node)
        while let member = iterator {
            entries.append(
                JSONObject.Entry(
                    key: memberKey(member),
                    value: convert(json_object_iter_value(member), levels: levels - 1)))
            iterator = json_object_iter_next(node, member)
        }
        return .object(JSONObject(uniqueEntries: entries))
    case JSON_ARRAY, JSON_OBJECT:
        return convertWithStack(node)
    default:
        return convertLeaf(node)
    }
}

/// Converts a scalar.
private func convertLeaf(_ node: UnsafeMutablePointer<json_t>) -> JSONValue {
    switch node.pointee.type {
    case JSON_STRING:
        let length = json_string_length(node)
        return json_string_value(node).withMemoryRebound(to: UInt8.self, capacity: length) {
            .string(String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self))
        }
    case JSON_INTEGER:
        return .int(Int64(json_integer_value(node)))
    case JSON_REAL:
        return .double(json_real_value(node))
    case JSON_TRUE:
        return .bool(true)
    case JSON_FALSE:
        return .bool(false)
    default:
        return .null
    }
}

/// Converts a jansson tree to a ``JSONValue`` with an explicit stack, so depth costs heap, not call stack.
private func convertWithStack(_ root: UnsafeMutablePointer<json_t>) -> JSONValue {
    var stack: [Frame] = []
    var node = root
    while true {
        // Descend: either produce a leaf value or push a frame and continue with its first child.
        var produced: JSONValue
        switch node.pointee.type {
        case JSON_ARRAY:
            let count = json_array_size(node)
            if count == 0 {
                produced = .array([])
            } else {
                var frame = Frame(container: node, isObject: false, index: 1, count: count)
                frame.elements.reserveCapacity(count)
                stack.append(frame)
                node = json_array_get(node, 0)
                continue
            }
        case JSON_OBJECT:
            if let iterator = json_object_iter(node) {
                var frame = Frame(container: node, isObject: true)
                frame.entries.reserveCapacity(json_object_size(node))
                frame.key = memberKey(iterator)
                frame.iterator = json_object_iter_next(node, iterator)
                stack.append(frame)
                node = json_object_iter_value(iterator)
                continue
            }
            produced = .object(JSONObject())
        default:
            produced = convertLeaf(node)
        }
        // Ascend: hand the value to its parent, closing every container whose last child this was.
        while true {
            guard !stack.isEmpty else { return produced }
            let top = stack.count - 1
            if stack[top].isObject {
                stack[top].entries.append(JSONObject.Entry(key: stack[top].key, value: produced))
                if let iterator = stack[top].iterator {
                    stack[top].key = memberKey(iterator)
                    stack[top].iterator = json_object_iter_next(stack[top].container, iterator)
                    node = json_object_iter_value(iterator)
                    break
                }
                produced = .object(JSONObject(uniqueEntries: stack.removeLast().entries))
            } else {
                stack[top].elements.append(produced)
                if stack[top].index < stack[top].count {
                    node = json_array_get(stack[top].container, stack[top].index)
                    stack[top].index += 1
                    break
                }
                produced = .array(stack.removeLast().elements)
            }
        }
    }
}

/// Reads the key at a jansson object iterator.
private func memberKey(_ iterator: UnsafeMutableRawPointer) -> String {
    let length = json_object_iter_key_len(iterator)
    return json_object_iter_key(iterator).withMemoryRebound(to: UInt8.self, capacity: length) {
        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
}
