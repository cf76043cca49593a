/// The rules of identifiers whose validity rests on a table of stdnum's (banks, places, codes) or on a rule of
/// their own. Each takes the compact number's ASCII bytes, its length and per-place alphabet already checked, and
/// has a twin of the same name in `scripts/identifier_formats_tables.py`, verified against stdnum. The tables are
/// generated into `IdentifierTables.swift`.
extension IdentifierRules {
    /// The rules of this file by name.
    static let tablesRules: [String: Rule] = [
        "ru.inn.check": { chars in russianINN(chars) },
        "ru.ogrn.check": { chars in russianOGRN(chars) },
        "do.cedula.check": { chars in
            CheckDigits.luhn(chars[...]) || IdentifierTables.dominicanListedCedulas.contains(chars)
        },
        "id.nik.date": { chars in indonesianNIKDate(chars) },
        "id.npwp.check": { chars in indonesianNPWP(chars) },
        "nz.bankaccount.check": { chars in newZealandAccountCheck(chars) },
        "nz.bankaccount.branch": { chars in
            IdentifierTables.newZealandBranches.contains(value(chars, 0, 2) * 10_000 + value(chars, 2, 4))
        },
        "by.unp.check": { chars in belarusianUNP(chars) },
        "cfi.check": { chars in cfiAttributes(chars) },
        "isil.agency": { chars in
            IdentifierTables.isilAgencies.contains(Array(chars.prefix { $0 != UInt8(ascii: "-") }).map(upper))
        },
        "mac.manufacturer": { chars in macManufacturer(chars) },
        "bitcoin.check": { chars in bitcoinAddress(chars) },
        "eu.at_02.check": { chars in CheckDigits.mod97_10((chars.dropFirst(7) + chars.prefix(4))[...]) },
    ]

    /// An ASCII letter upper-cased; any other byte as it is.
    private static func upper(_ b: UInt8) -> UInt8 {
        b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z") ? b - 32 : b
    }

    /// The weighted sum of digits modulo 11, its last digit (the check digits of the Russian INN).
    private static func innDigit(_ chars: [UInt8], _ weights: [Int]) -> UInt8 {
        UInt8(48 + zip(weights, chars).reduce(0) { $0 + $1.0 * (Int($1.1) - 48) } % 11 % 10)
    }

    /// Russian INN: one check digit for a company's ten digits, two for a person's twelve.
    static func russianINN(_ chars: [UInt8]) -> Bool {
        if chars.count == 10 { return chars[9] == innDigit(chars, [2, 4, 10, 3, 5, 9, 4, 6, 8]) }
        return chars[10] == innDigit(chars, [7, 2, 4, 10, 3, 5, 9, 4, 6, 8])
            && chars[11] == innDigit(chars, [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8])
    }

    /// Russian OGRN: the number before the check digit modulo 11 (its last digit) for thirteen digits, modulo 13
    /// for fifteen, where a rest past 9 has no check digit.
    static func russianOGRN(_ chars: [UInt8]) -> Bool {
        let check = Int(chars[chars.count - 1]) - 48
        let body = chars[0..<(chars.count - 1)]
        if chars.count == 13 { return CheckDigits.remainder(body, 11).map { $0 % 10 == check } ?? false }
        return CheckDigits.remainder(body, 13) == check
    }

    /// Indonesian NIK: DDMMYY from the seventh digit, women adding 40 to the day; 19YY and 20YY differ only in
    /// 29 February 00, a date of 2000.
    static func indonesianNIKDate(_ chars: [UInt8]) -> Bool {
        CheckDigits.isDate(year: 2000 + value(chars, 10, 2), month: value(chars, 8, 2), day: value(chars, 6, 2) % 40)
    }

    /// Indonesian NPWP: fifteen digits with a Luhn check over the first nine; sixteen, a 0 and the older number
    /// (Luhn over ten) or a NIK (a province code and a birth date).
    static func indonesianNPWP(_ chars: [UInt8]) -> Bool {
        if chars.count == 15 { return CheckDigits.luhn(chars[0..<9]) }
        if chars[0] == UInt8(ascii: "0") { return CheckDigits.luhn(chars[0..<10]) }
        return indonesianNIKDate(chars) && IdentifierTables.indonesianProvinces.contains(value(chars, 0, 2))
    }

