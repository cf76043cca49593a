// maskd: `maskd/setMask` (maskd extension).
import JSON
import MaskEngine

/// Changes a field's mask; what was entered re-flows into the new one. *(maskd extension)*
///
/// - Parameters: `{"textDocument": {"uri", "version"?}, "field", "mask": MaskSpec,
///   "position": Position?, "force": bool?}`; `position` (maskd's addition) is the editor's cursor: in or at
///   the field it keeps its count of entered characters to its left; without `force`, a mask that would drop
///   letters or digits of the field is refused (`-32803`).
/// - Returns: the same shape as `maskd/openField`.
struct SetMaskRequest: RequestMessage {
    static let method = "maskd/setMask"

    let uri: String
    let version: Int?
    let field: String
    let spec: MaskSpec
    let mask: Mask
    let position: Position?
    let force: Bool

    init(params: JSONValue) throws {
        let p = try Params(params)
        let document = try p.object("textDocument")
        uri = try document.string("uri")
        version = try document.optionalInt("version")
        field = try p.string("field")
        (spec, mask) = try MaskSpec.compileJSON(try p.required("mask"), path: p.name("mask"))
        position = p.value("position") == nil ? nil : try p.position("position")
        force = try p.optionalBool("force") ?? false
    }

    func handle(_ server: Server) throws -> JSONValue {
        try server.setMask(uri: uri, version: version, id: field, spec: spec, mask: mask, caret: position, force: force)
    }
}
