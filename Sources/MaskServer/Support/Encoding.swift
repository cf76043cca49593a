// maskd: the protocol's structures as JSON.
import JSON
import MaskCatalog
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

    /// Appends the members every field state shares: `value` ... `mask`, `brand` when there is one, and
    /// `region`, `type`, `extension`, `e164` and `rfc3966` for the phone preset (null while unknown). Appended
    /// to the caller's array, which has room for them, so a keystroke's state is not gathered in one array and
    /// copied into another.
    static func appendStateMembers(of r: FieldResult, to members: inout [(String, JSONValue)]) {
        members.append(("value", .string(r.value)))
        members.append(("complete", .bool(r.complete)))
        members.append(("valid", .bool(r.valid)))
        members.append(("problems", .array(r.problems.map(JSONValue.string))))
        members.append(("next", r.next.map { .string($0.rawValue) } ?? .null))
        members.append(("placeholder", .string(r.placeholder)))
        members.append(("mask", .string(r.mask)))
        if let brand = r.brand { members.append(("brand", .string(brand))) }
        if r.isPhone {
            members.append(("region", r.region.map(JSONValue.string) ?? .null))
            members.append(("type", r.phoneType.map(JSONValue.string) ?? .null))
            members.append(("extension", r.phoneExtension.map(JSONValue.string) ?? .null))
            members.append(("e164", r.e164.map(JSONValue.string) ?? .null))
            members.append(("rfc3966", r.rfc3966.map(JSONValue.string) ?? .null))
        }
    }

    /// How many members `appendStateMembers` appends at most.
    static let stateMemberCount = 13

    /// A `FieldState`.
    static func from(_ s: FieldSnapshot) -> JSONValue {
        var members: [(String, JSONValue)] = []
        members.reserveCapacity(4 + stateMemberCount)
        members.append(("field", .string(s.id)))
        members.append(("range", .from(s.range)))
        members.append(("text", .string(s.text)))
        appendStateMembers(of: s.result, to: &members)
        if let rule = s.rule { members.append(("rule", ["source": .string(rule.source), "index": .from(rule.index)])) }
        return .object(JSONObject(members))
    }
}

// The same structures written straight into a message's tree (``JSONObjectWriter``), member for member as the
// values above: for `maskd/didFormat`, sent on every keystroke.

extension Position {
    func write(to object: JSONObjectWriter) {
        object.set("line", line)
        object.set("character", character)
    }
}

extension TextRange {
    func write(to object: JSONObjectWriter) {
        object.setObject("start") { start.write(to: $0) }
        object.setObject("end") { end.write(to: $0) }
    }
}

extension TextEdit {
    func write(to object: JSONObjectWriter) {
        object.setObject("range") { range.write(to: $0) }
        object.set("newText", newText)
    }
}

extension FieldSnapshot {
    /// A `FieldState`, as `JSONValue.from(_: FieldSnapshot)` makes it.
    func write(to object: JSONObjectWriter) {
        object.set("field", id)
        object.setObject("range") { range.write(to: $0) }
        object.set("text", text)
        result.writeStateMembers(to: object)
        if let rule {
            object.setObject("rule") { origin in
                origin.set("source", rule.source)
                origin.set("index", rule.index)
            }
        }
    }
}

extension FieldResult {
    /// The members `JSONValue.appendStateMembers(of:to:)` appends, in its order.
    func writeStateMembers(to object: JSONObjectWriter) {
        object.set("value", value)
        object.set("complete", complete)
        object.set("valid", valid)
        object.setArray("problems") { list in
            for problem in problems { list.append(problem) }
        }
        object.set("next", next?.rawValue)
        object.set("placeholder", placeholder)
        object.set("mask", mask)
        if let brand { object.set("brand", brand) }
        if isPhone {
            object.set("region", region)
            object.set("type", phoneType)
            object.set("extension", phoneExtension)
            object.set("e164", e164)
            object.set("rfc3966", rfc3966)
        }
    }
}
