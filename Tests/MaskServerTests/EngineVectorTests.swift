// maskd tests: every Protocol/vectors/{engine,presets}/*.json case, run through `maskd/apply` in the binary.
import Foundation
import JSON
import XCTest

final class EngineVectorTests: XCTestCase {
    static func vectorsDirectory(_ folder: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Protocol/vectors/\(folder)")
    }

    func testEngineVectors_throughMaskdApply_matchEveryExpectation() throws {
        try runVectors("engine")
    }

    func testPresetVectors_throughMaskdApply_matchEveryExpectation() throws {
        try runVectors("presets")
    }

    private func runVectors(_ folder: String) throws {
        let directory = Self.vectorsDirectory(folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertFalse(files.isEmpty, "no vector files in \(directory.path)")
        let client = try DaemonClient()
        client.initialize()
        var count = 0
        for file in files {
            let data = try Data(contentsOf: directory.appendingPathComponent(file))
            let root = try JSONValue.parse([UInt8](data))
            for (index, testCase) in (root["cases"]?.arrayValue ?? []).enumerated() {
                let name = "\(file) #\(index) \(testCase["name"]?.stringValue ?? "")"
                VectorRunner(client: client, name: name, uri: "vector:///\(file)/\(index)").run(testCase)
                count += 1
            }
        }
        XCTAssertGreaterThan(count, 0)
        print("\(folder) vectors run through maskd/apply: \(count)")
    }
}

/// Plays one vector case against the daemon: a caret, a text, a mask, and steps.
struct VectorRunner {
    let client: DaemonClient
    let name: String
    let uri: String

    func run(_ testCase: JSONValue) {
        let mask = testCase["mask"] ?? .null
        if let error = testCase["error"] {
            let response = client.request("maskd/apply", ["mask": mask, "text": ""])
            XCTAssertEqual(response["error"]?["code"]?.intValue, error["code"]?.intValue, name)
            let message = response["error"]?["message"]?.stringValue ?? ""
            let expected = error["message"]?.stringValue ?? ""
            XCTAssertTrue(message.contains(expected), "\(name): '\(message)' lacks '\(expected)'")
            return
        }
        var state = FieldState(mask: mask, text: testCase["text"]?.stringValue ?? "")
        if let s = testCase["selection"]?.arrayValue {
            state.selection = (s[0].intValue!, s[1].intValue!)
        } else {
            state.selection = (state.text.utf16.count, state.text.utf16.count)
        }
        for (stepIndex, step) in (testCase["steps"]?.arrayValue ?? []).enumerated() {
            let where_ = "\(name), step \(stepIndex) \(step.serializedString())"
            state.rejected = ""
            state.overflow = ""
            perform(step, &state, where_)
            if let expect = step["expect"]?.objectValue { check(expect, state, where_) }
        }
    }

    struct FieldState {
        var mask: JSONValue
        var text: String
        var selection = (0, 0)
        var last: JSONValue = .null
        var rejected = ""
        var overflow = ""
    }

    private func apply(_ state: inout FieldState, edit: (Int, Int, String)?, selection: (Int, Int)?, _ where_: String) {
        var params: JSONObject = ["mask": state.mask, "text": .string(state.text)]
        if let selection {
            params["selection"] = ["start": .int(Int64(selection.0)), "end": .int(Int64(selection.1))]
        }
        if let (s, e, t) = edit {
            params["edit"] = ["start": .int(Int64(s)), "end": .int(Int64(e)), "text": .string(t)]
        }
        let response = client.request("maskd/apply", .object(params))
        guard let result = response["result"] else {
            XCTFail("\(where_): \(response.serializedString())")
            return
        }
        state.last = result
        state.text = result["text"]?.stringValue ?? ""
        state.selection = (result["selection"]?["start"]?.intValue ?? 0, result["selection"]?["end"]?.intValue ?? 0)
        state.rejected += result["rejected"]?.stringValue ?? ""
        state.overflow += result["overflow"]?.stringValue ?? ""
        checkEdits(result, edit: edit, before: params["text"]?.stringValue ?? "", where_)
    }

    /// `edits` must turn the naive result (the edit applied as is) into `text`.
    private func checkEdits(_ result: JSONValue, edit: (Int, Int, String)?, before: String, _ where_: String) {
        var naive = Array(before.utf16)
        if let (s, e, t) = edit, s <= e, e <= naive.count { naive.replaceSubrange(s..<e, with: Array(t.utf16)) }
        for item in (result["edits"]?.arrayValue ?? []).reversed() {
            let s = item["start"]!.intValue!, e = item["end"]!.intValue!
            guard s <= e, e <= naive.count else { return XCTFail("\(where_): edit out of range \(item)") }
            naive.replaceSubrange(s..<e, with: Array(item["text"]!.stringValue!.utf16))
        }
        XCTAssertEqual(String(decoding: naive, as: UTF16.self), result["text"]?.stringValue, "\(where_): edits")
    }

