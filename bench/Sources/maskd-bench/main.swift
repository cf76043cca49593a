// maskd-bench: measures the engine and the daemon against baselines run in the same process,
// and prints one table (see BENCHMARKS.md). `bench/run` builds what it needs and runs it.
import Foundation
import Glibc

let usage = """
    usage: maskd-bench [--quick] [--maskd PATH] [--floor PATH | --no-floor REASON] [--contract-floor PATH]
                       [--python PATH | --no-phonenumbers REASON] [--script PATH] [--only SECTIONS]
                       [--big-lines N] [--engine-loop NAME:RUNS]

      --quick             a smoke run of a few seconds: tiny counts, a 1,000-line document
      --maskd PATH        the daemon (default .build/release/maskd), run as `maskd --stdio`
      --floor PATH        the transport floor built from floor-echo.c (default bench/.out/floor-echo)
      --no-floor REASON   run without the floor; its baselines say why they are skipped
      --contract-floor PATH
                          row 2's second baseline, built from bench/contract-floor.c: maskd's didFormats
                          replayed, nothing formatted (default bench/.out/contract-floor, when it exists)
      --python PATH       a Python with phonenumbers installed (default bench/.venv/bin/python)
      --no-phonenumbers REASON
                          skip the phonenumbers baseline, saying why
      --script PATH       the baseline script (default bench/phonenumbers_as_you_type.py)
      --only SECTIONS     comma-separated: engine,keystrokes,startup,throughput,bulk,paste,lines,echo
      --big-lines N       lines (and fields) of row 3's document (default 100,000; --quick 1,000)
      --engine-loop NAME:RUNS
                          run only one engine loop RUNS times, untimed (for callgrind): bracket-card,
                          bracket-phone, bracket-backspace, card, phone-gb or phone-cn, each also NAME-handle
                          (through MaskField)

    Exits 0 when every row was measured (a missed target is reported, not a failure), 1 when
    something broke (a server that did not answer, a wrong answer), 2 for a bad command line.

    """

struct Options {
    var quick = false
    var maskd = ".build/release/maskd"
    var floor: String? = "bench/.out/floor-echo"
    var noFloorReason = ""
    var contractFloor: String? =
        FileManager.default.isExecutableFile(atPath: "bench/.out/contract-floor")
        ? "bench/.out/contract-floor" : nil
    var python: String? = "bench/.venv/bin/python"
    var noPythonReason = ""
    /// Whether `--python` was given: then a Python that does not work is a failure, not a skip.
    var pythonExplicit = false
    var script = "bench/phonenumbers_as_you_type.py"
    var bulkScript = "bench/phonenumbers_format_lines.py"
    var sections: Set<String> = ["engine", "keystrokes", "startup", "throughput", "bulk", "paste", "lines", "echo"]
    var bigLines: Int?
    var engineLoop: (name: String, runs: Int)?

    init(_ arguments: [String]) {
        var rest = arguments[...]
        func value(_ flag: String) -> String {
            guard let v = rest.popFirst() else { Options.bad("\(flag) needs a value") }
            return v
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": quick = true
            case "--maskd": maskd = value(argument)
            case "--floor": floor = value(argument)
            case "--no-floor": floor = nil; noFloorReason = value(argument)
            case "--contract-floor": contractFloor = value(argument)
            case "--python": python = value(argument); pythonExplicit = true
            case "--no-phonenumbers": python = nil; noPythonReason = value(argument)
            case "--script": script = value(argument)
            case "--big-lines":
                guard let n = Int(value(argument)), n >= 3 else {
                    Options.bad("--big-lines takes a number of at least 3")
                }
                bigLines = n
            case "--engine-loop":
                let parts = value(argument).split(separator: ":")
                guard parts.count == 2, let runs = Int(parts[1]), runs >= 0 else {
                    Options.bad("--engine-loop takes NAME:RUNS")
                }
                engineLoop = (String(parts[0]), runs)
            case "--only":
                sections = Set(value(argument).split(separator: ",").map(String.init))
                let known: Set = ["engine", "keystrokes", "startup", "throughput", "bulk", "paste", "lines", "echo"]
                if !sections.isSubset(of: known) {
                    Options.bad("--only takes \(known.sorted().joined(separator: ","))")
                }
            case "--help", "-h":
                print(usage, terminator: "")
                exit(0)
            default: Options.bad("unknown argument '\(argument)'")
            }
        }
    }

    static func bad(_ message: String) -> Never {
        FileHandle.standardError.write(Data("maskd-bench: \(message)\n\(usage)".utf8))
        exit(2)
    }
}

/// How much each row measures; `--quick` shrinks everything to a smoke run.
struct Counts {
    var engineReps: Int, engineWarmup: Int
    var pythonReps: Int, pythonWarmup: Int
    var keystrokes: Int, rounds: Int, keystrokeWarmup: Int
    var bigLines: Int, perPosition: Int
    var startupRuns: Int
    var batches: Int, perBatch: Int
    var bulkLines: Int, bulkRuns: Int, pythonBulkLines: Int, parallelBulkLines: Int, identifierLines: Int
    /// Row 8: the pasted length and the pastes per mask kind.
    var pasteLength: Int, pasteReps: Int
    /// Row 9: keystrokes per long-line session, the long line's length and the fields sharing a line.
    var lineKeystrokes: Int, lineLength: Int, lineFields: Int
    /// Row 11: the fields opened and echoed, smaller then ten times larger, and the runs of each.
    var echoFields: (Int, Int), echoRuns: Int
    /// The longest any single read from a server may wait, in seconds.
    var timeout: Double

