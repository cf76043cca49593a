import FieldTyping
import XCTest
import MaskCatalog
@testable import MaskEngine

/// The card preset typed key by key for every brand: grouping, brand and caret after each key.
final class CardPresetTests: XCTestCase {
    private let card = try! Mask.compile(MaskSpec(.preset("card")))

    /// The digits grouped as a person expects to see them, written independently of the engine.
    private func grouped(_ digits: String, _ sizes: [Int]) -> String {
        var out: [String] = []
        var rest = Substring(digits)
        for size in sizes where !rest.isEmpty {
            out.append(String(rest.prefix(size)))
            rest = rest.dropFirst(size)
        }
        return out.joined(separator: " ")
    }

    private func checkTyped(
        _ number: String, brand: String, groups: [Int], decidedAfter: Int,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        var field = TypingField(card)
        for i in 1...number.count {
            let prefix = String(number.prefix(i))
            field.type(String(number[number.index(number.startIndex, offsetBy: i - 1)]))
            let expected = grouped(prefix, groups)
            XCTAssertEqual(field.text, expected, "after \(prefix)", file: file, line: line)
            XCTAssertEqual(
                field.selection, expected.count..<expected.count, "caret after \(prefix)", file: file, line: line)
            XCTAssertEqual(
                field.last?.brand, i >= decidedAfter ? brand : nil, "brand after \(prefix)", file: file, line: line)
        }
        XCTAssertTrue(field.last!.valid, "\(number) should be valid: \(field.last!.problems)", file: file, line: line)
    }

    func testVisa_typedKeyByKey() {
        checkTyped("4111111111111111", brand: "visa", groups: [4, 4, 4, 4, 3], decidedAfter: 1)
    }
    func testMastercard_typedKeyByKey() {
        checkTyped("5555555555554444", brand: "mastercard", groups: [4, 4, 4, 4], decidedAfter: 2)
    }
    func testMastercard2Series_typedKeyByKey() {
        checkTyped("2221000000000009", brand: "mastercard", groups: [4, 4, 4, 4], decidedAfter: 3)
    }
    func testAmex_typedKeyByKey() { checkTyped("378282246310005", brand: "amex", groups: [4, 6, 5], decidedAfter: 2) }
    func testDiners_typedKeyByKey() {
        checkTyped("30569309025904", brand: "diners", groups: [4, 6, 4], decidedAfter: 2)
    }
    func testDiscover_typedKeyByKey() {
        checkTyped("6445644564456445", brand: "discover", groups: [4, 4, 4, 4, 3], decidedAfter: 2)
    }
    func testUATP_typedKeyByKey() { checkTyped("122000000000003", brand: "uatp", groups: [4, 5, 6], decidedAfter: 1) }
    func testJCB15_typedKeyByKey() { checkTyped("213100000000001", brand: "jcb", groups: [4, 6, 5], decidedAfter: 2) }
    func testTroy_typedKeyByKey() {
        checkTyped("9792000000000003", brand: "troy", groups: [4, 4, 4, 4, 3], decidedAfter: 1)
    }
    func testInstaPayment_typedKeyByKey() {
        checkTyped("6376000000000003", brand: "instapayment", groups: [4, 4, 4, 4, 3], decidedAfter: 3)
    }
    func testJCB_typedKeyByKey() {
        checkTyped("3530111333300000", brand: "jcb", groups: [4, 4, 4, 4, 3], decidedAfter: 2)
    }
    func testUnionPay_typedKeyByKey() {
        checkTyped("6200000000000005", brand: "unionpay", groups: [4, 4, 4, 4, 3], decidedAfter: 2)
    }
    func testMaestro_typedKeyByKey() {
        checkTyped("6759649826438453", brand: "maestro", groups: [4, 4, 4, 4, 3], decidedAfter: 2)
    }
    func testMir_typedKeyByKey() {
        checkTyped("2200000000000004", brand: "mir", groups: [4, 4, 4, 4, 3], decidedAfter: 3)
    }

    func testBrandSwitch_midInput_reflowsAndKeepsTheCaret() {
        var field = TypingField(card, "4111 1111 1111 111|")
        XCTAssertEqual(field.run(.insert("3", at: 0..<1)).brand, nil)
        check(field, "3|111 1111 1111 111")
        let amex = field.type("7")
        // 37 is Amex: 4-6-5 groups, 15 digits at most; the caret stays after the 2 digits typed.
        check(field, "37|11 111111 11111")
        XCTAssertEqual(amex.brand, "amex")
        XCTAssertEqual(amex.overflow, "1")
    }
    func testBrandSwitchToALongerBrand_keepsEveryDigitThatFits() {
        // Amex (15 digits) to Visa (up to 19): the 16 digits entered all fit, as formatting them does.
        var typed = TypingField(card, "|3782 822463 10005")
        let visa = typed.type("4")
        check(typed, "4|378 2822 4631 0005")
        XCTAssertEqual(visa.brand, "visa")
        XCTAssertEqual(visa.value, "4378282246310005")
        XCTAssertEqual(visa.overflow, "")
        XCTAssertEqual(card.format("4378282246310005").text, typed.text)

        var pasted = TypingField(card, "3782 822463 10005")
        pasted.select(0..<2)
        let r = pasted.paste("4111")
        check(pasted, "4111| 8282 2463 1000 5")
        XCTAssertEqual(r.brand, "visa")
        XCTAssertEqual(r.overflow, "")
    }

    func testBrandSwitch_overflowListsTheCutDigitsInTextOrder() {
        var mastercard = TypingField(card, "5123 4567 8901 2345")
        mastercard.select(0..<1)
        let amex = mastercard.paste("37")
        check(mastercard, "37|12 345678 90123")
        XCTAssertEqual(amex.brand, "amex")
        XCTAssertEqual(amex.overflow, "45")

        var visa = TypingField(card, "4123 4567 8901 2345 678")
        visa.select(0..<1)
        let r = visa.paste("34")
        check(visa, "34|12 345678 90123")
        XCTAssertEqual(r.brand, "amex")
        XCTAssertEqual(r.overflow, "45678")
    }

    func testBrandSwitchByDeletion_keepsTheCaretCount() {
        // Deleting the 4 of a Visa leaves 37...: Amex, 15 digits; the caret stays before every digit.
        var field = TypingField(card, "4|378 2822 4631 0005")
        let r = field.backspace()
        check(field, "|3782 822463 10005")
        XCTAssertEqual(r.brand, "amex")
        XCTAssertEqual(r.overflow, "")
    }
}
