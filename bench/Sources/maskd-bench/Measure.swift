// maskd-bench: samples and their statistics (the clock, `nowNS`, is the shared client's).
import Glibc
import MaskdClient

/// A set of measurements of one quantity, in its unit (nanoseconds, requests per second, ...).
struct Samples {
    private(set) var values: [Double] = []
    /// Where each round that `endRound()` closed ends in `values`: rows whose sides take turns compare round by round.
    private(set) var roundEnds: [Int] = []

    init(_ values: [Double] = []) { self.values = values }

    mutating func add(_ value: Double) { values.append(value) }

    /// Closes the round of the samples added since the last one (an empty round is not kept).
    mutating func endRound() {
        if values.count > (roundEnds.last ?? 0) { roundEnds.append(values.count) }
    }

    /// Each closed round's median.
    var roundMedians: [Double] {
        var start = 0
        return roundEnds.map { end in
            defer { start = end }
            return Samples(Array(values[start..<end])).median
        }
    }

    var count: Int { values.count }

    /// The value below which `fraction` of the samples lie (nearest rank on the sorted samples).
    func percentile(_ fraction: Double) -> Double {
        precondition(!values.isEmpty, "percentile of no samples")
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    var median: Double {
        precondition(!values.isEmpty, "median of no samples")
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The slow tail: the 99th percentile of a time.
    var p99: Double { percentile(0.99) }

    /// The slow tail of a rate: the rate only 1% of the samples fall below.
    var p1: Double { percentile(0.01) }
}

/// The ratio of `a` to `b` in each round both closed (their rounds taking turns, A, B, A, B, ...), as the lowest
/// and the highest: how far the machine's load moved the ratio during the run. Nil without two rounds.
func roundRatioSpread(_ a: [Double], _ b: [Double]) -> (low: Double, high: Double)? {
    let ratios = zip(a, b).map { $0 / $1 }
    guard ratios.count >= 2, let low = ratios.min(), let high = ratios.max() else { return nil }
    return (low, high)
}

/// A ratio with its spread across rounds: `1.23x (1.10-1.35x in 10 rounds)`.
func formatRatio(_ ratio: Double, spread: (low: Double, high: Double)?, rounds: Int) -> String {
    guard let spread else { return formatRatio(ratio) }
    return formatRatio(ratio) + " (\(digits(spread.low))-\(digits(spread.high))x, \(rounds) rounds)"
}

/// Something that went wrong so that a measurement could not be made (as opposed to a miss).
struct BenchFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}

/// Keeps a computed value alive so the optimiser cannot drop the work that made it.
@inline(never)
func keep(_ value: Int) {
    sink &+= value
}

nonisolated(unsafe) private var sink = 0

/// Formats a duration given in nanoseconds with a unit that keeps three significant digits.
func formatDuration(_ ns: Double) -> String {
    if ns < 1_000 { return "\(digits(ns)) ns" }
    if ns < 1_000_000 { return "\(digits(ns / 1_000)) µs" }
    if ns < 1_000_000_000 { return "\(digits(ns / 1_000_000)) ms" }
    return "\(digits(ns / 1_000_000_000)) s"
}

/// Formats a byte count in MB (10^6 bytes), KB below one MB.
func formatBytes(_ bytes: Double) -> String {
    if bytes < 1_000_000 { return "\(digits(bytes / 1_000)) KB" }
    return "\(digits(bytes / 1_000_000)) MB"
}

/// Formats a rate per second of `unit` (requests unless told).
func formatRate(_ perSecond: Double, unit: String = "req") -> String {
    if perSecond >= 1_000 { return "\(digits(perSecond / 1_000))k \(unit)/s" }
    return "\(digits(perSecond)) \(unit)/s"
}

/// Formats a ratio such as `1.23x`.
func formatRatio(_ ratio: Double) -> String { "\(digits(ratio))x" }

/// Three significant digits, without exponent: 1.23, 12.3, 123, 1234.
func digits(_ value: Double) -> String {
    guard value.isFinite else { return "\(value)" }
    let magnitude = abs(value)
    let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2
    return fixed(value, decimals)
}
