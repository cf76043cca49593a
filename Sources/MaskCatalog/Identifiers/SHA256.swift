/// SHA-256 (FIPS 180-4), for the checksum of Base58 Bitcoin addresses: the engine imports no crypto library, and
/// an address is a few dozen bytes.
enum SHA256 {
    /// The first 32 bits of the fractional parts of the square roots of the first 8 primes.
    private static let initial: [UInt32] = primes.prefix(8).map { fraction(Double($0).squareRoot()) }

    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let rounds: [UInt32] = primes.map { fraction(cubeRoot(Double($0))) }

    private static let primes: [Int] = {
        var found: [Int] = []
        var n = 2
        while found.count < 64 {
            if found.allSatisfy({ n % $0 != 0 }) { found.append(n) }
            n += 1
        }
        return found
    }()

    /// A cube root by Newton's method, exact to the last bits a 32-bit fraction needs for numbers below 312.
    private static func cubeRoot(_ x: Double) -> Double {
        var r = x / 3
        for _ in 0..<100 { r -= (r * r * r - x) / (3 * r * r) }
        return r
    }

    private static func fraction(_ x: Double) -> UInt32 {
        UInt32((x - x.rounded(.down)) * 4_294_967_296)
    }

    private static func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 - n) }

    /// The 32-byte digest of `message`.
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var data = message
        data.append(0x80)
        while data.count % 64 != 56 { data.append(0) }
        let bits = UInt64(message.count) * 8
        for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: bits >> shift)) }
        var h = initial
        var w = [UInt32](repeating: 0, count: 64)
        for chunk in stride(from: 0, to: data.count, by: 64) {
            for i in 0..<16 {
                w[i] = data[(chunk + 4 * i)..<(chunk + 4 * i + 4)].reduce(0) { $0 << 8 | UInt32($1) }
            }
            for i in 16..<64 {
                let s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ w[i - 15] >> 3
                let s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ w[i - 2] >> 10
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            // The eight working variables in locals, not an array made anew each round.
            var (a, b, c, d, e, f, g, k) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            for i in 0..<64 {
                let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                let choice = (e & f) ^ (~e & g)
                let t1 = k &+ s1 &+ choice &+ rounds[i] &+ w[i]
                let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                (a, b, c, d, e, f, g, k) = (t1 &+ s0 &+ majority, a, b, c, d &+ t1, e, f, g)
            }
            for (i, word) in [a, b, c, d, e, f, g, k].enumerated() { h[i] = h[i] &+ word }
        }
        return h.flatMap { word in stride(from: 24, through: 0, by: -8).map { UInt8(truncatingIfNeeded: word >> $0) } }
    }
}