    static let full = Counts(
        engineReps: 20_000, engineWarmup: 2_000, pythonReps: 2_000, pythonWarmup: 200,
        keystrokes: 10_000, rounds: 10, keystrokeWarmup: 200, bigLines: 100_000,
        perPosition: 3_000, startupRuns: 50, batches: 5, perBatch: 10_000,
        bulkLines: 1_000_000, bulkRuns: 3, pythonBulkLines: 100_000, parallelBulkLines: 400_000,
        identifierLines: 1_000_000, pasteLength: 1_000_000,
        pasteReps: 5,
        lineKeystrokes: 3_000, lineLength: 1_000_000, lineFields: 1_000,
        echoFields: (1_000, 10_000), echoRuns: 3, timeout: 120)
    static let quick = Counts(
        engineReps: 200, engineWarmup: 20, pythonReps: 20, pythonWarmup: 5,
        keystrokes: 200, rounds: 2, keystrokeWarmup: 10, bigLines: 1_000,
        perPosition: 40, startupRuns: 3, batches: 2, perBatch: 200,
        bulkLines: 2_000, bulkRuns: 1, pythonBulkLines: 200, parallelBulkLines: 2_000,
        identifierLines: 2_000, pasteLength: 10_000,
        pasteReps: 1,
        lineKeystrokes: 60, lineLength: 1_000_000, lineFields: 1_000,
        echoFields: (100, 1_000), echoRuns: 1, timeout: 10)
}

signal(SIGPIPE, SIG_IGN)
let startLoad = loadAverage()
let options = Options(Array(CommandLine.arguments.dropFirst()))
var counts = options.quick ? Counts.quick : Counts.full
if let lines = options.bigLines { counts.bigLines = lines }
if let (name, runs) = options.engineLoop {
    do {
        print("\(try EngineBench.loop(name, runs: runs)) keystrokes")
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("maskd-bench: \(error)\n".utf8))
        exit(1)
    }
}
let report = Report()
let maskd = ServerUnderTest(name: "maskd", path: options.maskd, arguments: ["--stdio"], formats: true)
let floor = options.floor.map { ServerUnderTest(name: "floor", path: $0, arguments: [], formats: false) }
let subjects = [maskd] + (floor.map { [$0] } ?? [])
let noFloor = "skipped: " + options.noFloorReason

/// Runs one section; a failure becomes a FAIL row and makes the run exit 1.
func section(_ name: String, number: String, _ body: () throws -> Void) {
    guard options.sections.contains(name) else { return }
    do { try body() } catch { report.fail(number, name, error) }
}

// MARK: 1. Engine per keystroke

