/// The part a block plays in a date or a time of day (the `date`, `time` and `datetime` presets).
enum MomentPart: Int, Hashable, Sendable {
    case year, month, day, hour, minute, second, meridiem
}

/// The earliest and latest moment a `date` or `datetime` field takes (`min`, `max`): a key is refused
/// when no moment in `low...high` begins with the digits typed so far, whatever order the parts come in.
///
/// The check looks at each month and day the typed digits still allow (at most 372 pairs) with the
/// years that make it fall inside the bounds, then at the two bound dates themselves with the times of
/// day they allow; no date is enumerated year by year, so a key costs the same for any span of years.
struct MomentBounds: Hashable, Sendable {
    /// Year, month, day, hour, minute, second (on the 24-hour clock) of the earliest and latest moment.
    var low: [Int]
    var high: [Int]
    /// The field has a time of day, and seconds in it.
    var hasTime: Bool
    var hasSeconds: Bool
    /// Hours are typed 01-12 with AM or PM.
    var twelveHour: Bool

    static let dayEnd = 24 * 3600 - 1

    /// Reads a bound: `YYYY-MM-DD`, and for a field with a time `YYYY-MM-DDTHH:MM` (`:SS` optional);
    /// a bare date in a field with a time is the day's first moment (`min`) or its last (`max`).
    static func parse(_ text: String, option: String, hasTime: Bool, latest: Bool) throws -> [Int] {
        let shape = hasTime ? "YYYY-MM-DD or YYYY-MM-DDTHH:MM" : "YYYY-MM-DD"
        let bad = MaskError("'\(option)' must be \(shape), got '\(text)'")
        let chars = Array(text)
        func number(_ at: Int, _ width: Int) throws -> Int {
            guard at + width <= chars.count else { throw bad }
            var n = 0
            for c in chars[at..<(at + width)] {
                guard let d = c.wholeNumberValue, c.isASCII else { throw bad }
                n = n * 10 + d
            }
            return n
        }
        guard chars.count >= 10, chars[4] == "-", chars[7] == "-" else { throw bad }
        var parts = [try number(0, 4), try number(5, 2), try number(8, 2)]
        if chars.count == 10 {
            parts += latest && hasTime ? [23, 59, 59] : [0, 0, 0]
        } else {
            guard hasTime, chars.count == 16 || chars.count == 19, chars[10] == "T", chars[13] == ":" else { throw bad }
            parts += [try number(11, 2), try number(14, 2), 0]
            if chars.count == 19 {
                guard chars[16] == ":" else { throw bad }
                parts[5] = try number(17, 2)
            } else if latest {
                parts[5] = 59
            }
            guard parts[3] <= 23, parts[4] <= 59, parts[5] <= 59 else {
                throw MaskError("'\(option)' is not a time of day: '\(text)'")
            }
        }
        if Checks.dayProblem(year: parts[0], month: parts[1], day: parts[2]) != nil {
            throw MaskError("'\(option)' is not a date: '\(text)'")
        }
        return parts
    }

    /// Whether some moment in the bounds has each part in its range (nil: any value of the part) and,
    /// on a 12-hour clock, `meridiem` (0 AM, 1 PM, nil either). `parts` has one entry per `MomentPart`
    /// but the meridiem; the hour is as typed (01-12 on a 12-hour clock).
    func admits(_ parts: [ClosedRange<Int>?], meridiem: Int?) -> Bool {
        let years = parts[0] ?? 1...9999, months = parts[1] ?? 1...12, days = parts[2] ?? 1...31
        let lowDay = low[1] * 100 + low[2], highDay = high[1] * 100 + high[2]
        let lowTime = low[3] * 3600 + low[4] * 60 + low[5], highTime = high[3] * 3600 + high[4] * 60 + high[5]

        func timeExists(from start: Int, to end: Int) -> Bool {
            guard hasTime else { return start <= 0 && 0 <= end }
            let hours = parts[3] ?? (twelveHour ? 1...12 : 0...23)
            let minutes = parts[4] ?? 0...59
            let seconds = hasSeconds ? (parts[5] ?? 0...59) : 0...0
            let m0 = Swift.max(minutes.lowerBound, 0), m1 = Swift.min(minutes.upperBound, 59)
            let s0 = Swift.max(seconds.lowerBound, 0), s1 = Swift.min(seconds.upperBound, 59)
            guard m0 <= m1, s0 <= s1 else { return false }
            for hour in 0..<24 {
                if twelveHour {
                    let shown = hour % 12 == 0 ? 12 : hour % 12
                    guard hours.contains(shown), meridiem == nil || meridiem == (hour < 12 ? 0 : 1) else { continue }
                } else {
                    guard hours.contains(hour) else { continue }
                }
                for minute in m0...m1 {
                    let t = hour * 3600 + minute * 60
                    if Swift.max(s0, start - t) <= Swift.min(s1, end - t) { return true }
                }
            }
            return false
        }

        // Dates strictly between the bounds' dates: any time of day.
        let m0 = Swift.max(months.lowerBound, 1), m1 = Swift.min(months.upperBound, 12)
        let d0 = Swift.max(days.lowerBound, 1), d1 = Swift.min(days.upperBound, 31)
        if m0 <= m1, d0 <= d1 {
            var anyTime: Bool? = nil
            for month in m0...m1 {
                let last = Swift.min(d1, Checks.daysIn(month: month, year: 2000))
                guard d0 <= last else { continue }
                for day in d0...last {
                    let monthDay = month * 100 + day
                    let y0 = Swift.max(years.lowerBound, 1, low[0] + (monthDay > lowDay ? 0 : 1))
                    let y1 = Swift.min(years.upperBound, 9999, high[0] - (monthDay < highDay ? 0 : 1))
                    guard y0 <= y1 else { continue }
                    if month == 2, day == 29, Self.leapYears(through: y1) == Self.leapYears(through: y0 - 1) {
                        continue
                    }
                    if anyTime == nil { anyTime = timeExists(from: 0, to: Self.dayEnd) }
                    return anyTime!
                }
            }
        }
        // The bounds' own dates, with the times of day they allow.
        for bound in [low, high] {
            guard years.contains(bound[0]), months.contains(bound[1]), days.contains(bound[2]) else { continue }
            let isLow = bound[0] == low[0] && bound[1] * 100 + bound[2] == lowDay
            let isHigh = bound[0] == high[0] && bound[1] * 100 + bound[2] == highDay
            if timeExists(from: isLow ? lowTime : 0, to: isHigh ? highTime : Self.dayEnd) { return true }
        }
        return false
    }

