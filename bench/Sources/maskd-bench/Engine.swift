// maskd-bench: row 1, the engine per keystroke, and its Python phonenumbers baseline.
import Foundation
import JSON
import MaskCatalog
import MaskEngine
import MaskdClient

/// One engine case: a mask compiled once and the keys typed into it from empty.
struct EngineCase {
    var name: String
    var mask: Mask
    var keys: [String]

    static func all() throws -> [EngineCase] {
        [
            EngineCase(
                name: "card preset, 19 digits", mask: try Mask.compile(Masks.card),
                keys: TypingScript.digits.map { String($0) }),
            EngineCase(
                name: "phone.us", mask: try Mask.compile(Masks.usPhone), keys: Masks.usPhoneDigits.map { String($0) }),
            EngineCase(
                name: "id.cn", mask: try Mask.compile(Masks.chineseID), keys: "11010519491231002X".map { String($0) }),
            EngineCase(
                name: "iban, GB", mask: try Mask.compile(Masks.iban), keys: "GB82WEST12345698765432".map { String($0) }),
        ]
    }

    /// The bracket masks, typed as RedMadRobot's input-mask was measured (`Masks.redMadRobotCard`): the card's 19
    /// digits and a US phone's 10.
    static func bracket() throws -> [EngineCase] {
        [
            EngineCase(
                name: "bracket `\(Masks.bracketCard)`, 19 digits", mask: try Mask.compile(.notation(Masks.bracketCard)),
                keys: Masks.bracketCardDigits.map { String($0) }),
            EngineCase(
                name: "bracket `\(Masks.bracketPhone)`, 10 digits",
                mask: try Mask.compile(.notation(Masks.bracketPhone)),
                keys: Masks.usPhoneDigits.map { String($0) }),
        ]
    }

    /// The `phone` preset typing a GB and a CN number nationally (the phonenumbers baseline types the same digits).
    static func phone() throws -> [EngineCase] {
        try Masks.phoneNumbers.map { region, digits in
            EngineCase(
                name: "phone, \(region)", mask: try Mask.compile(MaskSpec(.preset("phone"), region: region)),
                keys: digits.map { String($0) })
        }
    }
}

/// The masks the benchmarks use: the presets of `Protocol/presets.md`, in the engine's
/// spelling and (for the card, which the daemon rows use) the wire's.
enum Masks {
    static let card = MaskSpec(.preset("card"))
    static let cardJSON: JSONValue = ["preset": "card"]
    static let usPhone = MaskSpec(.preset("phone.us"))
    /// The digits typed into the US phone, here and in the phonenumbers baseline.
    static let usPhoneDigits = "2015550123"
    static let chineseID = MaskSpec(.preset("id.cn"))
    static let iban = MaskSpec(.preset("iban"))
    /// The numbers typed into the `phone` preset, here and in its phonenumbers baseline: region and digits.
    static let phoneNumbers = [("GB", "01212345678"), ("CN", "13800138000")]
    /// The bracket masks and the card number typed into the first (its backspace row is `6222 02|00 …`).
    static let bracketCard = "[0000] [0000] [0000] [0000] [999]"
    static let bracketPhone = "+1 ([000]) [000]-[0000]"
    static let bracketCardDigits = "6222020000001234567"
    /// RedMadRobot's input-mask, per keystroke, low and high, as recorded on the machine the goals were set on
    /// (measured beside this engine in one process; its sources are not part of this repository, so it is not run
    /// here).
    static let redMadRobotCard = (2_700.0, 2_900.0)
    static let redMadRobotPhone = (2_000.0, 2_200.0)
    static let redMadRobotBackspace = (3_900.0, 4_000.0)
}

enum EngineBench {
    /// Types `c.keys` from empty `reps` times (after `warmup` untimed runs); one sample per
    /// run: its time divided by the number of keys.
    /// - Parameter handle: type through a `MaskField` kept for the run, as an editor's field would
    ///   (it passes the text it holds with every edit); else through the stateless `Mask.apply`. The field is
    ///   made before the clock starts and dropped after it stops, as the phonenumbers baseline makes its kept
    ///   formatter untimed (and drops the last one untimed): a field is opened and closed once, not per key.
    static func typing(_ c: EngineCase, reps: Int, warmup: Int, handle: Bool = false) -> (Samples, String) {
        var samples = Samples()
        var last = ""
        for rep in 0..<(warmup + reps) {
            var field = MaskField(c.mask)
            let t0 = nowNS()
            let (text, caret) = handle ? typeThroughHandle(&field, c) : typeStateless(c)
            let t1 = nowNS()
            keep(text.utf8.count &+ caret)
            if rep >= warmup { samples.add(Double(t1 - t0) / Double(c.keys.count)) }
            last = text
        }
        return (samples, last)
    }

    @inline(never)
    static func typeStateless(_ c: EngineCase) -> (String, Int) {
        var text = ""
        var caret = 0
        for key in c.keys {
            let result = c.mask.apply(.insert(key, at: caret..<caret), to: text)
            text = result.text
            caret = result.caret
        }
        return (text, caret)
    }