section("engine", number: "1") {
    var python: PhonenumbersBench.Outcome? = nil
    var pythonProblem = options.noPythonReason
    if let path = options.python, !options.pythonExplicit, !FileManager.default.fileExists(atPath: path) {
        pythonProblem = "no \(path) (bench/run creates it)"
    } else if let path = options.python {
        do {
            python = try PhonenumbersBench.run(
                python: path, script: options.script, reps: counts.pythonReps,
                warmup: counts.pythonWarmup, timeout: counts.timeout * 10)
        } catch {
            pythonProblem = "\(error)"
            report.fail("1", "phonenumbers baseline", error)
        }
    }
    let baseline =
        python.map {
            "phonenumbers \(formatDuration($0.kept.median)) kept / \(formatDuration($0.remade.median)) remade"
        } ?? "skipped: \(pythonProblem)"
    if let python {
        let name = "baseline: phonenumbers \(python.version) AsYouTypeFormatter, US phone"
        report.add(
            Row(
                number: "1", name: name + ", kept per field", median: formatDuration(python.kept.median),
                p99: formatDuration(python.kept.p99), baseline: "—", ratio: "—", target: "—", result: "—"))
        report.add(
            Row(
                number: "1", name: name + ", remade per key", median: formatDuration(python.remade.median),
                p99: formatDuration(python.remade.p99), baseline: "—", ratio: "—", target: "—", result: "—"))
        report.note(
            "phonenumbers typed \(Masks.usPhoneDigits) as \"\(python.formatted)\" (\(python.kept.count) numbers "
                + "kept, \(python.remade.count) remade); \"kept\" feeds one formatter a digit per key, \"remade\" makes "
                + "one per key and feeds it the digits so far, as a text-in-text-out call (the engine's) would. "
                + "The 100x target is checked against \"kept\", the stricter.")
    }
    func add(_ name: String, _ samples: Samples, target: Bool) {
        let speedup = python.map { $0.kept.median / samples.median }
        let remadeSpeedup = python.map { $0.remade.median / samples.median }
        var result = Verdict.none
        if target {
            let fast = samples.median < 1_000
            result = Verdict.check(fast && (speedup.map { $0 >= 100 } ?? true))
            if speedup == nil { result += " (< 1 µs only)" }
        }
        report.add(
            Row(
                number: "1", name: "engine: \(name), ns/keystroke", median: formatDuration(samples.median),
                p99: formatDuration(samples.p99), baseline: baseline,
                ratio: speedup.flatMap { a in remadeSpeedup.map { formatRatio(a) + " / " + formatRatio($0) + " faster" }
                } ?? "—",
                target: target ? "< 1 µs, ≥ 100x" : "—", result: result))
    }
    // The phone preset against phonenumbers typing the same digits in the same run.
    var phoneBaselines: [String: PhonenumbersBench.Outcome] = [:]
    if python != nil, let path = options.python {
        for (region, digits) in Masks.phoneNumbers {
            do {
                let outcome = try PhonenumbersBench.run(
                    python: path, script: options.script, reps: counts.pythonReps,
                    warmup: counts.pythonWarmup, timeout: counts.timeout * 10,
                    region: region, digits: digits)
                phoneBaselines[region] = outcome
                report.add(
                    Row(
                        number: "1",
                        name: "baseline: phonenumbers AsYouTypeFormatter, \(region) \(digits), kept per field",
                        median: formatDuration(outcome.kept.median), p99: formatDuration(outcome.kept.p99),
                        baseline: "—", ratio: "—", target: "—", result: "—"))
            } catch {
                report.fail("1", "phonenumbers baseline, \(region)", error)
            }
        }
    }
    // Typed through a field handle (`MaskField`) kept for the typing, as phonenumbers' formatter is kept per field:
    // the row the target is judged on; the stateless `Mask.apply` per key beside it.
    for c in try EngineCase.phone() {
        let region = String(c.name.suffix(2))
        let kept = phoneBaselines[region]
        for handle in [true, false] {
            let (samples, text) = EngineBench.typing(
                c, reps: counts.engineReps, warmup: counts.engineWarmup, handle: handle)
            let speedup = kept.map { $0.kept.median / samples.median }
            var result = Verdict.none
            if handle {
                result = Verdict.check(samples.median <= 2_000 && (speedup.map { $0 >= 20 } ?? true))
                if speedup == nil { result += " (≤ 2 µs only)" }
            }
            let how = handle ? "typed through a kept MaskField" : "typed, Mask.apply per key"
            report.add(
                Row(
                    number: "1", name: "engine: \(c.name) \(how), ns/keystroke", median: formatDuration(samples.median),
                    p99: formatDuration(samples.p99),
                    baseline: kept.map { "phonenumbers \(formatDuration($0.kept.median)) kept" }
                        ?? "skipped: \(pythonProblem)",
                    ratio: speedup.map { formatRatio($0) + " faster" } ?? "—", target: handle ? "≤ 2 µs, ≥ 20x" : "—",
                    result: result))
            let agreed =
                kept.map {
                    $0.formatted == text ? ", as phonenumbers does" : ", phonenumbers gives \"\($0.formatted)\""
                } ?? ""
            report.note(
                "engine \(c.name) \(handle ? "kept" : "stateless"): \(c.keys.count) keys typed give \"\(text)\"\(agreed)."
            )
        }
    }
    for c in try EngineCase.all() {
        let (samples, text) = EngineBench.typing(c, reps: counts.engineReps, warmup: counts.engineWarmup)
        add("\(c.name) typed", samples, target: c.name.hasPrefix("card"))
        report.note("engine \(c.name): \(c.keys.count) keys typed give \"\(text)\".")
        guard c.name.hasPrefix("card") else { continue }
        // The card preset typed as an editor's field calls it, through a kept `MaskField`.
        let (kept, keptText) = EngineBench.typing(c, reps: counts.engineReps, warmup: counts.engineWarmup, handle: true)
        report.add(
            Row(
                number: "1", name: "engine: \(c.name) typed through MaskField, ns/keystroke",
                median: formatDuration(kept.median), p99: formatDuration(kept.p99),
                baseline: "stateless \(formatDuration(samples.median))",
                ratio: formatRatio(samples.median / kept.median) + " faster", target: "≤ 600 ns",
                result: Verdict.check(kept.median <= 600 && keptText == text)))
    }
    let (deletion, what) = try EngineBench.midFieldDeletion(reps: counts.engineReps, warmup: counts.engineWarmup)
    add("card: mid-field backspace, full field", deletion, target: false)
    report.note("engine deletion: \(what).")
    // The bracket rows, against RedMadRobot's recorded figures (not run here: its sources are not in the repository).
    func addBracket(_ name: String, _ samples: Samples, redMadRobot: (Double, Double), goal: Double) {
        let speedup = redMadRobot.0 / samples.median
        report.add(
            Row(
                number: "1", name: "engine: \(name), ns/keystroke", median: formatDuration(samples.median),
                p99: formatDuration(samples.p99),
                baseline: "RedMadRobot \(formatDuration(redMadRobot.0))-\(formatDuration(redMadRobot.1)) (recorded)",
                ratio: formatRatio(speedup) + "-" + formatRatio(redMadRobot.1 / samples.median) + " faster",
                target: "≤ \(formatDuration(goal)), ≥ 6x", result: Verdict.check(samples.median <= goal && speedup >= 6)
            ))
    }
    // Each through a `MaskField` kept per field, as an editor's field calls it (the goal), and through the
    // stateless `Mask.apply(edit, to: text)` beside it.
    func addStateless(_ name: String, _ samples: Samples, handle: Samples) {
        report.add(
            Row(
                number: "1", name: "engine: \(name), stateless Mask.apply, ns/keystroke",
                median: formatDuration(samples.median), p99: formatDuration(samples.p99),
                baseline: "MaskField \(formatDuration(handle.median))",
                ratio: formatRatio(samples.median / handle.median) + " slower", target: "—", result: "—"))
    }
    let brackets = try EngineCase.bracket()
    for (c, (rmr, goal)) in zip(brackets, [(Masks.redMadRobotCard, 400.0), (Masks.redMadRobotPhone, 350.0)]) {
        let (kept, text) = EngineBench.typing(c, reps: counts.engineReps, warmup: counts.engineWarmup, handle: true)
        let (samples, statelessText) = EngineBench.typing(c, reps: counts.engineReps, warmup: counts.engineWarmup)
        if text != statelessText {
            throw BenchFailure("\(c.name): MaskField gives \"\(text)\", Mask.apply \"\(statelessText)\"")
        }
        addBracket("\(c.name) typed through MaskField", kept, redMadRobot: rmr, goal: goal)
        addStateless("\(c.name) typed", samples, handle: kept)
        report.note("engine \(c.name): \(c.keys.count) keys typed give \"\(text)\".")
    }
    let (keptDeletion, _) = try EngineBench.midFieldDeletion(
        reps: counts.engineReps, warmup: counts.engineWarmup, spec: .notation(Masks.bracketCard),
        digits: Masks.bracketCardDigits, handle: true)
    let (bracketDeletion, bracketWhat) = try EngineBench.midFieldDeletion(
        reps: counts.engineReps, warmup: counts.engineWarmup, spec: .notation(Masks.bracketCard),
        digits: Masks.bracketCardDigits)
    addBracket(
        "bracket card, backspace at `6222 02|00 …`, full field, through MaskField", keptDeletion,
        redMadRobot: Masks.redMadRobotBackspace, goal: 600)
    addStateless("bracket card, backspace at `6222 02|00 …`, full field", bracketDeletion, handle: keptDeletion)
    report.note(
        "engine bracket deletion: \(bracketWhat). RedMadRobot's figures are recorded ones (one process, batches "
            + "taking turns, on the machine the goals were set on); they are not re-measured in this run.")
}

// MARK: 2 and 3. Keystroke round trips: one line, and a big document (which 5 measures too)

