import FieldTyping
import XCTest
@testable import MaskEngine

/// Published valid examples for every validator, and the guarantee each check-digit scheme
/// makes: every single substituted character is caught.
final class ValidationTests: XCTestCase {
    let digits: [Character] = Array("0123456789")
    let letters: [Character] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")

    /// Every value that differs from `value` in exactly one position, the replacement taken
    /// from `alphabet(original)`; the guarantee only holds within those alphabets.
    func substitutions(of value: String, alphabet: (Character) -> [Character]) -> [String] {
        let chars = Array(value)
        var result: [String] = []
        for i in chars.indices {
            for c in alphabet(chars[i]) where c != chars[i] {
                var changed = chars
                changed[i] = c
                result.append(String(changed))
            }
        }
        return result
    }

    func assertPasses(_ validator: Validator, _ values: [String], file: StaticString = #filePath, line: UInt = #line) {
        for value in values {
            XCTAssertNil(validator.check(value), "\(validator) \(value)", file: file, line: line)
        }
    }

    func assertProblem(
        _ validator: Validator, _ value: String, _ problem: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(validator.check(value), problem, "\(validator) \(value)", file: file, line: line)
    }

    func testRawValuesAreTheValidateOptionNames() {
        XCTAssertEqual(Validator.allCases.map(\.rawValue), ["luhn", "id.cn", "iban", "date", "time", "expiry"])
        XCTAssertEqual(Validator(rawValue: "id.cn"), .idCN)
    }

    // MARK: Luhn

    /// Test numbers the card networks and payment processors publish, plus the textbook one.
    let luhnValid = [
        "79927398713",
        "4111111111111111", "4012888888881881", "4222222222222",
        "5555555555554444", "5105105105105100", "2223003122003222",
        "378282246310005", "371449635398431",
        "30569309025904", "38520000023237", "36227206271667",
        "6011111111111117", "6011000990139424",
        "3530111333300000", "3566002020360505",
        "6200000000000005", "2200000000000004", "6759649826438453",
    ]

    func testLuhnPublishedNumbersPass() {
        assertPasses(.luhn, luhnValid)
    }

    func testLuhnCatchesEverySingleDigitSubstitution() {
        for valid in luhnValid {
            for changed in substitutions(of: valid, alphabet: { _ in digits }) {
                XCTAssertEqual(Validator.luhn.check(changed), "check digit does not match", changed)
            }
        }
    }

    func testLuhnFormatProblems() {
        assertProblem(.luhn, "", "no digits to check")
        assertProblem(.luhn, "4111 1111", "' ' is not a digit")
        assertProblem(.luhn, "79927398710", "check digit does not match")
    }

    // MARK: id.cn

    /// An example of GB 11643-1999 and two widely quoted sample numbers.
    let idValid = ["11010519491231002X", "110101199003074477", "11010119900307803X"]

    func testChineseIDPublishedNumbersPass() {
        assertPasses(.idCN, idValid)
        // The standard's other example was born in 1880: its check character is right, but
        // maskd asks for a birth year of 1900 or later, so it is refused for that alone.
        let old = Array("440524188001010014")
        XCTAssertEqual(Checks.idCheckCharacter(old), old[17])
        assertProblem(.idCN, String(old), "birth year must be 1900 or later")
        XCTAssertNil(Validator.idCN.check("11010519491231002x"), "lowercase x is the same check character")
    }

    func testChineseIDCatchesEverySingleSubstitution() {
        let checkAlphabet = digits + ["X"]
        for valid in idValid {
            let chars = Array(valid)
            for i in chars.indices {
                for c in (i == 17 ? checkAlphabet : digits) where c != chars[i] {
                    var changed = chars
                    changed[i] = c
                    XCTAssertNotNil(Validator.idCN.check(String(changed)), String(changed))
                }
            }
        }
    }

