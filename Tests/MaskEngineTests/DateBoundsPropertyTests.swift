import FieldTyping
import XCTest
import MaskCatalog
@testable import MaskEngine
import TestSupport

/// The `date` preset's `min` and `max` against a reference that lists every date in the range: for random
/// ranges and orders, a date in range typed key by key gives the date, and one outside is stopped at
/// exactly the first key that no date in range begins with.
final class DateBoundsPropertyTests: XCTestCase {
    typealias Day = (year: Int, month: Int, day: Int)

    /// The date's digits as the order writes them (`ymd`: `YYYYMMDD`).
    static func digits(_ d: Day, order: String) -> String {
        func pad(_ n: Int, _ w: Int) -> String { String(repeating: "0", count: w - String(n).count) + String(n) }
        let y = pad(d.year, 4), m = pad(d.month, 2), dd = pad(d.day, 2)
        switch order {
        case "dmy": return dd + m + y
        case "mdy": return m + dd + y
        default: return y + m + dd
        }
    }

    static func next(_ d: Day) -> Day {
        if d.day < Checks.daysIn(month: d.month, year: d.year) { return (d.year, d.month, d.day + 1) }
        if d.month < 12 { return (d.year, d.month + 1, 1) }
        return (d.year + 1, 1, 1)
    }

    static func iso(_ d: Day) -> String {
        String(digits(d, order: "ymd").enumerated().flatMap { i, c in i == 4 || i == 6 ? ["-", c] : [c] })
    }

    static func randomDay(_ rng: inout SeededRandom, years: ClosedRange<Int>) -> Day {
        let year = rng.int(years.lowerBound..<(years.upperBound + 1)), month = rng.int(1..<13)
        return (year, month, rng.int(1..<(Checks.daysIn(month: month, year: year) + 1)))
    }

    /// The digits shown in a field's text.
    static func shownDigits(_ text: String) -> String { text.filter(\.isASCII).filter(\.isNumber) }

    func testRandomRangesAndOrders_refuseExactlyTheFirstKeyNoDateInRangeBeginsWith() throws {
        var rng = SeededRandom(seed: 2031)
        var typedIn = 0, typedOut = 0, padded = 0
        for _ in 0..<60 {
            let order = rng.pick(["ymd", "dmy", "mdy"])
            // Spans from a day to some decades, anywhere in 0001-9999 but mostly near today.
            let base = rng.chance(80) ? rng.int(1900..<2100) : rng.int(1..<9990)
            let low = Self.randomDay(&rng, years: base...base)
            var high = low
            let span = rng.pick([0, 1, 20, 200, 800, 3000, 12000])
            for _ in 0..<rng.int(0..<(span + 1)) where high.year < 9999 || high.month < 12 || high.day < 31 {
                high = Self.next(high)
            }
            // The reference: every date in the range and every beginning of its digits.
            var inRange: [Day] = []
            var beginnings = Set<String>()
            var d = low
            while true {
                inRange.append(d)
                let s = Self.digits(d, order: order)
                for k in 1...8 { beginnings.insert(String(s.prefix(k))) }
                if d == high { break }
                d = Self.next(d)
            }
            let spec = MaskSpec(.preset("date"), order: order, min: Self.iso(low), max: Self.iso(high))
            let mask = try Mask.compile(spec)
            let context = "\(order) \(Self.iso(low))...\(Self.iso(high))"

            for _ in 0..<8 {
                let date = rng.pick(inRange)
                var field = TypingField(mask)
                let result = field.type(Self.digits(date, order: order))
                XCTAssertEqual(Self.shownDigits(result.text), Self.digits(date, order: order), context)
                XCTAssertTrue(result.complete && result.valid, "\(context): \(result.text) \(result.problems)")
                typedIn += 1
            }
            for _ in 0..<8 {
                // A real date outside the range, near it or anywhere.
                let near = rng.chance(70)
                let years = near ? max(1, low.year - 3)...min(9999, high.year + 3) : 1...9999
                let date = Self.randomDay(&rng, years: years)
                let keys = Self.digits(date, order: order)
                guard !beginnings.contains(keys) else { continue }
                let stop = (1...8).first { !beginnings.contains(String(keys.prefix($0))) }! - 1
                var field = TypingField(mask)
                for (k, key) in keys.prefix(stop + 1).enumerated() {
                    let before = Self.shownDigits(field.text)
                    let shown = Self.shownDigits(field.type(String(key)).text)
                    let where_ = "\(context): \(keys) key \(k) gives \(field.text)"
                    if k < stop {
                        XCTAssertEqual(shown, String(keys.prefix(k + 1)), where_)
                    } else {
                        // Not taken as typed: refused, or padded into digits a date in range begins with.
                        XCTAssertNotEqual(shown, String(keys.prefix(k + 1)), where_)
                        if shown != before {
                            XCTAssertTrue(beginnings.contains(shown), where_)
                            padded += 1
                        }
                    }
                }
                typedOut += 1
            }
        }
        XCTAssertGreaterThan(typedIn, 400)
        XCTAssertGreaterThan(typedOut, 300)
        XCTAssertGreaterThan(padded, 0)
    }

    func testBoundsOutsideTheCalendarOrOutOfOrderAreErrors() {
        for (spec, message) in [
            (MaskSpec(.preset("date"), min: "2024-13-01"), "'min' is not a date"),
            (MaskSpec(.preset("date"), max: "2024/01/01"), "'max' must be YYYY-MM-DD"),
            (MaskSpec(.preset("date"), min: "2025-01-01", max: "2024-12-31"), "is after 'max'"),
            (MaskSpec(.preset("time"), min: "2024-01-01"), "apply only to the date and datetime presets"),
            (MaskSpec(.preset("time"), clock: 13), "'clock' is 24 or 12"),
            (MaskSpec(.preset("datetime"), min: "2024-01-01T24:00"), "not a time of day"),
        ] {
            XCTAssertThrowsError(try Mask.compile(spec)) { error in
                XCTAssertTrue((error as? MaskError)?.message.contains(message) == true, "\(error)")
            }
        }
    }
}
