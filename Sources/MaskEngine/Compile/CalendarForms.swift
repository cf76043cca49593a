extension FormCompiler {
    /// The program of the `date`, `time`, `datetime` and `expiry` presets: range blocks joined by separators
    /// that belong to the value (`{-}`), so a digit that cannot make a real month, day, hour or minute is
    /// refused as typed.
    ///
    /// `date`'s day range follows the month and year typed before it (30 April, 29 February in leap
    /// years only); typed after the day (`dmy`, `mdy`), the month must have that day and the year must
    /// have a 29 February. Options: `order` (`ymd`, `dmy`, `mdy`) and `separator` (by order `-`, `.`, `/`),
    /// `min` and `max` (`MomentBounds`); `time`: `seconds`, `clock` (24 or 12: hours 01-12 and AM or PM);
    /// `datetime`: the date, a space, the time, with the options of both.
    package static func calendarProgram(_ name: String, _ spec: MaskSpec) throws -> Program {
        typealias Part = (
            label: String, low: Int, high: Int, width: Int, pad: Bool, role: Block.CalendarRole?,
            part: MomentPart
        )
        let year: Part = ("year", 1, 9999, 4, false, .year, .year)
        let month: Part = ("month", 1, 12, 2, true, .month, .month)
        let day: Part = ("day", 1, 31, 2, true, .day, .day)
        let twelveHour: Bool
        switch spec.clock ?? 24 {
        case 24: twelveHour = false
        case 12: twelveHour = true
        case let other: throw MaskError("'clock' is 24 or 12, got \(other)")
        }
        var time: [Part] = [
            twelveHour ? ("hour", 1, 12, 2, true, nil, .hour) : ("hour", 0, 23, 2, true, nil, .hour),
            ("minute", 0, 59, 2, true, nil, .minute),
        ]
        if spec.seconds == true { time.append(("second", 0, 59, 2, true, nil, .second)) }

        var date: [Part] = []
        var dateSeparator = ""
        if name == "date" || name == "datetime" {
            switch spec.order ?? "ymd" {
            case "ymd": (date, dateSeparator) = ([year, month, day], "-")
            case "dmy": (date, dateSeparator) = ([day, month, year], ".")
            case "mdy": (date, dateSeparator) = ([month, day, year], "/")
            case let other: throw MaskError("unknown order '\(other)'; one of ymd, dmy, mdy")
            }
        }
        // Runs of parts with the separator that joins them.
        var runs: [(parts: [Part], separator: String)]
        switch name {
        case "date": runs = [(date, spec.separator ?? dateSeparator)]
        case "time": runs = [(time, spec.separator ?? ":")]
        case "datetime": runs = [(date, spec.separator ?? dateSeparator), (time, ":")]
        default:
            runs = [
                (
                    [("month", 1, 12, 2, true, nil, .month), ("year", 0, 99, 2, false, nil, .year)],
                    spec.separator ?? "/"
                )
            ]
        }
        for run in runs where run.separator.contains(where: { asciiDigit($0) != nil }) {
            throw MaskError("the \(name) separator must not contain digits")
        }

        var bounds: MomentBounds? = nil
        if spec.min != nil || spec.max != nil {
            let hasTime = name == "datetime"
            var b = MomentBounds(
                low: [1, 1, 1, 0, 0, 0], high: [9999, 12, 31, 23, 59, 59], hasTime: hasTime,
                hasSeconds: spec.seconds == true, twelveHour: twelveHour)
            if !hasTime { b.high = [9999, 12, 31, 0, 0, 0] }
            if let min = spec.min {
                b.low = try MomentBounds.parse(min, option: "min", hasTime: hasTime, latest: false)
            }
            if let max = spec.max {
                b.high = try MomentBounds.parse(max, option: "max", hasTime: hasTime, latest: true)
            }
            guard b.low.lexicographicallyPrecedes(b.high) || b.low == b.high else {
                throw MaskError("'min' (\(spec.min ?? "")) is after 'max' (\(spec.max ?? ""))")
            }
            bounds = b
        }

        var elements: [Element] = []
        var blocks: [Block] = []
        func literal(_ text: String) {
            for c in text { elements.append(Element(kind: .literal(c), isExtracted: true)) }
        }
        for (r, run) in runs.enumerated() {
            if r > 0 { literal(" ") }
            for (i, part) in run.parts.enumerated() {
                if i > 0 { literal(run.separator) }
                var block = Block(
                    rule: .range(min: part.low, max: part.high), pad: part.pad, label: part.label,
                    start: elements.count, width: part.width, calendar: part.role)
                block.part = part.part
                block.bounds = bounds
                for _ in 0..<part.width { elements.append(Element(kind: .slot(.digit), block: Int32(blocks.count))) }
                blocks.append(block)
            }
        }
        if twelveHour, name != "date" {
            // `hh:MM AM`: the word after a space, completed from its first letter.
            literal(" ")
            var block = Block(
                rule: .words([Array("AM"), Array("PM")]), pad: false, label: "AM/PM",
                start: elements.count, width: 2)
            block.part = .meridiem
            block.bounds = bounds
            block.completesWord = true
            for _ in 0..<2 { elements.append(Element(kind: .slot(.letter), block: Int32(blocks.count))) }
            blocks.append(block)
        }
        var spec = spec
        if twelveHour, name != "date", spec.letterCase == nil {
            // Text read as it stands (a field opened over `10:30 pm`) shows the word as the clock writes it.
            spec.letterCase = .upper
        }
        try ProgramChecks.check(elements, letterCase: spec.letterCase)
        return MaskCompiler.makeProgram(elements, spec, blocks: blocks)
    }
}
