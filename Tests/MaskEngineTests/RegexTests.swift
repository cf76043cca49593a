import XCTest
@testable import MaskEngine

/// Tests of `LinearRegex`: matching, viable prefixes, pathological patterns and refused features.
final class RegexTests: XCTestCase {
    /// Whole-value matching on a table of patterns and inputs.
    func testMatchTable() throws {
        let table: [(pattern: String, input: String, matches: Bool)] = [
            ("", "", true),
            ("", "a", false),
            ("abc", "abc", true),
            ("abc", "ab", false),
            ("abc", "abcd", false),
            ("a.c", "a-c", true),
            ("a.c", "a\nc", false),
            ("\\d+", "0123456789", true),
            ("\\d+", "12a", false),
            ("\\d", "١", false),
            ("\\D", "x", true),
            ("\\D", "5", false),
            ("\\w+", "ab_C9", true),
            ("\\w", "-", false),
            ("\\W", "-", true),
            ("\\s", " ", true),
            ("\\s", "\u{3000}", true),
            ("\\S", " ", false),
            ("a\\.b", "a.b", true),
            ("a\\.b", "axb", false),
            ("\\\\", "\\", true),
            ("\\-\\[\\]\\{\\}\\(\\)\\*\\+\\?\\|\\^\\$\\/", "-[]{}()*+?|^$/", true),
            ("[a-z0-9_]+", "abc_123", true),
            ("[a-z0-9_]+", "abC", false),
            ("[^a-z]", "A", true),
            ("[^a-z]", "q", false),
            ("[\\d.]+", "3.14", true),
            ("[\\d.]+", "3,14", false),
            ("[^\\d]", "7", false),
            ("[a-]", "-", true),
            ("[-a]", "-", true),
            ("[\\]]", "]", true),
            ("[^\\s\\S]", "a", false),
            ("a|b|c", "b", true),
            ("a|b|c", "d", false),
            ("ab|cd", "cd", true),
            ("ab|cd", "ad", false),
            ("(ab)+", "ababab", true),
            ("(ab)+", "", false),
            ("(?:ab)*", "", true),
            ("(?:ab)*", "aba", false),
            ("colou?r", "color", true),
            ("colou?r", "colour", true),
            ("colou?r", "colouur", false),
            ("a{3}", "aaa", true),
            ("a{3}", "aa", false),
            ("a{3}", "aaaa", false),
            ("a{2,}", "aaaaaaa", true),
            ("a{2,}", "a", false),
            ("a{2,4}", "aaaa", true),
            ("a{2,4}", "aaaaa", false),
            ("a{0}b", "b", true),
            ("(a|bc){2}", "bca", true),
            ("x*?y", "xxy", true),
            ("x{1,2}?", "xx", true),
            ("^abc$", "abc", true),
            ("^a$|^b$", "b", true),
            ("1[3-9]\\d{9}", "13800138000", true),
            ("1[3-9]\\d{9}", "12800138000", false),
            ("[A-Z]{2}\\d{2}[A-Z0-9]{1,30}", "DE89370400440532013000", true),
            ("\\x41\\u0042\\u{43}", "ABC", true),
            ("é", "e\u{301}", false),
            ("e\u{301}", "e\u{301}", true),
            ("e.", "e\u{301}", true),
            ("(a*)*", "aaa", true),
            ("(a?){5}b", "aab", true),
            ("(|a)+", "aa", true),
        ]
        for row in table {
            let regex = try LinearRegex(row.pattern)
            XCTAssertEqual(regex.matches(row.input), row.matches, "\(row.pattern) on \(row.input.debugDescription)")
        }
    }

    /// `^(a+)+$` on `aaaa…a!` must simply finish (Swift `Regex` takes seconds at 18 characters).
    func testPathologicalPatternsFinish() throws {
        let regex = try LinearRegex("^(a+)+$")
        for count in [30, 1_000] {
            let input = String(repeating: "a", count: count) + "!"
            XCTAssertFalse(regex.matches(input))
            XCTAssertFalse(regex.isViablePrefix(input))
            XCTAssertTrue(regex.matches(String(repeating: "a", count: count)))
        }
        let nested = try LinearRegex("((a|aa)*)*(b|a*)*c")
        XCTAssertFalse(nested.matches(String(repeating: "a", count: 1_000)))
        XCTAssertTrue(nested.isViablePrefix(String(repeating: "a", count: 1_000)))
    }

    /// `isViablePrefix`: some continuation matches.
    func testViablePrefix() throws {
        let phone = try LinearRegex("1[3-9]\\d{9}")
        XCTAssertTrue(phone.isViablePrefix(""))
        XCTAssertTrue(phone.isViablePrefix("1"))
        XCTAssertTrue(phone.isViablePrefix("13"))
        XCTAssertFalse(phone.isViablePrefix("12"))
        XCTAssertTrue(phone.isViablePrefix("1380013800"))
        XCTAssertFalse(phone.matches("1380013800"))
        XCTAssertTrue(phone.matches("13800138000"))
        XCTAssertTrue(phone.isViablePrefix("13800138000"))
        XCTAssertFalse(phone.isViablePrefix("138001380001"))

        // A state that is alive but can never reach acceptance does not make a prefix viable.
        let dead = try LinearRegex("a[^\\s\\S]|b")
        XCTAssertFalse(dead.isViablePrefix("a"))
        XCTAssertTrue(dead.isViablePrefix("b"))
        XCTAssertTrue(dead.isViablePrefix(""))

        let date = try LinearRegex("\\d{4}-(0[1-9]|1[0-2])")
        XCTAssertTrue(date.isViablePrefix("2024-1"))
        XCTAssertFalse(date.isViablePrefix("2024-13"))
        XCTAssertFalse(date.isViablePrefix("2024-00"))
    }