    /// The check algorithm of each New Zealand bank; a bank not listed has none.
    private static let newZealandAlgorithms: [Int: Character] = [
        1: "A", 2: "A", 3: "A", 4: "A", 6: "A", 8: "D", 9: "E", 10: "A", 11: "A", 12: "A", 13: "A", 14: "A",
        15: "A", 16: "A", 17: "A", 18: "A", 19: "A", 20: "A", 21: "A", 22: "A", 23: "A", 24: "A", 25: "F",
        26: "G", 27: "A", 28: "G", 29: "G", 30: "A", 33: "F", 35: "A", 38: "A",
    ]

    /// Per algorithm: the weights of the sixteen digits, the modulus a product above it is reduced by, and the
    /// modulus of the sum.
    private static let newZealandChecks: [Character: (weights: [Int], reduce: Int, modulus: Int)] = [
        "A": ([0, 0, 6, 3, 7, 9, 0, 10, 5, 8, 4, 2, 1, 0, 0, 0], 11, 11),
        "B": ([0, 0, 0, 0, 0, 0, 0, 10, 5, 8, 4, 2, 1, 0, 0, 0], 11, 11),
        "D": ([0, 0, 0, 0, 0, 0, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0], 11, 11),
        "E": ([0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 4, 3, 2, 0, 0, 1], 9, 11),
        "F": ([0, 0, 0, 0, 0, 0, 1, 7, 3, 1, 7, 3, 1, 0, 0, 0], 10, 10),
        "G": ([0, 0, 0, 0, 0, 0, 1, 3, 7, 1, 3, 7, 1, 3, 7, 1], 9, 10),
    ]

    /// New Zealand bank account: the weighted sum of the bank's algorithm (`B` for an `A` bank's accounts from
    /// 0990000) is a multiple of its modulus.
    static func newZealandAccountCheck(_ chars: [UInt8]) -> Bool {
        guard var algorithm = newZealandAlgorithms[value(chars, 0, 2)] else { return true }
        if algorithm == "A" && value(chars, 6, 7) >= 990_000 { algorithm = "B" }
        guard let check = newZealandChecks[algorithm] else { return false }
        var sum = 0
        for (w, b) in zip(check.weights, chars) {
            let p = w * (Int(b) - 48)
            sum += p > check.reduce ? p % check.reduce : p
        }
        return sum % check.modulus == 0
    }

    private static let unpLetters: [UInt8] = Array("ABCEHKMOPT".utf8)

    /// Belarusian UNP: two digits, or two letters of ABCEHKMOPT (the second counting as its place among them),
    /// then seven digits; weights 29 23 19 17 13 7 5 3 over 0-9 and A-Z as 10 to 35, modulo 11 (10 has no check
    /// digit).
    static func belarusianUNP(_ chars: [UInt8]) -> Bool {
        let firstIsDigit = CheckDigits.digit(chars[0]) != nil
        guard firstIsDigit == (CheckDigits.digit(chars[1]) != nil) else { return false }
        var values = chars.prefix(8).map { CheckDigits.alnum36($0) ?? 0 }
        if !firstIsDigit {
            guard let place = unpLetters.firstIndex(of: chars[1]) else { return false }
            values[1] = place
        }
        let rest = zip([29, 23, 19, 17, 13, 7, 5, 3], values).reduce(0) { $0 + $1.0 * $1.1 } % 11
        return rest < 10 && Int(chars[8]) - 48 == rest
    }

    /// MAC address, as stdnum checks it by default: a universally administered address (bit 2 of the first octet
    /// clear) lies in a block the IEEE registry assigned to an organisation; a locally administered one checks
    /// nothing more than its form.
    static func macManufacturer(_ chars: [UInt8]) -> Bool {
        let digits = chars.filter { $0 != UInt8(ascii: ":") }.map { hexValue($0) }
        guard digits.count == 12, digits[1] & 2 == 0 else { return true }
        let prefix = digits.prefix(6).reduce(0) { $0 * 16 + $1 }
        let block = digits.prefix(9).reduce(0) { $0 * 16 + $1 }
        return IdentifierTables.ouiBlocks.contains(block) || IdentifierTables.ouiAssigned.contains(prefix)
    }

