// maskd: the protocol's structures as JSON.
import JSON
import MaskEngine

extension JSONValue {
    static func from(_ n: Int) -> JSONValue { .int(Int64(n)) }

    static func from(_ p: Position) -> JSONValue {
        ["line": .from(p.line), "character": .from(p.character)]
    }

    static func from(_ r: TextRange) -> JSONValue {
        ["start": .from(r.start), "end": .from(r.end)]
    }

    static func from(_ e: TextEdit) -> JSONValue {
        ["range": .from(e.range), "newText": .string(e.newText)]
    }

    static func from(_ edits: [TextEdit]) -> JSONValue { .array(edits.map(JSONValue.from)) }

    /// The members every field state shares: `value` ... `mask`, `brand` when there is one, and
    /// `region` and `type` for the phone preset (null while unknown).
    static func stateMembers(_ r: FieldResult) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("value", .string(r.value)),
            ("complete", .bool(r.complete)),
            ("valid", .bool(r.valid)),
            ("problems", .array(r.problems.map(JSONValue.string))),
            ("next", r.next.map { .string($0.rawValue) } ?? .null),
            ("placeholder", .string(r.placeholder)),
            ("mask", .string(r.mask)),
        ]
        if let brand = r.brand { members.append(("brand", .string(brand))) }
        if r.isPhone {
            members.append(("region", r.region.map(JSONValue.string) ?? .null))
            members.append(("type", r.phoneType.map(JSONValue.string) ?? .null))
        }
        return members
    }

    /// A `FieldState`.
    static func from(_ s: FieldSnapshot) -> JSONValue {
        var members = [("field", .string(s.id)), ("range", .from(s.range)), ("text", .string(s.text))]
            + stateMembers(s.result)
        if let rule = s.rule { members.append(("rule", ["source": .string(rule.source), "index": .from(rule.index)])) }
        return .object(JSONObject(members))
    }
}