    /// Counted repetition is expanded, and a program beyond `maxStates` is refused.
    func testSizeCap() throws {
        let big = try LinearRegex("\\d{1000}")
        XCTAssertGreaterThanOrEqual(big.stateCount, 1000)
        XCTAssertTrue(big.matches(String(repeating: "7", count: 1000)))
        XCTAssertThrowsError(try LinearRegex("(\\d{100}){200}")) { error in
            let error = error as! MaskError
            XCTAssertTrue(error.message.hasPrefix("regex too large"), error.message)
            XCTAssertEqual(error.offset, 9)
        }
        // Repeating an empty group adds no states but is bounded all the same.
        XCTAssertThrowsError(try LinearRegex("((){1000}){1000}"))
        XCTAssertThrowsError(try LinearRegex("a{1001}")) { error in
            XCTAssertEqual((error as! MaskError).offset, 1)
        }
        XCTAssertThrowsError(try LinearRegex(String(repeating: "(", count: 300) + String(repeating: ")", count: 300)))
    }

    /// Every unsupported feature and malformed pattern is refused with a message and an offset.
    func testRefusedFeatures() {
        let table: [(pattern: String, message: String, offset: Int)] = [
            ("(a)\\1", "unsupported regex feature: backreference", 3),
            ("(?<n>a)\\k<n>", "unsupported regex feature: named group", 0),
            ("a\\k<n>", "unsupported regex feature: backreference", 1),
            ("a(?=b)", "unsupported regex feature: lookahead", 1),
            ("a(?!b)", "unsupported regex feature: negative lookahead", 1),
            ("(?<=a)b", "unsupported regex feature: lookbehind", 0),
            ("(?<!a)b", "unsupported regex feature: negative lookbehind", 0),
            ("(?>a)", "unsupported regex feature: atomic group", 0),
            ("(?i)a", "unsupported regex feature: inline options", 0),
            ("(?#c)a", "unsupported regex feature: comment group", 0),
            ("a*+", "unsupported regex feature: possessive quantifier", 2),
            ("a\\b", "unsupported regex feature: word boundary", 1),
            ("a\\B", "unsupported regex feature: word boundary", 1),
            ("\\Aa", "unsupported regex feature: anchor", 0),
            ("a\\z", "unsupported regex feature: anchor", 1),
            ("\\p{L}", "unsupported regex feature: Unicode property", 0),
            ("\\cA", "unsupported regex feature: control escape", 0),
            ("\\Qa\\E", "unsupported regex feature: quoting", 0),
            ("a\\Kb", "unsupported regex feature: match reset", 1),
            ("\\01", "unsupported regex feature: octal escape", 0),
            ("[[:alpha:]]", "unsupported regex feature: nested class or POSIX class", 1),
            ("[a&&b]", "unsupported regex feature: class intersection", 2),
            ("[\\b]", "unsupported regex feature: '\\b' in a character class", 1),
            ("a^b", "unsupported regex feature: '^'", 1),
            ("(^a)", "unsupported regex feature: '^'", 1),
            ("a$b", "unsupported regex feature: '$'", 1),
            ("(a$)", "unsupported regex feature: '$'", 2),
            ("\\q", "unknown escape '\\q'", 0),
            ("ab\\", "unfinished escape", 2),
            ("a)", "unbalanced ')'", 1),
            ("(a", "unbalanced '('", 0),
            ("x(a(b)", "unbalanced '('", 1),
            // A `$` last in the pattern inside a group that is never closed: the group is what is wrong.
            ("^BAD=(.*$", "unbalanced '('", 5),
            ("(a|b$", "unbalanced '('", 0),
            ("[a-z", "unbalanced '['", 0),
            ("[]", "empty character class", 0),
            ("*a", "nothing to repeat", 0),
            ("a|+", "nothing to repeat", 2),
            ("(?:)?", "", -1),
            ("a**", "nothing to repeat", 2),
            ("a{2}{3}", "nothing to repeat", 4),
            ("{2}", "nothing to repeat", 0),
            ("a{", "'{' must start a counted repetition", 1),
            ("a{x}", "'{' must start a counted repetition", 1),
            ("a{,3}", "'{' must start a counted repetition", 1),
            ("a{3,2}", "out of order", 1),
            ("[z-a]", "range out of order", 1),
            ("[\\d-z]", "a class escape cannot start a range", 1),
            ("[a-\\d]", "a class escape cannot end a range", 3),
            ("\\xZZ", "malformed escape", 0),
            ("\\u{110000}", "escape names no Unicode scalar", 0),
            ("é(", "unbalanced '('", 1),
            ("e\u{301}(", "unbalanced '('", 1),
        ]
        for row in table {
            if row.offset < 0 {
                XCTAssertNoThrow(try LinearRegex(row.pattern), row.pattern)
                continue
            }
            XCTAssertThrowsError(try LinearRegex(row.pattern), row.pattern) { error in
                guard let error = error as? MaskError else { return XCTFail("\(row.pattern): not a MaskError") }
                XCTAssertTrue(error.message.contains(row.message), "\(row.pattern): \(error.message)")
                XCTAssertEqual(error.offset, row.offset, "\(row.pattern): \(error.message)")
            }
        }
    }
}
