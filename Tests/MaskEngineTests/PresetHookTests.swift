import MaskCatalog
import XCTest

@testable import MaskEngine

/// The engine alone compiles no preset: it hands every preset name it meets to the `MaskPresets` it is given.
final class PresetHookTests: XCTestCase {
    func testEngineAlone_presetSpec_isUnknown() {
        XCTAssertThrowsError(try Mask.compile(MaskSpec(.preset("card")), presets: NoPresets())) { error in
            XCTAssertEqual(
                (error as? MaskError)?.message,
                "unknown preset 'card': MaskEngine alone knows no presets (MaskCatalog compiles them)")
        }
    }

    func testEngineAlone_presetAlternativeOfOneOf_isUnknown() {
        let spec = MaskSpec(.oneOf([.notation("[00]"), MaskSpec(.preset("phone.cn"))]))
        XCTAssertThrowsError(try Mask.compile(spec, presets: NoPresets())) { error in
            XCTAssertEqual(
                (error as? MaskError)?.message,
                "oneOf[1]: unknown preset 'phone.cn': MaskEngine alone knows no presets (MaskCatalog compiles them)")
        }
    }

    func testCatalogue_presetAlternativeOfOneOf_formats() throws {
        let spec = MaskSpec(.oneOf([.notation("[00]"), MaskSpec(.preset("phone.cn"))]))
        XCTAssertEqual(try Mask.compile(spec).format("13800138000").text, "138 0013 8000")
    }

    func testEngineAlone_notation_formats() throws {
        XCTAssertEqual(try Mask.compile("[00]-[00]").format("1234").text, "12-34")
    }
}
