// maskd tests: `maskd/apply` answered with a written result is, byte for byte, the answer made as a value.
import JSON
import JSONRPC
@testable import MaskServer
import XCTest

final class ApplyWritingTests: XCTestCase {
    /// Random requests (masks of every kind, texts that need escaping or are not ASCII, edits, selections, bad
    /// params) in each encoding: the answer's members written straight from the result make the bytes of its value,
    /// and the server sends the value `handleRequest` gives (or its error).
    func testWrittenApply_property_sameBytesAsTheValue() {
        var random = SystemRandomNumberGenerator()
        for encoding in ["utf-8", "utf-16", "utf-32"] {
            let outbound = RecordingOutbound()
            let server = Server(version: "test", outbound: outbound)
            server.handle(
                .request(
                    id: .int(1), method: "initialize",
                    params: [
                        "capabilities": ["general": ["positionEncodings": .array([.string(encoding)])]]
                    ]))
            for round in 0..<600 {
                let id: RequestID = round % 2 == 0 ? .int(Int64(round)) : .string("r\(round)")
                let params = randomParams(&random)
                let expected: Message
                switch server.handleRequest("maskd/apply", params) {
                case .success(let result): expected = .response(id: id, result: result)
                case .failure(let error): expected = .errorResponse(id: id, error: error)
                }
                server.handle(.request(id: id, method: "maskd/apply", params: params))
                XCTAssertEqual(outbound.takeLast(), expected, "round \(round)")
                guard case .success(let answer) = server.answer("maskd/apply", params) else { continue }
                XCTAssertTrue(answer.writesMembers)
                var expectedBytes: [UInt8] = []
                expected.json.serialize(into: &expectedBytes)
                var writtenBytes: [UInt8] = []
                Message.serializeResponse(id: id, into: &writtenBytes, result: answer.writeMembers)
                guard writtenBytes == expectedBytes else {
                    return XCTFail(
                        "\(encoding) round \(round): written\n\(String(decoding: writtenBytes, as: UTF8.self))"
                            + "\nas a value\n\(String(decoding: expectedBytes, as: UTF8.self))")
                }
            }
        }
    }

    private let masks: [JSONValue] = [
        ["preset": "card"], ["preset": "phone"], ["preset": "iban"], ["preset": "date"],
        "[0000] [0000]", "+1 ([000]) [000]-[0000]", "[aa]-[00]", "", "[0",
    ]
    private let pieces = ["", "4", "0", "1", " ", "a", "Z", "\"", "\\", "\n", "\u{0}", "é", "٣", "👍🏽", "-", "+"]

    private func randomText(_ random: inout SystemRandomNumberGenerator, upTo length: Int = 20) -> String {
        (0..<Int.random(in: 0...length, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    private func randomSpan(_ random: inout SystemRandomNumberGenerator) -> JSONValue {
        let start = Int64.random(in: 0...12, using: &random)
        return ["start": .int(start), "end": .int(start + Int64.random(in: 0...3, using: &random))]
    }

    private func randomParams(_ random: inout SystemRandomNumberGenerator) -> JSONValue {
        var params: JSONObject = ["mask": masks.randomElement(using: &random)!, "text": .string(randomText(&random))]
        if Bool.random(using: &random) { params["selection"] = randomSpan(&random) }
        if Int.random(in: 0..<4, using: &random) > 0 {
            guard case .object(var edit) = randomSpan(&random) else { return .object(params) }
            edit["text"] = .string(randomText(&random, upTo: 3))
            params["edit"] = .object(edit)
        }
        return .object(params)
    }
}
