import FieldTyping
import XCTest
@testable import MaskCatalog
@testable import MaskEngine

/// The `phone` preset as a person uses it: typing, regrouping, the `+`, deleting, pasting, the state.
final class PhoneTests: XCTestCase {
    private func phone(_ region: String? = nil) -> Mask {
        try! Mask.compile(MaskSpec(.preset("phone"), region: region))
    }

    func testNationalGBRegroupsAsDigitsCome() {
        var field = TypingField(phone("GB"))
        let texts = "01212345678".map { key -> String in
            field.type(String(key))
            return field.marked
        }
        XCTAssertEqual(
            texts,
            [
                "0|", "01|", "012|", "0121|", "0121 2|", "0121 23|", "0121 234|", "0121 234 5|",
                "0121 234 56|", "0121 234 567|", "0121 234 5678|",
            ])
        let state = field.last!
        XCTAssertEqual(state.value, "01212345678")
        XCTAssertEqual(state.region, "GB")
        XCTAssertEqual(state.phoneType, "fixed")
        XCTAssertTrue(state.complete)
        XCTAssertTrue(state.valid)
        XCTAssertEqual(state.mask, "phone(region: GB)")
        XCTAssertNil(state.next, "a GB number has at most 10 digits after the 0")
    }

    func testInternationalShowsThePlusByItself() {
        var field = TypingField(phone())
        field.type("4")
        check(field, "+4|")
        field.type("4")
        check(field, "+44 |")
        field.type("1212345678")
        check(field, "+44 121 234 5678|")
        XCTAssertEqual(field.last!.region, "GB")
        XCTAssertEqual(field.last!.value, "+441212345678")
        var typedPlus = TypingField(phone())
        typedPlus.type("+441212345678")
        check(typedPlus, "+44 121 234 5678|")
    }

    func testPlusTypedFirstSwitchesToInternational() {
        var field = TypingField(phone("GB"))
        field.type("+1201555")
        check(field, "+1 201-555|")
        field.type("0123")
        check(field, "+1 201-555-0123|")
        XCTAssertEqual(field.last!.region, "US")
        XCTAssertTrue(field.last!.valid)
        field.type("+")
        check(field, "+1 201-555-0123|")
        XCTAssertEqual(field.last!.rejected, "+", "a + only goes first")
    }

    func testPlusAfterDigitsIsRejected() {
        var field = TypingField(phone("GB"))
        field.type("07+")
        check(field, "07|")
        XCTAssertEqual(field.last!.rejected, "+")
    }

    func testLettersAreRefused() {
        var field = TypingField(phone("GB"))
        field.type("0121")
        let r = field.type("a")
        check(field, "0121|")
        XCTAssertEqual(r.rejected, "a")
    }

    func testBackspaceOverASeparatorDeletesTheDigitBeforeIt() {
        var field = TypingField(phone("GB"), "0121 |234 5678")
        field.backspace()
        check(field, "012|23 45678")
        field.type("1")
        check(field, "0121| 234 5678")
    }

    func testMidFieldDeleteKeepsTheCaretByItsDigits() {
        var field = TypingField(phone("GB"), "0121 23|4 5678")
        field.backspace()
        check(field, "0121 2|45 678")
        field.forwardDelete()
        check(field, "0121 2|56 78")
    }

    func testPasteWithJunkKeepsTheDigits() {
        var field = TypingField(phone())
        let r = field.paste("tel: +44 121-234.5678")
        XCTAssertEqual(field.text, "+44 121 234 5678")
        XCTAssertEqual(r.rejected, "tel:")
        XCTAssertTrue(r.valid)
    }

    /// A letter inside a word is no extension label: the `e` of `call me` is not `ext`, pasted or read whole.
    func testPastedWordsAfterTheNumber_startNoExtension() {
        var field = TypingField(phone())
        let r = field.paste("+44 121 234 5678 call me")
        XCTAssertEqual(field.text, "+44 121 234 5678")
        XCTAssertEqual(r.rejected, "callme")
        XCTAssertEqual(phone().format("+44 121 234 5678 call me, ext 45").text, "+44 121 234 5678 x45")
        XCTAssertEqual(phone().format("+441212345678ext45").text, "+44 121 234 5678 x45")
    }

    func testTheInternationalPlusIsALiteral() {
        var field = TypingField(phone(), "+|44 ")
        field.backspace()
        check(field, "+|44 ")
        field.select(0..<0)
        field.forwardDelete()
        check(field, "+|4")
        field.backspace()
        check(field, "+|4")
        field.select(2..<2)
        field.backspace()
        check(field, "|")
    }

