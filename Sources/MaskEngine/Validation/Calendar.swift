extension Checks {
    /// English month names, for problems that name the month the person typed.
    static let monthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]

    /// Gregorian leap years: every fourth year, except centuries not divisible by 400
    /// (so 2000 is a leap year and 1900 is not).
    static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in `month` (1 to 12) of `year`.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Whether year, month and day name a real day; shared by `date` and the birth date in
    /// `id.cn`, so both word their problems alike.
    static func dayProblem(year: Int, month: Int, day: Int) -> String? {
        if year < 1 { return "year must be 0001 to 9999" }
        if month < 1 || month > 12 { return "month must be 01 to 12" }
        let last = daysIn(month: month, year: year)
        if day < 1 || day > last {
            if day < 1 { return "day must be 01 to \(last)" }
            // February is the one month whose length depends on the year, so say which year.
            if month == 2 { return "February has \(last) days in \(year) at most" }
            return "\(monthNames[month - 1]) has \(last) days at most"
        }
        return nil
    }

    /// Splits a value into all-digit fields, accepting the separated spelling (`sizes`
    /// joined by `separator`) or the bare digits, because the preset masks extract their
    /// `{}` separators while a plain digits mask does not.
    static func fields(_ chars: [Character], sizes: [Int], separator: Character) -> [Int]? {
        let bare = sizes.reduce(0, +)
        let separated = chars.count == bare + sizes.count - 1
        guard chars.count == bare || separated else { return nil }
        var result: [Int] = []
        var at = 0
        for (i, size) in sizes.enumerated() {
            if separated && i > 0 {
                guard chars[at] == separator else { return nil }
                at += 1
            }
            guard let n = number(chars, at, size) else { return nil }
            result.append(n)
            at += size
        }
        return result
    }

    // MARK: date, time, expiry

    /// `YYYY-MM-DD` or `YYYYMMDD`, a real day of the Gregorian calendar.
    static func date(_ chars: [Character]) -> String? {
        guard let f = fields(chars, sizes: [4, 2, 2], separator: "-") else {
            return "date must be YYYY-MM-DD"
        }
        return dayProblem(year: f[0], month: f[1], day: f[2])
    }

    /// `HH:MM` or `HHMM` on the 24-hour clock; 24:00 is refused, as a field of the day.
    static func time(_ chars: [Character]) -> String? {
        guard let f = fields(chars, sizes: [2, 2], separator: ":") else {
            return "time must be HH:MM"
        }
        if f[0] > 23 { return "hour must be 00 to 23" }
        if f[1] > 59 { return "minute must be 00 to 59" }
        return nil
    }

    /// `MM/YY` or `MMYY`. Whether the card has expired needs a clock, which the engine does
    /// not read, so only the month is checked.
    static func expiry(_ chars: [Character]) -> String? {
        guard let f = fields(chars, sizes: [2, 2], separator: "/") else {
            return "expiry must be MM/YY"
        }
        if f[0] < 1 || f[0] > 12 { return "month must be 01 to 12" }
        return nil
    }
}