var keystrokeOutcome: DaemonBench.KeystrokeOutcome? = nil

section("keystrokes", number: "2") {
    let outcome = try DaemonBench.keystrokes(
        maskd: maskd, floor: floor, contractFloor: options.contractFloor, keystrokes: counts.keystrokes,
        bigLines: counts.bigLines,
        perPosition: counts.perPosition, rounds: counts.rounds, warmup: counts.keystrokeWarmup, timeout: counts.timeout)
    keystrokeOutcome = outcome
    let ours = outcome.oneLine[0]
    let theirs = outcome.oneLine.count > 1 ? outcome.oneLine[1] : nil
    if let theirs {
        report.add(
            Row(
                number: "2", name: "baseline: floor-echo round trip, one line",
                median: formatDuration(theirs.samples.median), p99: formatDuration(theirs.samples.p99),
                baseline: "—", ratio: "—", target: "—", result: "—"))
    }
    let ratio = theirs.map { ours.samples.median / $0.samples.median }
    let p99Ratio = theirs.map { ours.samples.p99 / $0.samples.p99 }
    let spread = theirs.flatMap { roundRatioSpread(ours.samples.roundMedians, $0.samples.roundMedians) }
    report.add(
        Row(
            number: "2", name: "daemon: keystroke round trip, one line", median: formatDuration(ours.samples.median),
            p99: formatDuration(ours.samples.p99),
            baseline: theirs.map { "floor " + formatDuration($0.samples.median) } ?? noFloor,
            ratio: ratio.map {
                formatRatio($0, spread: spread, rounds: counts.rounds) + ", p99 " + formatRatio(p99Ratio!)
            } ?? "—",
            target: "≤ 1.2x floor, median and p99",
            result: ratio.map { Verdict.check($0 <= 1.2 && p99Ratio! <= 1.2) } ?? "SKIP"))
    if let theirs {
        let cpuRatio = ours.cpuPerKeystroke / theirs.cpuPerKeystroke
        let cpuSpread = roundRatioSpread(ours.roundCPU, theirs.roundCPU)
        report.add(
            Row(
                number: "2", name: "daemon: server CPU per keystroke, echo included, one line",
                median: formatDuration(ours.cpuPerKeystroke), p99: "—",
                baseline: "floor " + formatDuration(theirs.cpuPerKeystroke),
                ratio: formatRatio(cpuRatio, spread: cpuSpread, rounds: counts.rounds), target: "≤ 1.5x floor",
                result: Verdict.check(cpuRatio <= 1.5)))
    }
    if let contract = outcome.contract {
        // What the protocol's own messages cost: the ratios to floor-echo that no server sending them can beat.
        let toFloor = theirs.map { contract.samples.median / $0.samples.median }
        let spread = theirs.flatMap { roundRatioSpread(contract.samples.roundMedians, $0.samples.roundMedians) }
        let p99ToFloor = theirs.map { contract.samples.p99 / $0.samples.p99 }
        report.add(
            Row(
                number: "2", name: "baseline: contract floor round trip (maskd's didFormats replayed), one line",
                median: formatDuration(contract.samples.median), p99: formatDuration(contract.samples.p99),
                baseline: theirs.map { "floor " + formatDuration($0.samples.median) } ?? noFloor,
                ratio: toFloor.map {
                    formatRatio($0, spread: spread, rounds: counts.rounds) + ", p99 "
                        + formatRatio(p99ToFloor!)
                } ?? "—",
                target: "report", result: "—"))
        if let theirs {
            let cpuRatio = contract.cpuPerKeystroke / theirs.cpuPerKeystroke
            report.add(
                Row(
                    number: "2", name: "baseline: contract floor CPU per keystroke, echo included, one line",
                    median: formatDuration(contract.cpuPerKeystroke), p99: "—",
                    baseline: "floor " + formatDuration(theirs.cpuPerKeystroke),
                    ratio: formatRatio(
                        cpuRatio, spread: roundRatioSpread(contract.roundCPU, theirs.roundCPU),
                        rounds: counts.rounds),
                    target: "report", result: "—"))
        }
        let ratio = ours.samples.median / contract.samples.median
        report.add(
            Row(
                number: "2", name: "daemon: keystroke round trip against the contract floor, one line",
                median: formatDuration(ours.samples.median), p99: formatDuration(ours.samples.p99),
                baseline: "contract " + formatDuration(contract.samples.median),
                ratio: formatRatio(
                    ratio,
                    spread: roundRatioSpread(
                        ours.samples.roundMedians,
                        contract.samples.roundMedians),
                    rounds: counts.rounds) + ", p99 "
                    + formatRatio(ours.samples.p99 / contract.samples.p99),
                target: "report", result: "—"))
    }
    let size = formatBytes(Double(outcome.documentBytes))
    for session in outcome.big {
        let ratio = session.samples.median / ours.samples.median
        let spread = roundRatioSpread(session.samples.roundMedians, ours.samples.roundMedians)
        report.add(
            Row(
                number: "3",
                name: "daemon: round trip, \(size) doc, \(outcome.bigLines) problem fields, \(session.label)",
                median: formatDuration(session.samples.median), p99: formatDuration(session.samples.p99),
                baseline: "one line " + formatDuration(ours.samples.median),
                ratio: formatRatio(ratio, spread: spread, rounds: counts.rounds),
                target: "≤ 1.3x one line", result: Verdict.check(ratio <= 1.3)))
    }
    for opening in outcome.openings {
        let name = "opening \(outcome.bigLines) problem fields, \(opening.way)"
        if let floor = opening.floor {
            report.add(
                Row(
                    number: "3", name: "baseline: floor-echo " + name, median: formatDuration(Double(floor)),
                    p99: "—", baseline: "—", ratio: "—", target: "—", result: "—"))
        }
        let ratio = opening.floor.map { Double(opening.maskd) / Double($0) }
        var target = "—", result = "—"
        if opening.way == DaemonBench.OpeningWay.oneAtATime.rawValue {
            target = "≤ 2x floor"
            result = ratio.map { Verdict.check($0 <= 2) } ?? "SKIP"
        } else if opening.way == DaemonBench.OpeningWay.inOneRequest.rawValue {
            target = "≤ 1 s"
            result = Verdict.check(opening.maskd <= 1_000_000_000)
        }
        report.add(
            Row(
                number: "3", name: "daemon: " + name, median: formatDuration(Double(opening.maskd)), p99: "—",
                baseline: opening.floor.map { "floor " + formatDuration(Double($0)) } ?? noFloor,
                ratio: ratio.map(formatRatio) ?? "—", target: target, result: result))
    }
    let publish = outcome.firstPublish
    report.add(
        Row(
            number: "3", name: "daemon: first publishDiagnostics after the pause, \(publish.diagnostics) problems",
            median: formatDuration(Double(publish.ns)), p99: "—", baseline: "—", ratio: "—",
            target: "report", result: formatBytes(Double(publish.bytes))))

    let client = ours.client
    report.note(
        "round trips: \(ours.samples.count) keystrokes on each one-line document, \(outcome.big.first?.samples.count ?? 0) "
            + "at each big-document position, all taking turns in \(counts.rounds) rounds; maskd's didFormats asked for "
            + "\(client.echoes) echoes on the one-line document"
            + (client.staleFormats > 0
                ? " and it answered \(client.staleFormats) echoes with a didFormat (dropped)" : "")
            + (client.afterEcho.count > 0 && client.afterNoEcho.count > 0
                ? "; keystrokes sent right after an echo \(formatDuration(client.afterEcho.median)) median, the others "
                    + "\(formatDuration(client.afterNoEcho.median))" : "") + ".")
    let cpu = (outcome.oneLine + (outcome.contract.map { [$0] } ?? []) + outcome.big)
        .map { "\($0.label) \(formatDuration($0.cpuPerKeystroke))" }
    report.note("server CPU per keystroke (echo included): " + cpu.joined(separator: ", ") + ".")
    report.note(
        "first publishDiagnostics after opening \(publish.diagnostics) problem fields one at a time: "
            + "\(formatBytes(Double(publish.bytes))), read and parsed \(formatDuration(Double(publish.ns))) after the pause "
            + "ended (the last answer plus the 250 ms delay; building, sending and reading it), of which the client's "
            + "parse \(formatDuration(Double(publish.parseNS))). The three ways of opening run on a maskd of their own, each on "
            + "a fresh copy of the document (the one before closed), maskd's turn then the floor's with the same requests; "
            + "every answer is read and parsed; one at a time, each request waits for its answer. The document typed into "
            + "is opened on another maskd with pipelined openFields, as before.")
    report.note(
        "big document: didOpen of \(size) answered in \(formatDuration(Double(outcome.openNS))), "
            + "\(outcome.bigLines) pipelined openField in \(formatDuration(Double(outcome.openFieldsNS))); RSS peak/resident "
            + "\(formatBytes(outcome.rssAfterOpen.peak))/\(formatBytes(outcome.rssAfterOpen.now)) after the didOpen, "
            + "\(formatBytes(outcome.rssAfterFields.peak))/\(formatBytes(outcome.rssAfterFields.now)) after the fields, "
            + "\(formatBytes(outcome.peakRSS))/\(formatBytes(outcome.finalRSS)) at the end.")
}

