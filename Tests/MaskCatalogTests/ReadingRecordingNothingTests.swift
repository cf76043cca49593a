import FieldTyping
import TestSupport
import XCTest

import MaskCatalog
@testable import MaskEngine

/// A text formatted whole is read by a lean loop of its own (`Program.readRecordingNothing`, a reading with no trace,
/// carets or runs): it must read what `continueReading` reads (the same cells, end and cuts), for every program of
/// every preset and of masks with optional, repeating and defined slots, over identifier numbers as typed, shown and
/// mutated, and random texts with characters outside ASCII and past the mask's end, on both units of text.
final class ReadingRecordingNothingTests: XCTestCase {
    func testEveryProgram_readsWhatContinueReadingReads() throws {
        let numbers = try identifierNumbersByPreset()
        var specs = Presets.names.map { MaskSpec(.preset($0), region: $0 == "postal" ? "GB" : nil) }
        specs += [
            MaskSpec(.notation("+1 ([000]) [000]-[0000]")),
            MaskSpec(.notation("[099]-[aa9]"), eager: true),
            MaskSpec(.notation("[0…] kg")),
            MaskSpec(.notation("[0…][AAA]")),
            MaskSpec(.notation("[A…] [0…]"), letterCase: .upper),
            MaskSpec(.notation("[HH]-[YY]"), definitions: ["H": "[0-9A-F]", "Y": "[xyz]?"]),
            MaskSpec(.groups([4]), repeat: true),
        ]
        var generator = SeededRandom(seed: 0x1EAF)
        var checked = 0
        for spec in specs {
            let mask = try Mask.compile(spec)
            var texts = (numbers[spec.presetName ?? ""] ?? []).flatMap { [$0, mask.format($0).text] }
            texts += texts.map { generator.mutated($0) }
            texts += (0..<40).map { _ in Self.randomText(using: &generator) }
            for program in Self.programs(of: mask) where program.blocks.isEmpty {
                for text in texts {
                    Self.compare(program, Array(text), "\(spec): '\(text)'")
                    if let bytes = UInt8.units(of: text) { Self.compare(program, bytes, "\(spec): '\(text)' as bytes") }
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 50_000)
    }

    private static func compare<U: FieldUnit>(_ program: Program, _ chars: [U], _ label: String) {
        let lean = program.decompose(chars, tracing: false)
        let traced = program.decompose(chars, tracing: true)
        XCTAssertEqual(lean.layout, traced.layout, label)
        XCTAssertEqual(lean.cuts.sorted().rejected, traced.cuts.sorted().rejected, label)
        XCTAssertEqual(lean.cuts.sorted().overflow, traced.cuts.sorted().overflow, label)
    }

    private static func programs(of mask: Mask) -> [Program] {
        switch mask.kind {
        case .slots(let program): return [program]
        case .oneOf(let programs): return programs
        case .dynamic(let dynamic): return dynamic.all
        case .number, .custom: return []
        }
    }

    /// Up to 60 characters: digits, letters, separators, a `\r` and one outside ASCII now and then.
    private static func randomText(using generator: inout SeededRandom) -> String {
        let alphabet = Array("0123456789012345ABCDEFXYZabcxyz -./+()é٣\r")
        let length = Int.random(in: 0...60, using: &generator)
        return String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}

extension MaskSpec {
    /// The preset's name, for a preset spec.
    fileprivate var presetName: String? {
        if case .preset(let name) = form { return name }
        return nil
    }
}
