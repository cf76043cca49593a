// Where the shared behaviour vectors are, for the tests that type them.
import Foundation

/// `Protocol/vectors/`, the cases the engine, daemon and plugin tests all run.
public let vectorDirectory: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Protocol/vectors")