// MARK: 4. Startup

section("startup", number: "4") {
    let results = try DaemonBench.startup(subjects, runs: counts.startupRuns, timeout: counts.timeout)
    if results.count > 1 {
        report.add(
            Row(
                number: "4", name: "baseline: floor-echo spawn to initialize result",
                median: formatDuration(results[1].median), p99: formatDuration(results[1].p99),
                baseline: "—", ratio: "—", target: "—", result: "—"))
    }
    let ratio = results.count > 1 ? results[0].median / results[1].median : nil
    let spread = results.count > 1 ? roundRatioSpread(results[0].roundMedians, results[1].roundMedians) : nil
    report.add(
        Row(
            number: "4", name: "daemon: spawn to initialize result", median: formatDuration(results[0].median),
            p99: formatDuration(results[0].p99),
            baseline: results.count > 1 ? "floor " + formatDuration(results[1].median) : noFloor,
            ratio: ratio.map { formatRatio($0, spread: spread, rounds: results[0].roundEnds.count) } ?? "—",
            target: "≤ 3x floor",
            result: ratio.map { Verdict.check($0 <= 3) } ?? "SKIP"))
}

// MARK: 5. Memory, measured in the big-document run of 3

if let outcome = keystrokeOutcome {
    let size = formatBytes(Double(outcome.documentBytes))
    report.add(
        Row(
            number: "5", name: "daemon: peak RSS idle (after initialize)", median: formatBytes(outcome.idleRSS),
            p99: "—", baseline: "—", ratio: "—", target: "—", result: "—"))
    let ratio = outcome.peakRSS / Double(outcome.documentBytes)
    report.add(
        Row(
            number: "5", name: "daemon: peak RSS, \(size) doc + \(outcome.bigLines) fields, edited",
            median: formatBytes(outcome.peakRSS), p99: "—", baseline: "doc " + size, ratio: formatRatio(ratio),
            target: "≤ 3x doc", result: Verdict.check(ratio <= 3)))
}

// MARK: 6. Throughput

