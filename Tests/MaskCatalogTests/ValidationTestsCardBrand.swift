import XCTest
@testable import MaskCatalog
@testable import MaskEngine

/// Card brand detection digit by digit, and the per-brand layout facts the `card` preset uses.
final class ValidationTestsCardBrand: XCTestCase {
    /// Types `number` one digit at a time and compares `detect` after each digit with
    /// `expected`, one entry per digit (nil while the prefix decides nothing).
    func assertTyping(_ number: String, _ expected: [CardBrand?], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(number.count, expected.count, "one expectation per digit", file: file, line: line)
        var typed = ""
        for (digit, brand) in zip(number, expected) {
            typed.append(digit)
            XCTAssertEqual(CardBrand.detect(typed), brand, "after \(typed)", file: file, line: line)
        }
    }

    /// The four-digit table `detect` answers from decides as checking every range does: for every four-digit
    /// prefix, for six-digit ones spread over all of them, and at and beside every range's bounds.
    func testFastPath_agreesWithEveryRange() {
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        // Every prefix of one to four digits, then six-digit ones spread over the range.
        var prefixes: [String] = []
        for length in 1...4 {
            prefixes += (0..<[1, 10, 100, 1_000, 10_000][length]).map { padded($0, length) }
        }
        prefixes += stride(from: 0, to: 1_000_000, by: 37).map { padded($0, 6) }
        for range in CardBrand.ranges {
            for value in [range.low - 1, range.low, range.high, range.high + 1]
            where value >= 0 && String(value).count <= range.digits {
                prefixes.append(padded(value, range.digits))
            }
        }
        for prefix in prefixes {
            let digits = Array(prefix.utf8)
            XCTAssertEqual(CardBrand.detect(digits: digits), CardBrand.detectByRanges(digits: digits), prefix)
        }
    }

    func testNothingTypedDecidesNothing() {
        XCTAssertNil(CardBrand.detect(""))
        for undecided in ["2", "3", "5", "6", "7", "8", "0", "22", "306", "350", "28", "640", "66", "80", "98"] {
            XCTAssertNil(CardBrand.detect(undecided), undecided)
        }
    }

    func testVisa() { assertTyping("4111", [.visa, .visa, .visa, .visa]) }

    func testMastercard() {
        assertTyping("5105", [nil, .mastercard, .mastercard, .mastercard])
        assertTyping("5555", [nil, .mastercard, .mastercard, .mastercard])
        assertTyping("2221", [nil, nil, .mastercard, .mastercard])
        assertTyping("2720", [nil, .mastercard, .mastercard, .mastercard])
        assertTyping("2721", [nil, .mastercard, .mastercard, nil])
        assertTyping("2220", [nil, nil, .mastercard, nil])
    }

    func testAmex() {
        assertTyping("378282", [nil, .amex, .amex, .amex, .amex, .amex])
        assertTyping("3412", [nil, .amex, .amex, .amex])
    }

    func testDiners() {
        assertTyping("3056", [nil, .diners, .diners, .diners])
        assertTyping("3095", [nil, .diners, .diners, .diners])
        assertTyping("3096", [nil, .diners, .diners, nil])
        assertTyping("3622", [nil, .diners, .diners, .diners])
        assertTyping("3852", [nil, .diners, .diners, .diners])
        assertTyping("3912", [nil, .diners, .diners, .diners])
    }

    func testDiscover() {
        // 60 is RuPay's; Discover's 6011 inside it is longer.
        assertTyping("6011", [nil, .rupay, .rupay, .discover])
        assertTyping("6012", [nil, .rupay, .rupay, .rupay])
        assertTyping("6445", [nil, .discover, .discover, .discover])
        assertTyping("6500", [nil, .discover, .discover, .discover])
    }

    func testJCB() {
        assertTyping("3530", [nil, .jcb, .jcb, .jcb])
        assertTyping("3589", [nil, .jcb, .jcb, .jcb])
        assertTyping("3527", [nil, .jcb, .jcb, nil])
    }

    func testUnionPayIncludingTheDiscoverCoBrandRange() {
        assertTyping("6200", [nil, .unionpay, .unionpay, .unionpay])
        assertTyping("622126", [nil, .unionpay, .unionpay, .unionpay, .unionpay, .unionpay])
        assertTyping("622925", [nil, .unionpay, .unionpay, .unionpay, .unionpay, .unionpay])
        assertTyping("8171", [nil, .unionpay, .unionpay, .unionpay])
    }

