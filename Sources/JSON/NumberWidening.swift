// The JSON layer: numbers of any size in valid JSON, which jansson refuses past its types.

/// Rewrites, in JSON text, the numbers jansson refuses so that it reads them: an integer outside `Int64`
/// (`18446744073709552000`, how JavaScript writes 2^64) gets a `.0` and reads as the nearest double, and a number
/// beyond the double range (`1e400`) reads as the largest finite double of its sign. Everything else, strings
/// included, passes unchanged, so does a malformed number (jansson reports it). Fed a byte at a time, so a document
/// read in chunks is rewritten as it is read.
struct NumberWidening {
    private var inString = false
    private var escaped = false
    /// The number being read, held back until it ends.
    private var number: [UInt8] = []

    /// The text of the largest finite double, which a number beyond the double range reads as.
    static let largestFinite = Array("1.7976931348623157e308".utf8)

    /// `bytes` rewritten, or nil when it holds no number jansson refuses.
    static func rewritten(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        var widening = NumberWidening()
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        widening.pass(bytes, into: &out)
        widening.finish(into: &out)
        return widening.widened ? out : nil
    }

    /// Passes `bytes` on to `out` as ``feed(_:into:)`` does byte by byte; a string's text is copied in runs.
    mutating func pass(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        var i = 0
        while i < bytes.count {
            if inString, !escaped {
                var j = i
                while j < bytes.count, bytes[j] != UInt8(ascii: "\\"), bytes[j] != UInt8(ascii: "\"") { j += 1 }
                if j > i {
                    out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[i..<j]))
                    i = j
                    continue
                }
            }
            feed(bytes[i], into: &out)
            i += 1
        }
    }

    /// Set once a number was rewritten.
    private(set) var widened = false

    /// Passes `byte` on to `out`, holding a number back until it ends.
    mutating func feed(_ byte: UInt8, into out: inout [UInt8]) {
        if inString {
            out.append(byte)
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            return
        }
        if !number.isEmpty {
            if NumberWidening.isNumberByte(byte) {
                number.append(byte)
                return
            }
            endNumber(into: &out)
        }
        if byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) {
            number.append(byte)
            return
        }
        if byte == UInt8(ascii: "\"") { inString = true }
        out.append(byte)
    }

    /// Passes on a number the text ended with.
    mutating func finish(into out: inout [UInt8]) {
        if !number.isEmpty { endNumber(into: &out) }
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
            UInt8(ascii: "+"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    private mutating func endNumber(into out: inout [UInt8]) {
        defer { number.removeAll(keepingCapacity: true) }
        // Up to 18 digits always fit in an Int64, and a short real cannot overflow: the common case costs no parse.
        let hasExponent = number.contains { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        if number.count <= 18, !hasExponent {
            out.append(contentsOf: number)
            return
        }
        let text = String(decoding: number, as: UTF8.self)
        guard let real = Double(text) else {
            // Malformed: jansson says what is wrong with it.
            out.append(contentsOf: number)
            return
        }
        if real.isInfinite {
            widened = true
            if real < 0 { out.append(UInt8(ascii: "-")) }
            out.append(contentsOf: NumberWidening.largestFinite)
        } else if !hasExponent, !number.contains(UInt8(ascii: ".")), Int64(text) == nil {
            widened = true
            out.append(contentsOf: number)
            out.append(contentsOf: ".0".utf8)
        } else {
            out.append(contentsOf: number)
        }
    }
}