section("throughput", number: "6") {
    let results = try DaemonBench.throughput(
        subjects, batches: counts.batches, perBatch: counts.perBatch,
        timeout: counts.timeout)
    if results.count > 1 {
        report.add(
            Row(
                number: "6", name: "baseline: floor-echo pipelined maskd/apply",
                median: formatRate(results[1].rates.median), p99: formatRate(results[1].rates.p1),
                baseline: "—", ratio: "—", target: "—", result: "—"))
    }
    let ratio = results.count > 1 ? results[0].rates.median / results[1].rates.median : nil
    let spread =
        results.count > 1 ? roundRatioSpread(results[0].rates.roundMedians, results[1].rates.roundMedians) : nil
    report.add(
        Row(
            number: "6", name: "daemon: pipelined maskd/apply", median: formatRate(results[0].rates.median),
            p99: formatRate(results[0].rates.p1),
            baseline: results.count > 1 ? "floor " + formatRate(results[1].rates.median) : noFloor,
            ratio: ratio.map { formatRatio($0, spread: spread, rounds: counts.batches) } ?? "—",
            target: "≥ 0.7x floor",
            result: ratio.map { Verdict.check($0 >= 0.7) } ?? "SKIP"))
    if results.count > 1 {
        let cpuRatio = results[0].cpuPerRequest / results[1].cpuPerRequest
        report.add(
            Row(
                number: "6", name: "daemon: server CPU per pipelined maskd/apply",
                median: formatDuration(results[0].cpuPerRequest), p99: "—",
                baseline: "floor " + formatDuration(results[1].cpuPerRequest),
                ratio: formatRatio(
                    cpuRatio, spread: roundRatioSpread(results[0].roundCPU, results[1].roundCPU),
                    rounds: counts.batches),
                target: "—", result: "—"))
    }
    report.note(
        "throughput: \(counts.batches) batches of \(counts.perBatch) requests per server; "
            + "its p99 column is the slow tail of the rate (the 1st percentile of the batches); server CPU per request: "
            + zip(subjects, results).map { "\($0.name) \(formatDuration($1.cpuPerRequest))" }.joined(separator: ", ")
            + ".")
}

// MARK: 7. Bulk formatting

