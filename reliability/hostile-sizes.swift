// The hostile-input suite: big inputs, and masks and regexes built to explode (see hostile.swift).

import Glibc
import JSON

let sizeTests: [HostileTest] = [
    HostileTest(
        name: "one_megabyte_line",
        summary: "A 1 MB line in a document, with a field at its end: each keystroke stays fast.",
        run: oneMegabyteLine),
    HostileTest(
        name: "large_pastes_into_every_preset",
        summary: "1 MB pasted into every preset through maskd/apply, a didChange and an openField: each answered "
            + "in bounded time, every character kept or reported, the peak memory bounded.",
        run: largePastesIntoEveryPreset),
    HostileTest(
        name: "mask_of_100000_characters",
        summary: "Masks of 100,000 characters (slots, literals, escapes) are compiled or refused in bounded time.",
        run: maskOf100000Characters),
    HostileTest(
        name: "huge_mask_forms",
        summary: "Forms that would expand into enormous masks (groups, separatorAt, repeat) are refused or bounded.",
        run: hugeMaskForms),
    HostileTest(
        name: "regex_that_backtracks",
        summary: "Regexes that backtrack badly or never match, as a field's `regex`, over long values: bounded time.",
        run: regexThatBacktracks),
]

func oneMegabyteLine() throws {
    let d = try started()
    defer { d.kill() }
    let line = times("x", 1_000_000)
    let uri = "file:///big"
    try d.notify("textDocument/didOpen", Messages.didOpen(uri: uri, text: line + "\nnext line\n"))
    let reply = try d.call(
        "maskd/openField",
        Messages.openField(uri: uri, line: 0, from: 1_000_000, to: 1_000_000, mask: "[0000] [0000]"), timeout: 30)
    try check(reply["result"] != nil, "openField at the end of a 1 MB line: \(short(reply))")
    var version = 1
    var caret = 1_000_000
    var slowest = 0.0
    for digit in "12345678" {
        version += 1
        let start = nowNS()
        try d.notify(
            "textDocument/didChange",
            Messages.didChange(
                uri: uri, version: version,
                changes: [Messages.change(line: 0, from: caret, to: caret, text: String(digit))]))
        let formatted = try d.wait(for: { $0["method"] == "maskd/didFormat" }, timeout: 30)
        slowest = max(slowest, seconds(since: start))
        // Echo the daemon's edits, as an editor would.
        let edits = try need(
            formatted["params"]?["edits"]?.arrayValue, "a didFormat without edits: \(short(formatted))")
        if !edits.isEmpty {
            version += 1
            try d.notify(
                "textDocument/didChange",
                Messages.didChange(uri: uri, version: version, changes: edits.reversed().map(echo)))
        }
        caret = try need(
            formatted["params"]?["cursor"]?["character"]?.intValue, "a didFormat without a cursor: \(short(formatted))")
    }
    let fields = try d.call("maskd/fields", ["textDocument": ["uri": .string(uri)]], timeout: 30)
    try check(
        fields["result"]?[0]?["text"] == "1234 5678", "field at the end of the line: \(short(fields["result"]?[0]))")
    try check(slowest < 2.0, "a keystroke on the 1 MB line took \(fixed(slowest, 2)) s")
    // A whole-document replacement of the same size is diffed, not choked on.
    version += 1
    try d.notify(
        "textDocument/didChange",
        Messages.didChange(
            uri: uri, version: version,
            changes: [["text": .string("y" + String(line.dropFirst()) + "1234 5678\nnext line\n")]]))
    try stillServing(d, timeout: 30)
}

/// The change that echoes the daemon's edit `edit` (an LSP `TextEdit`), as an editor applies it.
func echo(_ edit: JSONValue) -> JSONValue {
    ["range": edit["range"] ?? nil, "text": edit["newText"] ?? nil]
}

