import XCTest
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

    func testNothingTypedDecidesNothing() {
        XCTAssertNil(CardBrand.detect(""))
        for undecided in ["1", "2", "3", "5", "6", "7", "9", "0", "22", "306", "350", "28", "640", "66", "80"] {
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
        assertTyping("6011", [nil, .discover, .discover, .discover])
        assertTyping("6012", [nil, .discover, .discover, nil])
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
        assertTyping("8171", [.unionpay, .unionpay, .unionpay, .unionpay])
    }

    func testMaestro() {
        assertTyping("5018", [nil, .maestro, .maestro, .maestro])
        assertTyping("5893", [nil, .maestro, .maestro, .maestro])
        assertTyping("6304", [nil, .maestro, .maestro, .maestro])
        assertTyping("6390", [nil, .maestro, .maestro, .maestro])
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
            ("2200000000000004", .mir), ("6759649826438453", .maestro),
        ]
        for (number, brand) in numbers {
            XCTAssertEqual(CardBrand.detect(number), brand, number)
            XCTAssertTrue(brand.lengths.contains(number.count), number)
            XCTAssertNil(Validator.luhn.check(number), number)
        }
    }

    func testRangesAreDisjoint() {
        // Detection relies on no number belonging to two brands. Two intervals of six-digit
        // prefixes meet exactly when one holds the other's first element.
        for a in CardBrand.ranges {
            for b in CardBrand.ranges where a.brand != b.brand {
                XCTAssertFalse(b.admits(a.low * pow10(6 - a.digits), count: 6), "\(a) \(b)")
            }
        }
    }

    func pow10(_ n: Int) -> Int { (0..<n).reduce(1) { acc, _ in acc * 10 } }

    func testLayouts() {
        XCTAssertEqual(CardBrand.amex.groups, [4, 6, 5])
        XCTAssertEqual(CardBrand.diners.groups, [4, 6, 4])
        for brand in CardBrand.allCases where brand != .amex && brand != .diners {
            XCTAssertEqual(brand.groups, [4, 4, 4, 4, 3], brand.rawValue)
        }
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
        XCTAssertEqual(CardBrand.allCases.map(\.displayName),
                       ["Visa", "Mastercard", "American Express", "Diners Club", "Discover", "JCB",
                        "UnionPay", "Maestro", "Mir"])
        XCTAssertEqual(CardBrand.allCases.map(\.rawValue),
                       ["visa", "mastercard", "amex", "diners", "discover", "jcb", "unionpay", "maestro", "mir"])
    }
}