    func testMaestro() {
        assertTyping("5018", [nil, .maestro, .maestro, .maestro])
        assertTyping("5893", [nil, .maestro, .maestro, .maestro])
        assertTyping("6304", [nil, nil, .maestro, .maestro])
        assertTyping("6759", [nil, .maestro, .maestro, .maestro])
        assertTyping("676770", [nil, .maestro, .maestro, .maestro, .maestro, .maestro])
        assertTyping("676775", [nil, .maestro, .maestro, .maestro, .maestro, nil])
        assertTyping("6760", [nil, .maestro, .maestro, nil])
    }

    func testMir() {
        assertTyping("2200", [nil, nil, .mir, .mir])
        assertTyping("2204", [nil, nil, .mir, .mir])
        assertTyping("2205", [nil, nil, .mir, nil])
    }

    /// The longest prefix wins: a brand held by a short prefix gives way once a longer range of another is typed.
    func testTheLongestPrefixWins() {
        assertTyping("122000", [.uatp, .uatp, .uatp, .uatp, .uatp, .uatp])
        assertTyping("1800", [.uatp, .uatp, .uatp, .jcb15])
        assertTyping("2131", [nil, .jcb15, .jcb15, .jcb15])
        assertTyping("5019", [nil, .maestro, .maestro, .dankort])
        assertTyping("5082", [nil, .maestro, .rupay, .rupay])
        assertTyping("6376", [nil, nil, .instapayment, .instapayment])
        assertTyping("6390", [nil, nil, .instapayment, .instapayment])
        assertTyping("637095", [nil, nil, .instapayment, .instapayment, .instapayment, .hipercard])
        assertTyping("401178", [.visa, .visa, .visa, .visa, .visa, .elo])
        assertTyping("401177", [.visa, .visa, .visa, .visa, .visa, .visa])
        assertTyping("4571", [.visa, .visa, .visa, .visa])
        assertTyping("650031", [nil, .discover, .discover, .discover, .discover, .elo])
        assertTyping("650002", [nil, .discover, .discover, .discover, .discover, .verve])
        assertTyping("650028", [nil, .discover, .discover, .discover, .discover, .discover])
        assertTyping("606282", [nil, .rupay, .rupay, .rupay, .rupay, .hipercard])
        assertTyping("384100", [nil, .diners, .diners, .diners, .diners, .hipercard])
        assertTyping("509000", [nil, .maestro, .maestro, .maestro, .maestro, .elo])
        assertTyping("506099", [nil, .maestro, .maestro, .maestro, .maestro, .verve])
        assertTyping("507865", [nil, .maestro, .maestro, .maestro, .maestro, .verve])
        assertTyping("8200", [nil, .rupay, .rupay, .rupay])
        assertTyping("9792", [.troy, .troy, .troy, .troy])
        assertTyping("9793", [.troy, .troy, .troy, nil])
        XCTAssertEqual(CardBrand.jcb15.name, "jcb")
        XCTAssertEqual(CardBrand.elo.name, "elo")
    }

    func testDigitsBeyondThePrefixAndSeparatorsDoNotMatter() {
        XCTAssertEqual(CardBrand.detect("4111111111111111"), .visa)
        XCTAssertEqual(CardBrand.detect("3782 822463 10005"), .amex)
        XCTAssertEqual(CardBrand.detect("2200 0000 0000 0004"), .mir)
        XCTAssertEqual(CardBrand.detect("6759649826438453"[...]), .maestro)
    }

    func testPublishedTestNumbersGetTheirBrand() {
        let numbers: [(String, CardBrand)] = [
            ("4111111111111111", .visa), ("4222222222222", .visa), ("5555555555554444", .mastercard),
            ("2223003122003222", .mastercard), ("378282246310005", .amex), ("371449635398431", .amex),
            ("30569309025904", .diners), ("38520000023237", .diners), ("6011111111111117", .discover),
            ("3530111333300000", .jcb), ("3566002020360505", .jcb), ("6200000000000005", .unionpay),
            ("2200000000000004", .mir), ("6759649826438453", .maestro), ("122000000000003", .uatp),
            ("5019717010103742", .dankort), ("6376000000000003", .instapayment), ("213100000000001", .jcb15),
            ("180000000000002", .jcb15), ("6070000000000002", .rupay), ("5082000000000000", .rupay),
            ("4011780000000006", .elo), ("6500310000000005", .elo), ("9792000000000003", .troy),
            ("6062820000000003", .hipercard), ("3841000000000000004", .hipercard), ("6370950000000005", .hipercard),
            ("5060990000000008", .verve), ("507865000000000008", .verve), ("6500020000000000009", .verve),
            ("4571000000000001", .visa),
        ]
        for (number, brand) in numbers {
            XCTAssertEqual(CardBrand.detect(number), brand, number)
            XCTAssertTrue(brand.lengths.contains(number.count), number)
            XCTAssertNil(Validator.luhn.check(number), number)
        }
    }

