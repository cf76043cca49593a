// maskd: `maskd/didFormat`, daemon to client (maskd extension).
import JSON

/// Sent after every person's `didChange` that touched a field: the edits that bring the
/// document (as the person left it, at `version`) into form, and where the cursor goes.
///
/// *(maskd extension)*. Params: `{"textDocument": {"uri", "version"}, "edits": TextEdit[],
/// "cursor": Position|null, "fields": FieldState[], "rejected": string, "overflow": string}`.
enum DidFormatNotification {
    static let method = "maskd/didFormat"

    static func params(uri: String, _ report: FormatReport) -> JSONValue {
        [
            "textDocument": ["uri": .string(uri), "version": .from(report.version)],
            "edits": .from(report.edits),
            "cursor": report.cursor.map(JSONValue.from) ?? .null,
            "fields": .array(report.fields.map(JSONValue.from)),
            "rejected": .string(report.rejected),
            "overflow": .string(report.overflow),
        ]
    }
}