/// A mask for every preset `maskd presets` lists, with the first value of each option it requires
/// (`region (required): AC AD ...` below `postal`).
func presetMasks() throws -> [JSONValue] {
    let lister = try DaemonProcess(
        name: "maskd presets", executable: binary, arguments: ["presets"], timeout: 30, errorOutput: .discard)
    defer { lister.kill() }
    let listing = String(decoding: lister.readToEnd(within: 30), as: UTF8.self)
    var masks: [JSONObject] = []
    for line in listing.split(separator: "\n") {
        if !line.allSatisfy({ $0 == " " || $0 == "\t" }), line.first != " ", line.first != "\t" {
            masks.append(["preset": .string(String(line.prefix { $0 != " " && $0 != "\t" }))])
        } else if !masks.isEmpty, let marker = line.firstRange(of: " (required):") {
            let option = line[..<marker.lowerBound].trimmingPrefix(while: { $0 == " " || $0 == "\t" })
            if let value = line[marker.upperBound...].split(separator: " ").first {
                masks[masks.count - 1][String(option)] = .string(String(value))
            }
        }
    }
    try check(!masks.isEmpty, "`maskd presets` listed no preset")
    return masks.map { .object($0) }
}

/// Digits and letters mixed, none a literal of a preset (`1` is the US phone's, `0` a number's leading zero).
let pastePattern = "4a7Z2x9b5Q8k3"

/// The length of `value`, a text (in Unicode scalars) or a list, as `rejected` and `overflow` are reported.
func reportedCount(_ value: JSONValue?) -> Int {
    value?.stringValue?.unicodeScalars.count ?? value?.arrayValue?.count ?? 0
}

/// Checks that every pasted character was kept or reported: at most the field's own text is unaccounted for.
func accounted(_ what: String, _ pasted: Int, _ result: JSONValue?, text: JSONValue?) throws {
    let kept = text?.stringValue?.unicodeScalars.count ?? 0
    let reported = reportedCount(result?["rejected"]) + reportedCount(result?["overflow"])
    try check(
        pasted - kept <= reported && reported <= pasted,
        "\(what): \(pasted) characters pasted, \(kept) kept in \(text?.stringValue?.prefix(20) ?? "nothing")..., "
            + "\(reported) reported")
}

func largePastesIntoEveryPreset() throws {
    let d = try started()
    defer { d.kill() }
    let size = 1_000_000
    let paste = String(times(pastePattern, size / pastePattern.count + 1).prefix(size))
    var slow: [String] = []
    var version = 1
    for mask in try presetMasks() {
        let name = mask["preset"]?.stringValue ?? "?"
        var start = nowNS()
        let reply = try d.call(
            "maskd/apply", applyParams(mask, "", edit: ["start": 0, "end": 0, "text": .string(paste)]), timeout: 60)
        var took = seconds(since: start)
        let result = try need(reply["result"], "\(name): maskd/apply of 1 MB: \(short(reply, 200))")
        try accounted(name + ", maskd/apply", size, result, text: result["text"])
        if took > 5 { slow.append("\(name) maskd/apply \(fixed(took, 1)) s") }
        let uri = "file:///paste-" + name
        try d.notify("textDocument/didOpen", Messages.didOpen(uri: uri, text: "paste: \n"))
        var opened = try d.call("maskd/openField", Messages.openField(uri: uri, line: 0, from: 7, to: 7, mask: mask))
        try check(opened["result"] != nil, "\(name): openField: \(short(opened))")
        version += 1
        start = nowNS()
        try d.notify(
            "textDocument/didChange",
            Messages.didChange(
                uri: uri, version: version, changes: [Messages.change(line: 0, from: 7, to: 7, text: paste)]))
        let formatted = try d.wait(for: { $0["method"] == "maskd/didFormat" }, timeout: 60)
        took = seconds(since: start)
        let params = formatted["params"]
        try accounted(name + ", didChange", size, params, text: params?["fields"]?[0]?["text"])
        if took > 5 { slow.append("\(name) didChange \(fixed(took, 1)) s") }
        // Opening a field over a long run of text already in the document.
        try d.notify("textDocument/didOpen", Messages.didOpen(uri: uri + "-open", text: paste + "\n"))
        start = nowNS()
        opened = try d.call(
            "maskd/openField",
            [
                "textDocument": ["uri": .string(uri + "-open")], "mask": mask, "force": true,
                "range": Messages.range(line: 0, from: 0, to: size),
            ], timeout: 60)
        try check(opened["result"] != nil, "\(name): openField over 1 MB: \(short(opened, 200))")
        took = seconds(since: start)
        if took > 5 { slow.append("\(name) openField \(fixed(took, 1)) s") }
        try d.notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
        try d.notify("textDocument/didClose", ["textDocument": ["uri": .string(uri + "-open")]])
    }
    try check(slow.isEmpty, slow.joined(separator: "; "))
    let peak = d.rssKiB("VmHWM")
    try check(
        peak.map { $0 < 300 * 1024 } ?? false, "peak RSS \(peak.map(String.init) ?? "unknown") KiB after the pastes")
    try stillServing(d)
}

