import MaskEngine
import Synchronization

/// A check an identifier's value must pass: a family of check algorithms with its parameters, or a
/// component rule (a part that must or must not take certain values). The generator assigns them
/// per format and verifies each assignment against stdnum's `is_valid`.
///
/// Spans are `(start, end)` in characters of the compact number; an end of -1 means its end.
enum IdentifierCheck: Sendable {
    /// How a weighted sum reads a character.
    enum Values: Sendable {
        /// A decimal digit's value.
        case dec
        /// The character's code minus 48 (`A` is 17: the Brazilian CNPJ's letters).
        case ord48
        /// 0-9, then A = 10 to Z = 35.
        case alnum36
    }

    /// The weighted sum of the characters from `start` (`weights` in order, each product's digits
    /// added when `fold`), plus `add`, modulo `modulus`, indexes `table`: the character expected at
    /// `at` (`?` for none), or, with `at` -1, `0` when the sum includes the check character.
    case weighted(
        start: Int, weights: [Int], modulus: Int, add: Int, values: Values, fold: Bool, table: String, at: Int)
    /// Luhn over the digits of the span.
    case luhn(span: (Int, Int))
    /// Verhoeff's dihedral check over the digits of the span.
    case verhoeff(span: (Int, Int))
    /// ISO 7064 mod 97-10 over the span, letters counted A = 10 to Z = 35.
    case mod97(span: (Int, Int))
    /// ISO 7064 mod 11-10 (hybrid) over the digits of the span.
    case mod11_10(span: (Int, Int))
    /// ISO 7064 mod 11-2 (check character 0-9 or X) over the span.
    case mod11_2(span: (Int, Int))
    /// ISO 7064 mod 37-2 (alphanumeric, check character 0-9, A-Z or `*`).
    case mod37_2(span: (Int, Int))
    /// ISO 7064 mod 37-36 (hybrid, alphanumeric).
    case mod37_36(span: (Int, Int))
    /// The span's number modulo `modulus` indexes `table`: the character expected at `at`.
    case remainder(span: (Int, Int), modulus: Int, table: String, at: Int)
    /// The span is one of `values` (comma-separated).
    case member(span: (Int, Int), values: String, label: String)
    /// The span is none of `values` (comma-separated).
    case notMember(span: (Int, Int), values: String, label: String)
    /// The span is (`issued`) or is not one of `entries`: a `member` or `notMember` check prepared for use
    /// (`prepared()`), its list made a set once.
    case table(span: (Int, Int), entries: Set<String>, issued: Bool, label: String)
    /// The span is not one digit repeated.
    case notAllSame(span: (Int, Int))
    /// The span is not all zeros.
    case notZero(span: (Int, Int))
    /// A rule of one identifier's own, by name (`IdentifierRules`), with its problem in words.
    case named(String, problem: String)
    /// A `named` check prepared for use: its rule looked up once (nil for a name no rule has, which never passes).
    case rule(IdentifierRules.Rule?, problem: String)
    /// The number is another preset's, chosen by its prefix: `parts` lists `PREFIX=preset`, comma-separated, the preset
    /// reading what follows the prefix (with `*` before its name, the whole number). A number with a part's prefix must
    /// be valid in one such part; a prefix no part has passes (another check tells the prefixes).
    case prefixed(String, problem: String)
    /// A `prefixed` check prepared for use: its parts read once. Each part's preset is compiled when a number first
    /// needs it, not when the catalogue is built, since the parts are in the catalogue; `masks` keeps it for the
    /// numbers after (of this compile alone, so threads formatting lines share none).
    case parts([(prefix: [UInt8], whole: Bool, preset: String)], masks: PartMasks, problem: String)

    static let checkDigitMismatch = "check digit does not match"

    /// The check ready to run on many numbers, since a check runs on every line `maskd format` reads: a `member` or
    /// `notMember` list becomes a set (ISIN's countries are hundreds), a named rule is looked up once, and nothing is
    /// shared with another compile of the preset (another thread's).
    func prepared() -> IdentifierCheck {
        switch self {
        case let .member(span, values, label), let .notMember(span, values, label):
            // Split over bytes: a list of thousands (ISIN's countries, bank codes) split as characters cost millions of
            // instructions, paid by every thread that compiles the preset.
            let entries = Set(
                values.utf8.split(separator: UInt8(ascii: ",")).map { String(decoding: $0, as: UTF8.self) })
            if case .member = self { return .table(span: span, entries: entries, issued: true, label: label) }
            return .table(span: span, entries: entries, issued: false, label: label)
        case let .named(name, problem):
            return .rule(IdentifierRules.rule(named: name), problem: problem)
        case let .prefixed(parts, problem):
            let read = parts.split(separator: ",").map { part in
                let (prefix, preset) = (part.prefix { $0 != "=" }, part.drop { $0 != "=" }.dropFirst())
                return (Array(prefix.utf8), preset.first == "*", String(preset.drop { $0 == "*" }))
            }
            return .parts(read, masks: PartMasks(), problem: problem)
        case let .weighted(start, weights, modulus, add, values, fold, table, at):
            // Weights of their own: a check runs on every line of every thread, and each run retains its weights,
            // which threads sharing one array would contend for.
            return .weighted(
                start: start, weights: weights.map { $0 }, modulus: modulus, add: add, values: values, fold: fold,
                table: table, at: at)
        default:
            return self
        }
    }

