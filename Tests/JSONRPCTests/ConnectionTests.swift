// Tests for the stdio connection: a real Connection on its own thread, talking to the test through two pipes.

import Foundation
import JSON
import JSONRPC
import XCTest

/// A connection served on a thread of its own, with the test playing the client through pipes.
private final class Harness {
    let connection: Connection
    /// The test writes the server's input here.
    private let clientWrite: Int32
    /// The test reads the server's output here.
    private let clientRead: Int32
    private let serverInput: Int32
    private let serverOutput: Int32
    private let finished = DispatchSemaphore(value: 0)
    private var splitter = FrameSplitter()
    private var clientReadOpen = true
    private var clientWriteOpen = true
    /// What the server logged and what its handler saw; read them only after ``finish()``.
    private(set) var logs: [String] = []
    private(set) var handled: [Message] = []

    /// Starts serving; by default the handler answers each request with its method and params.
    init(handler: ((Harness, Message) -> Message?)? = nil) {
        var toServer: [Int32] = [0, 0]
        var fromServer: [Int32] = [0, 0]
        precondition(pipe(&toServer) == 0 && pipe(&fromServer) == 0)
        serverInput = toServer[0]
        clientWrite = toServer[1]
        clientRead = fromServer[0]
        serverOutput = fromServer[1]
        connection = Connection(input: serverInput, output: serverOutput)
        connection.log = { [unowned self] in logs.append($0) }
        let thread = Thread { [self] in
            connection.run { [unowned self] message in
                handled.append(message)
                if let handler { return handler(self, message) }
                if case .request(let id, let method, let params) = message {
                    return .response(id: id, result: ["method": .string(method), "params": params])
                }
                return nil
            }
            close(serverInput)
            close(serverOutput)
            finished.signal()
        }
        thread.start()
    }

    deinit {
        if clientReadOpen { close(clientRead) }
        if clientWriteOpen { close(clientWrite) }
    }

    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.write(clientWrite, $0.baseAddress! + offset, bytes.count - offset)
            }
            precondition(count > 0, "write failed")
            offset += count
        }
    }

    func write(_ text: String) { write(Array(text.utf8)) }

    /// Writes each body as a frame, all in one write.
    func writeFrames(_ bodies: String...) { write(bodies.map(frame).joined()) }

    /// Reads the next message the server wrote, or nil at the end of its output.
    func readMessage(file: StaticString = #filePath, line: UInt = #line) -> JSONValue? {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if let event = splitter.next() {
                guard case .message(let body) = event else {
                    XCTFail("server framing: \(event)", file: file, line: line)
                    continue
                }
                do {
                    return try JSONValue.parse(body)
                } catch {
                    XCTFail("server wrote bad JSON: \(error)", file: file, line: line)
                    return nil
                }
            }
            let count = buffer.withUnsafeMutableBytes { read(clientRead, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            splitter.append(Array(buffer[..<count]))
        }
    }

    /// Reads every byte the server writes, to the end of its output.
    func readAll() -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(clientRead, $0.baseAddress, $0.count) }
            guard count > 0 else { return all }
            all.append(contentsOf: buffer[..<count])
        }
    }

    func closeInput() {
        close(clientWrite)
        clientWriteOpen = false
    }

    func closeOutput() {
        close(clientRead)
        clientReadOpen = false
    }

    /// Closes the server's input (unless already closed) and waits for ``Connection/run(_:)`` to return.
    func finish() {
        if clientWriteOpen { closeInput() }
        finished.wait()
    }
}

private func frame(_ body: String) -> String { "Content-Length: \(body.utf8.count)\r\n\r\n\(body)" }

private func request(_ id: Int, _ method: String = "ping") -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":{"n":\#(id)}}"#
}

private func notification(_ method: String, _ params: String = "{}") -> String {
    #"{"jsonrpc":"2.0","method":"\#(method)","params":\#(params)}"#
}