    private static func hexValue(_ b: UInt8) -> Int {
        if let d = CheckDigits.digit(b) { return d }
        return b >= UInt8(ascii: "a") && b <= UInt8(ascii: "f") ? Int(b) - 87 : Int(b) - 55
    }

    private static let base58: [UInt8] = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)
    private static let bech32: [UInt8] = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)

    /// Bitcoin address: Base58 from 1 or 3, 25 bytes ending in the first four of the double SHA-256 of the rest; or
    /// Bech32 from `bc1`, its checksum right and its witness program of 2 to 40 bytes (20 or 32 in version 0).
    static func bitcoinAddress(_ chars: [UInt8]) -> Bool {
        if chars[0] != UInt8(ascii: "b") {
            guard let data = base58Bytes(chars), data.count == 25 else { return false }
            return Array(SHA256.hash(SHA256.hash(Array(data[0..<21]))).prefix(4)) == Array(data[21...])
        }
        guard chars.count >= 11, chars.count <= 90, chars[1] == UInt8(ascii: "c"), chars[2] == UInt8(ascii: "1")
        else { return false }
        var values: [Int] = []
        for b in chars.dropFirst(3) {
            guard let v = bech32.firstIndex(of: b) else { return false }
            values.append(v)
        }
        guard bech32Polymod([3, 3, 0, 2, 3] + values) == 1,  // "bc" expanded: high bits, 0, low bits
            let program = bech32Program(values.dropFirst().dropLast(6)), values[0] <= 16
        else { return false }
        return (2...40).contains(program.count) && (values[0] != 0 || program.count == 20 || program.count == 32)
    }

    /// The bytes a Base58 text stands for: a zero byte per leading `1`, then the number's bytes (at least one); nil
    /// for a character outside Base58.
    private static func base58Bytes(_ chars: [UInt8]) -> [UInt8]? {
        var number: [UInt8] = []
        for b in chars {
            guard var carry = base58.firstIndex(of: b) else { return nil }
            for i in number.indices.reversed() {
                carry += Int(number[i]) * 58
                number[i] = UInt8(carry & 0xff)
                carry >>= 8
            }
            while carry > 0 {
                number.insert(UInt8(carry & 0xff), at: 0)
                carry >>= 8
            }
        }
        let ones = chars.prefix { $0 == UInt8(ascii: "1") }.count
        return [UInt8](repeating: 0, count: ones) + (number.isEmpty ? [0] : number)
    }

    private static let bech32Generator = [0x3b6a_57b2, 0x2650_8e6d, 0x1ea1_19fa, 0x3d42_33dd, 0x2a14_62b3]

    private static func bech32Polymod(_ values: [Int]) -> Int {
        var check = 1
        for v in values {
            let top = check >> 25
            check = (check & 0x1ff_ffff) << 5 ^ v
            for (i, g) in bech32Generator.enumerated() where top >> i & 1 == 1 { check ^= g }
        }
        return check
    }

    /// The bytes of five-bit values, or nil when more than four bits, or bits that are not zero, are left over.
    private static func bech32Program(_ values: ArraySlice<Int>) -> [UInt8]? {
        var acc = 0, bits = 0
        var out: [UInt8] = []
        for v in values {
            acc = (acc << 5 | v) & 0xfff
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(acc >> bits & 0xff))
            }
        }
        return bits >= 5 || acc & ((1 << bits) - 1) != 0 ? nil : out
    }

    /// CFI: a category and group of the standard, and each attribute one its group allows (or X, not applicable).
    static func cfiAttributes(_ chars: [UInt8]) -> Bool {
        guard let allowed = IdentifierTables.cfiAttributes[String(decoding: chars[0..<2], as: UTF8.self)] else {
            return false
        }
        return zip(chars[2...], allowed).allSatisfy { $1.contains($0) }
    }
}

/// The tables of `IdentifierCatalog`'s generated strings (`IdentifierTables.swift`) that rules read, made into
/// sets once, when a rule first needs them.
enum IdentifierTables {
    static let dominicanListedCedulas: Set<[UInt8]> = Set(
        IdentifierCatalog.dominicanListedCedulas.split(separator: " ").map { Array($0.utf8) })