    /// The `i`th byte of an ASCII table, read in place (the tables are literals, stored contiguously).
    private static func byte(of table: String, at i: Int) -> UInt8 {
        table.utf8.withContiguousStorageIfAvailable { $0[i] } ?? Array(table.utf8)[i]
    }

    /// The problem with `chars` (the compact number's ASCII bytes), or nil when the check passes.
    func problem(_ chars: [UInt8]) -> String? {
        func part(_ span: (Int, Int)) -> ArraySlice<UInt8> {
            let end = span.1 < 0 ? chars.count : min(span.1, chars.count)
            return chars[min(span.0, end)..<end]
        }
        let passes: Bool
        switch self {
        case let .weighted(start, weights, modulus, add, values, fold, table, at):
            guard let sum = CheckDigits.weightedSum(chars, start: start, weights: weights, values: values, fold: fold)
            else { return Self.checkDigitMismatch }
            let expected = Self.byte(of: table, at: CheckDigits.modulo(sum + add, modulus))
            passes =
                at < 0
                ? expected == UInt8(ascii: "0")
                : (expected != UInt8(ascii: "?") && at < chars.count && chars[at] == expected)
        case .luhn(let span): passes = CheckDigits.luhn(part(span))
        case .verhoeff(let span): passes = CheckDigits.verhoeff(part(span))
        case .mod97(let span): passes = CheckDigits.mod97_10(part(span))
        case .mod11_10(let span): passes = CheckDigits.mod11_10(part(span))
        case .mod11_2(let span): passes = CheckDigits.mod11_2(part(span))
        case .mod37_2(let span): passes = CheckDigits.mod37_2(part(span))
        case .mod37_36(let span): passes = CheckDigits.mod37_36(part(span))
        case let .remainder(span, modulus, table, at):
            guard let r = CheckDigits.remainder(part(span), modulus) else { return Self.checkDigitMismatch }
            passes = at < chars.count && chars[at] == Self.byte(of: table, at: r)
            if !passes { return "check letter does not match" }
        case let .member(span, values, label):
            let value = String(decoding: part(span), as: UTF8.self)
            if !values.split(separator: ",").contains(Substring(value)) { return "\(label) \(value) is not issued" }
            return nil
        case let .notMember(span, values, label):
            let value = String(decoding: part(span), as: UTF8.self)
            if values.split(separator: ",").contains(Substring(value)) { return "\(label) \(value) is not issued" }
            return nil
        case let .table(span, entries, issued, label):
            let value = String(decoding: part(span), as: UTF8.self)
            if entries.contains(value) != issued { return "\(label) \(value) is not issued" }
            return nil
        case .notAllSame(let span):
            let p = part(span)
            if let first = p.first, p.allSatisfy({ $0 == first }) { return "one digit repeated is not a valid number" }
            return nil
        case .notZero(let span):
            if part(span).allSatisfy({ $0 == UInt8(ascii: "0") }) { return "zero is not a valid number" }
            return nil
        case let .named(name, problem):
            return IdentifierRules.rule(named: name)?(chars) == true ? nil : problem
        case let .rule(rule, problem):
            return rule?(chars) == true ? nil : problem
        case .prefixed:
            return prepared().problem(chars)
        case let .parts(parts, masks, problem):
            // The first problem of a part whose preset takes the number whole but finds it invalid, else `problem`.
            var matched = false
            var found: String? = nil
            for part in parts where chars.starts(with: part.prefix) {
                matched = true
                let number = String(decoding: part.whole ? chars[...] : chars[part.prefix.count...], as: UTF8.self)
                guard let mask = masks.mask(part.preset) else { continue }
                let r = mask.format(number)
                guard r.complete, r.value == number else { continue }
                if r.valid { return nil }
                found = found ?? r.problems.first
            }
            return matched ? found ?? problem : nil
        }
        return passes ? nil : Self.checkDigitMismatch
    }
}

/// The presets a `parts` check has compiled, by name (nil: the name compiles to no mask).
final class PartMasks: Sendable {
    private let compiled = Mutex<[String: Mask?]>([:])

    func mask(_ preset: String) -> Mask? {
        compiled.withLock { compiled in
            if let known = compiled[preset] { return known }
            let mask = try? Mask.compileUnshared(MaskSpec(.preset(preset)))
            compiled[preset] = mask
            return mask
        }
    }
}
