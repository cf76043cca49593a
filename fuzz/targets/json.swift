// Fuzz target `json`: JSONValue parsing and serialisation through jansson (Sources/JSON).
//
// Built by `fuzz/run json SECONDS` in one module with the JSON layer's sources.
// The first input byte chooses a mode:
// - "text" (0 mod 4): the rest is parsed as a JSON document. Parsing must not crash, and whatever parses must
//   serialise to text that parses back to an equal value and serialises to the same bytes again.
// - "value" (odd): the rest describes a JSONValue (strings with NUL and any scalar, exact integers at the
//   64-bit edges, finite doubles from raw bits, nested arrays and objects, repeated keys); serialising and
//   parsing it must give it back.
// - "big number" (2 mod 4): a number of up to 400 digits with any exponent, as JSON allows: it must parse.
// Nesting at the depth limit is checked once at start-up.

#if canImport(Glibc)
    import Glibc
#endif

func fail(_ message: String) -> Never {
    fatalError("json: " + message)
}

/// Serialises `value`, parses the text, and checks that both steps are lossless and stable.
func checkRoundTrip(_ value: JSONValue, origin: String) {
    let text = value.serialized()
    let again: JSONValue
    do {
        again = try JSONValue.parse(text)
    } catch {
        fail(
            "\(origin): the serialised text does not parse (\(error)): \(String(decoding: text.prefix(200), as: UTF8.self))"
        )
    }
    if again != value {
        fail("\(origin): parse(serialize(v)) != v for \(String(decoding: text.prefix(200), as: UTF8.self))")
    }
    if again.serialized() != text { fail("\(origin): serialising twice gave different bytes") }
}

/// A string of `count` scalars drawn from the input: ASCII, controls and NUL, escapes, and any valid scalar.
func makeString(_ source: inout ByteSource, allowNUL: Bool) -> String {
    var scalars = String.UnicodeScalarView()
    for _ in 0..<Int(source.uint8() % 12) {
        let kind = source.uint8()
        var value: UInt32
        switch kind % 6 {
        case 0: value = UInt32(source.uint8() % 0x20)  // Controls, NUL among them.
        case 1: value = UInt32([0x22, 0x5C, 0x2F, 0x7F][Int(source.uint8() % 4)])  // Quote, backslash, slash, DEL.
        case 2: value = UInt32(source.uint8()) << 8 | UInt32(source.uint8())  // The BMP, surrogates excluded below.
        case 3: value = 0x10000 + (UInt32(source.uint8()) << 12 | UInt32(source.uint8()) << 4) % 0x100000  // Astral.
        default: value = 0x20 + UInt32(source.uint8() % 0x5F)  // Printable ASCII.
        }
        if !allowNUL, value == 0 { value = 0x30 }
        scalars.append(Unicode.Scalar(value) ?? "?")
    }
    return String(scalars)
}

/// A value whose nesting is at most `depth` more levels.
func makeValue(_ source: inout ByteSource, depth: Int) -> JSONValue {
    let kind = source.uint8()
    switch kind % 10 {
    case 0: return .null
    case 1: return .bool(kind & 0x10 != 0)
    case 2:
        let edges: [Int64] = [0, -1, 1, .max, .min, 1 << 53, (1 << 53) + 1, -(1 << 53) - 1]
        return .int(kind & 0x10 != 0 ? edges[Int(source.uint8() % 8)] : Int64(bitPattern: source.uint64()))
    case 3:
        let double = Double(bitPattern: source.uint64())
        return .double(double.isFinite ? double : Double(source.uint8()) / 8)
    case 4, 5: return .string(makeString(&source, allowNUL: true))
    case 6, 7:
        guard depth > 0 else { return .int(Int64(kind)) }
        var elements: [JSONValue] = []
        for _ in 0..<Int(source.uint8() % 6) { elements.append(makeValue(&source, depth: depth - 1)) }
        return .array(elements)
    default:
        guard depth > 0 else { return .string("") }
        // jansson refuses NUL in keys, as JSONValue.parse documents; keys here have none.
        var pairs: [(String, JSONValue)] = []
        for _ in 0..<Int(source.uint8() % 6) {
            let key = source.uint8() & 0x80 != 0 && !pairs.isEmpty ? pairs[0].0 : makeString(&source, allowNUL: false)
            pairs.append((key, makeValue(&source, depth: depth - 1)))
        }
        return .object(JSONObject(pairs))
    }
}

/// An array chain `depth` levels deep around `inner`.
func nested(_ depth: Int, around inner: JSONValue) -> JSONValue {
    var value = inner
    for i in 0..<depth { value = i % 2 == 0 ? .array([value]) : .object(JSONObject([("k", value)])) }
    return value
}

func checkText(_ bytes: [UInt8]) {
    guard let value = try? JSONValue.parse(bytes) else { return }
    checkRoundTrip(value, origin: "parsed input")
}

func checkValue(_ source: inout ByteSource) {
    checkRoundTrip(makeValue(&source, depth: 6), origin: "built value")
}

