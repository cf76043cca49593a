// maskd: typed reading of a message's params, with errors that name the bad field.
import JSON

/// A JSON object being read as a message's params; every failure is a `-32602` naming the
/// field by its path (`params.textDocument.uri`).
///
/// The path is spelled out only when a message names it: a member's `Params` keeps its parent's
/// path and its key, and the LSP structures (positions, ranges) are read without making one.
struct Params {
    let object: JSONObject
    private let base: String
    private let key: String?
    /// The object's place in the array `key` names, when it is an element of one.
    private let index: Int?

    /// Where the object sits in the message (`params.range`, `params.contentChanges[0]`).
    var path: String {
        guard let key else { return base }
        guard let index else { return "\(base).\(key)" }
        return "\(base).\(key)[\(index)]"
    }

    /// The params of a message. - Parameter optional: absent or `null` params read as `{}`.
    init(_ value: JSONValue, optional: Bool = false) throws {
        switch value {
        case .object(let object):
            self.object = object
        case .null where optional:
            self.object = JSONObject()
        default:
            throw MessageError.invalidParams("params: expected an object, got \(value.kindName)")
        }
        self.base = "params"
        self.key = nil
        self.index = nil
    }

    init(object: JSONObject, path: String) {
        self.object = object
        self.base = path
        self.key = nil
        self.index = nil
    }

    /// The `Params` of member `key` of `parent`, or of element `index` of that member when given.
    private init(object: JSONObject, parent: Params, key: String, index: Int? = nil) {
        self.object = object
        base = parent.path
        self.key = key
        self.index = index
    }

    /// The `Params` of element `index` of array member `key`, whose path is spelled out only when a message
    /// names it (a keystroke's `contentChanges[0]` is read without making one).
    func element(_ object: JSONObject, at index: Int, of key: String) -> Params {
        Params(object: object, parent: self, key: key, index: index)
    }

    func name(_ key: String) -> String { "\(path).\(key)" }

    /// The member, with `null` read as absent.
    func value(_ key: String) -> JSONValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    func required(_ key: String) throws -> JSONValue {
        guard let value = value(key) else { throw MessageError.invalidParams("\(name(key)): missing") }
        return value
    }

    func string(_ key: String) throws -> String {
        let value = try required(key)
        guard let s = value.stringValue else { throw typeError(key, "a string", value) }
        return s
    }

    func optionalString(_ key: String) throws -> String? {
        guard let value = value(key) else { return nil }
        guard let s = value.stringValue else { throw typeError(key, "a string", value) }
        return s
    }

    func int(_ key: String) throws -> Int {
        let value = try required(key)
        guard let n = value.intValue else { throw typeError(key, "an integer", value) }
        return n
    }

    func optionalInt(_ key: String) throws -> Int? {
        guard let value = value(key) else { return nil }
        guard let n = value.intValue else { throw typeError(key, "an integer", value) }
        return n
    }

    func optionalBool(_ key: String) throws -> Bool? {
        guard let value = value(key) else { return nil }
        guard let b = value.boolValue else { throw typeError(key, "true or false", value) }
        return b
    }

    func object(_ key: String) throws -> Params {
        let value = try required(key)
        guard let o = value.objectValue else { throw typeError(key, "an object", value) }
        return Params(object: o, parent: self, key: key)
    }

    func optionalObject(_ key: String) throws -> Params? {
        guard let value = value(key) else { return nil }
        guard let o = value.objectValue else { throw typeError(key, "an object", value) }
        return Params(object: o, parent: self, key: key)
    }

    func array(_ key: String) throws -> [JSONValue] {
        let value = try required(key)
        guard let a = value.arrayValue else { throw typeError(key, "an array", value) }
        return a
    }

    func typeError(_ key: String, _ expected: String, _ value: JSONValue) -> MessageError {
        .invalidParams("\(name(key)): expected \(expected), got \(value.kindName)")
    }

    // MARK: - LSP structures

    func position(_ key: String) throws -> Position {
        if let position = Params.validPosition(value(key)) { return position }
        // Something is wrong: read it again step by step, for the message that names it.
        let p = try object(key)
        let line = try p.int("line"), character = try p.int("character")
        guard line >= 0 else { throw MessageError.invalidParams("\(p.name("line")): must not be negative") }
        guard character >= 0 else { throw MessageError.invalidParams("\(p.name("character")): must not be negative") }
        return Position(line: line, character: character)
    }

    func range(_ key: String) throws -> TextRange {
        if case .object(let o)? = value(key), let start = Params.validPosition(o["start"]),
            let end = Params.validPosition(o["end"])
        {
            return TextRange(start: start, end: end)
        }
        let r = try object(key)
        return TextRange(start: try r.position("start"), end: try r.position("end"))
    }

    /// A position that `position(_:)` would accept as it is, or nil.
    private static func validPosition(_ value: JSONValue?) -> Position? {
        guard case .object(let o)? = value, let line = o["line"]?.intValue, let character = o["character"]?.intValue,
            line >= 0, character >= 0
        else { return nil }
        return Position(line: line, character: character)
    }

    /// `textDocument.uri`.
    func documentURI() throws -> String {
        try object("textDocument").string("uri")
    }
}

extension JSONValue {
    /// What kind of value this is, for error messages.
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int: return "an integer"
        case .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
