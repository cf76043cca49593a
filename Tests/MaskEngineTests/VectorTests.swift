import FieldTyping
import Foundation
import XCTest
import MaskCatalog
@testable import MaskEngine

/// Runs every case of `Protocol/vectors/engine/*.json` against the engine directly.
///
/// The daemon's tests run the same files through `maskd/apply`; together they keep the engine,
/// the wire and the plugins in agreement. The JSON mask is read here with Foundation only to
/// build a `MaskSpec`; malformed mask objects are the daemon's to word, so an engine run only
/// checks that they fail.
final class VectorTests: XCTestCase {
    func testEngineVectors() throws {
        try runVectors(in: "engine", minimumCases: 200)
    }

    func testPresetVectors() throws {
        try runVectors(in: "presets", minimumCases: 150)
    }

    /// python-stdnum's numbers of every identifier preset, valid and invalid, typed key by key (generated
    /// by `scripts/identifier-metadata`; the plugins run the smaller `presets/identifiers.json`).
    func testIdentifierConformanceVectors() throws {
        try runVectors(in: "identifiers-conformance", minimumCases: 300)
    }

    func runVectors(in folder: String, minimumCases: Int) throws {
        let dir = vectorDirectory.appendingPathComponent(folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }
            .sorted()
        var count = 0
        for file in files {
            let data = try Data(contentsOf: dir.appendingPathComponent(file))
            let root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as! [String: Any]
            for case let c as [String: Any] in root["cases"] as! [Any] {
                count += 1
                runCase(c, label: "\(file): \(c["name"] as? String ?? "?")")
            }
        }
        XCTAssertGreaterThanOrEqual(count, minimumCases, "too few vector cases in \(folder)")
    }