    func testRangesOfOneLengthAreDisjoint() {
        // The longest prefix decides, so only ranges of one length could tie: none of two brands meet.
        for a in CardBrand.ranges {
            for b in CardBrand.ranges where a.brand != b.brand && a.digits == b.digits {
                XCTAssertTrue(a.high < b.low || b.high < a.low, "\(a) \(b)")
            }
        }
    }

    /// Every six-digit prefix gets from `detect` (its four-digit table first) what a plain reading of the
    /// table says: the brand of the longest range holding it.
    func testEverySixDigitPrefixGetsTheLongestRangesBrand() {
        for value in stride(from: 100_000, to: 1_000_000, by: 7) {
            let held = CardBrand.ranges.filter {
                value / pow10(6 - $0.digits) >= $0.low && value / pow10(6 - $0.digits) <= $0.high
            }
            .max { $0.digits < $1.digits }
            XCTAssertEqual(CardBrand.detect(String(value)), held?.brand, String(value))
        }
    }

    func pow10(_ n: Int) -> Int { (0..<n).reduce(1) { acc, _ in acc * 10 } }

    func testLayouts() {
        XCTAssertEqual(CardBrand.amex.groups, [4, 6, 5])
        XCTAssertEqual(CardBrand.diners.groups, [4, 6, 4])
        XCTAssertEqual(CardBrand.jcb15.groups, [4, 6, 5])
        XCTAssertEqual(CardBrand.uatp.groups, [4, 5, 6])
        for brand in CardBrand.allCases where ![.amex, .diners, .jcb15, .uatp].contains(brand) {
            XCTAssertEqual(brand.groups, [4, 4, 4, 4, 3], brand.rawValue)
        }
        XCTAssertEqual(CardBrand.uatp.lengths, [15])
        XCTAssertEqual(CardBrand.jcb15.lengths, [15])
        XCTAssertEqual(CardBrand.verve.lengths, [16, 18, 19])
        XCTAssertEqual(CardBrand.hipercard.lengths, [16, 19])
        XCTAssertEqual(CardBrand.defaultGroups, [4, 4, 4, 4, 3])
        XCTAssertEqual(CardBrand.defaultMaxLength, 19)
        XCTAssertEqual(CardBrand.visa.lengths, [13, 16, 19])
        XCTAssertEqual(CardBrand.mastercard.lengths, [16])
        XCTAssertEqual(CardBrand.amex.lengths, [15])
        XCTAssertEqual(CardBrand.diners.lengths, Array(14...19))
        XCTAssertEqual(CardBrand.maestro.lengths, Array(12...19))
        for brand in [CardBrand.discover, .jcb, .unionpay, .mir] {
            XCTAssertEqual(brand.lengths, Array(16...19), brand.rawValue)
        }
        for brand in CardBrand.allCases {
            XCTAssertEqual(brand.maxLength, brand.lengths.max(), brand.rawValue)
            XCTAssertEqual(brand.minLength, brand.lengths.min(), brand.rawValue)
            XCTAssertLessThanOrEqual(brand.maxLength, CardBrand.defaultMaxLength, brand.rawValue)
            // The groups cover at least the shortest number; the mask caps them at maxLength.
            XCTAssertGreaterThanOrEqual(brand.groups.reduce(0, +), brand.minLength, brand.rawValue)
        }
        XCTAssertEqual(
            CardBrand.allCases.map(\.displayName),
            [
                "Visa", "Mastercard", "American Express", "Diners Club", "Discover", "JCB",
                "UnionPay", "Maestro", "Mir", "UATP", "Dankort", "InstaPayment", "JCB", "RuPay", "Elo", "Troy",
                "Hipercard", "Verve",
            ])
        XCTAssertEqual(
            CardBrand.allCases.map(\.name),
            [
                "visa", "mastercard", "amex", "diners", "discover", "jcb", "unionpay", "maestro", "mir", "uatp",
                "dankort", "instapayment", "jcb", "rupay", "elo", "troy", "hipercard", "verve",
            ])
    }
}
