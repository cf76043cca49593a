// The JSON layer: serialisation, written in Swift to the bytes jansson would write; see ARCHITECTURE.md.

import CJansson

#if canImport(Glibc)
import Glibc
#endif

extension JSONValue {
  /// Serialises the value as compact UTF-8 JSON (no spaces), objects in insertion order.
  ///
  /// The outcomes that are not obvious:
  /// - Doubles are written with 17 significant digits, so they read back bit for bit (`0.1` is written
  ///   `0.10000000000000001`); an integral double keeps a `.0` so that it reads back as a double; `-0.0` is
  ///   written `-0.0`.
  /// - NaN and the infinities, which JSON cannot express, are written as `null`.
  /// - NUL characters in strings and keys are written as `\u0000` (though jansson, and so ``parse(_:)-(String)``,
  ///   refuses one in a key); other characters are written as UTF-8, not escaped.
  /// - Arrays and objects nested deeper than ``maximumDepth`` (which no jansson reader would accept) are written as
  ///   `null`, so serialising never overflows the stack.
  ///
  /// The bytes are those jansson's `json_dumps` writes with `JSON_COMPACT` (its escapes: `\"`, `\\`, `\b`, `\f`,
  /// `\n`, `\r`, `\t`, `\u00XX` for other control characters); only doubles are formatted by jansson itself.
  ///
  /// Complexity: O(n) in the size of the value.
  /// - Returns: the UTF-8 bytes, with no terminator.
  public func serialized() -> [UInt8] {
    var bytes: [UInt8] = []
    serialize(into: &bytes)
    return bytes
  }

  /// Serialises the value as ``serialized()`` does, as a string.
  public func serializedString() -> String {
    String(decoding: serialized(), as: UTF8.self)
  }

  /// Appends the value's serialisation, as ``serialized()`` writes it, to `bytes`.
  ///
  /// Lets a caller build a frame (a header, then the body) in one buffer that it reuses.
  public func serialize(into bytes: inout [UInt8]) {
    var writer = JSONWriter(bytes: ByteSink(capacity: 1024))
    defer { writer.bytes.deallocate() }
    writer.write(self)
    bytes.append(contentsOf: writer.bytes.written)
  }
}

// MARK: - The byte sink

/// A growing byte buffer without the checks of an array's appends (uniqueness, per-call capacity bookkeeping);
/// its owner deallocates it.
private struct ByteSink {
  private var base: UnsafeMutablePointer<UInt8>
  private var count = 0
  private var capacity: Int

  init(capacity: Int) {
    self.capacity = capacity
    base = .allocate(capacity: capacity)
  }

  /// The bytes written so far.
  var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  func deallocate() { base.deallocate() }

  @inline(__always)
  private mutating func reserve(_ extra: Int) {
    if count + extra > capacity { grow(extra) }
  }

  @inline(never)
  private mutating func grow(_ extra: Int) {
    let grown = max(capacity * 2, count + extra)
    let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
    fresh.update(from: base, count: count)
    base.deallocate()
    base = fresh
    capacity = grown
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  @inline(__always)
  mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count)
    (base + count).update(from: source, count: bytes.count)
    count += bytes.count
  }

  mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
    append(contentsOf: bytes.bindMemory(to: UInt8.self))
  }

  mutating func append(contentsOf bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
  }
}

// MARK: - The writer

/// One array or object being written: its children and the next one to write.
private enum WriteFrame {
  case array([JSONValue], next: Int)
  case object([JSONObject.Entry], next: Int)
}

/// Writes JSON values as bytes: by recursion down to `recursionLimit` levels, below that with an explicit stack, so
/// depth costs heap, not call stack.
private struct JSONWriter {
  var bytes: ByteSink

  /// The deepest level written by recursion.
  static let recursionLimit = 200

  mutating func write(_ root: JSONValue) {
    write(root, depth: 1)
  }

  private mutating func write(_ value: JSONValue, depth: Int) {
    switch value {
    case .array(let elements):
      guard depth <= JSONValue.maximumDepth else { return writeASCII("null") }
      guard depth <= JSONWriter.recursionLimit else { return writeIteratively(value, depth: depth) }
      bytes.append(UInt8(ascii: "["))
      for index in elements.indices {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        write(elements[index], depth: depth + 1)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let object):
      guard depth <= JSONValue.maximumDepth else { return writeASCII("null") }
      guard depth <= JSONWriter.recursionLimit else { return writeIteratively(value, depth: depth) }
      bytes.append(UInt8(ascii: "{"))
      let entries = object.entries
      for index in entries.indices {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        writeString(entries[index].key)
        bytes.append(UInt8(ascii: ":"))
        write(entries[index].value, depth: depth + 1)
      }
      bytes.append(UInt8(ascii: "}"))
    default:
      var unused: [WriteFrame] = []
      writeValue(value, depth: depth, stack: &unused)
    }
  }

