// Tests for the JSON layer: round trips and every edge case that JSONValue documents.

import Dispatch
import JSON
import TestSupport
import XCTest

final class JSONValueTests: XCTestCase {
    /// Parses `text`, compares with `expected`, and checks that serialising gives `written` (default: `text`).
    private func check(
        _ text: String, _ expected: JSONValue, written: String? = nil, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        do {
            let value = try JSONValue.parse(text)
            XCTAssertEqual(value, expected, "parse", file: file, line: line)
            XCTAssertEqual(value.serializedString(), written ?? text, "serialise", file: file, line: line)
            XCTAssertEqual(try JSONValue.parse(value.serialized()), expected, "read back", file: file, line: line)
        } catch {
            XCTFail("\(text): \(error)", file: file, line: line)
        }
    }

    /// Checks that `bytes` fail to parse with a message containing `message`, and returns the error.
    @discardableResult
    private func checkFails(
        _ bytes: [UInt8], _ message: String, file: StaticString = #filePath, line: UInt = #line
    ) -> JSONParseError? {
        do {
            let value = try JSONValue.parse(bytes)
            XCTFail("parsed as \(value)", file: file, line: line)
        } catch let error as JSONParseError {
            XCTAssertTrue(error.message.contains(message), "\(error)", file: file, line: line)
            return error
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
        }
        return nil
    }

    @discardableResult
    private func checkFails(
        _ text: String, _ message: String, file: StaticString = #filePath, line: UInt = #line
    ) -> JSONParseError? {
        checkFails(Array(text.utf8), message, file: file, line: line)
    }

    func testScalars_roundTrip() {
        check("null", .null)
        check("true", true)
        check("false", false)
        check("0", 0)
        check("-12", -12)
        check("\"\"", "")
        check("\"h\\\"i\\\\\\n\"", "h\"i\\\n")
        check("  7 \n", 7, written: "7")
    }

    func testContainers_roundTripCompactInOrder() {
        check("[]", [])
        check("{}", [:])
        check("[1,\"a\",[null],{\"k\":false}]", [1, "a", [nil], ["k": false]])
        check("{\"z\":1,\"a\":2,\"m\":{\"y\":[],\"b\":{}}}", ["z": 1, "a": 2, "m": ["y": [], "b": [:]]])
        check("{ \"a\" : [ 1 , 2 ] }", ["a": [1, 2]], written: "{\"a\":[1,2]}")
        XCTAssertEqual(try JSONValue.parse("{\"z\":1,\"a\":2}").objectValue?.keys, ["z", "a"])
    }