    func testChineseIDProblems() {
        assertProblem(.idCN, "11010519491231002", "ID number has 18 characters, not 17")
        assertProblem(.idCN, "1101051949123100A2", "'A' is not a digit")
        assertProblem(.idCN, "11010519491231002Y", "the last character must be a digit or X")
        assertProblem(.idCN, "99010519491231002X", "no province has the code 99")
        assertProblem(.idCN, "110105189912310028", "birth year must be 1900 or later")
        assertProblem(.idCN, "110105190002290020", "birth date: February has 28 days in 1900 at most")
        assertProblem(.idCN, "110105194913310020", "birth date: month must be 01 to 12")
        assertProblem(.idCN, "110105194912310021", "check character does not match")
    }

    func testChineseIDRegionCodes() {
        let provinces = [
            11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46,
            50, 51, 52, 53, 54, 61, 62, 63, 64, 65, 71, 81, 82, 91,
        ]
        for code in 0...99 {
            XCTAssertEqual(Checks.isProvince(code), provinces.contains(code), "\(code)")
        }
    }

    // MARK: IBAN

    /// The registry's own examples, one per country, across lengths 15 to 33 and with letters
    /// inside the BBAN.
    let ibanValid = [
        "GB82WEST12345698765432", "GB29NWBK60161331926819", "DE89370400440532013000",
        "FR1420041010050500013M02606", "NL91ABNA0417164300", "CH9300762011623852957",
        "SA0380000000608010167519", "BE68539007547034", "NO9386011117947",
        "BR1800360305000010009795493C1", "MT84MALT011000012345MTLCAST001S",
        "LC55HEMM000100010012001200023015", "IT60X0542811101000000123456",
        "QA58DOHB00001234567890ABCDEFG", "SC18SSCB11010000000000001497USD",
        "KZ86125KZT5004100100", "BY13NBRB3600900000002Z00AB00", "MU17BOMM0101101030300200000MUR",
        "RU0204452560040702810412345678901", "PL61109010140000071219812874",
        "ES9121000418450200051332", "AT611904300234573201", "SE4550000000058398257466",
    ]

    func testIBANPublishedNumbersPass() {
        assertPasses(.iban, ibanValid)
    }

    func testIBANCatchesEverySingleSubstitution() {
        // Digit for digit and letter for letter: mod 97 changes by k * 10^n with 0 < |k| < 97,
        // never a multiple of the prime 97. (A digit swapped for a letter changes the length
        // of the spelled-out number, which the scheme does not promise to catch.)
        for valid in ibanValid {
            let changes = substitutions(of: valid) { Checks.digit($0) != nil ? self.digits : self.letters }
            for changed in changes {
                XCTAssertNotNil(Validator.iban.check(changed), changed)
            }
        }
    }

    func testIBANProblems() {
        assertProblem(.iban, "XX82WEST12345698765432", "no such country code 'XX'")
        assertProblem(.iban, "DE8937040044053201300", "IBAN for DE has 22 characters, not 21")
        assertProblem(.iban, "DE89 3704 0044 0532 0130 00", "' ' is not an uppercase letter or digit")
        assertProblem(.iban, "gb82WEST12345698765432", "'g' is not an uppercase letter or digit")
        assertProblem(.iban, "GB", "IBAN is too short")
        assertProblem(.iban, "1282WEST12345698765432", "IBAN must start with a country code")
        assertProblem(.iban, "GBX2WEST12345698765432", "characters 3 and 4 must be digits")
        assertProblem(.iban, "GB83WEST12345698765432", "check digits do not match")
        assertProblem(.iban, "GB99WEST12345698765432", "check digits must be 02 to 98")
    }

    func testIBANCheckDigitsOutsideTheRangeAreRefusedEvenWhenTheSumWorks() {
        // 01 and 98 differ by 97, so for a BBAN whose real check is 98, 01 passes the sum.
        var found = 0
        for n in 0..<1000 {
            var account = String(n)
            while account.count < 14 { account = "0" + account }
            let real = "GB98WEST" + account
            guard Checks.ibanRemainder(Array(real)) == 1 else { continue }
            let alias = "GB01" + real.dropFirst(4)
            XCTAssertEqual(Checks.ibanRemainder(Array(alias)), 1)
            assertProblem(.iban, alias, "check digits must be 02 to 98")
            found += 1
        }
        XCTAssertGreaterThan(found, 0)
    }

