// maskd: `maskd/didFormat`, daemon to client (maskd extension).
import JSON
import JSONRPC

/// Sent after every person's `didChange` that touched a field: the edits that bring the
/// document (as the person left it, at `version`) into form, and where the cursor goes.
///
/// *(maskd extension)*. Params: `{"textDocument": {"uri", "version"}, "edits": TextEdit[],
/// "cursor": Position|null, "fields": FieldState[], "rejected": string, "overflow": string, "closed"?: string[]}`
/// (`closed` only when the person's change closed fields).
struct DidFormatNotification: OutgoingBody {
    static let method = "maskd/didFormat"

    let uri: String
    let report: FormatReport

    var json: JSONValue {
        var params: JSONObject = [
            "textDocument": ["uri": .string(uri), "version": .from(report.version)],
            "edits": .from(report.edits),
            "cursor": report.cursor.map(JSONValue.from) ?? .null,
            "fields": .array(report.fields.map(JSONValue.from)),
            "rejected": .string(report.rejected),
            "overflow": .string(report.overflow),
        ]
        if !report.closed.isEmpty { params["closed"] = .array(report.closed.map(JSONValue.string)) }
        return .object(params)
    }

    /// Sent on every keystroke: no value need be made only to be converted and thrown away.
    var writesMembers: Bool { true }
    var longestWrittenList: Int { max(report.edits.count, report.fields.count) }

    /// Writes the params that ``json`` makes, member for member, straight from the report (the bytes sent are the
    /// same).
    func writeMembers(to params: JSONObjectWriter) {
        params.setObject("textDocument") { document in
            document.set("uri", uri)
            document.set("version", report.version)
        }
        params.setArray("edits") { edits in
            for edit in report.edits { edits.appendObject { edit.write(to: $0) } }
        }
        if let cursor = report.cursor {
            params.setObject("cursor") { cursor.write(to: $0) }
        } else {
            params.setNull("cursor")
        }
        params.setArray("fields") { fields in
            for field in report.fields { fields.appendObject { field.write(to: $0) } }
        }
        params.set("rejected", report.rejected)
        params.set("overflow", report.overflow)
        if !report.closed.isEmpty {
            params.setArray("closed") { closed in
                for id in report.closed { closed.append(id) }
            }
        }
    }
}
