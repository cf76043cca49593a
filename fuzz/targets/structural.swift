// Fuzz target `structural`: the session of StructuralFuzzTests (Tests/MaskServerTests/Support/EditingSession.swift,
// compiled in by fuzz/run with MaskServer's sources) driven by the fuzzer's bytes: a document with fields of every
// mask kind, typing in fields, structural edits (lines deleted, replaced, joined, opened, pasted, block inserts,
// whole-buffer replaces), undo and redo. A violated check (the daemon's copy not the editor's, an edit outside every
// field, a letter or digit lost by a change outside fields, an undo or redo not giving its text back when its change
// is not typing into a field) traps with the steps that led there.

import JSON
import JSONRPC
import MaskEngine

// `ByteSource` is in shared/FuzzInput.swift.

extension ByteSource: EditChoices {
    mutating func below(_ n: Int) -> Int {
        guard n > 1 else { return 0 }
        return n <= 256 ? byte() % n : (byte() << 8 | byte()) % n
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var source = ByteSource(Array(UnsafeBufferPointer(start: data, count: size)))
    let session = EditingSession(rules: source.chance(64))
    session.start(&source)
    var steps = 0
    while !source.isEmpty, steps < 200, session.violation == nil {
        session.step(&source)
        steps += 1
    }
    if let violation = session.violation { fatalError("structural: " + violation) }
    return 0
}
