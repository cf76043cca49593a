// maskd tests: random documents with fields of every kind under random editing, structural edits, undo and redo
// (Support/EditingSession.swift): the daemon keeps the editor's text, changes nothing outside fields, and every undo
// and redo gives back exactly the text it should. Seeded and bounded; the fuzz target `structural` runs the same
// session from the fuzzer's bytes.
@testable import MaskServer
import Foundation
import TestSupport
import XCTest

extension SeededRandom: EditChoices {
    mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : int(below: n) }
}

final class StructuralFuzzTests: XCTestCase {
    func testRandomEditing_undoAndRedo_keepTheEditorsTextExactly() {
        // Many short sessions: a fresh document every 250 steps, a quarter of them under field rules.
        let seeds = 420, stepsPerSeed = 250
        var total = 0, typedUndos = 0
        var typedUndo: String?
        for seed in 0..<seeds {
            var random = SeededRandom(seed: UInt64(seed))
            let session = EditingSession(rules: seed % 4 == 3)
            session.start(&random)
            while session.steps < stepsPerSeed, session.violation == nil {
                session.step(&random)
            }
            total += session.steps
            typedUndos += session.typedUndos
            typedUndo = typedUndo ?? session.typedUndo.map { "seed \(seed): \($0)" }
            if let violation = session.violation {
                // MASKD_STRUCTURAL_ALL=1 lists every seed's first violation (=full: with its steps) instead of stopping.
                if ProcessInfo.processInfo.environment["MASKD_STRUCTURAL_ALL"] != nil {
                    print(
                        "VIOLATION seed \(seed): "
                            + (ProcessInfo.processInfo.environment["MASKD_STRUCTURAL_ALL"] == "full"
                                ? violation : String(violation.prefix(while: { $0 != "\n" }).prefix(60))))
                    continue
                }
                XCTFail("seed \(seed): \(violation)")
                break
            }
        }
        print(
            "StructuralFuzzTests: \(total) steps over \(seeds) seeded sessions; \(typedUndos) undos or redos typed "
                + "into a field read as typing" + (typedUndo.map { " (first: \($0))" } ?? ""))
        XCTAssertGreaterThanOrEqual(total, 100_000)
    }
}