    func testLongPasteStopsWhereTheNumberCannotGrow() {
        var field = TypingField(phone("GB"))
        let r = field.paste("0121234567812345" + String(repeating: "9", count: 100_000))
        XCTAssertEqual(field.text, "0121 234 5678")
        XCTAssertEqual(r.overflow.count, 100_005)
        var refused = field
        let again = refused.type("9")
        check(refused, "0121 234 5678|")
        XCTAssertEqual(again.overflow, "9")
    }

    func testStateWhileTyping() {
        let gb = phone("GB")
        let short = gb.format("0121 234")
        XCTAssertFalse(short.complete)
        XCTAssertEqual(short.problems, ["too short"])
        XCTAssertEqual(short.region, "GB")
        XCTAssertNil(short.phoneType)
        let invalid = gb.format("0000000000")
        XCTAssertTrue(invalid.complete)
        XCTAssertEqual(invalid.problems, ["not a valid number for GB"])
        let mobile = gb.format("07400123456")
        XCTAssertEqual(mobile.text, "07400 123456")
        XCTAssertEqual(mobile.phoneType, "mobile")
        let tollFree = phone().format("+448001234567")
        XCTAssertEqual(tollFree.phoneType, "tollFree")
        let unknown = phone().format("+999")
        XCTAssertEqual(unknown.problems, ["no country has the calling code +999"])
        XCTAssertNil(unknown.region)
        let empty = phone().format("")
        XCTAssertEqual(empty.text, "")
        XCTAssertNil(empty.region)
    }

    func testRegionsSharingACallingCode() {
        let ca = phone().format("+16135550123")
        XCTAssertEqual(ca.region, "CA")
        let us = phone().format("+12015550123")
        XCTAssertEqual(us.region, "US")
        let national = phone("CA").format("6135550123")
        XCTAssertEqual(national.text, "(613) 555-0123")
        XCTAssertEqual(national.region, "CA")
    }

    func testFormattingIsIdempotent() {
        for (region, number) in [
            ("GB", "07400123456"), ("CN", "13800138000"), ("DE", "030123456"),
            (nil, "+8613800138000"), ("US", "2015550123"), ("FR", "0612345678"),
        ] {
            let once = phone(region).format(number)
            let twice = phone(region).format(once.text)
            XCTAssertEqual(twice.text, once.text, number)
            XCTAssertEqual(twice.value, once.value, number)
        }
    }

    func testCaretCarriedThroughFormatting() {
        let r = phone("GB").format("01212345678", selection: 4..<4)
        XCTAssertEqual(marked(r), "0121 |234 5678")
    }

    func testUnknownRegionAndStrayOptionsAreRefused() {
        XCTAssertThrowsError(try Mask.compile(MaskSpec(.preset("phone"), region: "XX"))) { error in
            XCTAssertTrue("\(error)".contains("unknown region 'XX'"))
        }
        XCTAssertThrowsError(try Mask.compile(MaskSpec(.preset("phone"), separator: "-")))
        XCTAssertThrowsError(try Mask.compile(MaskSpec(.preset("card"), region: "GB")))
        XCTAssertEqual(
            try Mask.compile(MaskSpec(.preset("phone"), region: "gb")).format("01212345678").text,
            "0121 234 5678")
    }

    func testEveryRegionCompiles() {
        XCTAssertGreaterThanOrEqual(PhoneMetadata.regionCodes.count, 240)
        // The list read from the calling-code lines names the regions the whole text has.
        XCTAssertEqual(PhoneMetadata.regionCodes, PhoneMetadata.index.codeForRegion.keys.sorted())
        for key in PhoneMetadata.index.regions.keys {
            for line in PhoneMetadata.lines(of: key)! {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                var patterns: [Substring] = []
                switch fields[0] {
                case "p", "l", "i": patterns = [fields[1]]
                case "d": patterns = [fields[2]]
                case "F", "I": patterns = [fields[1]] + fields.dropFirst(5)
                default: break
                }
                for pattern in patterns {
                    XCTAssertNoThrow(try CapturingRegex(String(pattern)), "\(key): \(pattern)")
                }
            }
        }
    }
}