func maskOf100000Characters() throws {
    let d = try started()
    defer { d.kill() }
    let masks = [
        "[" + times("0", 99_998) + "]",
        times("-", 50_000) + "[0]" + times("-", 49_997),
        times("\\[", 50_000),
        times("[", 100_000),
        times("[0]", 33_333) + "x",
    ]
    for mask in masks {
        let start = nowNS()
        let reply = try d.call("maskd/apply", applyParams(.string(mask), times("1", 2000)), timeout: 30)
        let took = seconds(since: start)
        try check(
            reply["result"] != nil || reply["error"] != nil, "no answer for a \(mask.count)-character mask")
        try check(took < 10, "a \(mask.count)-character mask took \(fixed(took, 1)) s")
    }
    try stillServing(d)
}

func hugeMaskForms() throws {
    var d = try started()
    defer { d.kill() }
    let specs: [JSONValue] = [
        ["groups": [.int(Int64.max), 1]],
        ["groups": [1_000_000_000]],
        ["groups": [4], "repeat": true, "maxLength": 1_000_000_000],
        ["separatorAt": [3], "maxLength": 1_000_000_000],
        ["separatorAt": [1_000_000_000]],
        ["number": ["maxInteger": 1_000_000_000, "fraction": 1_000_000_000]],
    ]
    var problems: [String] = []
    for spec in specs {
        if !d.process.isRunning {
            d.kill()
            d = try started()
        }
        let start = nowNS()
        do {
            _ = try d.call("maskd/apply", applyParams(spec, "1234"), timeout: 4)
        } catch is Timeout {
            let what =
                d.process.exitCode.map { "the daemon died (\($0))" }
                ?? "no answer in 4 s, RSS \(d.rssKiB().map(String.init) ?? "unknown") KiB"
            problems.append("\(spec.serializedString()): \(what)")
            d.kill()
            d = try started()
            continue
        }
        let took = seconds(since: start)
        let peak = d.rssKiB("VmHWM")
        if took > 5 || (peak ?? Int.max) > 256 * 1024 {
            problems.append(
                "\(spec.serializedString()): answered in \(fixed(took, 1)) s, "
                    + "peak RSS \(peak.map(String.init) ?? "unknown") KiB")
        }
    }
    try check(problems.isEmpty, problems.joined(separator: "; "))
    try stillServing(d)
}

func regexThatBacktracks() throws {
    let d = try started()
    defer { d.kill() }
    var slow: [String] = []
    for regex in ["^(a+)+$", "^(a|a)*$", "^(a*)*b$", "^((a+)+)+$", "(x+x+)+y", "^b"] {
        for value in [times("a", 30) + "!", times("a", 5000) + "!", times("a", 20_000)] {
            let start = nowNS()
            let reply = try d.call(
                "maskd/apply", applyParams(["notation": "[a…]", "regex": .string(regex)], value), timeout: 60)
            let took = seconds(since: start)
            try check(reply["result"] != nil || reply["error"] != nil, "no answer for regex \(regex)")
            if took > 3 { slow.append("\(regex) over \(value.count) characters: \(fixed(took, 1)) s") }
        }
    }
    try check(slow.isEmpty, slow.joined(separator: "; "))
    // Typing into a field with such a regex.
    let uri = "file:///re"
    try d.notify("textDocument/didOpen", Messages.didOpen(uri: uri, text: times("a", 3000)))
    let reply = try d.call(
        "maskd/openField",
        Messages.openField(uri: uri, line: 0, from: 0, to: 3000, mask: ["notation": "[a…]", "regex": "^(a+)+$"]),
        timeout: 30)
    try check(reply["result"] != nil || reply["error"] != nil, "openField with a backtracking regex: no answer")
    let start = nowNS()
    try d.notify(
        "textDocument/didChange",
        Messages.didChange(uri: uri, version: 2, changes: [Messages.change(line: 0, from: 1500, to: 1500, text: "!")]))
    try stillServing(d, timeout: 30)
    try check(seconds(since: start) < 3, "a keystroke in a backtracking-regex field was slow")
}
