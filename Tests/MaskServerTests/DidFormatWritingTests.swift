// maskd tests: `maskd/didFormat` written straight from the report is, byte for byte, the message made as a value.
import JSON
import JSONRPC
@testable import MaskCatalog
@testable import MaskEngine
@testable import MaskServer
import XCTest

final class DidFormatWritingTests: XCTestCase {
    /// Random reports (strings that need escaping, NUL, emoji, optional members present and absent, phone
    /// fields, long texts past the dump buffer, long lists) serialise to the same bytes both ways.
    func testWrittenDidFormat_property_sameBytesAsTheValue() {
        var random = SystemRandomNumberGenerator()
        for round in 0..<2000 {
            let report = randomReport(&random, long: round % 200 == 0)
            let message = DidFormatNotification(uri: randomText(&random), report: report)
            var asValue: [UInt8] = []
            Message.notification(method: DidFormatNotification.method, params: message.json).json.serialize(
                into: &asValue)
            var written: [UInt8] = []
            Message.serializeNotification(DidFormatNotification.method, into: &written, params: message.writeMembers)
            guard written == asValue else {
                return XCTFail(
                    "round \(round): written\n\(String(decoding: written, as: UTF8.self))\n"
                        + "as a value\n\(String(decoding: asValue, as: UTF8.self))")
            }
        }
    }

    /// Lists of the piecewise length and more are told, for the channel to leave them to the value, written piece by
    /// piece.
    func testLongLists_areNotShort() {
        var random = SystemRandomNumberGenerator()
        var report = randomReport(&random, long: false)
        report.edits = []
        report.fields = []
        XCTAssertEqual(DidFormatNotification(uri: "u", report: report).longestWrittenList, 0)
        report.edits = Array(repeating: randomEdit(&random), count: JSONValue.piecewiseArrayLength)
        XCTAssertEqual(
            DidFormatNotification(uri: "u", report: report).longestWrittenList, JSONValue.piecewiseArrayLength)
        report.edits = []
        report.fields = Array(repeating: randomField(&random), count: JSONValue.piecewiseArrayLength + 1)
        XCTAssertEqual(
            DidFormatNotification(uri: "u", report: report).longestWrittenList,
            JSONValue.piecewiseArrayLength + 1)
    }

    private let pieces = [
        "", "4", "0", " ", "a", "Z", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1f}", "é", "٣",
        "👍🏽", "\u{2028}", "{", "}", ",",
    ]

    private func randomText(_ random: inout SystemRandomNumberGenerator, upTo length: Int = 12) -> String {
        (0..<Int.random(in: 0...length, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    private func randomNumber(_ random: inout SystemRandomNumberGenerator) -> Int {
        [0, 1, 7, 19, 65_535, Int.random(in: 0...1_000_000, using: &random), -1, Int.max, Int.min]
            .randomElement(using: &random)!
    }

    private func randomPosition(_ random: inout SystemRandomNumberGenerator) -> Position {
        Position(line: randomNumber(&random), character: randomNumber(&random))
    }

    private func randomRange(_ random: inout SystemRandomNumberGenerator) -> TextRange {
        TextRange(start: randomPosition(&random), end: randomPosition(&random))
    }

    private func randomEdit(_ random: inout SystemRandomNumberGenerator) -> TextEdit {
        TextEdit(range: randomRange(&random), newText: randomText(&random))
    }

    private func maybe<T>(_ random: inout SystemRandomNumberGenerator, _ make: (inout SystemRandomNumberGenerator) -> T)
        -> T?
    {
        Bool.random(using: &random) ? make(&random) : nil
    }

    private func randomField(_ random: inout SystemRandomNumberGenerator) -> FieldSnapshot {
        let masks = ["[0000] [0000]", PhoneField.international, PhoneField.national + "US)", "card", ""]
        let result = FieldResult(
            text: randomText(&random), selection: 0..<0, value: randomText(&random),
            complete: Bool.random(using: &random), valid: Bool.random(using: &random),
            problems: (0..<Int.random(in: 0...3, using: &random)).map { _ in randomText(&random) },
            next: maybe(&random) { [SlotKind.digit, .letter, .alnum, .any].randomElement(using: &$0)! },
            placeholder: randomText(&random), mask: masks.randomElement(using: &random)!,
            brand: maybe(&random) { randomText(&$0) }, rejected: randomText(&random), overflow: randomText(&random),
            region: maybe(&random) { randomText(&$0) }, phoneType: maybe(&random) { randomText(&$0) },
            phoneExtension: maybe(&random) { randomText(&$0) }, e164: maybe(&random) { randomText(&$0) },
            rfc3966: maybe(&random) { randomText(&$0) })
        return FieldSnapshot(
            id: randomText(&random), range: randomRange(&random), text: randomText(&random),
            result: result,
            rule: maybe(&random) { RuleOrigin(source: randomText(&$0), index: randomNumber(&$0)) })
    }

    /// A report; `long`: a long text and long lists, whose text is past any buffer a dump starts with.
    private func randomReport(_ random: inout SystemRandomNumberGenerator, long: Bool) -> FormatReport {
        var report = FormatReport(
            version: randomNumber(&random),
            edits: (0..<Int.random(in: 0...4, using: &random)).map { _ in randomEdit(&random) },
            cursor: maybe(&random) { randomPosition(&$0) },
            fields: (0..<Int.random(in: 0...3, using: &random)).map { _ in randomField(&random) },
            rejected: randomText(&random), overflow: randomText(&random))
        if long {
            report.rejected = randomText(&random, upTo: 5000)
            report.edits += (0..<300).map { _ in randomEdit(&random) }
            report.fields += (0..<300).map { _ in randomField(&random) }
        }
        return report
    }
}
