import XCTest

@testable import MaskEngine

/// A definition's table for the byte path is worked out on bytes; it must say what `fit` says of each ASCII character.
final class SlotDefinitionTableTests: XCTestCase {
    func testASCIITable_isWhatFitGivesEachCharacter() throws {
        let classes = [
            "[0-9A-F]", "[a-z]?", "[-'0-9A-Za-z]", "[ ]", "[^0-9]", "[\\s]", "[.,/]", "[A-Z]", "[a-f0-9]", "[^a-z]",
            "[\\d]", "[\\w]", "[+\\-A-FU-Y]", "[!-~]",
        ]
        var checked = 0
        for text in classes {
            guard let definition = try? SlotDefinition(name: "Q", text) else { continue }
            for letterCase in [nil, LetterCase.upper, .lower] {
                XCTAssertEqual(
                    definition.asciiTable(letterCase: letterCase),
                    definition.asciiTableByCharacter(letterCase: letterCase),
                    "\(text), \(String(describing: letterCase))")
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 30)
    }
}
