import Foundation
import XCTest
@testable import MaskEngine

/// Types libphonenumber's example numbers of every region (`Protocol/vectors/phone-conformance/`)
/// through the engine and reports how far its texts agree with the reference's.
final class PhoneConformanceTests: XCTestCase {
    struct Case {
        var region: String, type: String, national: Bool, keys: String, steps: [String], formatted: String
        /// libphonenumber's region and type of the number.
        var numberRegion: String, numberType: String?
    }

    static let cases: [Case] = {
        let url = VectorTests.vectorDirectory.appendingPathComponent("phone-conformance/phone-conformance.json")
        let data = try! Data(contentsOf: url)
        let root = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
        return (root["cases"] as! [[String: Any]]).map {
            Case(region: $0["region"] as! String, type: $0["type"] as! String, national: $0["mode"] as! String == "national",
                 keys: $0["keys"] as! String, steps: $0["steps"] as! [String], formatted: $0["formatted"] as! String,
                 numberRegion: $0["numberRegion"] as! String, numberType: $0["numberType"] as? String)
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
                if text == expected { agreeing += 1 } else if allAgree {
                    allAgree = false
                    differences.append("\(c.region) \(c.type) \(c.national ? "national" : "intl") \(c.keys): \(text) != \(expected)")
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
                if text == expected { agreeing += 1 } else if allAgree {
                    allAgree = false
                    differences.append("\(c.region) \(c.type) \(c.national ? "national" : "intl") \(c.keys): \(text) != \(expected)")
                }
                XCTAssertEqual(caret, text.count, "\(c.keys): the caret follows the typing")
            }
            finals += 1
            if text == c.steps.last || text == c.formatted { finalAgreeing += 1 }
            let state = mask.format(text)
            if state.valid { valid += 1 } else { differences.append("\(c.region) \(c.keys) \(text): \(state.problems)") }
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
}
