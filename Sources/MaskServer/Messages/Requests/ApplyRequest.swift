// maskd: `maskd/apply` (maskd extension).
import JSON
import JSONRPC
import MaskEngine

/// Formats or edits one field's text, statelessly. *(maskd extension)*
///
/// - Parameters: `{"mask": MaskSpec, "text", "selection": {"start", "end"}?, "edit": {"start",
///   "end", "text"}?}`, offsets in the negotiated encoding.
/// - Returns: `{"text", "caret", "selection", "value", "complete", "valid", "problems", "next",
///   "placeholder", "mask", "brand"?, "rejected", "overflow", "edits"}`.
struct ApplyRequest: RequestMessage {
    static let method = "maskd/apply"

    struct Span {
        var start: Int
        var end: Int
    }

    let spec: MaskSpec
    let mask: Mask
    let text: String
    let selection: Span?
    let edit: (span: Span, text: String)?

    init(params: JSONValue) throws {
        let p = try Params(params)
        (spec, mask) = try MaskSpec.compileJSON(try p.required("mask"), path: p.name("mask"))
        text = try p.string("text")
        selection = try p.optionalObject("selection").map { try ApplyRequest.span($0) }
        if let e = try p.optionalObject("edit") {
            edit = (try ApplyRequest.span(e), try e.string("text"))
        } else {
            edit = nil
        }
    }

    private static func span(_ p: Params) throws -> Span {
        let span = Span(start: try p.int("start"), end: try p.int("end"))
        for (key, offset) in [("start", span.start), ("end", span.end)] where offset < 0 {
            throw MessageError.invalidParams("\(p.name(key)): must not be negative, got \(offset)")
        }
        guard span.start <= span.end else { throw MessageError.invalidParams("\(p.path): start is after end") }
        return span
    }

    /// `text` with its characters `range` replaced by `inserted`.
    private static func splice(_ text: String, _ encoded: EncodedText, _ range: Range<Int>, _ inserted: String)
        -> String
    {
        if encoded.isSingleByte {
            // Characters are bytes (and scalars): the text is made in one allocation.
            return text.scalarsJoined(upTo: range.lowerBound, inserted, text, from: range.upperBound)
        }
        let start = text.index(text.startIndex, offsetBy: range.lowerBound)
        let end = text.index(start, offsetBy: range.count)
        return String(text[..<start]) + inserted + String(text[end...])
    }

    func handle(_ server: Server) throws -> JSONValue {
        let (result, naive) = try outcome(server.encoding)
        return ApplyResult.json(result, naive: naive, encoding: server.encoding)
    }

    /// Answered many times a second: the result is written member for member, with no value made only to be
    /// converted and thrown away.
    func answer(_ server: Server) throws -> any OutgoingBody {
        let (result, naive) = try outcome(server.encoding)
        return Answer(result: result, naive: naive, encoding: server.encoding)
    }

    /// The result object, described both ways by ``ApplyResult``.
    private struct Answer: OutgoingBody {
        let result: FieldResult
        let naive: String
        let encoding: PositionEncoding

        var json: JSONValue { ApplyResult.json(result, naive: naive, encoding: encoding) }
        var writesMembers: Bool { true }
        func writeMembers(to object: JSONObjectWriter) {
            ApplyResult.write(result, naive: naive, encoding: encoding, to: object)
        }
    }

    /// The field's result, and the text with the edit applied as typed (the result's edits start from it).
    private func outcome(_ encoding: PositionEncoding) throws -> (FieldResult, naive: String) {
        let encoded = EncodedText(text)
        func characters(_ span: Span, _ path: String) throws -> Range<Int> {
            guard let start = encoded.characterOffset(ofUnit: span.start, in: encoding),
                let end = encoded.characterOffset(ofUnit: span.end, in: encoding, roundUp: span.end > span.start)
            else {
                throw MessageError.invalidParams(
                    "\(path): past the end of text (length "
                        + "\(encoded.length(in: encoding)) in \(encoding.rawValue))")
            }
            return start..<max(start, end)
        }
        let result: FieldResult
        let naive: String
        if let edit, !(edit.text.isEmpty && edit.span.start == edit.span.end) {
            let range = try characters(edit.span, "params.edit")
            let selected =
                try selection.map { try characters($0, "params.selection") } ?? (range.upperBound..<range.upperBound)
            var fieldEdit: FieldEdit
            if edit.text.isEmpty {
                // A forward delete is told by a selection collapsed at the deletion's start (the CLI's `--delete`
                // over a selection sends it so); a deletion with any other selection is a backspace.
                let forward = selected.isEmpty && selected.lowerBound == range.lowerBound
                fieldEdit = forward ? .forwardDelete(range) : .backspace(range)
            } else {
                fieldEdit = .insert(edit.text, at: range)
                // A refused insertion gives back the selection the client sent.
                if selection != nil { fieldEdit.selection = selected }
            }
            result = mask.apply(fieldEdit, to: text)
            naive = ApplyRequest.splice(text, encoded, range, edit.text)
        } else {
            // No edit, or one that changes nothing: format, carrying the selection through.
            let caret = edit.map { Span(start: $0.span.end, end: $0.span.end) }
            let selected = try (selection ?? caret).map { try characters($0, "params.selection") }
            result = mask.format(text, selection: selected)
            naive = text
        }
        return (result, naive)
    }
}