/// The capturing matcher on its own: priorities, groups and `$` as a backtracking matcher gives them.
final class CapturingRegexTests: XCTestCase {
    private func groups(_ pattern: String, _ input: String, whole: Bool) -> [String?]? {
        let regex = try! CapturingRegex(pattern)
        let bytes = Array(input.utf8)
        guard let slots = regex.match(bytes[...], whole: whole) else { return nil }
        return stride(from: 0, to: slots.count, by: 2).map { i in
            slots[i] < 0 ? nil : String(decoding: bytes[slots[i]..<slots[i + 1]], as: UTF8.self)
        }
    }

    func testPrefixMatchTakesTheFirstAlternativeThatMatches() {
        XCTAssertEqual(groups("0|180020", "0180020", whole: false), ["0"])
        XCTAssertEqual(groups("180020|0", "1800201", whole: false), ["180020"])
    }

    func testGreedyGroupsAndBacktracking() {
        XCTAssertEqual(groups("(\\d{3,4})(\\d{4})", "1234567", whole: true), ["1234567", "123", "4567"])
        XCTAssertEqual(groups("(\\d{3,4})(\\d{4})", "12345678", whole: true), ["12345678", "1234", "5678"])
        XCTAssertEqual(groups("(\\d{2})(\\d{3})", "123456", whole: false), ["12345", "12", "345"])
        XCTAssertNil(groups("(\\d{2})(\\d{3})", "123456", whole: true))
    }

    func testEndAnchorAndUnmatchedGroups() {
        XCTAssertEqual(groups("([2-9]\\d{6})$|1", "2345678", whole: false), ["2345678", "2345678"])
        XCTAssertEqual(groups("([2-9]\\d{6})$|1", "12345678", whole: false), ["1", nil])
        XCTAssertNil(groups("([2-9]\\d{6})$|1", "23456789", whole: false))
    }

    func testSubstituteAndBooleanMatch() {
        let regex = try! CapturingRegex("(\\d{4})(\\d{6})")
        XCTAssertEqual(
            String(
                decoding: regex.substitute(Array("7400123456".utf8)[...], template: Array("$1 $2".utf8)),
                as: UTF8.self), "7400 123456")
        XCTAssertTrue(regex.matches(Array("7400123456".utf8)[...], whole: true))
        XCTAssertFalse(regex.matches(Array("740012345".utf8)[...], whole: true))
        XCTAssertTrue(regex.matches(Array("74001234567".utf8)[...], whole: false))
    }

    func testLinearRegexIgnoresCapturingMode() throws {
        // Plain `LinearRegex` keeps `$` a no-op and captures nothing, as before.
        XCTAssertTrue(try LinearRegex("(a|b)c$").matches("bc"))
    }
}

/// Random editing sessions on phone fields of several regions: what holds after every edit.
final class PhonePropertyTests: XCTestCase {
    /// A small deterministic generator (the sessions repeat run to run).
    private struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    func testEditingSessionsKeepTheFieldWellFormed() throws {
        var random = Generator(state: 42)
        let pieces = ["0", "1", "2", "4", "7", "9", "+", " ", "-", "a", "(0)", "44", "0121", "+86138", "٣", "１", "é"]
        for region in [nil, "GB", "US", "CN", "DE", "AR", "FR", "JP", "BR", "IN"] as [String?] {
            let mask = try Mask.compile(MaskSpec(.preset("phone"), region: region))
            for _ in 0..<40 {
                var field = TypingField(mask)
                for _ in 0..<30 {
                    let count = field.text.count
                    switch random.next(6) {
                    case 0, 1: field.type(pieces[random.next(pieces.count)])
                    case 2: field.paste(pieces[random.next(pieces.count)] + pieces[random.next(pieces.count)])
                    case 3: field.backspace()
                    case 4: field.forwardDelete()
                    default:
                        let a = random.next(count + 1), b = random.next(count + 1)
                        field.select(min(a, b)..<max(a, b))
                    }
                    let text = field.text
                    XCTAssertLessThanOrEqual(field.selection.upperBound, text.count, text)
                    let again = mask.format(text)
                    XCTAssertEqual(again.text, text, "formatting \(text) changes it (\(region ?? "intl"))")
                    XCTAssertEqual(again.value, String(text.filter { $0.isASCII && ($0.isNumber || $0 == "+") }), text)
                }
                // Typing a field's digits key by key gives the text pasting them gives.
                let value = mask.format(field.text).value
                var typed = TypingField(mask)
                typed.type(value)
                var pasted = TypingField(mask)
                pasted.paste(value)
                XCTAssertEqual(typed.text, pasted.text, "typing and pasting \(value) (\(region ?? "intl"))")
                XCTAssertEqual(typed.text, field.text, "the text depends only on the digits: \(value)")
            }
        }
    }
}
