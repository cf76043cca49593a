import MaskEngine

/// The check-digit algorithm families identifiers use, over ASCII bytes. Each answers whether the
/// characters (check characters included) pass; a character outside the family's alphabet fails.
enum CheckDigits {
    private static let zero = UInt8(ascii: "0")

    /// A digit's value, or nil.
    static func digit(_ b: UInt8) -> Int? {
        b >= 48 && b <= 57 ? Int(b - 48) : nil
    }

    /// 0-9, then A = 10 to Z = 35; nil for anything else.
    static func alnum36(_ b: UInt8) -> Int? {
        if let d = digit(b) { return d }
        return b >= 65 && b <= 90 ? Int(b - 55) : nil
    }

    /// `a` modulo `m`, never negative.
    static func modulo(_ a: Int, _ m: Int) -> Int {
        let r = a % m
        return r < 0 ? r + m : r
    }

    /// The weighted sum of `weights.count` characters from `start`, or nil when one is missing or unreadable.
    static func weightedSum(
        _ chars: [UInt8], start: Int, weights: [Int], values: IdentifierCheck.Values,
        fold: Bool
    ) -> Int? {
        guard start + weights.count <= chars.count else { return nil }
        var sum = 0
        for (i, w) in weights.enumerated() {
            let b = chars[start + i]
            let v: Int
            switch values {
            case .dec: guard let d = digit(b) else { return nil }; v = d
            case .ord48: v = Int(b) - 48
            case .alnum36: guard let d = alnum36(b) else { return nil }; v = d
            }
            var p = w * v
            if fold {
                var folded = 0
                var n = abs(p)
                while n > 0 { folded += n % 10; n /= 10 }
                p = folded
            }
            sum += p
        }
        return sum
    }

    /// Luhn: from the right, every second digit doubled (9 taken off past 9); the sum ends in 0.
    static func luhn(_ chars: ArraySlice<UInt8>) -> Bool {
        guard !chars.isEmpty else { return false }
        var sum = 0
        var doubled = false
        for b in chars.reversed() {
            guard var d = digit(b) else { return false }
            if doubled { d = d * 2 > 9 ? d * 2 - 9 : d * 2 }
            sum += d
            doubled.toggle()
        }
        return sum % 10 == 0
    }

    private static let verhoeffD: [[Int]] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
        [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
        [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
        [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    ]
    private static let verhoeffP: [[Int]] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
        [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
        [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
    ]

    /// Verhoeff's check over the dihedral group D5: the product over the digits, permuted by place from the right, is 0.
    static func verhoeff(_ chars: ArraySlice<UInt8>) -> Bool {
        guard !chars.isEmpty else { return false }
        var c = 0
        for (i, b) in chars.reversed().enumerated() {
            guard let d = digit(b) else { return false }
            c = verhoeffD[c][verhoeffP[i % 8][d]]
        }
        return c == 0
    }

    /// ISO 7064 mod 97-10: the number read with letters as 10 to 35, modulo 97, is 1.
    static func mod97_10(_ chars: ArraySlice<UInt8>) -> Bool {
        guard !chars.isEmpty else { return false }
        var r = 0
        for b in chars {
            guard let v = alnum36(b) else { return false }
            r = v < 10 ? (r * 10 + v) % 97 : (r * 100 + v) % 97
        }
        return r == 1
    }

    /// ISO 7064 mod 11-10, the hybrid system over digits.
    static func mod11_10(_ chars: ArraySlice<UInt8>) -> Bool {
        guard !chars.isEmpty else { return false }
        var check = 5
        for b in chars {
            guard let d = digit(b) else { return false }
            check = (((check == 0 ? 10 : check) * 2) % 11 + d) % 10
        }
        return check == 1
    }

    /// ISO 7064 mod 11-2: digits with X as 10.
    static func mod11_2(_ chars: ArraySlice<UInt8>) -> Bool {
        guard !chars.isEmpty else { return false }
        var check = 0
        for b in chars {
            guard let v = b == UInt8(ascii: "X") ? 10 : digit(b) else { return false }
            check = (2 * check + v) % 11
        }
        return check == 1
    }

    /// ISO 7064 mod 37-2: 0-9, A-Z and `*` as 36.
    static func mod37_2(_ chars: ArraySlice<UInt8>) -> Bool {
        guard !chars.isEmpty else { return false }
        var check = 0
        for b in chars {
            guard let v = b == UInt8(ascii: "*") ? 36 : alnum36(b) else { return false }
            check = (2 * check + v) % 37
        }
        return check == 1
    }

    /// ISO 7064 mod 37-36, the hybrid system over 0-9 and A-Z.
    static func mod37_36(_ chars: ArraySlice<UInt8>) -> Bool {
        guard !chars.isEmpty else { return false }
        var check = 18
        for b in chars {
            guard let v = alnum36(b) else { return false }
            check = (((check == 0 ? 36 : check) * 2) % 37 + v) % 36
        }
        return check == 1
    }

    /// The span's decimal number modulo `modulus`, read digit by digit (any length), or nil for a non-digit.
    static func remainder(_ chars: ArraySlice<UInt8>, _ modulus: Int) -> Int? {
        guard !chars.isEmpty else { return nil }
        var r = 0
        for b in chars {
            guard let d = digit(b) else { return nil }
            r = (r * 10 + d) % modulus
        }
        return r
    }

    /// Whether `year`-`month`-`day` is a day of the Gregorian calendar.
    static func isDate(year: Int, month: Int, day: Int) -> Bool {
        guard month >= 1, month <= 12, day >= 1 else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= days[month - 1]
    }

    /// The sum of each digit of `chars` times its weight, in order (the caller has checked they are digits); a
    /// shorter `weights` ends the sum early.
    static func digitSum<C: Collection>(_ chars: C, weights: [Int]) -> Int where C.Element == UInt8 {
        zip(weights, chars).reduce(0) { $0 + $1.0 * (Int($1.1) - Int(zero)) }
    }

    /// The number spelled by the digits `chars[start..<start+count]` (the caller has checked they are digits).
    static func number(_ chars: [UInt8], _ start: Int, _ count: Int) -> Int {
        var n = 0
        for i in start..<(start + count) { n = n * 10 + Int(chars[i]) - Int(zero) }
        return n
    }
}
