// maskd: `maskd format` and `maskd edit`, one field operation printed for people or as JSON.
import JSON
import MaskCatalog
import MaskEngine
import JSONRPC
import MaskServer

/// Runs one `maskd/apply` through a fresh in-process server, so the commands and the daemon
/// can never disagree.
func apply(_ params: JSONObject) throws -> JSONValue {
    let server = Server(version: maskdVersion, outbound: NoClient())
    _ = server.handleRequest("initialize", ["capabilities": [:]])
    switch server.handleRequest("maskd/apply", .object(params)) {
    case .success(let result):
        return result
    case .failure(let error):
        throw UsageError(message: error.message.replacing("params.", with: "--"), showUsage: false)
    }
}

/// The channel of a server that no client reads: a one-shot command takes its answers as values.
private final class NoClient: Outbound {
    private var lastRequestID: Int64 = 0
    var isWritingLongList: Bool { false }

    func send(_ message: OutgoingMessage) -> RequestID? {
        guard case .request = message else { return nil }
        lastRequestID += 1
        return .int(lastRequestID)
    }
}

/// The mask argument: a JSON MaskSpec object, or bracket notation.
///
/// Bracket notation may start with `{` too (`{7} ([000]) [000]`), so the text is a JSON object only when it parses
/// as one; anything else is read as notation. A text that starts with `{` and is neither is refused with both
/// readings' problems.
func maskArgument(_ text: String) throws -> JSONValue {
    // Leading blanks (tabs and space separators, not line breaks) do not count.
    let start = text.unicodeScalars.firstIndex { $0 != "\t" && $0.properties.generalCategory != .spaceSeparator }
    guard let start, String(text.unicodeScalars[start...]).hasPrefix("{") else { return .string(text) }
    let jsonProblem: String
    do {
        let value = try JSONValue.parse(text)
        if case .object = value { return value }
        jsonProblem = "not an object"
    } catch {
        jsonProblem = "\(error)"
    }
    do {
        _ = try Mask.compile(text)
        return .string(text)
    } catch let error as MaskError {
        throw UsageError(
            message: "--mask is neither a JSON object (\(jsonProblem)) nor bracket notation (\(error))",
            showUsage: false)
    }
}

func runFormat(_ arguments: [String]) throws -> Int32 {
    let parsed = try OptionParser(
        arguments, valued: ["mask", "caret", "output", "jobs"], flags: ["json", "check", "tagged"])
    let output = try LineOutput(parsed.options["output"])
    if output != .text, parsed.flags.contains("json") {
        throw UsageError(message: "--output and --json do not go together (the JSON result has every form)")
    }
    guard parsed.positional.count <= 1 else {
        throw UsageError(
            message: "format takes one TEXT argument (or none, or '-', for standard input), "
                + "got \(parsed.positional.count)")
    }
    let lines = parsed.positional.isEmpty || parsed.positional == ["-"]
    let tagged = parsed.flags.contains("tagged")
    guard lines || !tagged else {
        throw UsageError(message: "--tagged is for lines on standard input (no TEXT argument)")
    }
    if lines {
        guard parsed.options["caret"] == nil else { throw UsageError(message: "--caret needs a TEXT argument") }
        // Where each line's mask comes from, and each thread's copy of it.
        let masks: LineMasks, threadMasks: () -> LineMasks
        if tagged {
            guard parsed.options["mask"] == nil else {
                throw UsageError(message: "--tagged reads each line's mask from the line: give no --mask")
            }
            guard !output.isPhoneForm else {
                throw UsageError(message: "--tagged takes --output text or value (a phone form is for --mask phone)")
            }
            (masks, threadMasks) = (.tagged, { .tagged })
        } else {
            let spec: MaskSpec, mask: Mask
            do {
                (spec, mask) = try MaskSpec.compileJSON(try maskArgument(try parsed.required("mask")), path: "--mask")
            } catch let error as MessageError {
                throw UsageError(message: error.message, showUsage: false)
            }
            try output.check(mask)
            (masks, threadMasks) = (.one(mask), { .one((try? Mask.compileUnshared(spec)) ?? mask) })
        }
        let jobs = try parsed.integer("jobs") ?? availableCores()
        guard jobs >= 1 else { throw UsageError(message: "--jobs takes a number of threads, 1 or more, got \(jobs)") }
        return formatLines(
            masks, json: parsed.flags.contains("json"), check: parsed.flags.contains("check"), output: output,
            jobs: jobs, threadMasks: threadMasks)
    }
    guard !parsed.flags.contains("check") else {
        throw UsageError(message: "--check is for lines on standard input (no TEXT argument)")
    }
    guard parsed.options["jobs"] == nil else {
        throw UsageError(message: "--jobs is for lines on standard input (no TEXT argument)")
    }
    if output != .text {
        // One text written in one form, as a line of standard input would be.
        let mask: Mask
        do {
            mask = try ApplyResult.compileMask(try maskArgument(try parsed.required("mask")), name: "--mask")
        } catch let error as MessageError {
            throw UsageError(message: error.message, showUsage: false)
        }
        try output.check(mask)
        guard let written = output.write(parsed.positional[0], mask) else {
            writeStandardError("maskd: \(output.noNumber(parsed.positional[0], mask))\n")
            return 1
        }
        print(written)
        return 0
    }
    var params: JSONObject = [
        "mask": try maskArgument(try parsed.required("mask")),
        "text": .string(parsed.positional[0]),
    ]
    if let caret = try parsed.integer("caret") {
        params["selection"] = ["start": .int(Int64(caret)), "end": .int(Int64(caret))]
    }
    printResult(try apply(params), json: parsed.flags.contains("json"))
    return 0
}