    private func runCase(_ c: [String: Any], label: String) {
        let specJSON = c["mask"]!
        let compiledMask: Mask
        do {
            compiledMask = try Mask.compile(try VectorSpec.spec(specJSON))
        } catch let error as MaskError {
            guard let expected = c["error"] as? [String: Any] else {
                return XCTFail("\(label): mask does not compile: \(error)")
            }
            let message = expected["message"] as! String
            XCTAssertTrue(error.description.contains(message), "\(label): error '\(error)' lacks '\(message)'")
            return
        } catch {
            XCTAssertNotNil(c["error"], "\(label): mask object refused: \(error)")
            return
        }
        if c["error"] != nil { return XCTFail("\(label): mask compiled but an error was expected") }

        var mask = compiledMask
        var text = c["text"] as? String ?? ""
        var selection: Range<Int>
        if let sel = c["selection"] as? [Int] {
            selection = Self.characters(sel[0], in: text)..<Self.characters(sel[1], in: text)
        } else {
            selection = text.count..<text.count
        }
        var last: FieldResult? = nil
        for (index, step) in (c["steps"] as? [[String: Any]] ?? []).enumerated() {
            var rejected = "", overflow = ""
            func run(_ r: FieldResult) {
                text = r.text
                selection = r.selection
                rejected += r.rejected
                overflow += r.overflow
                last = r
            }
            if step["format"] != nil {
                run(mask.format(text, selection: selection))
            } else if let keys = step["keys"] as? String {
                for key in keys { run(mask.apply(.insert(String(key), at: selection), to: text)) }
            } else if let insert = step["insert"] as? String {
                run(mask.apply(.insert(insert, at: selection), to: text))
            } else if step["backspace"] != nil || step["delete"] != nil {
                let forward = step["delete"] != nil
                let n = (step["backspace"] ?? step["delete"]) as? Int ?? 1
                for _ in 0..<n {
                    var range = selection
                    if range.isEmpty {
                        range =
                            forward
                            ? range.lowerBound..<min(range.lowerBound + 1, text.count)
                            : max(range.lowerBound - 1, 0)..<range.lowerBound
                    }
                    run(mask.apply(forward ? .forwardDelete(range) : .backspace(range), to: text))
                }
            } else if let sel = step["select"] as? [Int] {
                selection = Self.characters(sel[0], in: text)..<Self.characters(sel[1], in: text)
            } else if let edit = step["edit"] as? [String: Any] {
                let start = Self.characters(edit["start"] as! Int, in: text)
                let end = Self.characters(edit["end"] as! Int, in: text)
                let inserted = edit["text"] as? String ?? ""
                let sel =
                    (step["selection"] as? [Int]).map {
                        Self.characters($0[0], in: text)..<Self.characters($0[1], in: text)
                    }
                    ?? (end..<end)
                let forward = inserted.isEmpty && sel.isEmpty && sel.lowerBound == start
                var fieldEdit =
                    inserted.isEmpty
                    ? (forward ? FieldEdit.forwardDelete(start..<end) : .backspace(start..<end))
                    : .insert(inserted, at: start..<end)
                // As maskd/apply does: a refused insertion gives back the selection sent with it.
                if !inserted.isEmpty, step["selection"] != nil { fieldEdit.selection = sel }
                run(mask.apply(fieldEdit, to: text))
            } else if let newSpec = step["setMask"] {
                let next = try! Mask.compile(try! VectorSpec.spec(newSpec))
                run(next.reflow(text, from: mask, caret: selection.upperBound))
                mask = next
            }
            guard let expect = step["expect"] as? [String: Any] else { continue }
            let where_ = "\(label) step \(index)"
            let utf16 = EncodedText(text)
            for (key, value) in expect {
                switch key {
                case "text": XCTAssertEqual(text, value as? String, where_)
                case "caret":
                    XCTAssertEqual(
                        utf16.unitOffset(ofCharacter: selection.upperBound, in: .utf16), value as? Int,
                        "\(where_) caret in \(text)")
                case "selection":
                    let pair = value as! [Int]
                    XCTAssertEqual(
                        [
                            utf16.unitOffset(ofCharacter: selection.lowerBound, in: .utf16),
                            utf16.unitOffset(ofCharacter: selection.upperBound, in: .utf16),
                        ], pair, where_)
                case "rejected": XCTAssertEqual(rejected, value as? String, where_)
                case "overflow": XCTAssertEqual(overflow, value as? String, where_)
                default:
                    guard let r = last else { XCTFail("\(where_): no result to check \(key)"); continue }
                    switch key {
                    case "value": XCTAssertEqual(r.value, value as? String, where_)
                    case "complete": XCTAssertEqual(r.complete, value as? Bool, where_)
                    case "valid": XCTAssertEqual(r.valid, value as? Bool, where_)
                    case "problems": XCTAssertEqual(r.problems, value as? [String], where_)
                    case "next": XCTAssertEqual(r.next?.rawValue, value is NSNull ? nil : value as? String, where_)
                    case "placeholder": XCTAssertEqual(r.placeholder, value as? String, where_)
                    case "mask": XCTAssertEqual(r.mask, value as? String, where_)
                    case "brand": XCTAssertEqual(r.brand, value is NSNull ? nil : value as? String, where_)
                    case "region": XCTAssertEqual(r.region, value is NSNull ? nil : value as? String, where_)
                    case "type": XCTAssertEqual(r.phoneType, value is NSNull ? nil : value as? String, where_)
                    case "extension": XCTAssertEqual(r.phoneExtension, value is NSNull ? nil : value as? String, where_)
                    case "e164": XCTAssertEqual(r.e164, value is NSNull ? nil : value as? String, where_)
                    case "rfc3966": XCTAssertEqual(r.rfc3966, value is NSNull ? nil : value as? String, where_)
                    default: XCTFail("\(where_): unknown expectation \(key)")
                    }
                }
            }
        }
    }

    /// A UTF-16 offset into `text` as a character offset.
    static func characters(_ utf16: Int, in text: String) -> Int {
        EncodedText(text).characterOffset(ofUnit: utf16, in: .utf16) ?? text.count
    }
}

/// Reads a vector's JSON mask into a `MaskSpec` (the daemon has the authoritative reader).
enum VectorSpec {
    struct Malformed: Error {}