section("bulk", number: "7") {
    let inputs = try BulkBench.Inputs(lines: counts.bulkLines)
    defer { inputs.remove() }
    var python: BulkBench.Outcome? = nil
    var pythonProblem = options.noPythonReason
    if let path = options.python, !options.pythonExplicit, !FileManager.default.fileExists(atPath: path) {
        pythonProblem = "no \(path) (bench/run creates it)"
    } else if let path = options.python {
        // Fewer lines for the baseline: it is slower, and a rate does not depend on the count.
        let few = try BulkBench.Inputs(lines: counts.pythonBulkLines)
        defer { few.remove() }
        do {
            python = try BulkBench.run(
                path, [options.bulkScript], input: few.phones, lines: few.lines,
                runs: counts.bulkRuns, timeout: counts.timeout * 10)
        } catch {
            pythonProblem = "\(error)"
            report.fail("7", "phonenumbers bulk baseline", error)
        }
    }
    func maskd(_ preset: String, _ input: String) throws -> BulkBench.Outcome {
        try BulkBench.run(
            options.maskd, ["format", "--jobs", "1", "--mask", #"{"preset": "\#(preset)"}"#], input: input,
            lines: inputs.lines, runs: counts.bulkRuns, timeout: counts.timeout * 10)
    }
    let phone = try maskd("phone.us", inputs.phones)
    let card = try maskd("card", inputs.cards)
    let baseline =
        python.map { "phonenumbers " + formatRate($0.rates.median, unit: "lines") }
        ?? "skipped: \(pythonProblem)"
    if let python {
        report.add(
            Row(
                number: "7", name: "baseline: phonenumbers format_number per line, US phone, whole process",
                median: formatRate(python.rates.median, unit: "lines"),
                p99: formatRate(python.rates.p1, unit: "lines"), baseline: "—", ratio: "—", target: "—",
                result: "—"))
    }
    for (name, outcome, target) in [("phone.us", phone, false), ("card", card, true)] {
        let ratio = python.map { outcome.rates.median / $0.rates.median }
        report.add(
            Row(
                number: "7", name: "maskd format < lines, \(name) preset, whole process",
                median: formatRate(outcome.rates.median, unit: "lines"),
                p99: formatRate(outcome.rates.p1, unit: "lines"), baseline: baseline,
                ratio: ratio.map { formatRatio($0) + " faster" } ?? "—",
                target: target ? "≥ 300k lines/s" : "—",
                result: target ? Verdict.check(outcome.rates.median >= 300_000) : "—"))
    }
    report.note(
        "bulk: \(inputs.lines) lines per maskd run, \(counts.pythonBulkLines) per phonenumbers run, "
            + "\(counts.bulkRuns) timed runs each after one untimed, from spawn to exit with standard input and output on "
            + "files; the p99 column is the slowest run. Line 1 \"2015550123\" became \"\(phone.firstLine)\""
            + (python.map { " (phonenumbers: \"\($0.firstLine)\")" } ?? "") + ", \"4111111111111111\" became "
            + "\"\(card.firstLine)\". Peak RSS of maskd: \(formatBytes(phone.peakRSS)) (phone.us), "
            + "\(formatBytes(card.peakRSS)) (card).")
}

// MARK: 10. Bulk formatting on every core, and from Python

section("bulk", number: "10") {
    let inputs = try BulkBench.Inputs(lines: counts.parallelBulkLines)
    defer { inputs.remove() }
    // `--jobs 1` and `--jobs 2` take turns, a run each per round.
    let card = #"{"preset": "card"}"#
    var one = Samples(), two = Samples()
    var same = true
    for _ in 0..<counts.bulkRuns + 1 {
        let a = try BulkBench.run(
            options.maskd, ["format", "--jobs", "1", "--mask", card], input: inputs.cards,
            lines: inputs.lines, runs: 1, timeout: counts.timeout * 10)
        let serial = try String(contentsOfFile: inputs.cards + ".out", encoding: .utf8)
        let b = try BulkBench.run(
            options.maskd, ["format", "--jobs", "2", "--mask", card], input: inputs.cards,
            lines: inputs.lines, runs: 1, timeout: counts.timeout * 10)
        let parallel = try String(contentsOfFile: inputs.cards + ".out", encoding: .utf8)
        same = same && serial == parallel
        one.add(a.rates.median)
        two.add(b.rates.median)
    }
    guard same else { throw BenchFailure("bulk: --jobs 2 wrote other lines than --jobs 1") }
    report.add(
        Row(
            number: "10", name: "maskd format --jobs 1 < lines, card preset, whole process",
            median: formatRate(one.median, unit: "lines"), p99: formatRate(one.p1, unit: "lines"),
            baseline: "—", ratio: "—", target: "—", result: "—"))
    report.add(
        Row(
            number: "10", name: "maskd format --jobs 2 < lines, card preset, whole process",
            median: formatRate(two.median, unit: "lines"), p99: formatRate(two.p1, unit: "lines"),
            baseline: "--jobs 1 " + formatRate(one.median, unit: "lines"),
            ratio: formatRatio(two.median / one.median) + " faster", target: "≥ 1.6x",
            result: Verdict.check(two.median / one.median >= 1.6)))
    report.note(
        "bulk on every core: \(inputs.lines) card lines, --jobs 1 and --jobs 2 taking turns, "
            + "\(counts.bulkRuns + 1) runs each; the two wrote the same bytes.")

    guard let python = options.python, FileManager.default.fileExists(atPath: python) else {
        report.note(
            "bulk from Python: skipped: \(options.noPythonReason.isEmpty ? "no Python venv" : options.noPythonReason)")
        return
    }
    let script = "bench/python_package_column.py"
    let object = try pythonReport(
        python, [script, options.maskd, inputs.phones, "\(counts.bulkRuns)"],
        timeout: counts.timeout * 20, label: "bulk")
    guard let package = object["rates"]?["package"]?.arrayValue?.compactMap(\.doubleValue),
        let perValue = object["rates"]?["phonenumbers"]?.arrayValue?.compactMap(\.doubleValue), !package.isEmpty
    else { throw BenchFailure("bulk: \(script) gave no rates") }
    let first = (object["first"]?["package"]?.stringValue ?? "?", object["first"]?["phonenumbers"]?.stringValue ?? "?")
    let packageRates = Samples(package), perValueRates = Samples(perValue)
    report.add(
        Row(
            number: "10", name: "baseline: phonenumbers parse + format_number per value, a Python list",
            median: formatRate(perValueRates.median, unit: "values"), p99: formatRate(perValueRates.p1, unit: "values"),
            baseline: "—", ratio: "—", target: "—", result: "—"))
    report.add(
        Row(
            number: "10", name: "python: maskd.format over a Python list, phone preset",
            median: formatRate(packageRates.median, unit: "values"), p99: formatRate(packageRates.p1, unit: "values"),
            baseline: "phonenumbers " + formatRate(perValueRates.median, unit: "values"),
            ratio: formatRatio(packageRates.median / perValueRates.median) + " faster", target: "report",
            result: "—"))
    report.note(
        "bulk from Python: \(inputs.lines) US phone numbers in one list, the package and phonenumbers "
            + "taking turns in one process, \(counts.bulkRuns) rounds; line 1 became \"\(first.0)\" (phonenumbers: "
            + "\"\(first.1)\").")
}

// MARK: 12. Identifiers in bulk, against python-stdnum

section("bulk", number: "12") {
    guard let python = options.python, FileManager.default.fileExists(atPath: python) else {
        report.note(
            "identifiers in bulk: skipped: \(options.noPythonReason.isEmpty ? "no Python venv" : options.noPythonReason)"
        )
        return
    }
    let script = "bench/identifiers_bulk.py"
    let object = try pythonReport(
        python,
        [
            script, options.maskd, "Protocol/vectors/identifiers-conformance/identifiers.json",
            "\(counts.identifierLines)", "\(counts.bulkRuns)",
        ],
        timeout: counts.timeout * 20, label: "bulk")
    if let skipped = object["skipped"]?.stringValue {
        report.note("identifiers in bulk: skipped: \(skipped)")
        return
    }
    guard let maskdRates = object["rates"]?["maskd"]?.arrayValue?.compactMap(\.doubleValue),
        let stdnumRates = object["rates"]?["stdnum"]?.arrayValue?.compactMap(\.doubleValue), !maskdRates.isEmpty,
        let lines = object["lines"]?.doubleValue, let presets = object["presets"]?.doubleValue,
        let disagree = object["disagree"]?.doubleValue
    else { throw BenchFailure("identifiers in bulk: \(script) gave no rates") }
    guard disagree == 0 else {
        throw BenchFailure("identifiers in bulk: maskd and stdnum disagreed on \(Int(disagree)) lines")
    }
    let ours = Samples(maskdRates), theirs = Samples(stdnumRates)
    report.add(
        Row(
            number: "12", name: "baseline: stdnum validate + format per line, mixed identifiers",
            median: formatRate(theirs.median, unit: "lines"), p99: formatRate(theirs.p1, unit: "lines"),
            baseline: "—", ratio: "—", target: "—", result: "—"))
    let ratio = ours.median / theirs.median
    report.add(
        Row(
            number: "12", name: "maskd format --tagged --check < lines, mixed identifiers, whole process",
            median: formatRate(ours.median, unit: "lines"), p99: formatRate(ours.p1, unit: "lines"),
            baseline: "stdnum " + formatRate(theirs.median, unit: "lines"),
            ratio: formatRatio(ratio) + " faster", target: "≥ 50x", result: Verdict.check(ratio >= 50)))
    report.note(
        "identifiers in bulk: \(Int(lines)) lines of \(Int(presets)) identifier presets (the identifier "
            + "conformance vectors' numbers, valid and invalid, the same share each, `PRESET<TAB>NUMBER`), one maskd "
            + "process on the machine's cores against stdnum in one Python process, taking turns, \(counts.bulkRuns) "
            + "rounds; every line's validity, and every valid line's text (where Protocol/presets.md shows none other), "
            + "agreed with stdnum.")
}

// MARK: 9. Long lines

section("lines", number: "9") {
    let sessions = try DaemonBench.longLines(
        maskd: maskd, length: counts.lineLength, fields: counts.lineFields, keystrokes: counts.lineKeystrokes,
        rounds: counts.rounds, warmup: counts.keystrokeWarmup, timeout: counts.timeout)
    let short = sessions[0]
    report.add(
        Row(
            number: "9", name: "daemon: round trip, card field on a short line (this row's baseline)",
            median: formatDuration(short.samples.median), p99: formatDuration(short.samples.p99),
            baseline: "—", ratio: "—", target: "—", result: "—"))
    for session in sessions.dropFirst() {
        let ratio = session.samples.median / short.samples.median
        report.add(
            Row(
                number: "9", name: "daemon: round trip, card field at the end of one line, \(session.label)",
                median: formatDuration(session.samples.median), p99: formatDuration(session.samples.p99),
                baseline: "short line " + formatDuration(short.samples.median), ratio: formatRatio(ratio),
                target: "≤ 2x short line", result: Verdict.check(ratio <= 2)))
    }
    report.note(
        "long lines: \(short.samples.count) keystrokes per session, each on its own daemon, taking turns in "
            + "\(counts.rounds) rounds; the card field ends line 0, after \(DaemonBench.formatCount(counts.lineLength)) "
            + "characters, or after \(DaemonBench.formatCount(counts.lineFields)) open four-digit fields (`1234 ` each); "
            + "server CPU per keystroke (echo included): "
            + sessions.map { "\($0.label) \(formatDuration($0.cpuPerKeystroke))" }.joined(separator: ", ") + ".")
}

// MARK: The table

let cpu =
    (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
    .split(separator: "\n").first { $0.hasPrefix("model name") }?
    .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
/// The load average, for the record: these cores are shared, and others' work shows in the figures.
func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}

// MARK: 8. A long paste into every mask kind

section("paste", number: "8") {
    let (outcomes, peak, idle) = try PasteBench.run(
        maskd, length: counts.pasteLength, reps: counts.pasteReps,
        timeout: counts.timeout)
    let size = formatBytes(Double(counts.pasteLength))
    for o in outcomes {
        report.add(
            Row(
                number: "8", name: "daemon: \(size) pasted into a \(o.kind.name) field, maskd/apply",
                median: formatDuration(o.apply.median), p99: formatDuration(o.apply.p99), baseline: "—",
                ratio: "—", target: "< 50 ms", result: Verdict.check(o.apply.median < 50e6)))
        report.add(
            Row(
                number: "8", name: "daemon: \(size) pasted into a \(o.kind.name) field, didChange",
                median: formatDuration(o.didChange.median), p99: formatDuration(o.didChange.p99), baseline: "—",
                ratio: "—", target: "< 100 ms", result: Verdict.check(o.didChange.median < 100e6)))
    }
    report.add(
        Row(
            number: "8", name: "daemon: peak RSS after every paste", median: formatBytes(peak), p99: "—",
            baseline: "idle " + formatBytes(idle), ratio: "—", target: "< 300 MB",
            result: Verdict.check(peak < 300e6)))
    report.note(
        "pastes: \(counts.pasteReps) per kind and path after one untimed, taking turns, one daemon; "
            + "digits and letters mixed; every character kept or reported was checked on each answer; "
            + outcomes.map { "\($0.kind.name) kept \"\($0.text.prefix(24))\", reported \($0.reported)" }.joined(
                separator: "; ")
            + ".")
    let reps = Double(max(counts.pasteReps, 1))
    report.note(
        "server CPU per paste (maskd/apply / didChange): "
            + outcomes.map {
                "\($0.kind.name) \(formatDuration(Double($0.applyCPU) / reps)) / \(formatDuration(Double($0.didChangeCPU) / reps))"
            }.joined(separator: ", ") + ".")
}

// MARK: 11. The echo of many opened fields

section("echo", number: "11") {
    let small = try EchoBench.run(
        maskd: maskd, fields: counts.echoFields.0, runs: counts.echoRuns, timeout: counts.timeout)
    let large = try EchoBench.run(
        maskd: maskd, fields: counts.echoFields.1, runs: counts.echoRuns, timeout: counts.timeout)
    for outcome in [small, large] {
        report.add(
            Row(
                number: "11",
                name: "daemon: maskd/openFields of \(DaemonBench.formatCount(outcome.fields)) card fields",
                median: formatDuration(outcome.open.median), p99: "—", baseline: "—", ratio: "—", target: "—",
                result: "—"))
    }
    for shape in EchoBench.Shape.allCases {
        let (a, b) = (small.echo[shape]!.median, large.echo[shape]!.median)
        // Ten times the edits in ten times the time is linear; the ratio is per edit.
        let perEdit = (b / Double(large.edits)) / (a / Double(small.edits))
        for (outcome, median) in [(small, a), (large, b)] {
            let isLarge = outcome.fields == large.fields
            report.add(
                Row(
                    number: "11",
                    name: "daemon: one didChange echoing \(DaemonBench.formatCount(outcome.edits)) "
                        + "edits of \(DaemonBench.formatCount(outcome.fields)) fields, \(shape.rawValue)",
                    median: formatDuration(median), p99: "—",
                    baseline: isLarge ? "\(DaemonBench.formatCount(small.fields)) fields " + formatDuration(a) : "—",
                    ratio: isLarge ? formatRatio(perEdit) + " per edit" : "—",
                    target: isLarge ? "≤ 1.5x per edit" : "—",
                    result: isLarge ? Verdict.check(perEdit <= 1.5) : "—"))
        }
    }
    report.note(
        "echo: \(counts.echoRuns) runs of each size and shape, each on a fresh daemon; a didChange's time is from "
            + "writing it to the answer of a maskd/apply written right behind it (the daemon handles messages in order)."
    )
}

print(
    "maskd-bench\(options.quick ? " --quick (smoke run: tiny counts, not figures to quote)" : ""): "
        + "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(cpu)")
let os =
    (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8))?
    .split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }?
    .dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) ?? "unknown OS"
print(
    "\(os); \(ProcessInfo.processInfo.environment["MASKD_BENCH_TOOLCHAIN"] ?? "toolchain not reported (run bench/run)")"
)
print("maskd: \(options.maskd)   floor: \(options.floor ?? noFloor)")
print("load average \(startLoad) at the start, \(loadAverage()) at the end")
print("")
print(report.render())
exit(report.failures.isEmpty ? 0 : 1)
