// maskd tests: what odd and hostile clients send, driven in-process: the requests a client never answers stay
// bounded, positions past a line's end follow LSP, a full-content change lands exactly, and a glob of many `**`
// matches as a reference matcher does.
import JSON
import JSONRPC
import MaskEngine
@testable import MaskServer
import TestSupport
import XCTest

final class HostileClientTests: XCTestCase {
    // MARK: - Requests the client never answers

    func testUnansweredRequests_areBounded_theNewestStillAnswered() {
        var sentIDs: [RequestID] = []
        let server = Server(
            version: "test",
            outbound: RecordingOutbound { _, _, id in
                if let id { sentIDs.append(id) }
            })
        var answered: [Int] = []
        let total = 3 * Server.maxAwaiting + 17
        for n in 1...total {
            server.request("workspace/applyEdit", .null) { _ in answered.append(n) }
        }
        XCTAssertEqual(server.awaiting.count, Server.maxAwaiting)
        XCTAssertLessThanOrEqual(server.awaitingOrder.count - server.awaitingOrderHead, 2 * Server.maxAwaiting)
        // The oldest were forgotten: a late answer to one is ignored; the newest still reaches its handler.
        _ = server.handle(.response(id: sentIDs[0], result: ["applied": true]))
        XCTAssertEqual(answered, [])
        _ = server.handle(.response(id: sentIDs[total - 1], result: ["applied": true]))
        _ = server.handle(.response(id: sentIDs[total - Server.maxAwaiting], result: ["applied": true]))
        XCTAssertEqual(answered, [total, total - Server.maxAwaiting + 1])
        _ = server.handle(.response(id: sentIDs[total - Server.maxAwaiting - 1], result: ["applied": true]))
        XCTAssertEqual(answered.count, 2, "a forgotten request's answer reached its handler")
    }

    // MARK: - Positions past a line's end (LSP 3.17: the line's length)

    func testCharacterPastTheLineEnd_isTheLineEnd() throws {
        for encoding in [PositionEncoding.utf8, .utf16, .utf32] {
            let document = Document(
                uri: "file:///p", languageId: "", version: 1, text: "Tel: 555é\nnext",
                encoding: encoding)
            XCTAssertEqual(
                try document.scalarPosition(Position(line: 0, character: 40)).get(),
                ScalarPosition(line: 0, column: 9), "\(encoding)")
            XCTAssertEqual(
                try document.scalarPosition(Position(line: 1, character: 5)).get(),
                ScalarPosition(line: 1, column: 4), "\(encoding)")
            // A change whose range ends past its line is applied there, not refused.
            _ = try document.apply(
                [
                    ContentChange(
                        range: TextRange(
                            start: Position(line: 0, character: 5),
                            end: Position(line: 0, character: 99)),
                        text: "x")
                ], version: 2)
            XCTAssertEqual(document.text, "Tel: x\nnext", "\(encoding)")
            // A line past the document's end is still a problem.
            guard case .failure = document.scalarPosition(Position(line: 2, character: 0)) else {
                return XCTFail("line 2 of a two-line document was accepted")
            }
        }
    }

    // MARK: - Full-content changes

    /// Random documents (with LF, CRLF and lone CR breaks, multi-byte scalars) changed in random places and sent as
    /// the full content: the daemon's copy is exactly the new text.
    func testFullContentChange_landsExactly() throws {
        var generator = SeededRandom(seed: 34)
        let pieces = ["a", "b", "é", "👍", "\n", "\r\n", "\r", " ", "5"]
        func randomText(_ length: Int) -> String {
            (0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined()
        }
        for round in 0..<400 {
            let old = randomText(Int.random(in: 0...30, using: &generator))
            let document = Document(uri: "file:///f", languageId: "", version: 1, text: old, encoding: .utf16)
            var new = Array(old.unicodeScalars)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let from = Int.random(in: 0...new.count, using: &generator)
                let to = Int.random(in: from...min(new.count, from + 4), using: &generator)
                new.replaceSubrange(
                    from..<to, with: randomText(Int.random(in: 0...3, using: &generator)).unicodeScalars)
            }
            let newText = String(String.UnicodeScalarView(new))
            _ = try document.apply([ContentChange(range: nil, text: newText)], version: 2)
            XCTAssertTrue(
                document.text.unicodeScalars.elementsEqual(newText.unicodeScalars),
                "round \(round): \(old.debugDescription) -> \(newText.debugDescription) gave "
                    + document.text.debugDescription)
        }
    }

    // MARK: - Globs

    /// Globs of many `**` against deep paths give what a plain recursive matcher gives (on sizes it can afford).
    func testGlobOfManyDoubleStars_matchesAsTheReference() throws {
        var generator = SeededRandom(seed: 7)
        let segments = ["**", "a", "b", "*", "a*", "?"]
        for _ in 0..<300 {
            let glob = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                segments.randomElement(using: &generator)!
            }
            let path = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                ["a", "b", "ab", "ba"].randomElement(using: &generator)!
            }
            let source = glob.joined(separator: "/")
            let expected = Self.reference(glob[...], path[...], anchored: source.contains("/"))
            XCTAssertEqual(try Glob(source).matches(path.joined(separator: "/")), expected, "\(source) on \(path)")
        }
        // Forty folders deep under a glob of twelve `**`: answered (a matcher that retries every split takes minutes).
        let deep = Array(repeating: "a", count: 40).joined(separator: "/") + "/c.txt"
        XCTAssertFalse(try Glob(Array(repeating: "**", count: 12).joined(separator: "/") + "/b").matches(deep))
        XCTAssertTrue(try Glob(Array(repeating: "**", count: 12).joined(separator: "/") + "/c.txt").matches(deep))
        XCTAssertThrowsError(try Glob(String(repeating: "a", count: Glob.maxLength + 1)))
    }

    /// A plain recursive matcher: `**` any number of segments, `*` any run in a segment, `?` one character.
    static func reference(_ glob: ArraySlice<String>, _ path: ArraySlice<String>, anchored: Bool) -> Bool {
        if !anchored { return reference(["**"] + glob, path, anchored: true) }
        guard let first = glob.first else { return path.isEmpty }
        if first == "**" {
            return (0...path.count).contains { reference(glob.dropFirst(), path.dropFirst($0), anchored: true) }
        }
        guard let part = path.first, segment(Array(first), Array(part)) else { return false }
        return reference(glob.dropFirst(), path.dropFirst(), anchored: true)
    }

    static func segment(_ pattern: [Character], _ text: [Character]) -> Bool {
        guard let p = pattern.first else { return text.isEmpty }
        switch p {
        case "*": return (0...text.count).contains { segment(Array(pattern.dropFirst()), Array(text.dropFirst($0))) }
        case "?": return !text.isEmpty && segment(Array(pattern.dropFirst()), Array(text.dropFirst()))
        default: return text.first == p && segment(Array(pattern.dropFirst()), Array(text.dropFirst()))
        }
    }
}