/// `maskd/apply` for callers that have no server: the command line's bulk formatting reads the mask and builds each
/// line's result object here, so its output and the daemon's answers cannot drift apart.
public enum ApplyResult {
    /// Reads and compiles `value` as `maskd/apply` reads `params.mask`.
    /// - Throws: `MessageError` (`-32602`) whose message starts with `name`, for a malformed spec or a bad mask.
    public static func compileMask(_ value: JSONValue, name: String) throws -> Mask {
        try MaskSpec.compileJSON(value, path: name).1
    }

    /// The `maskd/apply` result object for `result`, its `edits` taking `naive` (the text with the edit applied
    /// as typed) to `result.text`, offsets in `encoding`.
    public static func json(_ result: FieldResult, naive: String, encoding: PositionEncoding) -> JSONValue {
        let out = EncodedText(result.text)
        let naiveText = EncodedText(naive)
        func units(_ c: Int) -> JSONValue {
            .from(out.unitOffset(ofCharacter: min(c, out.characterCount), in: encoding))
        }
        let replacements = TextDiff.replacements(
            naive, result.text, bytesAreUnits: naiveText.isSingleByte && out.isSingleByte,
            split: { Array($0) }, join: { String($0) })
        let edits: [JSONValue] = replacements.map { d, text in
            [
                "start": .from(naiveText.unitOffset(ofCharacter: d.start, in: encoding)),
                "end": .from(naiveText.unitOffset(ofCharacter: d.end, in: encoding)),
                "text": .string(text),
            ]
        }
        var members: [(String, JSONValue)] = []
        members.reserveCapacity(6 + JSONValue.stateMemberCount)
        members.append(("text", .string(result.text)))
        members.append(("caret", units(result.caret)))
        members.append(
            ("selection", ["start": units(result.selection.lowerBound), "end": units(result.selection.upperBound)]))
        JSONValue.appendStateMembers(of: result, to: &members)
        members.append(("rejected", .string(result.rejected)))
        members.append(("overflow", .string(result.overflow)))
        members.append(("edits", .array(edits)))
        return .object(JSONObject(members))
    }

    /// Writes the object ``json(_:naive:encoding:)`` makes, member for member (the bytes sent are the same).
    static func write(_ result: FieldResult, naive: String, encoding: PositionEncoding, to object: JSONObjectWriter) {
        let out = EncodedText(result.text)
        let naiveText = EncodedText(naive)
        func units(_ c: Int) -> Int { out.unitOffset(ofCharacter: min(c, out.characterCount), in: encoding) }
        object.set("text", result.text)
        object.set("caret", units(result.caret))
        object.setObject("selection") { selection in
            selection.set("start", units(result.selection.lowerBound))
            selection.set("end", units(result.selection.upperBound))
        }
        result.writeStateMembers(to: object)
        object.set("rejected", result.rejected)
        object.set("overflow", result.overflow)
        let replacements = TextDiff.replacements(
            naive, result.text, bytesAreUnits: naiveText.isSingleByte && out.isSingleByte,
            split: { Array($0) }, join: { String($0) })
        object.setArray("edits") { edits in
            for (d, text) in replacements {
                edits.appendObject { edit in
                    edit.set("start", naiveText.unitOffset(ofCharacter: d.start, in: encoding))
                    edit.set("end", naiveText.unitOffset(ofCharacter: d.end, in: encoding))
                    edit.set("text", text)
                }
            }
        }
    }
}
