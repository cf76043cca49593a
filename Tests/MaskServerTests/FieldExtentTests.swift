// maskd tests: where fields open when the client gives a position (`maskd/openField`'s `at`) or a range over lines
// (`maskd/openFields`), through the daemon; the cases of Protocol/vectors/extent/*.json first.
import Foundation
import JSON
import MaskEngine
@testable import MaskServer
import TestSupport
import XCTest

final class FieldExtentTests: XCTestCase {
    var client: DaemonClient!

    override func setUpWithError() throws {
        client = try DaemonClient()
        client.initialize()
    }

    override func tearDown() {
        _ = client?.finish()
        client = nil
    }

    // MARK: - The shared vectors

    func testExtentVectors_throughTheDaemon_openWhereTheyExpect() throws {
        let directory = EngineVectorTests.vectorsDirectory("extent")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertFalse(files.isEmpty, "no vector files in \(directory.path)")
        var count = 0
        for file in files {
            let root = try JSONValue.parse([UInt8](try Data(contentsOf: directory.appendingPathComponent(file))))
            for (index, testCase) in (root["cases"]?.arrayValue ?? []).enumerated() {
                check(
                    testCase, name: "\(file) #\(index) \(testCase["name"]?.stringValue ?? "")",
                    uri: "file:///extent/\(file)/\(index)")
                count += 1
            }
        }
        XCTAssertGreaterThan(count, 0)
    }

    /// Opens the case's field (`at`) or fields (`range`) in a fresh document and compares what opened with `expect`:
    /// per field, in order, the range it opened over (before its edits) and its text after them, or the error code.
    private func check(
        _ testCase: JSONValue, name: String, uri: String, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let editor = Editor(client, uri: uri, text: testCase["text"]?.stringValue ?? "")
        let mask = testCase["mask"] ?? .null
        var results: [JSONValue]
        if let at = testCase["at"]?.arrayValue {
            let response = client.request(
                "maskd/openField",
                [
                    "textDocument": editor.document.identifier,
                    "at": ["line": at[0], "character": at[1]], "mask": mask,
                ])
            results = [response["result"] ?? ["error": response["error"] ?? .null]]
        } else {
            let r = testCase["range"]?.arrayValue ?? []
            let range: JSONValue = [
                "start": ["line": r[0][0]!, "character": r[0][1]!],
                "end": ["line": r[1][0]!, "character": r[1][1]!],
            ]
            results =
                client.call(
                    "maskd/openFields",
                    [
                        "textDocument": editor.document.identifier,
                        "fields": [["range": range, "mask": mask]],
                    ])["results"]?
                .arrayValue ?? []
        }
        let got: [JSONValue] = results.map { result in
            if let error = result["error"] {
                return ["range": Self.pair(result["range"] ?? .null), "error": error["code"] ?? .null]
            }
            return ["range": Self.openedRange(result), "text": result["state"]?["text"] ?? .null]
        }
        XCTAssertEqual(JSONValue.array(got), testCase["expect"] ?? .null, name, file: file, line: line)
        client.notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
    }

    /// The range a field opened over, before its edits: its state's range less what the edits inserted.
    private static func openedRange(_ result: JSONValue) -> JSONValue {
        guard let range = result["state"]?["range"] else { return .null }
        var growth = 0
        for edit in result["edits"]?.arrayValue ?? [] {
            let start = edit["range"]!["start"]!["character"]!.intValue!
            let end = edit["range"]!["end"]!["character"]!.intValue!
            growth += edit["newText"]!.stringValue!.utf16.count - (end - start)
        }
        var opened = range
        if case .object(var end) = range["end"]!, let character = end["character"]?.intValue {
            end["character"] = .int(Int64(character - growth))
            if case .object(var o) = opened { o["end"] = .object(end); opened = .object(o) }
        }
        return pair(opened)
    }

    /// A Range as `[[line, character], [line, character]]`.
    private static func pair(_ range: JSONValue) -> JSONValue {
        guard let start = range["start"], let end = range["end"] else { return .null }
        return [[start["line"]!, start["character"]!], [end["line"]!, end["character"]!]]
    }

    // MARK: - `at`

