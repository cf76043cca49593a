// Where the shared behaviour vectors are, for the tests that type them.
import Foundation

/// `Protocol/vectors/`, the cases the engine, daemon and plugin tests all run.
public let vectorDirectory: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Protocol/vectors")

/// The numbers the identifier conformance vectors type, by preset (each case's first keys).
public func identifierNumbersByPreset() throws -> [String: [String]] {
    var numbers: [String: [String]] = [:]
    let url = vectorDirectory.appendingPathComponent("identifiers-conformance/identifiers.json")
    let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    for case let c as [String: Any] in root["cases"] as! [Any] {
        guard let preset = (c["mask"] as? [String: Any])?["preset"] as? String,
            let keys = (c["steps"] as? [[String: Any]])?.first?["keys"] as? String
        else { continue }
        numbers[preset, default: []].append(keys)
    }
    return numbers
}
