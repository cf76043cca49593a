// maskd: `maskd/setMask` (maskd extension).
import JSON
import MaskEngine

/// Changes a field's mask; what was entered re-flows into the new one. *(maskd extension)*
///
/// - Parameters: `{"textDocument": {"uri", "version"?}, "field", "mask": MaskSpec}`.
/// - Returns: the same shape as `maskd/openField`.
struct SetMaskRequest: RequestMessage {
    static let method = "maskd/setMask"

    let uri: String
    let version: Int?
    let field: String
    let spec: MaskSpec
    let mask: Mask

    init(params: JSONValue) throws {
        let p = try Params(params)
        let document = try p.object("textDocument")
        uri = try document.string("uri")
        version = try document.optionalInt("version")
        field = try p.string("field")
        (spec, mask) = try MaskSpec.compileJSON(try p.required("mask"), path: p.name("mask"))
    }

    func handle(_ server: Server) throws -> JSONValue {
        try server.setMask(uri: uri, version: version, id: field, spec: spec, mask: mask)
    }
}