    @inline(never)
    static func typeThroughHandle(_ field: inout MaskField, _ c: EngineCase) -> (String, Int) {
        var text = ""
        var caret = 0
        for key in c.keys {
            let result = field.apply(.insert(key, at: caret..<caret), to: text)
            text = result.text
            caret = result.caret
        }
        return (text, caret)
    }

    /// Backspace in the middle of a full card field (`4000 12|34 ...`), so every digit after
    /// it re-flows; one sample per batch of `batch` deletions, divided by `batch`.
    /// - Parameter handle: each deletion through a `MaskField` holding the full field (as the field's own
    ///   handle would be at that keystroke; the batch's handles are made before the clock starts); else
    ///   through the stateless `Mask.apply`.
    static func midFieldDeletion(
        reps: Int, warmup: Int, batch: Int = 16, spec: MaskSpec = Masks.card,
        digits: String = String(TypingScript.digits), handle: Bool = false
    )
        throws -> (Samples, String)
    {
        let mask = try Mask.compile(spec)
        let full = mask.format(digits).text
        let edit = FieldEdit.backspace(6..<7)
        var samples = Samples()
        var last = ""
        var fields: [MaskField] = []
        for rep in 0..<(warmup + reps) {
            if handle {
                fields = (0..<batch).map { _ in
                    var field = MaskField(mask)
                    _ = field.format(digits)
                    return field
                }
            }
            let t0 = nowNS()
            for i in 0..<batch {
                keep(handle ? deleteThroughHandle(&fields[i], edit, full) : deleteStateless(mask, edit, full))
            }
            let t1 = nowNS()
            if rep >= warmup { samples.add(Double(t1 - t0) / Double(batch)) }
            if rep == 0 { last = mask.apply(edit, to: full).text }
        }
        return (samples, "\(full) → \(last)")
    }

    @inline(never)
    static func deleteStateless(_ mask: Mask, _ edit: FieldEdit, _ full: String) -> Int {
        let result = mask.apply(edit, to: full)
        return result.text.utf8.count &+ result.caret
    }

    @inline(never)
    static func deleteThroughHandle(_ field: inout MaskField, _ edit: FieldEdit, _ full: String) -> Int {
        let result = field.apply(edit, to: full)
        return result.text.utf8.count &+ result.caret
    }

    /// The loops `--engine-loop NAME:RUNS` runs alone (no timing), for `valgrind --tool=callgrind`
    /// (`bench/instructions` counts only inside the functions that make the keystrokes).
    static let loopNames = ["bracket-card", "bracket-phone", "bracket-backspace", "card", "phone-gb", "phone-cn"]
        .flatMap { [$0, $0 + "-handle"] }

    /// Runs loop `name` `runs` times.
    /// - Returns: the keystrokes made.
    static func loop(_ name: String, runs: Int) throws -> Int {
        let handle = name.hasSuffix("-handle")
        let base = handle ? String(name.dropLast("-handle".count)) : name
        if base == "bracket-backspace" {
            _ = try midFieldDeletion(
                reps: runs, warmup: 0, batch: 1, spec: .notation(Masks.bracketCard),
                digits: Masks.bracketCardDigits, handle: handle)
            return runs
        }
        let brackets = try EngineCase.bracket(), phones = try EngineCase.phone()
        let cases = [
            "bracket-card": brackets[0], "bracket-phone": brackets[1], "card": try EngineCase.all()[0],
            "phone-gb": phones[0], "phone-cn": phones[1],
        ]
        guard let c = cases[base] else {
            throw BenchFailure("--engine-loop: no loop '\(name)' (\(loopNames.joined(separator: ", ")))")
        }
        _ = typing(c, reps: runs, warmup: 0, handle: handle)
        return runs * c.keys.count
    }
}

/// The baseline: `bench/phonenumbers_as_you_type.py` typing the US phone digits into
/// phonenumbers' `AsYouTypeFormatter`, timed in Python with `time.perf_counter_ns`, in two
/// ways: the formatter kept per field and fed one digit per key, and one made anew per key
/// and fed the digits so far (text in, text out, as maskd's engine is called).
enum PhonenumbersBench {
    struct Outcome {
        var kept: Samples
        var remade: Samples
        var version: String
        var formatted: String
    }

    static func run(
        python: String, script: String, reps: Int, warmup: Int, timeout: Double,
        region: String = "US", digits: String = Masks.usPhoneDigits
    ) throws -> Outcome {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw BenchFailure("phonenumbers: no Python at \(python)")
        }
        let report = try pythonReport(
            python,
            [script, "--region", region, "--digits", digits, "--reps", "\(reps)", "--warmup", "\(warmup)"],
            timeout: timeout, label: "phonenumbers")
        func samples(_ key: String) throws -> Samples {
            guard let values = report[key]?.arrayValue?.compactMap(\.doubleValue), !values.isEmpty else {
                throw BenchFailure("phonenumbers: no '\(key)' samples in the script's output")
            }
            return Samples(values)
        }
        return Outcome(
            kept: try samples("kept"), remade: try samples("remade"),
            version: report["version"]?.stringValue ?? "?", formatted: report["formatted"]?.stringValue ?? "?")
    }
}