    private func graphemeStarts(_ text: String) -> [Int] {
        text.indices.map { $0.utf16Offset(in: text) } + [text.utf16.count]
    }

    private func perform(_ step: JSONValue, _ state: inout FieldState, _ where_: String) {
        if step["format"] != nil {
            apply(&state, edit: nil, selection: state.selection, where_)
        } else if let keys = step["keys"]?.stringValue {
            for key in keys {
                let sel = state.selection
                apply(&state, edit: (sel.0, sel.1, String(key)), selection: sel, where_)
            }
        } else if let text = step["insert"]?.stringValue {
            let sel = state.selection
            apply(&state, edit: (sel.0, sel.1, text), selection: sel, where_)
        } else if let n = step["backspace"] {
            for _ in 0..<(n.intValue ?? 1) {
                let (s, e) = state.selection
                if s != e {
                    apply(&state, edit: (s, e, ""), selection: (s, e), where_)
                } else if s > 0 {
                    let p = graphemeStarts(state.text).last { $0 < s } ?? 0
                    apply(&state, edit: (p, s, ""), selection: (s, s), where_)
                }
            }
        } else if let n = step["delete"] {
            for _ in 0..<(n.intValue ?? 1) {
                let (s, e) = state.selection
                if s != e {
                    apply(&state, edit: (s, e, ""), selection: (s, s), where_)
                } else if s < state.text.utf16.count {
                    let p = graphemeStarts(state.text).first { $0 > s } ?? s
                    apply(&state, edit: (s, p, ""), selection: (s, s), where_)
                }
            }
        } else if let s = step["select"]?.arrayValue {
            state.selection = (s[0].intValue!, s[1].intValue!)
        } else if let edit = step["edit"] {
            let e = (edit["start"]!.intValue!, edit["end"]!.intValue!, edit["text"]?.stringValue ?? "")
            let sel = step["selection"]?.arrayValue.map { ($0[0].intValue!, $0[1].intValue!) } ?? (e.1, e.1)
            apply(&state, edit: e, selection: sel, where_)
        } else if let newMask = step["setMask"] {
            setMask(newMask, &state, where_)
        } else {
            XCTFail("\(where_): unknown step")
        }
    }

    /// `setMask` is not stateless: open a document holding the field, then change its mask.
    private func setMask(_ newMask: JSONValue, _ state: inout FieldState, _ where_: String) {
        var document = ClientDocument(uri: uri, text: state.text)
        client.notify("textDocument/didOpen", document.openParams)
        let length = state.text.utf16.count
        let opened = client.call(
            "maskd/openField",
            [
                "textDocument": document.identifier,
                "range": ClientDocument.range(0, 0, 0, length),
                "mask": state.mask, "field": "v",
            ])
        document.apply(opened["edits"] ?? .array([]))
        let caret = state.selection.1
        // Forced: the vectors describe the re-flow, cuts included (the daemon refuses a cut unless forced).
        let result = client.call(
            "maskd/setMask",
            [
                "textDocument": document.identifier, "field": "v", "mask": newMask,
                "position": ["line": 0, "character": .int(Int64(caret))],
                "force": true,
            ])
        document.apply(result["edits"] ?? .array([]))
        client.notify("textDocument/didClose", ["textDocument": document.identifier])
        guard let fieldState = result["state"] else { return XCTFail("\(where_): no state") }
        XCTAssertEqual(fieldState["text"]?.stringValue, document.text, "\(where_): state text vs edits")
        state.mask = newMask
        state.text = document.text
        let c = result["cursor"]?["character"]?.intValue ?? document.text.utf16.count
        state.selection = (c, c)
        var last = fieldState.objectValue ?? [:]
        last["caret"] = .int(Int64(c))
        state.last = .object(last)
        state.overflow += result["overflow"]?.stringValue ?? ""
    }

    private func check(_ expect: JSONObject, _ state: FieldState, _ where_: String) {
        for (key, value) in expect {
            switch key {
            case "text": XCTAssertEqual(.string(state.text), value, "\(where_): text")
            case "caret": XCTAssertEqual(state.selection.1, value.intValue, "\(where_): caret")
            case "selection":
                XCTAssertEqual(
                    [state.selection.0, state.selection.1], value.arrayValue?.compactMap(\.intValue),
                    "\(where_): selection")
            case "rejected": XCTAssertEqual(.string(state.rejected), value, "\(where_): rejected")
            case "overflow": XCTAssertEqual(.string(state.overflow), value, "\(where_): overflow")
            case "brand": XCTAssertEqual(state.last["brand"] ?? .null, value, "\(where_): brand")
            default: XCTAssertEqual(state.last[key], value, "\(where_): \(key)")
            }
        }
    }
}
