// maskd: `maskd/openFields` (maskd extension).
import JSON
import JSONRPC
import MaskEngine

/// Opens many field sessions in one request, each as `maskd/openField` would. *(maskd extension)*
///
/// - Parameters: `{"textDocument": {"uri", "version"?}, "fields": [{"range", "mask", "field"?, "force"?}, ...]}`;
///   an entry whose range spans lines opens a field on each of its lines (the line's part of the range without the
///   blanks around it; a line with nothing else is left out).
/// - Returns: `{"results": [...], "version"}`: per field, in order, the `openField` result or
///   `{"error": {"code", "message"}, "range"?}` when that field alone failed (bad params or mask, a range outside
///   the document, an overlap, an id in use, `-32803`; `range` is its line's part for an entry over several lines);
///   the others open all the same.
struct OpenFieldsRequest: RequestMessage {
    static let method = "maskd/openFields"

    /// One requested field, read on its own so that a bad one fails alone.
    struct Entry {
        /// Where it sits in the message (`params.fields[3]`), for its error messages.
        let path: String
        let range: TextRange
        let mask: Mask
        let field: String?
        let force: Bool

        init(_ value: JSONValue, path: String) throws {
            guard let object = value.objectValue else {
                throw MessageError.invalidParams("\(path): expected an object, got \(value.kindName)")
            }
            let p = Params(object: object, path: path)
            self.path = path
            range = try p.range("range")
            (_, mask) = try MaskSpec.compileJSON(try p.required("mask"), path: p.name("mask"))
            field = try p.optionalString("field")
            if field != nil && range.start.line < range.end.line {
                throw MessageError.invalidParams(
                    "\(p.name("field")): an entry over several lines opens a field on "
                        + "each line, so it takes no field id")
            }
            force = try p.optionalBool("force") ?? false
        }
    }

    let uri: String
    let version: Int?
    let entries: [Result<Entry, MessageError>]

    init(params: JSONValue) throws {
        let p = try Params(params)
        let document = try p.object("textDocument")
        uri = try document.string("uri")
        version = try document.optionalInt("version")
        entries = try p.array("fields").enumerated().map { index, value in
            Result { try Entry(value, path: "\(p.name("fields"))[\(index)]") }.mapError { error in
                error as? MessageError ?? MessageError(code: ErrorCode.internalError, message: "\(error)")
            }
        }
    }

    func handle(_ server: Server) throws -> JSONValue {
        try server.openFields(uri: uri, version: version, entries: entries)
    }
}