    static let indonesianProvinces: Set<Int> = Set(
        IdentifierCatalog.indonesianProvinces.split(separator: " ").compactMap { Int($0) })

    /// Bank times 10,000 plus branch, for every branch of every bank.
    static let newZealandBranches: Set<Int> = {
        var branches: Set<Int> = []
        for entry in TableText.pieces(TableText.bytes(IdentifierCatalog.newZealandBranches), " ") {
            let parts = TableText.pieces(entry, ":")
            guard parts.count == 2, let bank = TableText.number(parts[0]) else { continue }
            for range in TableText.pieces(parts[1], ",") {
                let ends = TableText.pieces(range, "-").compactMap { TableText.number($0) }
                guard let low = ends.first, let high = ends.last else { continue }
                for branch in low...high { branches.insert(bank * 10_000 + branch) }
            }
        }
        return branches
    }()

    static let isilAgencies: Set<[UInt8]> = Set(
        IdentifierCatalog.isilAgencies.split(separator: " ").map { Array($0.utf8) })

    /// The 24-bit prefixes assigned to an organisation, from their differences in base 36 (read byte by byte: the
    /// table is long, and read when a `mac` is first checked).
    static let ouiAssigned: SortedInts = {
        var prefixes: [Int] = []
        var last = 0, delta = 0
        for b in IdentifierCatalog.ouiAssigned.utf8 {
            if b == UInt8(ascii: " ") {
                last += delta
                prefixes.append(last)
                delta = 0
            } else {
                delta = delta * 36 + (b >= UInt8(ascii: "a") ? Int(b) - 87 : Int(b) - 48)
            }
        }
        prefixes.append(last + delta)
        return SortedInts(prefixes)
    }()

    /// The smaller blocks of the divided prefixes, as ranges of the address's first nine hexadecimal digits: a block
    /// of one digit after the prefix stands for the 256 values of the two digits after it.
    static let ouiBlocks: SortedRanges = {
        var ranges: [ClosedRange<Int>] = []
        for entry in TableText.pieces(TableText.bytes(IdentifierCatalog.ouiDivided), " ") {
            let parts = TableText.pieces(entry, ":")
            let head = TableText.pieces(parts[0], ".")
            guard parts.count == 2, head.count == 2, let prefix = TableText.number(head[0], radix: 16),
                let length = TableText.number(head[1])
            else { continue }
            let scale = 1 << (4 * (3 - length))
            for range in TableText.pieces(parts[1], ",") {
                let ends = TableText.pieces(range, "-").compactMap { TableText.number($0, radix: 16) }
                guard let low = ends.first, let high = ends.last else { continue }
                ranges.append((prefix << 12 | low * scale)...(prefix << 12 | (high + 1) * scale - 1))
            }
        }
        return SortedRanges(ranges)
    }()

    /// Category and group to the letters each of the four attributes may take.
    static let cfiAttributes: [String: [Set<UInt8>]] = {
        var table: [String: [Set<UInt8>]] = [:]
        for entry in IdentifierCatalog.cfiAttributes.split(separator: " ") {
            let parts = entry.split(separator: ":")
            guard parts.count == 2 else { continue }
            table[String(parts[0])] = parts[1].split(separator: "/", omittingEmptySubsequences: false).map {
                Set($0.utf8)
            }
        }
        return table
    }()
}

/// Numbers in order, for a membership test by binary search.
struct SortedInts {
    private let values: [Int]

    init(_ values: [Int]) { self.values = values.sorted() }

    func contains(_ value: Int) -> Bool {
        var low = 0, high = values.count
        while low < high {
            let mid = (low + high) / 2
            if values[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low < values.count && values[low] == value
    }
}

/// Ranges that do not overlap, in order, for a membership test by binary search.
struct SortedRanges {
    private let ranges: [ClosedRange<Int>]

    init(_ ranges: [ClosedRange<Int>]) { self.ranges = ranges.sorted { $0.lowerBound < $1.lowerBound } }

    func contains(_ value: Int) -> Bool {
        var low = 0, high = ranges.count
        while low < high {
            let mid = (low + high) / 2
            if ranges[mid].upperBound < value { low = mid + 1 } else { high = mid }
        }
        return low < ranges.count && ranges[low].contains(value)
    }
}