    /// The daemon reads only a window of a long line around `at`: on random lines of words of up to 600 scalars, it
    /// opens where the rule read over the whole line opens.
    func testOpenFieldAt_longRandomLines_opensWhereTheWholeLineRuleDoes() throws {
        var random = SeededRandom(seed: 0x5EED_0A7)
        let masks = ["[00] [00] [00]", "[0000] [0000] [0000] [0000]", "[0000]"]
        for round in 0..<120 {
            var scalars: [Unicode.Scalar] = []
            while scalars.count < 1_500 {
                let long = random.chance(15)
                let count = long ? random.int(200..<600) : random.int(1..<6)
                for _ in 0..<count {
                    scalars.append(random.chance(90) ? random.pick(Array("0123456789".unicodeScalars)) : "x")
                }
                scalars.append(contentsOf: random.chance(80) ? [" "] : random.chance(50) ? ["\t"] : [" ", " "])
            }
            let notation = random.pick(masks)
            let mask = try Mask.compile(notation)
            let column = random.int(0..<(scalars.count + 1))
            let expected: (Int, Int)
            if let (word, runs) = FieldExtent.candidates(in: scalars, at: column) {
                let fits = runs.first { run in
                    var text = String.UnicodeScalarView()
                    text.append(contentsOf: scalars[run])
                    let result = mask.format(String(text))
                    return result.rejected.isEmpty && result.overflow.isEmpty
                }
                let chosen = fits ?? word
                expected = (chosen.lowerBound, chosen.upperBound)
            } else {
                expected = (column, column)
            }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            let editor = Editor(client, uri: "file:///extent/random/\(round)", text: String(text))
            let result = client.call(
                "maskd/openField",
                [
                    "textDocument": editor.document.identifier,
                    "at": ["line": 0, "character": .int(Int64(column))], "mask": .string(notation), "force": true,
                ])
            XCTAssertEqual(
                Self.openedRange(result), [[0, .int(Int64(expected.0))], [0, .int(Int64(expected.1))]],
                "round \(round): \(notation) at \(column)")
            client.notify("textDocument/didClose", ["textDocument": editor.document.identifier])
        }
    }

    func testOpenFieldAt_runOverlappingAField_isSkippedForANarrowerOne() {
        let editor = Editor(client, text: "12 34 56")
        editor.openField(0, 0, 2, mask: "[00]", id: "left")
        let result = client.call(
            "maskd/openField",
            [
                "textDocument": editor.document.identifier,
                "at": ["line": 0, "character": 4], "mask": "[00] [00]",
            ])
        XCTAssertEqual(result["state"]?["range"], ClientDocument.range(0, 3, 0, 8))
        XCTAssertEqual(result["state"]?["text"], "34 56")
    }

    func testOpenFieldAt_wordInsideAField_isRefusedAsAnOverlap() {
        let editor = Editor(client, text: "Tel: 5551234567")
        editor.openField(0, 5, 15, mask: ["preset": "phone.us"], id: "tel")
        let error = client.callFailing(
            "maskd/openField",
            [
                "textDocument": editor.document.identifier,
                "at": ["line": 0, "character": 12], "mask": "[0000]",
            ],
            code: -32602)
        XCTAssertEqual(error["message"], "params.at: overlaps field 'tel'")
    }

    func testOpenFieldAt_labelBeforeDigits_isRefusedWithoutForce_openedWithIt() {
        let editor = Editor(client, text: "Tel:5551234567")
        let params: JSONObject = [
            "textDocument": editor.document.identifier, "at": ["line": 0, "character": 14],
            "mask": ["preset": "phone.us"],
        ]
        let error = client.callFailing("maskd/openField", .object(params), code: -32803)
        XCTAssertEqual(error["message"], "'Tel:5551234567' does not fit phone.us: T, e, l would be dropped")
        var forced = params
        forced["force"] = true
        let result = client.call("maskd/openField", .object(forced))
        XCTAssertEqual(result["state"]?["text"], "+1 (555) 123-4567")
        XCTAssertEqual(result["rejected"], "Tel:")
    }

    func testOpenFieldAt_withRangeToo_isRefused() {
        let editor = Editor(client, text: "555")
        let error = client.callFailing(
            "maskd/openField",
            [
                "textDocument": editor.document.identifier,
                "range": ClientDocument.range(0, 0, 0, 3),
                "at": ["line": 0, "character": 3], "mask": "[000]",
            ],
            code: -32602)
        XCTAssertEqual(error["message"], "params.at: give either range or at, not both")
    }

    func testOpenFieldAt_pastTheLastLine_isRefused() {
        let editor = Editor(client, text: "555")
        let error = client.callFailing(
            "maskd/openField",
            [
                "textDocument": editor.document.identifier,
                "at": ["line": 4, "character": 0], "mask": "[000]",
            ],
            code: -32602)
        XCTAssertEqual(error["message"], "params.at: line 4 is past the end (the document has 1 lines)")
    }

