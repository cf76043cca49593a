// Tests for JSON-RPC 2.0 envelope coding: every kind of message, and every way an envelope can be broken.

import JSON
import JSONRPC
import XCTest

final class MessageTests: XCTestCase {
    /// Decodes `text`, expects `message`, and checks that encoding it again reads back the same message.
    private func check(_ text: String, _ message: Message, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let decoded = Message.decode(try JSONValue.parse(text))
            XCTAssertEqual(decoded, .success(message), file: file, line: line)
            XCTAssertEqual(
                Message.decode(try JSONValue.parse(message.json.serialized())), .success(message),
                "read back", file: file, line: line)
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }

    /// Decodes `text` and expects an invalid-request failure that answers `id`.
    private func checkFails(
        _ text: String, id: RequestID?, _ message: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        do {
            switch Message.decode(try JSONValue.parse(text)) {
            case .success(let decoded):
                XCTFail("decoded as \(decoded)", file: file, line: line)
            case .failure(let failure):
                XCTAssertEqual(failure.id, id, file: file, line: line)
                XCTAssertEqual(failure.error.code, ErrorCode.invalidRequest, file: file, line: line)
                XCTAssertTrue(failure.error.message.contains(message), failure.error.message, file: file, line: line)
            }
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }

    func testRequests() {
        check(#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#, .request(id: .int(1), method: "shutdown", params: nil))
        check(
            #"{"jsonrpc":"2.0","id":"a","method":"m","params":{"x":[1]}}"#,
            .request(id: .string("a"), method: "m", params: ["x": [1]]))
        check(
            #"{"method":"m","params":[1,2],"id":2.0,"jsonrpc":"2.0"}"#,
            .request(id: .int(2), method: "m", params: [1, 2]))
        check(#"{"jsonrpc":"2.0","id":3,"method":"m","params":null}"#, .request(id: .int(3), method: "m", params: nil))
    }

    func testNotifications() {
        check(
            #"{"jsonrpc":"2.0","method":"initialized","params":{}}"#, .notification(method: "initialized", params: [:]))
        check(#"{"jsonrpc":"2.0","method":"exit"}"#, .notification(method: "exit", params: nil))
    }

    func testResponses() {
        check(#"{"jsonrpc":"2.0","id":1,"result":null}"#, .response(id: .int(1), result: nil))
        check(
            #"{"jsonrpc":"2.0","id":"x","result":{"applied":true}}"#,
            .response(id: .string("x"), result: ["applied": true]))
        check(
            #"{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"no"}}"#,
            .errorResponse(id: .int(4), error: .methodNotFound("no")))
        check(
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad","data":[1]}}"#,
            .errorResponse(id: nil, error: .parseError("bad", data: [1])))
    }

    func testEncoding_isCompactAndOrdered() {
        XCTAssertEqual(
            Message.request(id: .int(1), method: "m", params: ["a": 1]).json.serializedString(),
            #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1}}"#)
        XCTAssertEqual(
            Message.notification(method: "n", params: nil).json.serializedString(),
            #"{"jsonrpc":"2.0","method":"n"}"#)
        XCTAssertEqual(
            Message.response(id: .string("s"), result: nil).json.serializedString(),
            #"{"jsonrpc":"2.0","id":"s","result":null}"#)
        XCTAssertEqual(
            Message.errorResponse(id: nil, error: .requestCancelled("late")).json.serializedString(),
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32800,"message":"late"}}"#)
    }

    func testBadEnvelopes_withAnIdToAnswer() {
        checkFails(#"{"id":1,"method":"m"}"#, id: .int(1), "jsonrpc")
        checkFails(#"{"jsonrpc":"1.0","id":1,"method":"m"}"#, id: .int(1), "jsonrpc")
        checkFails(#"{"jsonrpc":"2.0","id":"q","method":5}"#, id: .string("q"), "method")
        checkFails(#"{"jsonrpc":"2.0","id":2,"method":"m","params":3}"#, id: .int(2), "params")
    }

    func testBadEnvelopes_withoutAnIdToAnswer() {
        checkFails("[1]", id: nil, "object")
        checkFails("7", id: nil, "object")
        checkFails(#"{"jsonrpc":"2.0","method":"m","id":null}"#, id: nil, "request id")
        checkFails(#"{"jsonrpc":"2.0","method":"m","id":1.5}"#, id: nil, "request id")
        checkFails(#"{"jsonrpc":"2.0","method":"m","id":[1]}"#, id: nil, "request id")
        checkFails(#"{"jsonrpc":"2.0","method":"m","params":"x"}"#, id: nil, "params")
        checkFails(#"{"jsonrpc":"2.0","id":1}"#, id: nil, "needs")
    }

    func testBadResponses_areNeverAnswered() {
        checkFails(#"{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}}"#, id: nil, "both")
        checkFails(#"{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}"#, id: nil, "code")
        checkFails(#"{"jsonrpc":"2.0","id":null,"result":1}"#, id: nil, "id")
        checkFails(#"{"jsonrpc":"2.0","result":1}"#, id: nil, "id")
    }

    func testErrorCodes() {
        XCTAssertEqual(
            [
                ErrorCode.parseError, ErrorCode.invalidRequest, ErrorCode.methodNotFound, ErrorCode.invalidParams,
                ErrorCode.internalError, ErrorCode.serverNotInitialized, ErrorCode.requestCancelled,
                ErrorCode.contentModified,
            ],
            [-32700, -32600, -32601, -32602, -32603, -32002, -32800, -32801])
        XCTAssertEqual(ResponseError.invalidParams("p").code, -32602)
        XCTAssertEqual(ResponseError.contentModified("c").code, -32801)
        XCTAssertEqual(ResponseError.serverNotInitialized("s").code, -32002)
    }
}
