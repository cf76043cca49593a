import FieldTyping
import Foundation
import XCTest
@testable import MaskCatalog
@testable import MaskEngine

/// Types libphonenumber's example numbers of every region (`Protocol/vectors/phone-conformance/`)
/// through the engine and reports how far its texts agree with the reference's.
final class PhoneConformanceTests: XCTestCase {
    struct Case {
        var region: String, type: String, national: Bool, keys: String, steps: [String], formatted: String
        /// libphonenumber's region and type of the number.
        var numberRegion: String, numberType: String?
        /// libphonenumber's E.164 and RFC 3966 forms; the keys with an extension, its digits, and the
        /// number with it as NATIONAL or INTERNATIONAL writes it.
        var e164: String, rfc3966: String, extensionKeys: String, extensionDigits: String, extensionFormatted: String
    }

    static let cases: [Case] = {
        let url = vectorDirectory.appendingPathComponent("phone-conformance/phone-conformance.json")
        let data = try! Data(contentsOf: url)
        let root = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
        return (root["cases"] as! [[String: Any]]).map {
            Case(
                region: $0["region"] as! String, type: $0["type"] as! String,
                national: $0["mode"] as! String == "national",
                keys: $0["keys"] as! String, steps: $0["steps"] as! [String], formatted: $0["formatted"] as! String,
                numberRegion: $0["numberRegion"] as! String, numberType: $0["numberType"] as? String,
                e164: $0["e164"] as! String, rfc3966: $0["rfc3966"] as! String,
                extensionKeys: $0["extensionKeys"] as! String, extensionDigits: $0["extension"] as! String,
                extensionFormatted: $0["extensionFormatted"] as! String)
        }
    }()

    /// The formatter alone, key by key, against the reference's every step.
    func testFormatterAgreesStepByStep() {
        var steps = 0, agreeing = 0, finals = 0, finalAgreeing = 0
        var differences: [String] = []
        for c in Self.cases {
            var formatter = AsYouTypeFormatter(region: c.national ? c.region : nil)
            var allAgree = true
            for (key, expected) in zip(c.keys.utf8, c.steps) {
                formatter.input(key)
                let text = String(decoding: formatter.output, as: UTF8.self)
                steps += 1
                if text == expected {
                    agreeing += 1
                } else if allAgree {
                    allAgree = false
                    differences.append(
                        "\(c.region) \(c.type) \(c.national ? "national" : "intl") \(c.keys): \(text) != \(expected)")
                }
            }
            finals += 1
            let last = String(decoding: formatter.output, as: UTF8.self)
            if last == c.steps.last || last == c.formatted { finalAgreeing += 1 }
        }
        print("phone formatter: \(finalAgreeing)/\(finals) final texts, \(agreeing)/\(steps) steps agree")
        for d in differences.prefix(40) { print("  " + d) }
        XCTAssertEqual(finalAgreeing, finals)
        XCTAssertEqual(agreeing, steps)
    }

    /// The field, typed key by key through `Mask.apply` as an editor sends keystrokes.
    func testFieldAgreesKeyByKey() throws {
        var steps = 0, agreeing = 0, finals = 0, finalAgreeing = 0, valid = 0
        var differences: [String] = []
        for c in Self.cases {
            let mask = try Mask.compile(MaskSpec(.preset("phone"), region: c.national ? c.region : nil))
            var text = ""
            var caret = 0
            var allAgree = true
            for (key, expected) in zip(c.keys, c.steps) {
                let r = mask.apply(.insert(String(key), at: caret..<caret), to: text)
                text = r.text
                caret = r.caret
                steps += 1
                // An international field shows the `+` by itself; typing it is stepping over it.
                if text == expected {
                    agreeing += 1
                } else if allAgree {
                    allAgree = false
                    differences.append(
                        "\(c.region) \(c.type) \(c.national ? "national" : "intl") \(c.keys): \(text) != \(expected)")
                }
                XCTAssertEqual(caret, text.count, "\(c.keys): the caret follows the typing")
            }
            finals += 1
            if text == c.steps.last || text == c.formatted { finalAgreeing += 1 }
            let state = mask.format(text)
            if state.valid {
                valid += 1
            } else {
                differences.append("\(c.region) \(c.keys) \(text): \(state.problems)")
            }
            // libphonenumber's region (a national field's is its own) and type for the number.
            XCTAssertEqual(state.region, c.national ? c.region : c.numberRegion, "\(c.keys)")
            XCTAssertEqual(state.phoneType, c.numberType, "\(c.region) \(c.keys)")
        }
        print("phone field: \(finalAgreeing)/\(finals) final texts, \(agreeing)/\(steps) steps agree, \(valid) valid")
        for d in differences.prefix(40) { print("  " + d) }
        XCTAssertEqual(finalAgreeing, finals)
        XCTAssertEqual(agreeing, steps, "every difference is explained in Protocol/presets.md")
        XCTAssertEqual(valid, finals)
    }

    /// Every example number typed key by key with an extension after it (a label `parse` reads, then
    /// digits): the text is libphonenumber's NATIONAL or INTERNATIONAL form with the extension (or, where
    /// the as-you-type text of the number differs from that form, that text with the same extension), and
    /// the state has the extension, E.164 and RFC 3966 as libphonenumber writes them.
    func testExtensionsAndNormalizedFormsAgreeKeyByKey() throws {
        var agreeing = 0
        var differences: [String] = []
        var regions = Set<String>()
        for c in Self.cases {
            let mask = try Mask.compile(MaskSpec(.preset("phone"), region: c.national ? c.region : nil))
            var text = "", caret = 0
            var numberState: FieldResult? = nil
            for (i, key) in c.extensionKeys.enumerated() {
                let r = mask.apply(.insert(String(key), at: caret..<caret), to: text)
                XCTAssertEqual(r.rejected, "", "\(c.extensionKeys): key \(i) refused")
                text = r.text
                caret = r.caret
                if i == c.keys.count - 1 { numberState = r }
            }
            let state = mask.format(text)
            let asTyped = (c.steps.last ?? "") + c.extensionFormatted.dropFirst(c.formatted.count)
            let texts = text == c.extensionFormatted || text == asTyped
            XCTAssertEqual(caret, text.count, "\(c.extensionKeys): the caret follows the typing")
            XCTAssertEqual(numberState?.e164, c.e164, "\(c.keys)")
            XCTAssertEqual(numberState?.rfc3966, c.rfc3966, "\(c.keys)")
            XCTAssertNil(numberState?.phoneExtension, "\(c.keys)")
            XCTAssertEqual(state.text, text, "\(c.extensionKeys): formatting the text keeps it")
            XCTAssertEqual(state.phoneExtension, c.extensionDigits, "\(c.extensionKeys)")
            XCTAssertEqual(state.e164, c.e164, "\(c.extensionKeys)")
            XCTAssertEqual(state.rfc3966, c.rfc3966 + ";ext=" + c.extensionDigits, "\(c.extensionKeys)")
            XCTAssertTrue(state.valid, "\(c.extensionKeys): \(state.problems)")
            if texts {
                agreeing += 1
                regions.insert(c.region)
            } else {
                differences.append(
                    "\(c.region) \(c.national ? "national" : "intl") \(c.extensionKeys): \(text) != \(c.extensionFormatted)"
                )
            }
        }
        print("phone extensions: \(agreeing)/\(Self.cases.count) texts agree, \(regions.count) regions")
        for d in differences.prefix(40) { print("  " + d) }
        XCTAssertEqual(agreeing, Self.cases.count)
        XCTAssertGreaterThan(regions.count, 240)
    }
}