final class ConnectionTests: XCTestCase {
    /// Checks that `value` answers request `id` with the default handler's result.
    private func check(_ value: JSONValue?, answers id: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(
            value,
            ["jsonrpc": "2.0", "id": .int(Int64(id)), "result": ["method": "ping", "params": ["n": .int(Int64(id))]]],
            file: file, line: line)
    }

    /// Checks that `value` answers request `id` with an error of `code`.
    private func check(
        _ value: JSONValue?, answers id: Int, code: Int, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(value?["id"], .int(Int64(id)), file: file, line: line)
        XCTAssertEqual(
            value?["error"]?["code"]?.intValue, code, "\(value.map { $0.serializedString() } ?? "nil")",
            file: file, line: line)
    }

    /// Checks that `value` is an error `window/logMessage` whose text contains `text`.
    private func check(_ value: JSONValue?, logs text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(value?["method"], "window/logMessage", file: file, line: line)
        XCTAssertEqual(value?["params"]?["type"], 1, file: file, line: line)
        let message = value?["params"]?["message"]?.stringValue ?? ""
        XCTAssertTrue(message.contains(text), message, file: file, line: line)
    }

    func testRequest_answered_notificationNot() {
        let harness = Harness()
        harness.writeFrames(notification("initialized"), request(1))
        check(harness.readMessage(), answers: 1)
        harness.finish()
        XCTAssertNil(harness.readMessage())
        XCTAssertEqual(harness.handled.map(\.method), ["initialized", "ping"])
    }