/// Nesting near jansson's limit, checked once at start-up (it costs milliseconds per value, so fuzzing it would
/// crowd out everything else): up to the limit values round-trip; beyond it serialising does not overflow the
/// stack and nothing too deep parses.
func checkDepthLimit() {
    for inner in [JSONValue.array([]), .null, .object(JSONObject([("k", "v")]))] {
        for total in JSONValue.maximumDepth - 2...JSONValue.maximumDepth + 2 {
            let deep = nested(total - valueDepth(inner), around: inner)
            if total <= JSONValue.maximumDepth {
                checkRoundTrip(deep, origin: "nested \(total)")
            } else {
                // Past the depth the parser takes, the serialiser writes the deepest containers as null (regression
                // deepest-container); only make sure nothing too deep is accepted.
                if let back = try? JSONValue.parse(deep.serialized()), valueDepth(back) > JSONValue.maximumDepth {
                    fail("parsed a value \(valueDepth(back)) deep, over the maximum depth")
                }
            }
            let arrays =
                [UInt8](repeating: UInt8(ascii: "["), count: total)
                + [UInt8](repeating: UInt8(ascii: "]"), count: total)
            if ((try? JSONValue.parse(arrays)) != nil) != (total <= JSONValue.maximumDepth) {
                fail("\(total) nested arrays: parsing disagrees with the maximum depth \(JSONValue.maximumDepth)")
            }
        }
    }
}

/// How deep jansson's parser counts `value`: every value is a level, scalars and empty containers included.
func valueDepth(_ value: JSONValue) -> Int {
    switch value {
    case .array(let elements): return 1 + (elements.map(valueDepth).max() ?? 0)
    case .object(let object): return 1 + (object.map { valueDepth($0.value) }.max() ?? 0)
    default: return 1
    }
}

/// A number of any size in valid JSON (up to 400 digits, exponents up to 999 either way, inside strings too) must
/// parse: as an exact integer, or a finite double, and the value must survive a round trip.
func checkBigNumber(_ source: inout ByteSource) {
    var number = source.uint8() & 1 == 0 ? "" : "-"
    let digits = 1 + Int(source.uint8()) + Int(source.uint8() % 145)
    number += String(UnicodeScalar(UInt8(ascii: "1") + source.uint8() % 9))
    for _ in 1..<digits { number += String(UnicodeScalar(UInt8(ascii: "0") + source.uint8() % 10)) }
    if source.uint8() & 1 == 1 { number += "." + String(source.uint8() % 100) }
    if source.uint8() & 1 == 1 { number += (source.uint8() & 1 == 0 ? "e" : "E-") + String(Int(source.uint8()) * 4) }
    let text = "{\"n\":\(number),\"s\":\"\(number)\",\"a\":[\(number),\(number)]}"
    let value: JSONValue
    do {
        value = try JSONValue.parse(Array(text.utf8))
    } catch {
        fail("valid JSON with the number \(number) does not parse: \(error)")
    }
    switch value["n"] {
    case .int?: break
    case .double(let d)?: if !d.isFinite { fail("\(number) read as \(d)") }
    default: fail("\(number) read as \(String(describing: value["n"]))")
    }
    if value["s"]?.stringValue != number { fail("the string \"\(number)\" read as \(String(describing: value["s"]))") }
    checkRoundTrip(value, origin: "big number \(number)")
}

/// The bugs this target found, checked once at start-up unless skipping known bugs (MASKD_FUZZ_KNOWN_BUGS=skip):
/// what the serialiser writes in full, the parser must read (`maximumDepth` arrays around a scalar were written
/// whole, the scalar a level deeper, and then refused); numbers past 64 bits or the double range must parse.
func checkRegressions() {
    guard !skipKnownBugs else { return }
    let value = nested(JSONValue.maximumDepth, around: .null)
    let text = value.serialized()
    if (try? JSONValue.parse(text)) == nil {
        fputs(
            "json regression deepest-container: \(JSONValue.maximumDepth) containers around null serialise to text the parser refuses: FAILS\n",
            stderr)
        fail(
            "deepest-container: serialize() wrote \(JSONValue.maximumDepth) nested containers around a scalar, and parse() refuses the text"
        )
    }
    fputs("json regression deepest-container: ok\n", stderr)
    // big-numbers: valid JSON with numbers past 64 bits or past the double range was refused, and its request never answered.
    for text in ["{\"id\":7,\"n\":18446744073709552000}", "[1e400,-1e400]", "{\"s\":\"1e400\",\"n\":1e400}"] {
        guard (try? JSONValue.parse(Array(text.utf8))) != nil else {
            fputs("json regression big-numbers: \(text) is refused: FAILS\n", stderr)
            fail("big-numbers: valid JSON with a number past 64 bits or past the double range does not parse: \(text)")
        }
    }
    fputs("json regression big-numbers: ok\n", stderr)
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    checkRegressions()
    checkDepthLimit()
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var source = ByteSource(Array(UnsafeBufferPointer(start: data, count: size)))
    let mode = source.uint8()
    if mode & 3 == 2 {
        checkBigNumber(&source)
    } else if mode & 1 == 0 {
        checkText(source.rest())
    } else {
        checkValue(&source)
    }
    return 0
}