    /// `serialize(into:)` appends after what the buffer holds, also for text longer than its staging (2 KiB).
    func testSerializeInto_appendsLongAndShortValues() {
        let long = String(repeating: "é1\"", count: 3_000)
        var bytes = Array("head:".utf8)
        JSONValue.object(["a": .string(long), "b": [1, 2.5, nil]]).serialize(into: &bytes)
        let escaped = String(repeating: "é1\\\"", count: 3_000)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "head:{\"a\":\"\(escaped)\",\"b\":[1,2.5,null]}")
        var short: [UInt8] = []
        JSONValue.string("x").serialize(into: &short)
        XCTAssertEqual(short, Array("\"x\"".utf8))
    }

    func testUnicode_writtenAsUTF8() {
        check("\"caf\u{E9} \u{1F600}\"", "caf\u{E9} \u{1F600}")
        check("\"\\u00e9\\ud83d\\ude00\"", "\u{E9}\u{1F600}", written: "\"\u{E9}\u{1F600}\"")
    }

    func testStringWithNUL_roundTrips() {
        check("\"a\\u0000b\"", .string("a\u{0}b"))
        check("[\"\\u0000\"]", [.string("\u{0}")])
        XCTAssertEqual(JSONValue.string("x\u{0}").serialized().count, "\"x\\u0000\"".utf8.count)
    }

    func testKeyWithNUL_isAParseError_butSerialises() {
        checkFails("{\"a\\u0000b\":1}", "NUL byte in object key")
        XCTAssertEqual(JSONValue.object(["a\u{0}b": 1]).serializedString(), "{\"a\\u0000b\":1}")
    }

    func testInvalidUTF8_isAParseError() {
        checkFails([0x22, 0xFF, 0x22], "unable to decode byte 0xff")
        checkFails([0x22, 0xC3, 0x22], "unable to decode byte")
        checkFails("\"\\ud800\"", "invalid Unicode")
    }

    func testIntegers_exactWithin64Bits() {
        check("9007199254740993", .int(9_007_199_254_740_993))
        check("9223372036854775807", .int(.max))
        check("-9223372036854775808", .int(.min))
        XCTAssertEqual(JSONValue.int(9_007_199_254_740_993).intValue, 9_007_199_254_740_993)
        XCTAssertEqual(JSONValue.int(9_007_199_254_740_993).doubleValue, 9_007_199_254_740_992)
    }

    /// Valid JSON parses whatever its numbers: an integer outside Int64 as the nearest double, a number beyond the
    /// double range as the largest finite double of its sign; the same in a body read in chunks.
    func testNumbersBeyondTheirTypes_readAsDoubles() throws {
        try checkParsed("9223372036854775808", .double(9_223_372_036_854_775_808))
        try checkParsed("-9223372036854775809", .double(-9_223_372_036_854_775_808))
        try checkParsed("18446744073709552000", .double(18_446_744_073_709_551_616))
        try checkParsed("[1e400]", [.double(.greatestFiniteMagnitude)])
        try checkParsed(
            "[-1e400, 1E+999, 1e-400]",
            [.double(-.greatestFiniteMagnitude), .double(.greatestFiniteMagnitude), .double(0)])
        try checkParsed(
            #"{"s":"1e400 18446744073709552000","n":1e400}"#,
            ["s": "1e400 18446744073709552000", "n": .double(.greatestFiniteMagnitude)])
        let text = Array(#"{"jsonrpc":"2.0","id":7,"params":{"clientTag":18446744073709552000}}"#.utf8)
        let chunked = try JSONValue.parse(ByteChunks(text.map { [$0] }))
        XCTAssertEqual(chunked, try JSONValue.parse(text))
        XCTAssertEqual(chunked["params"]?["clientTag"], .double(18_446_744_073_709_551_616))
        // A malformed number is still an error.
        _ = checkFails("[1e]", "invalid token")
    }

    private func checkParsed(_ text: String, _ expected: JSONValue, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        XCTAssertEqual(try JSONValue.parse(text), expected, file: file, line: line)
    }

    func testDoubles_roundTripExactly() {
        check("1.5", 1.5)
        check("1.0", 1.0)
        check("0.1", 0.1, written: "0.10000000000000001")
        check("1e-400", 0.0, written: "0.0")
        for number in [Double.pi, 1e300, .leastNonzeroMagnitude, -123.456e-7, Double.greatestFiniteMagnitude, 1.0 / 3] {
            let back = try? JSONValue.parse(JSONValue.double(number).serialized())
            XCTAssertEqual(back, .double(number), "\(number)")
        }
    }

    func testNegativeZero_keepsItsSign() throws {
        XCTAssertEqual(JSONValue.double(-0.0).serializedString(), "-0.0")
        let back = try JSONValue.parse("-0.0").doubleValue
        XCTAssertEqual(back?.sign, .minus)
        check("-0", 0, written: "0")
    }

    func testNaNAndInfinity_serialiseAsNull() {
        XCTAssertEqual(
            JSONValue.array([.double(.nan), .double(.infinity), .double(-.infinity)]).serializedString(),
            "[null,null,null]")
    }

    func testDuplicateKeys_lastValueWinsAtFirstPlace() {
        check("{\"a\":1,\"b\":2,\"a\":3}", ["a": 3, "b": 2], written: "{\"a\":3,\"b\":2}")
        XCTAssertEqual(JSONObject([("a", 1), ("b", 2), ("a", 3)]).keys, ["a", "b"])
    }

    func testDeepNesting_upToTheLimitParses() throws {
        let depth = JSONValue.maximumDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let value = try JSONValue.parse(text)
        XCTAssertEqual(value.serializedString(), text)
    }

    func testDeepNesting_beyondTheLimitIsAParseError() {
        let depth = JSONValue.maximumDepth + 1
        checkFails(String(repeating: "[", count: depth) + String(repeating: "]", count: depth), "maximum parsing depth")
        checkFails(
            String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth),
            "maximum parsing depth")
    }

    func testDeepNesting_builtInSwift_serialisesWithoutCrashing() {
        var value: JSONValue = 1
        for _ in 0..<5000 { value = ["a": [value]] }
        let text = value.serializedString()
        // The non-empty array at the deepest level the parser takes, and all below it, is written as null:
        // 1023 objects each holding an array, then one object holding null. What is written parses again.
        let expected =
            String(repeating: "{\"a\":[", count: 1023) + "{\"a\":null}" + String(repeating: "]}", count: 1023)
        XCTAssertEqual(text, expected)
        XCTAssertNoThrow(try JSONValue.parse(text))
    }

    /// Writing piece by piece (what a long array gets) gives the text one jansson tree gives, whatever is long:
    /// random documents written with every threshold from 1 (every container in pieces) up.
    func testSerializeInto_piecewise_writesWhatOneTreeWrites() {
        var generator = SeededRandom(seed: 14)
        for _ in 0..<300 {
            let value = generator.nextJSON(nestingUpTo: 5)
            let whole = value.serialized()
            for threshold in 1...4 {
                var pieces: [UInt8] = [7]
                value.serialize(into: &pieces, piecewiseFrom: threshold)
                XCTAssertEqual(
                    String(decoding: pieces.dropFirst(), as: UTF8.self), String(decoding: whole, as: UTF8.self))
            }
        }
        // The depth limit holds when the outer levels are written in pieces.
        var deep: JSONValue = 1
        for _ in 0..<5000 { deep = ["a": [deep, 2]] }
        var pieces: [UInt8] = []
        deep.serialize(into: &pieces, piecewiseFrom: 1)
        XCTAssertEqual(pieces, deep.serialized())
        // A long array in the default threshold's range, as the diagnostics of 100,000 fields are.
        let long: JSONValue = [
            "params": ["items": .array((0..<1000).map { ["line": .int(Int64($0)), "text": .string("x\($0)")] })]
        ]
        var written: [UInt8] = []
        long.serialize(into: &written)
        XCTAssertEqual(written, long.serialized())
        XCTAssertEqual(try JSONValue.parse(written), long)
        // An array made element by element where the value has an empty one: the text of the value holding them.
        for count in [0, 1, 3, 300] {
            let item = { (index: Int) -> JSONValue in ["range": ["line": .int(Int64(index))], "message": "m\u{0}é"] }
            let envelope: JSONValue = ["jsonrpc": "2.0", "method": "m", "params": ["uri": "u", "list": []]]
            let filled: JSONValue = [
                "jsonrpc": "2.0", "method": "m",
                "params": ["uri": "u", "list": .array((0..<count).map(item))],
            ]
            var made: [UInt8] = []
            envelope.serialize(into: &made, elementsAt: ["params", "list"], JSONElements(count: count, element: item))
            XCTAssertEqual(String(decoding: made, as: UTF8.self), filled.serializedString())
            // In pieces, made one after another: the same bytes, and the length measured first is theirs.
            let pieces = envelope.pieces(elementsAt: ["params", "list"], JSONElements(count: count, element: item))
            var joined = pieces.before
            for index in 0..<count { pieces.append(element: index, to: &joined) }
            joined += pieces.after
            XCTAssertEqual(joined, made)
            XCTAssertEqual(pieces.byteCount(), made.count)
        }
        // Random elements, and one nested past the depth limit: the pieces are the whole value's text.
        var elements = (0..<200).map { _ in generator.nextJSON(nestingUpTo: 5) }
        elements.append(deep)
        for path in [["list"], ["params", "list"], ["a", "b", "c", "list"]] {
            var envelope: JSONValue = ["list": []]
            var filled: JSONValue = ["list": .array(elements)]
            for key in path.dropLast().reversed() {
                envelope = ["k": 1, key: envelope]
                filled = ["k": 1, key: filled]
            }
            let list = JSONElements(count: elements.count) { elements[$0] }
            let pieces = envelope.pieces(elementsAt: path, list)
            var joined = pieces.before
            for index in 0..<elements.count { pieces.append(element: index, to: &joined) }
            joined += pieces.after
            XCTAssertEqual(String(decoding: joined, as: UTF8.self), filled.serializedString(), "\(path)")
            XCTAssertEqual(pieces.byteCount(), joined.count)
        }
    }

    /// What a message's path writes (one jansson tree dumped into a stack buffer, built by recursion through its first
    /// levels) is what `json_dumps` writes for the same tree: random values, shallow and deeper than the recursion,
    /// short and longer than the buffer (also when only their escapes make them longer); and they parse back.
    func testSerializeInto_writesWhatJsonDumpsWrites() throws {
        var generator = SeededRandom(seed: 15)
        for round in 0..<400 {
            var value = generator.nextJSON(nestingUpTo: round % 2 == 0 ? 5 : 3)
            switch round % 5 {
            case 1:
                value = [
                    "long": .string(String(repeating: "a", count: 3_000 + generator.int(below: 2_000))), "v": value,
                ]
            case 2:
                value = [
                    "escapes": .string(String(repeating: "\u{1}\"", count: 600 + generator.int(below: 400))),
                    "v": value,
                ]
            case 3:
                for level in 0..<(20 + generator.int(below: 40)) { value = level % 2 == 0 ? [value, 1] : ["k": value] }
            default: break
            }
            var bytes: [UInt8] = [7]
            value.serialize(into: &bytes)
            XCTAssertEqual(
                String(decoding: bytes.dropFirst(), as: UTF8.self), String(decoding: value.serialized(), as: UTF8.self))
            if !String(decoding: bytes, as: UTF8.self).contains("\\u0000\":") {
                XCTAssertEqual(try JSONValue.parse(Array(bytes.dropFirst())), value)
            }
        }
    }

    /// A message's jansson trees come from a per-thread region: one too big for it (a long array of small values, whose
    /// tree is far larger than its text) still reads and writes exactly, and threads parsing and writing at once each
    /// get their own values back.
    func testRegion_treesLargerThanItAndThreadsAtOnce() {
        let long: JSONValue = .array((0..<20_000).map { .int(Int64($0 % 7)) } + [["k": "v"]])
        let text = long.serialized()
        XCTAssertLessThan(text.count, 64 << 10)
        XCTAssertEqual(try JSONValue.parse(text), long)
        var written: [UInt8] = []
        JSONValue.object(["a": ["b": long]]).serialize(into: &written)
        XCTAssertEqual(written, Array("{\"a\":{\"b\":".utf8) + text + Array("}}".utf8))
        let failures = UnsafeMutablePointer<Int>.allocate(capacity: 8)
        failures.initialize(repeating: 0, count: 8)
        defer { failures.deallocate() }
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var generator = SeededRandom(seed: UInt64(100 + thread))
            for round in 0..<300 {
                let value: JSONValue = [
                    "thread": .int(Int64(thread)), "round": .int(Int64(round)),
                    "v": generator.nextJSON(nestingUpTo: 4),
                ]
                var bytes: [UInt8] = []
                value.serialize(into: &bytes)
                if bytes != value.serialized() { failures[thread] += 1 }
                if let read = try? JSONValue.parse(bytes),
                    read["thread"] != value["thread"] || read["round"] != value["round"]
                {
                    failures[thread] += 1
                }
            }
        }
        XCTAssertEqual((0..<8).map { failures[$0] }, Array(repeating: 0, count: 8))
    }

    func testSyntaxErrors_carryPosition() {
        let error = checkFails("{\n  \"a\": [1,]\n}", "unexpected token")
        XCTAssertEqual(error?.line, 2)
        XCTAssertEqual(error?.column, 11)
        XCTAssertEqual(error?.offset, 13)
        checkFails("", "end of file")
        checkFails("[1] x", "end of file expected")
        checkFails("{\"a\" 1}", "':' expected")
    }

    /// A document fed to jansson in chunks that are given up as read parses as the same bytes whole do: the same
    /// value, or the same error at the same place, for random documents (valid, cut short, with bytes changed, with
    /// invalid UTF-8) cut at random places, multi-byte characters cut across chunks among them.
    func testParseChunks_sameAsWhole_forRandomDocumentsAndCuts() {
        var generator = SeededRandom(seed: 41)
        let pieces = ["a", "é", "日本", "😀", "\\\"", "\\u00e9", "\\ud83d\\ude00", "\\u0000", " ", "\\n"]
        func randomText(_ depth: Int) -> String {
            switch generator.int(below: depth > 3 ? 5 : 7) {
            case 0: return "null"
            case 1: return generator.int(below: 2) == 0 ? "true" : "false"
            case 2: return String(Int64(bitPattern: generator.next()))
            case 3: return "\(Double(generator.int(below: 2_000_001)) / 7 - 100_000)"
            case 4:
                return "\""
                    + (0..<generator.int(below: 40)).map { _ in pieces[generator.int(below: pieces.count)] }.joined()
                    + "\""
            case 5:
                return "[" + (0..<generator.int(below: 5)).map { _ in randomText(depth + 1) }.joined(separator: ", ")
                    + "]"
            default:
                return "{"
                    + (0..<generator.int(below: 5)).map { "\"k\($0)é\": " + randomText(depth + 1) }.joined(
                        separator: ",\n") + "}"
            }
        }
        let invalid: [[UInt8]] = [
            [0xFF], [0xC3], [0xE6, 0x97], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0],
        ]
        for round in 0..<400 {
            var bytes = Array(randomText(0).utf8)
            switch round % 5 {
            case 1 where !bytes.isEmpty: bytes.removeLast(generator.int(below: bytes.count) + 1)
            case 2 where !bytes.isEmpty:
                bytes[generator.int(below: bytes.count)] = UInt8(truncatingIfNeeded: generator.next())
            case 3:
                bytes.insert(
                    contentsOf: invalid[generator.int(below: invalid.count)], at: generator.int(below: bytes.count + 1))
            default: break
            }
            let whole = Result { try JSONValue.parse(bytes) }
            for cutting in 0..<4 {
                var chunks: [[UInt8]] = []
                var offset = 0
                while offset < bytes.count {
                    let size = cutting == 0 ? 1 : 1 + generator.int(below: cutting == 3 ? 3000 : 9)
                    chunks.append(Array(bytes[offset..<min(bytes.count, offset + size)]))
                    offset += size
                }
                let fed = ByteChunks(chunks)
                XCTAssertEqual(fed.joined, bytes)
                let chunked = Result { try JSONValue.parse(fed) }
                switch (whole, chunked) {
                case (.success(let a), .success(let b)):
                    XCTAssertEqual(a, b, String(decoding: bytes, as: UTF8.self))
                case (.failure(let a), .failure(let b)):
                    XCTAssertEqual(a as? JSONParseError, b as? JSONParseError, String(decoding: bytes, as: UTF8.self))
                default:
                    XCTFail("whole \(whole), in chunks \(chunked): \(String(decoding: bytes, as: UTF8.self))")
                }
                XCTAssertEqual(fed.count, 0, "every chunk read was given up")
            }
        }
        // A document of a few megabytes, one long string as a didOpen's text is.
        let long =
            Array(#"{"text":""#.utf8) + Array(String(repeating: "line é 😀\\n", count: 300_000).utf8)
            + Array(#""}"#.utf8)
        let chunks = stride(from: 0, to: long.count, by: 65_536).map { Array(long[$0..<min(long.count, $0 + 65_536)]) }
        XCTAssertEqual(try JSONValue.parse(ByteChunks(chunks)), try JSONValue.parse(long))
    }

    func testAccessors() {
        let value: JSONValue = ["s": "x", "i": 3, "d": 2.0, "h": 2.5, "b": true, "n": nil, "a": [1], "o": [:]]
        XCTAssertEqual(value["s"]?.stringValue, "x")
        XCTAssertEqual(value["i"]?.intValue, 3)
        XCTAssertEqual(value["d"]?.intValue, 2)
        XCTAssertNil(value["h"]?.intValue)
        XCTAssertEqual(value["i"]?.doubleValue, 3)
        XCTAssertEqual(value["b"]?.boolValue, true)
        XCTAssertEqual(value["n"]?.isNull, true)
        XCTAssertEqual(value["a"]?.arrayValue, [1])
        XCTAssertEqual(value["a"]?[0], 1)
        XCTAssertEqual(value["o"]?.objectValue?.isEmpty, true)
        XCTAssertNil(value["missing"])
        XCTAssertNil(value["s"]?["s"])
        XCTAssertNil(value["s"]?.intValue)
    }

    func testObject_setAndRemove() {
        var object: JSONObject = ["a": 1]
        object["b"] = 2
        object["a"] = 3
        XCTAssertEqual(object.keys, ["a", "b"])
        object["a"] = nil
        XCTAssertEqual(object.keys, ["b"])
        object["n"] = .null
        XCTAssertEqual(object.count, 2)
        XCTAssertEqual(Array(object.map(\.key)), ["b", "n"])
    }

    func testObject_equalityIgnoresOrder() {
        let forward: JSONObject = ["a": 1, "b": 2]
        let backward: JSONObject = ["b": 2, "a": 1]
        XCTAssertEqual(forward, backward)
        XCTAssertEqual(forward.hashValue, backward.hashValue)
        XCTAssertNotEqual(forward, ["a": 1, "b": 3])
        XCTAssertNotEqual(JSONValue.int(1), .double(1))
    }

    /// Prints the cost of parsing and serialising a typical message; it asserts nothing about time.
    func testSpeed_parseAndSerialiseADidChange() throws {
        let text = """
            {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///tmp/form.txt",\
            "version":42},"contentChanges":[{"range":{"start":{"line":3,"character":17},"end":{"line":3,"character":17}},\
            "text":"5"}]}}
            """
        let bytes = Array(text.utf8)
        let rounds = 2000
        var total = 0
        let start = monotonicNanoseconds()
        for _ in 0..<rounds { total += try JSONValue.parse(bytes).serialized().count }
        let perRound = Double(monotonicNanoseconds() - start) / Double(rounds) / 1000
        print("parse+serialise \(bytes.count) bytes: \(perRound) µs")
        XCTAssertEqual(total, rounds * bytes.count)
    }
}

private func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

private extension SeededRandom {
    /// A random value: scalars, strings with escapes, NULs and non-ASCII, and containers up to `depth` levels (a third
    /// of their keys with a NUL, which jansson writes but does not read).
    mutating func nextJSON(nestingUpTo depth: Int) -> JSONValue {
        let kind = depth <= 0 ? int(below: 6) : int(below: 8)
        switch kind {
        case 0: return .null
        case 1: return .bool(int(below: 2) == 0)
        case 2: return .int(Int64(bitPattern: next()))
        case 3: return .double(Double(int(below: 2_000_001)) / 7 - 100_000)
        case 4, 5:
            let pieces = ["a", "é", "\"", "\u{0}", "\n", "日本", "😀", " ", "\\"]
            return .string((0..<int(below: 5)).map { _ in pieces[int(below: pieces.count)] }.joined())
        case 6: return .array((0..<int(below: 6)).map { _ in nextJSON(nestingUpTo: depth - 1) })
        default:
            return .object(
                JSONObject(
                    (0..<int(below: 6)).map { _ in
                        ("k\(int(below: 4))" + (int(below: 3) == 0 ? "\u{0}" : ""), nextJSON(nestingUpTo: depth - 1))
                    }))
        }
    }
}