    func testIBANTableHasEveryRegistryCountry() {
        XCTAssertEqual(Checks.ibanLengths.count, 89)
        XCTAssertEqual(Checks.ibanLengths["DE"], 22)
        XCTAssertEqual(Checks.ibanLengths["GB"], 22)
        XCTAssertEqual(Checks.ibanLengths["FR"], 27)
        XCTAssertEqual(Checks.ibanLengths["NL"], 18)
        XCTAssertEqual(Checks.ibanLengths["CH"], 21)
        XCTAssertEqual(Checks.ibanLengths["NO"], 15)
        XCTAssertEqual(Checks.ibanLengths["RU"], 33)
        XCTAssertEqual(Checks.ibanLengths["LC"], 32)
        for (country, length) in Checks.ibanLengths {
            XCTAssertTrue((15...34).contains(length), country)
        }
        for valid in ibanValid {
            XCTAssertEqual(Checks.ibanLengths[String(valid.prefix(2))], valid.count, valid)
        }
    }

    // MARK: date

    func testDates() {
        assertPasses(
            .date,
            [
                "2024-02-29", "20240229", "2000-02-29", "1999-12-31", "2023-04-30",
                "0001-01-01", "9999-12-31", "2023-01-31",
            ])
        assertProblem(.date, "2023-02-29", "February has 28 days in 2023 at most")
        assertProblem(.date, "1900-02-29", "February has 28 days in 1900 at most")
        assertProblem(.date, "2024-02-30", "February has 29 days in 2024 at most")
        assertProblem(.date, "20230229", "February has 28 days in 2023 at most")
        assertProblem(.date, "2023-04-31", "April has 30 days at most")
        assertProblem(.date, "2023-01-00", "day must be 01 to 31")
        assertProblem(.date, "2023-13-01", "month must be 01 to 12")
        assertProblem(.date, "2023-00-10", "month must be 01 to 12")
        assertProblem(.date, "0000-01-01", "year must be 0001 to 9999")
        for bad in ["", "2023-1-01", "2023/01/01", "2023-01-01-", "202301011", "2023-0a-01", "2023010"] {
            assertProblem(.date, bad, "date must be YYYY-MM-DD")
        }
    }

    func testFourHundredGregorianYearsHave146097Days() {
        // The Gregorian cycle is exactly 146097 days; counting the dates the check accepts
        // over one cycle tests every month length and every leap rule at once.
        var days = 0
        for year in 1601...2000 {
            for month in 1...12 {
                for day in 0...32 where Checks.dayProblem(year: year, month: month, day: day) == nil {
                    days += 1
                }
            }
        }
        XCTAssertEqual(days, 146_097)
    }

    // MARK: time and expiry

    func testTimes() {
        assertPasses(.time, ["00:00", "23:59", "12:30", "0000", "2359"])
        assertProblem(.time, "24:00", "hour must be 00 to 23")
        assertProblem(.time, "12:60", "minute must be 00 to 59")
        assertProblem(.time, "2460", "hour must be 00 to 23")
        for bad in ["", "1:00", "12-00", "12:0", "123:00", "ab:cd"] {
            assertProblem(.time, bad, "time must be HH:MM")
        }
    }

    func testExpiries() {
        assertPasses(.expiry, ["01/25", "12/99", "06/00", "0125", "1230"])
        assertProblem(.expiry, "00/25", "month must be 01 to 12")
        assertProblem(.expiry, "13/25", "month must be 01 to 12")
        assertProblem(.expiry, "1325", "month must be 01 to 12")
        for bad in ["", "1/25", "01-25", "01/2025", "0a/25"] {
            assertProblem(.expiry, bad, "expiry must be MM/YY")
        }
    }
}
