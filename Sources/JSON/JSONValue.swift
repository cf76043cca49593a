// The JSON layer: a Swift value type for JSON documents; see ARCHITECTURE.md.

/// A JSON document as a Swift value.
///
/// Integers and doubles are kept apart: a number written without a fraction or exponent parses as ``int(_:)``,
/// anything else as ``double(_:)``.
/// The `get`-style accessors (``stringValue``, ``intValue``, ...) return nil when the value has another kind.
/// Parsing lives in `JSONValue-parse.swift`, serialisation in `JSONValue-serialize.swift`.
public enum JSONValue: Hashable, Sendable {
    /// The JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written as an integer that fits in 64 bits, kept exactly.
    case int(Int64)
    /// Any other number; NaN and infinities are not JSON and serialise as `null`.
    case double(Double)
    /// A string, which may contain NUL characters.
    case string(String)
    /// An ordered list of values.
    case array([JSONValue])
    /// An object whose keys keep their insertion order.
    case object(JSONObject)
}

// MARK: - Accessors

extension JSONValue {
    /// The string, or nil unless this is a ``string(_:)``.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, or nil unless this is an ``int(_:)`` or a ``double(_:)`` holding an exact integral value in range.
    public var intValue: Int? {
        switch self {
        case .int(let value): return Int(exactly: value)
        case .double(let value): return Int(exactly: value)
        default: return nil
        }
    }

    /// The number as a double (an ``int(_:)`` beyond 2^53 is rounded), or nil unless this is a number.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The Boolean, or nil unless this is a ``bool(_:)``.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, or nil unless this is an ``array(_:)``.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The object, or nil unless this is an ``object(_:)``.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member called `key`, or nil unless this is an object that holds `key`.
    ///
    /// Complexity: O(n) in the number of members.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index`, or nil unless this is an array and `index` is in range.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    /// Creates ``null``.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// Creates a ``bool(_:)``.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// Creates an ``int(_:)``.
    public init(integerLiteral value: Int64) { self = .int(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// Creates a ``double(_:)``.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// Creates a ``string(_:)``.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// Creates an ``array(_:)``.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Creates an ``object(_:)`` keeping the literal's order; a repeated key keeps its first place and its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}
