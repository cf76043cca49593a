// The JSON layer: the ordered object type; see ARCHITECTURE.md.

/// A JSON object: members in insertion order, with unique keys.
///
/// Objects in LSP messages are small, so members live in one array and lookups are linear.
/// Serialisation writes members in insertion order.
/// Equality and hashing ignore the order, as JSON does.
public struct JSONObject: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One member.
    struct Entry: Hashable, Sendable {
        var key: String
        var value: JSONValue

        init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    var entries: [Entry]

    /// Creates an empty object.
    public init() { entries = [] }

    /// Creates an object from pairs in order; a repeated key keeps its first place and its last value.
    ///
    /// Complexity: O(n²) in the number of pairs.
    public init(_ pairs: [(String, JSONValue)]) {
        entries = pairs.map { Entry(key: $0.0, value: $0.1) }
        // Literals, the usual source, repeat no key: only when one is repeated are the pairs merged one by one.
        guard JSONObject.repeatsKey(entries) else { return }
        entries = []
        for (key, value) in pairs { self[key] = value }
    }

    /// Whether two members have the same key.
    private static func repeatsKey(_ entries: [Entry]) -> Bool {
        guard entries.count > 1 else { return false }
        for later in 1..<entries.count {
            let key = entries[later].key
            let length = key.utf8.count
            for earlier in 0..<later where entries[earlier].key.utf8.count == length && entries[earlier].key == key {
                return true
            }
        }
        return false
    }

    /// Creates an object from a literal, as ``init(_:)`` does.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }

    /// Creates an object from members whose keys are known to be unique.
    init(uniqueEntries: [Entry]) { entries = uniqueEntries }

    /// The value for `key`, or nil when absent; setting nil removes the member, setting a new key appends it.
    ///
    /// Complexity: O(n) in the number of members.
    public subscript(key: String) -> JSONValue? {
        get {
            let length = key.utf8.count
            for entry in entries where entry.key.utf8.count == length && entry.key == key { return entry.value }
            return nil
        }
        set {
            // Comparing lengths first keeps most mismatches off String's slow comparison path.
            let length = key.utf8.count
            if let index = entries.firstIndex(where: { $0.key.utf8.count == length && $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append(Entry(key: key, value: newValue))
            }
        }
    }

    /// The keys in insertion order.
    public var keys: [String] { entries.map(\.key) }

    /// The number of members.
    public var count: Int { entries.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { entries.isEmpty }

    /// Returns an iterator over the members in insertion order.
    public func makeIterator() -> Iterator { Iterator(entries: entries) }

    /// An iterator over an object's members in insertion order.
    public struct Iterator: IteratorProtocol {
        var entries: [Entry]
        var index = 0

        /// Returns the next member, or nil after the last.
        public mutating func next() -> (key: String, value: JSONValue)? {
            guard index < entries.count else { return nil }
            defer { index += 1 }
            return (entries[index].key, entries[index].value)
        }
    }

    /// Whether both objects hold the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.entries.count == rhs.entries.count else { return false }
        for entry in lhs.entries where rhs[entry.key] != entry.value { return false }
        return true
    }

    /// Hashes the members independently of their order.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for entry in entries { combined ^= entry.hashValue }
        hasher.combine(entries.count)
        hasher.combine(combined)
    }
}