    func testMalformedBodies_answeredOrLogged_andServingContinues() {
        let harness = Harness()
        harness.writeFrames("{bad")
        check(harness.readMessage(), logs: "invalid JSON")
        harness.write(Array("Content-Length: 4\r\n\r\n[\"".utf8) + [0xFF, 0x22])
        check(harness.readMessage(), logs: "unable to decode byte 0xff")
        harness.writeFrames(#"{"jsonrpc":"2.0","id":7,"method":5}"#)
        check(harness.readMessage(), answers: 7, code: ErrorCode.invalidRequest)
        harness.writeFrames(#"{"jsonrpc":"2.0","method":"m","params":3}"#)
        check(harness.readMessage(), logs: "params")
        harness.writeFrames(request(8))
        check(harness.readMessage(), answers: 8)
        harness.finish()
        XCTAssertEqual(harness.handled.map(\.method), ["ping"])
    }

    func testFramingErrors_loggedAndResynchronised() {
        let harness = Harness()
        harness.write("garbage" + frame(request(1)))
        check(harness.readMessage(), logs: "skipped 7 bytes")
        check(harness.readMessage(), answers: 1)
        harness.finish()
    }

    func testCancel_ofAQueuedRequest_answersCancelledWithoutTheHandler() {
        let harness = Harness()
        harness.writeFrames(
            request(1, "slow"), request(2), notification("$/cancelRequest", #"{"id":1}"#),
            notification("$/cancelRequest", #"{"id":99}"#), notification("$/setTrace", #"{"value":"off"}"#))
        check(harness.readMessage(), answers: 1, code: ErrorCode.requestCancelled)
        check(harness.readMessage(), answers: 2)
        harness.finish()
        XCTAssertEqual(harness.handled.map(\.method), ["ping", "$/setTrace"])
    }

    func testCancel_beforeItsRequest_isIgnored() {
        let harness = Harness()
        harness.writeFrames(notification("$/cancelRequest", #"{"id":5}"#), request(5))
        check(harness.readMessage(), answers: 5)
        harness.writeFrames(notification("$/cancelRequest", #"{"id":5}"#), request(6))
        check(harness.readMessage(), answers: 6)
        harness.finish()
        XCTAssertEqual(harness.handled.map(\.method), ["ping", "ping"])
    }

    func testBatch_answeredAsOneArray() {
        let harness = Harness()
        harness.writeFrames(
            "[\(request(1)),\(notification("n")),\(request(2)),{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":4}]")
        let replies = harness.readMessage()?.arrayValue ?? []
        XCTAssertEqual(replies.count, 3)
        if replies.count == 3 {
            check(replies[0], answers: 1)
            check(replies[1], answers: 2)
            check(replies[2], answers: 3, code: ErrorCode.invalidRequest)
        }
        harness.writeFrames("[\(notification("a")),\(notification("b"))]", request(4))
        check(harness.readMessage(), answers: 4)
        harness.finish()
        XCTAssertEqual(harness.handled.map(\.method), ["ping", "n", "ping", "a", "b", "ping"])
    }

    /// As JSON-RPC 2.0 says: an empty batch is one Invalid Request error with a null id (not an array); each element
    /// that is not a message is one in the batch's array; only a broken response is never answered.
    func testBatch_emptyOrWithBrokenElements_answeredWithNullIdErrors() {
        let harness = Harness()
        harness.writeFrames("[]")
        let empty = harness.readMessage()
        XCTAssertEqual(empty?["id"], .null)
        XCTAssertEqual(empty?["error"]?["code"]?.intValue, ErrorCode.invalidRequest)
        XCTAssertNil(empty?.arrayValue)

        harness.writeFrames("[1]")
        let one = harness.readMessage()?.arrayValue ?? []
        XCTAssertEqual(one.count, 1)
        XCTAssertEqual(one.first?["id"], .null)
        XCTAssertEqual(one.first?["error"]?["code"]?.intValue, ErrorCode.invalidRequest)

        harness.writeFrames("[1,2]")
        let two = harness.readMessage()?.arrayValue ?? []
        XCTAssertEqual(two.map { $0["id"] }, [.null, .null])
        XCTAssertEqual(
            two.map { $0["error"]?["code"]?.intValue }, [ErrorCode.invalidRequest, ErrorCode.invalidRequest])

        // Requests are answered in order with the broken elements; notifications and broken responses are not.
        harness.writeFrames(#"[{"foo":"boo"},\#(request(1)),"x",\#(notification("n")),{"jsonrpc":"2.0","result":1}]"#)
        check(harness.readMessage(), logs: "a response in a batch was refused")
        let mixed = harness.readMessage()?.arrayValue ?? []
        XCTAssertEqual(mixed.count, 3)
        if mixed.count == 3 {
            XCTAssertEqual(mixed[0]["id"], .null)
            check(mixed[1], answers: 1)
            XCTAssertEqual(mixed[2]["error"]?["code"]?.intValue, ErrorCode.invalidRequest)
        }
        harness.writeFrames(request(2))
        check(harness.readMessage(), answers: 2)
        harness.finish()
        XCTAssertEqual(harness.handled.map(\.method), ["ping", "n", "ping"])
    }

    func testServerRequest_responseReachesTheHandler() {
        let harness = Harness { harness, message in
            if case .notification("go", _) = message {
                harness.connection.sendRequest("workspace/applyEdit", ["edit": [:]])
            }
            return nil
        }
        harness.writeFrames(notification("go"))
        let sent = harness.readMessage()
        XCTAssertEqual(sent, ["jsonrpc": "2.0", "id": 1, "method": "workspace/applyEdit", "params": ["edit": [:]]])
        harness.writeFrames(#"{"jsonrpc":"2.0","id":1,"result":{"applied":true}}"#)
        harness.finish()
        XCTAssertEqual(harness.handled.last, .response(id: .int(1), result: ["applied": true]))
    }

    func testEndOfInput_midFrame_returns() {
        let harness = Harness()
        harness.write("Content-Length: 50\r\n\r\n{\"jsonrpc\"")
        harness.finish()
        XCTAssertNil(harness.readMessage())
        XCTAssertEqual(harness.handled, [])
        XCTAssertEqual(harness.logs, ["maskd: input ended in the middle of a message"])
    }

    func testClosedOutput_endsRunWithoutSIGPIPE() {
        let harness = Harness()
        harness.closeOutput()
        harness.writeFrames(request(1))
        // The write fails with EPIPE, so run returns while the input is still open.
        harness.finish()
        XCTAssertEqual(harness.handled.map(\.method), ["ping"])
    }

    func testPipelinedRequests_withASlowReader_doNotDeadlock() {
        let harness = Harness()
        let count = 10_000
        // Far more replies than a pipe holds are written before the test reads any of them.
        for id in 1...count { harness.write(frame(request(id))) }
        harness.closeInput()
        var answered = 0
        while let reply = harness.readMessage() {
            answered += 1
            if reply["id"] != .int(Int64(answered)) {
                XCTFail("reply \(answered): \(reply.serializedString())")
                break
            }
        }
        XCTAssertEqual(answered, count)
        harness.finish()
    }

    /// A notification whose list is made as the output takes it is the frame the whole message makes, in its place
    /// among the frames sent before and after it, also when the client reads only once everything is sent.
    func testLongList_madeAsWritten_isTheWholeMessagesFrame_inOrder() {
        func item(_ index: Int) -> JSONValue {
            ["n": .int(Int64(index)), "text": .string(index % 7 == 0 ? "é\u{0}😀\"\\ \(index)" : "x")]
        }
        let harness = Harness { harness, message in
            guard case .request(let id, _, let params) = message else { return nil }
            let count = Int(params["count"]?.intValue ?? 0)
            harness.connection.sendNotification("before", ["n": .int(Int64(count))])
            harness.connection.send(
                .notification("list", ListBody(elements: JSONElements(count: count, element: item))))
            return .response(id: id, result: .int(Int64(count)))
        }
        let counts = [0, 1, 300, 40_000, 2]
        harness.write(
            counts.enumerated().map { index, count in
                frame(#"{"jsonrpc":"2.0","id":\#(index + 1),"method":"long","params":{"count":\#(count)}}"#)
            }.joined())
        harness.closeInput()
        let output = harness.readAll()
        harness.finish()
        func framed(_ message: Message) -> [UInt8] {
            let body = message.json.serialized()
            return Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        }
        var expected: [UInt8] = []
        for (index, count) in counts.enumerated() {
            expected += framed(.notification(method: "before", params: ["n": .int(Int64(count))]))
            expected += framed(
                .notification(
                    method: "list",
                    params: [
                        "uri": "u", "version": 3,
                        "items": .array((0..<count).map(item)),
                    ]))
            expected += framed(.response(id: .int(Int64(index + 1)), result: .int(Int64(count))))
        }
        XCTAssertGreaterThan(expected.count, 1 << 19, "more than the pipe holds waits in the queue")
        XCTAssertEqual(output.count, expected.count)
        XCTAssertTrue(
            output == expected,
            "the frames differ from the first \(zip(output, expected).prefix { $0 == $1 }.count) bytes on")
    }

    /// A client that pipelines requests from one thread while it reads the answers on another, more slowly than
    /// they are made, gets them all in order, and the connection reads its requests as it takes the answers: the
    /// answers made and not yet read stay near a megabyte, not the whole burst's 8 MB.
    /// A result whose members are written straight from typed values is sent as the same bytes as its value, alone
    /// and in a batch; an error sent through the channel is the request's reply as well.
    func testAnswersSentThroughTheChannel_areTheRepliesTheirValuesMake() {
        let harness = Harness { harness, message in
            guard case .request(let id, let method, let params) = message else { return nil }
            let text = params["text"]?.stringValue ?? ""
            if method == "fail" {
                harness.connection.send(.response(to: id, .failure(.invalidParams("no \(text)"))))
            } else {
                harness.connection.send(.response(to: id, .success(WrittenBody(text: text, number: text.count))))
            }
            return nil
        }
        let texts = ["", "a", "é\u{0}😀\"\\", String(repeating: "x", count: 5000)]
        func body(_ id: Int, _ method: String, _ text: String) -> String {
            let params = JSONValue.object(["text": .string(text)]).serializedString()
            return #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
        }
        for (index, text) in texts.enumerated() {
            harness.writeFrames(body(index, "write", text))
            XCTAssertEqual(
                harness.readMessage(),
                .object([
                    "jsonrpc": "2.0", "id": .int(Int64(index)),
                    "result": WrittenBody(text: text, number: text.count).json,
                ]))
        }
        harness.writeFrames(
            "["
                + texts.enumerated().map { body($0 + 10, $0 % 2 == 0 ? "write" : "fail", $1) }
                .joined(separator: ",") + "]")
        let expected: [JSONValue] = texts.enumerated().map { index, text in
            index % 2 == 0
                ? Message.response(
                    id: .int(Int64(index + 10)), result: WrittenBody(text: text, number: text.count).json
                ).json
                : Message.errorResponse(id: .int(Int64(index + 10)), error: .invalidParams("no \(text)")).json
        }
        XCTAssertEqual(harness.readMessage(), .array(expected))
        harness.finish()
    }

    func testPipelinedRequests_withAReaderSlowerThanTheAnswers_answersWaitingStayBounded() {
        let lock = NSLock()
        var handled = 0, taken = 0, mostWaiting = 0
        let answer = JSONValue.string(String(repeating: "a", count: 4000))
        let harness = Harness { _, message in
            guard case .request(let id, _, _) = message else { return nil }
            lock.lock()
            handled += 1
            mostWaiting = max(mostWaiting, handled - taken)
            lock.unlock()
            return .response(id: id, result: answer)
        }
        let count = 2000
        let padding = String(repeating: "p", count: 1000)
        let requests = (1...count).map {
            frame(#"{"jsonrpc":"2.0","id":\#($0),"method":"m","params":{"p":"\#(padding)"}}"#)
        }.joined()
        let writer = Thread { harness.write(requests) }
        writer.start()
        var answered = 0
        while answered < count, let reply = harness.readMessage() {
            answered += 1
            XCTAssertEqual(reply["id"], .int(Int64(answered)))
            XCTAssertEqual(reply["result"], answer)
            lock.lock()
            taken += 1
            lock.unlock()
            usleep(1000)
        }
        XCTAssertEqual(answered, count)
        harness.finish()
        // A megabyte is 260 answers, and one read's requests (64 KiB) make 64 more.
        XCTAssertLessThan(mostWaiting, count / 2, "answers made before the client read them")
    }

    /// Prints the median round trip of a request through the pipes; it asserts nothing about time.
    func testSpeed_roundTripThroughPipes() {
        let harness = Harness()
        var samples: [UInt64] = []
        for id in 1...2000 {
            let start = DispatchTime.now().uptimeNanoseconds
            harness.writeFrames(request(id))
            guard harness.readMessage() != nil else { break }
            samples.append(DispatchTime.now().uptimeNanoseconds - start)
        }
        harness.finish()
        XCTAssertEqual(samples.count, 2000)
        samples.sort()
        print("round trip through pipes, median: \(Double(samples[samples.count / 2]) / 1000) µs")
    }
}

/// Params whose `items` member is a list made as it is written.
private struct ListBody: OutgoingBody {
    let elements: JSONElements
    var json: JSONValue { ["uri": "u", "version": 3] }
    var longList: (member: String, elements: JSONElements)? { ("items", elements) }
}

/// A result written member for member straight from typed values.
private struct WrittenBody: OutgoingBody {
    let text: String
    let number: Int
    var json: JSONValue { ["text": .string(text), "number": .int(Int64(number)), "nested": ["empty": .null]] }
    var writesMembers: Bool { true }
    func writeMembers(to object: JSONObjectWriter) {
        object.set("text", text)
        object.set("number", number)
        object.setObject("nested") { $0.setNull("empty") }
    }
}
