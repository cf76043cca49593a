// maskd: `maskd/openField` (maskd extension).
import JSON
import MaskEngine

/// Opens a field session over a one-line range, or over the words at a position. *(maskd extension)*
///
/// - Parameters: `{"textDocument": {"uri", "version"?}, "range": Range, "mask": MaskSpec,
///   "field": string?, "force": bool?}`, or `"at": Position` instead of `range`: the field opens over the widest
///   run of words around the cursor that the mask reads whole (``FieldExtent``), or empty at a blank;
///   without `field` the daemon names it `f1`, `f2`, ...; without
///   `force`, a text whose letters or digits the mask would drop is refused (`-32803`).
/// - Returns: `{"field", "edits": TextEdit[], "cursor": Position|null, "state": FieldState,
///   "version"}`: the edits (against `version`) that bring the range's text into form, and the
///   caret at the field's end after them (null when the text is already in form).
struct OpenFieldRequest: RequestMessage {
    static let method = "maskd/openField"

    let uri: String
    let version: Int?
    let place: FieldPlace
    let spec: MaskSpec
    let mask: Mask
    let field: String?
    let force: Bool

    init(params: JSONValue) throws {
        let p = try Params(params)
        let document = try p.object("textDocument")
        uri = try document.string("uri")
        version = try document.optionalInt("version")
        if p.value("at") != nil {
            guard p.value("range") == nil else {
                throw MessageError.invalidParams("\(p.name("at")): give either range or at, not both")
            }
            place = .at(try p.position("at"))
        } else {
            place = .range(try p.range("range"))
        }
        (spec, mask) = try MaskSpec.compileJSON(try p.required("mask"), path: p.name("mask"))
        field = try p.optionalString("field")
        force = try p.optionalBool("force") ?? false
    }

    func handle(_ server: Server) throws -> JSONValue {
        try server.openField(uri: uri, version: version, place: place, spec: spec, mask: mask, id: field, force: force)
    }
}

/// Where `maskd/openField` opens its field.
enum FieldPlace {
    /// Exactly over this range.
    case range(TextRange)
    /// Over the widest run of words around this cursor that the mask reads whole, or empty here at a blank.
    case at(Position)
}