    static func spec(_ json: Any) throws -> MaskSpec {
        if let notation = json as? String { return .notation(notation) }
        guard let object = json as? [String: Any] else { throw Malformed() }
        let forms = ["notation", "pattern", "groups", "separatorAt", "preset", "oneOf", "number"].filter {
            object[$0] != nil
        }
        let options = [
            "slot", "accept", "separator", "minLength", "maxLength", "repeat", "eager", "case", "regex",
            "validate", "placeholderChar", "blocks", "order", "region", "overwrite", "rightToLeft",
            "definitions", "min", "max", "seconds", "clock",
        ]
        guard forms.count == 1, object.keys.allSatisfy({ forms.contains($0) || options.contains($0) }) else {
            throw Malformed()
        }
        var spec: MaskSpec
        switch forms[0] {
        case "notation": spec = MaskSpec(.notation(try typed(object["notation"])))
        case "pattern": spec = MaskSpec(.pattern(try typed(object["pattern"])))
        case "groups": spec = MaskSpec(.groups(try typed(object["groups"])))
        case "separatorAt": spec = MaskSpec(.separatorAt(try typed(object["separatorAt"])))
        case "preset": spec = MaskSpec(.preset(try typed(object["preset"])))
        case "oneOf": spec = MaskSpec(.oneOf(try (try typed(object["oneOf"]) as [Any]).map { try VectorSpec.spec($0) }))
        default:
            let n: [String: Any] = try typed(object["number"])
            if let g = n["grouping"] as? String, NumberSpec.Grouping(rawValue: g) == nil { throw Malformed() }
            spec = MaskSpec(
                .number(
                    NumberSpec(
                        group: n["group"] as? String ?? ",",
                        decimal: (n["decimal"] as? String)?.first ?? ".",
                        fraction: n["fraction"] as? Int ?? 2,
                        negative: n["negative"] as? Bool ?? false,
                        maxInteger: n["maxInteger"] as? Int,
                        grouping: (n["grouping"] as? String).map { NumberSpec.Grouping(rawValue: $0)! }
                            ?? .thousand,
                        min: (n["min"] as? NSNumber)?.doubleValue,
                        max: (n["max"] as? NSNumber)?.doubleValue,
                        prefix: n["prefix"] as? String ?? "", suffix: n["suffix"] as? String ?? "",
                        decimalAliases: (n["decimalAliases"] as? [String] ?? []).compactMap(\.first),
                        padFraction: n["padFraction"] as? Bool ?? false)))
        }
        spec.slot = try optional(object["slot"], String.self)?.first
        if let definitions = try optional(object["definitions"], [String: String].self) {
            spec.definitions = Dictionary(uniqueKeysWithValues: definitions.map { (Character($0.key), $0.value) })
        }
        if let accept = try optional(object["accept"], String.self) {
            if let c = CharacterClass(rawValue: accept) {
                spec.accept = c
            } else {
                guard accept.count == 1, spec.definitions?[accept.first!] != nil else { throw Malformed() }
                spec.acceptDefinition = accept.first
            }
        }
        spec.separator = try optional(object["separator"], String.self)
        spec.minLength = try optional(object["minLength"], Int.self)
        spec.maxLength = try optional(object["maxLength"], Int.self)
        spec.repeat = try optional(object["repeat"], Bool.self)
        spec.eager = try optional(object["eager"], Bool.self)
        spec.letterCase = try optional(object["case"], String.self).map { LetterCase(rawValue: $0)! }
        spec.regex = try optional(object["regex"], String.self)
        if let v = object["validate"] { spec.validate = (v as? String).map { [$0] } ?? (v as? [String]) }
        spec.placeholderChar = try optional(object["placeholderChar"], String.self)?.first
        if let blocks = try optional(object["blocks"], [String: Any].self) {
            spec.blocks = try blocks.mapValues { value in
                let block: [String: Any] = try typed(value)
                let pad = try optional(block["pad"], Bool.self)
                if let range = block["range"] as? [Int], range.count == 2 {
                    return BlockSpec(.range(min: range[0], max: range[1]), pad: pad)
                }
                return BlockSpec(.words(try typed(block["enum"])), pad: pad)
            }
        }
        spec.order = try optional(object["order"], String.self)
        spec.region = try optional(object["region"], String.self)
        spec.overwrite = try optional(object["overwrite"], Bool.self)
        spec.rightToLeft = try optional(object["rightToLeft"], Bool.self)
        spec.min = try optional(object["min"], String.self)
        spec.max = try optional(object["max"], String.self)
        spec.seconds = try optional(object["seconds"], Bool.self)
        spec.clock = try optional(object["clock"], Int.self)
        return spec
    }

    private static func typed<T>(_ value: Any?) throws -> T {
        guard let v = value as? T else { throw Malformed() }
        return v
    }

    private static func optional<T>(_ value: Any?, _: T.Type) throws -> T? {
        guard let value else { return nil }
        guard let v = value as? T else { throw Malformed() }
        return v
    }
}