    func testOpenFieldAt_pastTheLineEnd_isTheLineEnd() {
        let editor = Editor(client, text: "Tel: 5551234567")
        let result = client.call(
            "maskd/openField",
            [
                "textDocument": editor.document.identifier,
                "at": ["line": 0, "character": 80], "mask": ["preset": "phone.us"],
            ])
        XCTAssertEqual(result["state"]?["range"], ClientDocument.range(0, 5, 0, 22))
    }

    func testOpenFieldAt_inUTF8_countsBytes() throws {
        _ = client.finish()
        client = try DaemonClient()
        client.initialize(encodings: ["utf-8"])
        // "Tél:" is five bytes; the cursor after "555" is at byte 9.
        let editor = Editor(client, text: "Tél: 555 123 4567", encoding: "utf-8")
        let result = client.call(
            "maskd/openField",
            [
                "textDocument": editor.document.identifier,
                "at": ["line": 0, "character": 9], "mask": "[000] [000] [0000]",
            ])
        XCTAssertEqual(result["state"]?["range"], ClientDocument.range(0, 6, 0, 18))
        XCTAssertEqual(result["state"]?["text"], "555 123 4567")
    }

    // MARK: - Ranges over lines

    func testOpenFieldsOverLines_withAFieldID_isRefused() {
        let editor = Editor(client, text: "555\n555")
        let results = client.call(
            "maskd/openFields",
            [
                "textDocument": editor.document.identifier,
                "fields": [
                    ["range": ClientDocument.range(0, 0, 1, 3), "mask": "[000]", "field": "x"]
                ],
            ])["results"]
        XCTAssertEqual(
            results?[0]?["error"]?["message"],
            "params.fields[0].field: an entry over several lines opens a field on each line, so it takes no field id")
    }

    func testOpenFieldsOverLines_withOtherEntries_resultsInLineOrderWhereTheEntryStands() {
        let editor = Editor(client, text: "111\n222\n333")
        let results =
            client.call(
                "maskd/openFields",
                [
                    "textDocument": editor.document.identifier,
                    "fields": [
                        ["range": ClientDocument.range(2, 0, 2, 3), "mask": "[000]"],
                        ["range": ClientDocument.range(0, 0, 1, 3), "mask": "[0]-[00]"],
                    ],
                ])["results"]?.arrayValue ?? []
        XCTAssertEqual(results.map { $0["state"]?["text"] ?? .null }, ["333", "1-11", "2-22"])
    }

    func testOpenFieldsOverLines_overlappingAField_failsOnThatLineOnly() {
        let editor = Editor(client, text: "111\n222")
        editor.openField(1, 0, 3, mask: "[000]", id: "two")
        let results =
            client.call(
                "maskd/openFields",
                [
                    "textDocument": editor.document.identifier,
                    "fields": [
                        ["range": ClientDocument.range(0, 0, 1, 3), "mask": "[000]"]
                    ],
                ])["results"]?.arrayValue ?? []
        XCTAssertEqual(results.count, 2)
        XCTAssertEqual(results[0]["state"]?["text"], "111")
        XCTAssertEqual(results[1]["error"]?["message"], "params.fields[0].range: overlaps field 'two'")
        XCTAssertEqual(results[1]["range"], ClientDocument.range(1, 0, 1, 3))
    }

    func testOpenFieldsOverLines_endBeforeStart_failsTheEntry() {
        let editor = Editor(client, text: "111\n222")
        let results =
            client.call(
                "maskd/openFields",
                [
                    "textDocument": editor.document.identifier,
                    "fields": [
                        ["range": ClientDocument.range(1, 0, 0, 3), "mask": "[000]"]
                    ],
                ])["results"]?.arrayValue ?? []
        XCTAssertEqual(results.count, 1)
        XCTAssertEqual(results[0]["error"]?["code"], -32602)
    }

    func testOpenFieldOverLines_isStillRefused() {
        let editor = Editor(client, text: "111\n222")
        let error = client.callFailing(
            "maskd/openField",
            [
                "textDocument": editor.document.identifier,
                "range": ClientDocument.range(0, 0, 1, 3), "mask": "[000]",
            ],
            code: -32602)
        XCTAssertEqual(error["message"], "params.range: a field is one line, this range spans lines 0 to 1")
    }
}