  /// Writes `root`, which sits at level `base`, with an explicit stack.
  private mutating func writeIteratively(_ root: JSONValue, depth base: Int) {
    var stack: [WriteFrame] = []
    writeValue(root, depth: base, stack: &stack)
    while let top = stack.popLast() {
      switch top {
      case .array(let elements, let next):
        guard next < elements.count else {
          bytes.append(UInt8(ascii: "]"))
          continue
        }
        if next > 0 { bytes.append(UInt8(ascii: ",")) }
        stack.append(.array(elements, next: next + 1))
        writeValue(elements[next], depth: base + stack.count, stack: &stack)
      case .object(let entries, let next):
        guard next < entries.count else {
          bytes.append(UInt8(ascii: "}"))
          continue
        }
        if next > 0 { bytes.append(UInt8(ascii: ",")) }
        writeString(entries[next].key)
        bytes.append(UInt8(ascii: ":"))
        stack.append(.object(entries, next: next + 1))
        writeValue(entries[next].value, depth: base + stack.count, stack: &stack)
      }
    }
  }

  /// Writes a scalar whole, or a container's opening bracket, pushing the container to be filled.
  private mutating func writeValue(_ value: JSONValue, depth: Int, stack: inout [WriteFrame]) {
    switch value {
    case .null:
      writeASCII("null")
    case .bool(let flag):
      writeASCII(flag ? "true" : "false")
    case .int(let number):
      writeInteger(number)
    case .double(let number):
      writeDouble(number)
    case .string(let text):
      writeString(text)
    case .array(let elements):
      guard depth <= JSONValue.maximumDepth else { return writeASCII("null") }
      bytes.append(UInt8(ascii: "["))
      stack.append(.array(elements, next: 0))
    case .object(let object):
      guard depth <= JSONValue.maximumDepth else { return writeASCII("null") }
      bytes.append(UInt8(ascii: "{"))
      stack.append(.object(object.entries, next: 0))
    }
  }

  private mutating func writeASCII(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  private mutating func writeInteger(_ number: Int64) {
    if 0 <= number, number < 10 { return bytes.append(UInt8(ascii: "0") + UInt8(number)) }
    // At most 20 characters: a sign and 19 digits.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var end = 20
      var magnitude = number.magnitude
      repeat {
        end -= 1
        digits[end] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      if number < 0 {
        end -= 1
        digits[end] = UInt8(ascii: "-")
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[end...]))
    }
  }

  /// Doubles are rare in these messages: jansson formats them, so its rules (17 digits, `.0`) hold exactly.
  private mutating func writeDouble(_ number: Double) {
    guard let node = json_real(number) else { return writeASCII("null") }
    defer { json_decref(node) }
    let flags = Int(JSON_COMPACT | JSON_ENCODE_ANY) | janssonRealPrecision17
    guard let text = json_dumps(node, flags) else { return writeASCII("null") }
    defer { free(text) }
    bytes.append(contentsOf: UnsafeRawBufferPointer(start: text, count: strlen(text)))
  }

  private mutating func writeString(_ text: String) {
    if let done: Void = text.utf8.withContiguousStorageIfAvailable({ writeString(utf8: $0) }) { return done }
    var text = text
    text.withUTF8 { writeString(utf8: $0) }
  }

  /// Writes a quoted string: runs that need no escape are copied whole, found eight bytes at a time.
  private mutating func writeString(utf8: UnsafeBufferPointer<UInt8>) {
    bytes.append(UInt8(ascii: "\""))
    if let base = utf8.baseAddress {
      let count = utf8.count
      var runStart = 0
      var index = 0
      while index < count {
        while index + 8 <= count,
          !JSONWriter.needsEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
        {
          index += 8
        }
        guard index < count else { break }
        let byte = base[index]
        index += 1
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
        bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - 1 - runStart))
        runStart = index
        writeEscape(byte)
      }
      bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart))
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// Whether any of the eight bytes of `word` is a control character, `"` or `\` (exact as a yes or no: the
  /// classic "has a byte less than n" and "has a zero byte" tests).
  @inline(__always)
  private static func needsEscape(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
    let control = (word &- ones &* 0x20) & ~word
    let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
    return (control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highs != 0
  }

  private mutating func writeEscape(_ byte: UInt8) {
    bytes.append(UInt8(ascii: "\\"))
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
    case 0x08: bytes.append(UInt8(ascii: "b"))
    case 0x0C: bytes.append(UInt8(ascii: "f"))
    case 0x0A: bytes.append(UInt8(ascii: "n"))
    case 0x0D: bytes.append(UInt8(ascii: "r"))
    case 0x09: bytes.append(UInt8(ascii: "t"))
    default:
      // jansson writes `\u%04X`: upper-case hex.
      let hex = Array("0123456789ABCDEF".utf8)
      bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                                hex[Int(byte & 0xF)]])
    }
  }
}

/// jansson's `JSON_REAL_PRECISION(17)`, a function-like macro that Swift does not import.
private let janssonRealPrecision17 = (17 & 0x1F) << 11