func runEdit(_ arguments: [String]) throws -> Int32 {
    let parsed = try OptionParser(
        arguments, valued: ["mask", "text", "selection", "insert"],
        flags: ["json", "backspace", "delete"])
    guard parsed.positional.isEmpty else { throw UsageError(message: "unexpected argument '\(parsed.positional[0])'") }
    let text = try parsed.required("text")
    let selectionText = try parsed.required("selection")
    let parts = selectionText.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, let start = Int(parts[0]), let end = Int(parts[1]), 0 <= start, start <= end else {
        throw UsageError(message: "--selection takes START:END with START <= END, got '\(selectionText)'")
    }
    let actions = [
        parsed.options["insert"] != nil, parsed.flags.contains("backspace"), parsed.flags.contains("delete"),
    ]
    guard actions.filter({ $0 }).count == 1 else {
        throw UsageError(message: "edit takes exactly one of --insert X, --backspace, --delete")
    }
    let units = Array(text.utf16)
    guard end <= units.count else {
        throw UsageError(
            message: "--selection \(selectionText) is past the end of the text (\(units.count) UTF-16 units)")
    }
    // A collapsed caret deletes the character (grapheme) before it, or after it.
    var editStart = start, editEnd = end
    if start == end, !actions[0] {
        let characterStarts = text.indices.map { $0.utf16Offset(in: text) } + [units.count]
        if actions[1] {
            editStart = characterStarts.last { $0 < start } ?? start
        } else {
            editEnd = characterStarts.first { $0 > end } ?? end
        }
    }
    // maskd/apply reads a deletion as a forward delete when the selection is collapsed at its start (any other is
    // a backspace), so --delete over a selection sends the caret at the selection's start: over literals only, it
    // then removes the entered character after them.
    let selectionEnd = actions[2] ? start : end
    let params: JSONObject = [
        "mask": try maskArgument(try parsed.required("mask")),
        "text": .string(text),
        "selection": ["start": .int(Int64(start)), "end": .int(Int64(selectionEnd))],
        "edit": [
            "start": .int(Int64(editStart)), "end": .int(Int64(editEnd)),
            "text": .string(parsed.options["insert"] ?? ""),
        ],
    ]
    printResult(try apply(params), json: parsed.flags.contains("json"))
    return 0
}

/// Prints an apply result: JSON, or the text with the caret marked and the state line by line.
func printResult(_ result: JSONValue, json: Bool) {
    if json {
        print(result.serializedString())
        return
    }
    let text = result["text"]?.stringValue ?? ""
    let start = result["selection"]?["start"]?.intValue ?? 0
    let end = result["selection"]?["end"]?.intValue ?? 0
    print(marked(text, start: start, end: end))
    for key in [
        "value", "complete", "valid", "problems", "next", "placeholder", "mask", "brand", "rejected", "overflow",
    ] {
        guard let value = result[key] else { continue }
        switch value {
        case .string(let s): print("\(key): \(s)")
        case .array(let items) where items.isEmpty: continue
        default: print("\(key): \(value.serializedString())")
        }
    }
}

/// `text` with `|` at UTF-16 offsets `start` and `end` (once when they are equal).
func marked(_ text: String, start: Int, end: Int) -> String {
    let units = Array(text.utf16)
    func slice(_ a: Int, _ b: Int) -> String {
        String(decoding: units[min(a, units.count)..<min(b, units.count)], as: UTF16.self)
    }
    if start == end { return slice(0, start) + "|" + slice(start, units.count) }
    return slice(0, start) + "|" + slice(start, end) + "|" + slice(end, units.count)
}

/// `maskd presets`: every preset name with what it formats, one per line.
func runPresets(_ arguments: [String]) throws -> Int32 {
    guard arguments.isEmpty else { throw UsageError(message: "presets takes no arguments") }
    // Identifiers' names line up in a column as wide as the longest (`nl.identiteitskaartnummer`) and a gap.
    let identifierColumn =
        Presets.names.filter { IdentifierCatalog.example($0) != nil }.map(\.count).max().map { $0 + 2 } ?? 0
    for name in Presets.names {
        if let example = IdentifierCatalog.example(name) {
            // Identifiers, grouped by country: name, the identifier in words, a valid number as it is shown.
            print(name.padded(to: identifierColumn) + (Presets.summaries[name] ?? "") + "  " + example)
            continue
        }
        print(name.padded(to: 12) + (Presets.summaries[name] ?? ""))
        if name == "phone" {
            print("".padded(to: 12) + "region: " + Presets.phoneRegions.joined(separator: " "))
        }
        if name == "postal" {
            print("".padded(to: 12) + "region (required): " + Presets.postalRegions.joined(separator: " "))
        }
    }
    return 0
}