    /// How many leap years there are from year 1 through `year`.
    static func leapYears(through year: Int) -> Int {
        year <= 0 ? 0 : year / 4 - year / 100 + year / 400
    }
}

extension Program {
    /// Whether `values` (the range `block` may still take, after the moment's parts typed before it)
    /// leave some moment within the block's bounds.
    func boundsAdmit<U: FieldUnit>(_ values: ClosedRange<Int>, block: Block, cells: [Cell<U>], skipping: Int) -> Bool {
        guard let bounds = block.bounds, let part = block.part else { return true }
        var parts = momentParts(before: block, cells: cells, skipping: skipping)
        var meridiem = parts[MomentPart.meridiem.rawValue].map(\.lowerBound)
        if part == .meridiem {
            meridiem = values.lowerBound
        } else {
            parts[part.rawValue] = values
        }
        return bounds.admits(parts, meridiem: meridiem)
    }

    /// The values of the moment's parts that stand complete before `block`, read from the end of
    /// `cells` past the `skipping` cells of the block itself (a meridiem as 0 for AM, 1 for PM).
    private func momentParts<U>(before block: Block, cells: [Cell<U>], skipping: Int) -> [ClosedRange<Int>?] {
        var parts = [ClosedRange<Int>?](repeating: nil, count: 7)
        var i = cells.count - skipping - 1
        for other in blocks.reversed() where other.start < block.start {
            guard let part = other.part else { continue }
            while i >= 0, cells[i].element >= other.end { i -= 1 }
            var value = 0, count = 0, scale = 1
            var first: U? = nil
            while i >= 0, cells[i].element >= other.start {
                value += (cells[i].char.digitValue ?? 0) * scale
                scale *= 10
                count += 1
                first = cells[i].char
                i -= 1
            }
            if part == .meridiem {
                guard let first, let letter = first.character.lowercasedString else { continue }
                parts[part.rawValue] = letter == "p" ? 1...1 : 0...0
            } else if count == other.width {
                parts[part.rawValue] = value...value
            }
        }
        return parts
    }
}

extension Program {
    /// The problem of a complete moment outside its bounds (text read as it stood, or re-flowed by an edit):
    /// `must be 2000-01-01 to 2009-12-31`; nil when it is inside, incomplete, or the field has no bounds.
    func boundsProblem<U>(_ layout: Layout<U>) -> String? {
        guard let bounds = blocks.first?.bounds else { return nil }
        var moment = [0, 0, 0, 0, 0, 0]
        var afternoon = false
        var ci = 0
        for block in blocks {
            guard let part = block.part else { continue }
            while ci < layout.cells.count, layout.cells[ci].element < block.start { ci += 1 }
            var value = 0, count = 0
            var first: String? = nil
            while ci < layout.cells.count, layout.cells[ci].element < block.end {
                let char = layout.cells[ci].char
                value = value * 10 + (char.digitValue ?? 0)
                if first == nil { first = char.character.lowercasedString }
                count += 1
                ci += 1
            }
            if part == .meridiem {
                guard let first else { return nil }
                afternoon = first == "p"
            } else {
                guard count == block.width else { return nil }
                moment[part.rawValue] = value
            }
        }
        if bounds.twelveHour { moment[3] = moment[3] % 12 + (afternoon ? 12 : 0) }
        guard moment.lexicographicallyPrecedes(bounds.low) || bounds.high.lexicographicallyPrecedes(moment) else {
            return nil
        }
        let name = bounds.hasTime ? "date and time" : "date"
        return "\(name) must be \(bounds.written(bounds.low)) to \(bounds.written(bounds.high))"
    }
}

extension MomentBounds {
    /// A bound as the options write it: `2024-03-15`, `2024-03-15T10:30`.
    func written(_ moment: [Int]) -> String {
        func pad(_ n: Int, _ width: Int) -> String {
            String(repeating: "0", count: Swift.max(0, width - String(n).count)) + String(n)
        }
        var text = "\(pad(moment[0], 4))-\(pad(moment[1], 2))-\(pad(moment[2], 2))"
        guard hasTime else { return text }
        text += "T\(pad(moment[3], 2)):\(pad(moment[4], 2))"
        if hasSeconds || moment[5] != 0 && moment[5] != 59 { text += ":\(pad(moment[5], 2))" }
        return text
    }
}
