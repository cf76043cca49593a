// Shared by the fuzz targets `engine` and `server` (fuzz/run compiles it into both): reading the fuzzer's bytes,
// and the switch that steps around known bugs.

#if canImport(Glibc)
import Glibc
#endif

/// Draws small numbers from the fuzzer's bytes; `isEmpty` once they run out.
struct ByteSource {
  private let bytes: [UInt8]
  private var index = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var isEmpty: Bool { index >= bytes.count }

  mutating func byte() -> Int {
    guard index < bytes.count else { return 0 }
    defer { index += 1 }
    return Int(bytes[index])
  }

  mutating func pick<T>(_ items: [T]) -> T { items[byte() % items.count] }

  mutating func chance(_ in256: Int) -> Bool { byte() < in256 }
}

/// Whether steps that would hit a known bug are skipped (MASKD_FUZZ_KNOWN_BUGS=skip).
let skipKnownBugs: Bool = {
  guard let value = getenv("MASKD_FUZZ_KNOWN_BUGS") else { return false }
  return String(cString: value) == "skip"
}()
