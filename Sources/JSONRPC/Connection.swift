// The JSONRPC layer: the stdio connection, the only code in maskd that reads or writes file descriptors;
// see ARCHITECTURE.md.

import JSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A JSON-RPC 2.0 connection over a pair of file descriptors, framed as the LSP base protocol.
///
/// ``run(_:)`` reads on the calling thread and calls the handler there, one message at a time, with no thread hop;
/// a request's response is the handler's return value.
///
/// What the connection does by itself, without calling the handler:
/// - A body that is not JSON, or not UTF-8, is ``ErrorCode/parseError``; a JSON body that is not a valid envelope
///   is ``ErrorCode/invalidRequest``. When the broken message had a usable id, the connection answers it with an
///   error response; otherwise, and for framing errors, it sends a `window/logMessage` notification of type 1
///   (error) and calls ``log``. It keeps serving either way.
/// - `$/cancelRequest`: frames that arrive in one read are all decoded before any is dispatched; a queued request
///   that a later `$/cancelRequest` in the same queue cancels is answered ``ErrorCode/requestCancelled`` and never
///   reaches the handler. Cancels for other ids (unknown, or already answered) are ignored. Other `$/`
///   notifications reach the handler.
/// - A JSON array body is a batch: the handler is called for each element, and the responses go back as one array,
///   or not at all when there are none. As JSON-RPC 2.0 says, a broken element is answered in that array with an
///   ``ErrorCode/invalidRequest`` error, under its id when it had a usable one and under a `null` id otherwise (a
///   non-object such as the `1` of `[1]`, an object that is no message); only a broken response is never answered,
///   just logged. An empty batch `[]` is answered with one such error (not an array).
///
/// Output never blocks the reader: when the output pipe is full, frames wait in a queue and ``run(_:)`` keeps
/// reading input while it waits for room (the output descriptor is made non-blocking while ``run(_:)`` runs). Only
/// while more than a megabyte waits does it stop reading until the client takes some, so a client pipelining many
/// requests as it reads the answers does not make them pile up; when the output takes nothing for 100 ms (a client
/// that reads only once it has written everything), it reads on.
/// Nothing but frames is ever written to the output; diagnostics go to ``log``. The frames sent while the messages of
/// one read are handled are kept and written together, in one `write(2)`, with the first frame sent for the last of
/// them (or before a notification is handled): pipelined requests cost one write per read, and a lone message's
/// frames go out the moment they are sent, as unbatched ones would.
///
/// - Note: A connection is not thread-safe: call ``send(_:)`` and its relatives from the thread that runs
///   ``run(_:)`` (for example from the handler), or before ``run(_:)`` starts.
public final class Connection {
    /// The descriptor read for incoming frames.
    public let input: Int32
    /// The descriptor written with outgoing frames.
    public let output: Int32
    /// Receives diagnostics (framing errors, broken messages, I/O errors); by default, writes a line to stderr.
    public var log: (String) -> Void = { writeLineToStandardError($0) }
    /// Called once every message of a read has been handled (and not after ``stop()``): the place to send what
    /// a burst of messages changed once for the burst, not once per message.
    public var afterMessages: () -> Void = {}
    /// How long the connection may wait for input before calling ``onTimeout``, in milliseconds (nil: as long as it
    /// takes). Asked each time ``run(_:)`` is about to wait: the poll timeout is the one timer, so no thread is needed.
    public var timeout: () -> Int? = { nil }
    /// Called when the time ``timeout`` gave has passed with no input (and not after ``stop()``).
    public var onTimeout: () -> Void = {}

    private var splitter: FrameSplitter
    private var handler: ((Message) -> Message?)?
    /// Output that could not be written yet: chunks in order (a frame or a batch each, or a frame made as it is
    /// written), from `queuedHead` on, the first of them from byte `queuedStart` on. Chunks, not one growing buffer,
    /// so a long backlog (a client reading slowly while it pipelines requests) costs its size and no copies when it
    /// grows.
    private var queued: [OutputChunk] = []
    private var queuedHead = 0
    private var queuedStart = 0
    /// The bytes of queued frames held in memory, not yet written (frames made as written count for nothing).
    private var queuedBytes = 0
    /// How many of the queued chunks are frames made as they are written.
    private var madeFramesQueued = 0
    /// Set when the output took nothing for ``stallMilliseconds`` while reading was paused: reading goes on (a client
    /// may read only once it has written everything) until the output takes something again.
    private var outputStalled = false
    /// While a queue read at once is dispatched: the frames it has produced so far, written by `writeBatch`.
    private var batching = false
    private var batch: [UInt8] = []
    /// The buffer each frame is built in, reused.
    private var frame: [UInt8] = []
    /// Set when the output is gone (EPIPE or another write error); ``run(_:)`` then returns.
    private var outputClosed = false
    /// Set by ``stop()``: ``run(_:)`` reads no more, writes what is queued and returns.
    private var stopRequested = false
    private var lastRequestID: Int64 = 0
    /// Set while the handler runs: a response sent then (``send(_:)-swift.method``) is held as its reply.
    private var handling = false
    /// The response sent through ``Outbound`` while the handler ran, to go where a returned one would.
    private var heldReply: (id: RequestID, answer: Result<any OutgoingBody, ResponseError>)?

    /// Creates a connection; nothing is read until ``run(_:)``.
    ///
    /// - Parameters:
    ///   - input: the descriptor to read (default: standard input).
    ///   - output: the descriptor to write (default: standard output).
    ///   - maxMessageSize: the largest body accepted, in bytes; larger frames are skipped and logged.
    public init(input: Int32 = 0, output: Int32 = 1, maxMessageSize: Int = 64 << 20) {
        self.input = input
        self.output = output
        // A body of a mebibyte or more (a didOpen of a big document) stays in the chunks it is read in, each given up
        // as jansson reads it, so the body and jansson's copies of its text are not all held at once.
        splitter = FrameSplitter(maxMessageSize: maxMessageSize, chunkingFrom: 1 << 20)
    }

    /// Reads and dispatches messages until the input ends, the output is closed, or ``stop()`` is called.
    ///
    /// `SIGPIPE` is ignored from then on, so a closed output shows up as a write error, which ends the loop.
    /// At the end of input (also in the middle of a frame) and after ``stop()``, queued output is written before
    /// returning.
    ///
    /// - Parameter handler: called for every request, notification and response, on this thread. For a request it
    ///   returns the response (nil means the handler will ``send(_:)`` it later); for other messages it returns nil
    ///   (a message it does return is sent).
    public func run(_ handler: @escaping (Message) -> Message?) {
        signal(SIGPIPE, SIG_IGN)
        let flags = fcntl(output, F_GETFL)
        if flags >= 0, flags & O_NONBLOCK == 0 { _ = fcntl(output, F_SETFL, flags | O_NONBLOCK) }
        defer { if flags >= 0, flags & O_NONBLOCK == 0 { _ = fcntl(output, F_SETFL, flags) } }
        self.handler = handler
        defer {
            self.handler = nil
            stopRequested = false
        }

        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var inputOpen = true
        while !outputClosed {
            guard inputOpen, !stopRequested else {
                guard hasPendingOutput else { break }
                // After stop() or the end of input (the client is gone or done), a client that neither reads nor closes its
                // end must not hold the process for ever: output that takes nothing for 10 seconds is given up.
                guard wait(for: output, events: Int16(POLLOUT), timeout: Connection.finalWriteMilliseconds) else {
                    let bytes = queued[queuedHead...].reduce(0) { $0 + $1.byteCount } - queuedStart
                    log("maskd: gave up writing \(bytes) queued bytes: the output takes nothing")
                    break
                }
                flush()
                continue
            }
            if hasPendingOutput, queuedBytes >= Connection.pauseReadingAt, !outputStalled {
                // A client pipelining many requests while it reads the answers (100,000 openFields) is read once it has
                // taken the answers already queued, so they do not pile up in memory; one that takes nothing for a while
                // may be writing everything before it reads, and is read on.
                if wait(for: output, events: Int16(POLLOUT), timeout: Connection.stallMilliseconds) {
                    flush()
                } else {
                    outputStalled = true
                }
                continue
            }
            var readable = true
            let waitLimit = timeout()
            if hasPendingOutput || waitLimit != nil {
                var fds = [
                    pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: output, events: Int16(POLLOUT), revents: 0),
                ]
                let count = poll(&fds, hasPendingOutput ? 2 : 1, Connection.pollTimeout(waitLimit))
                guard count >= 0 else {
                    if errno == EINTR { continue }
                    log("maskd: poll failed: \(describeErrno())")
                    break
                }
                if count == 0 {
                    onTimeout()
                    continue
                }
                if hasPendingOutput, fds[1].revents != 0 { flush() }
                readable = fds[0].revents != 0
            }
            guard readable else { continue }
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.withUnsafeBytes { splitter.append(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
                dispatchFrames()
            } else if count == 0 {
                inputOpen = false
                if !splitter.isAtFrameBoundary { log("maskd: input ended in the middle of a message") }
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                // The input is non-blocking (it may share its file description with the output): wait for it.
                if !hasPendingOutput,
                    !wait(for: input, events: Int16(POLLIN), timeout: Connection.pollTimeout(timeout()))
                {
                    onTimeout()
                }
            } else if errno != EINTR {
                log("maskd: read failed: \(describeErrno())")
                inputOpen = false
            }
        }
    }

    /// Makes ``run(_:)`` return once the message being handled is done and every queued frame is written.
    ///
    /// Messages that arrived after the current one (in the same read, or later in its batch) are not dispatched. Call it from the handler,
    /// for example on the `exit` notification, so the replies and notifications already sent still reach the
    /// client: the process can then end with its exit code after ``run(_:)`` returns. Output is given up after
    /// 10 seconds in which the output descriptor takes no byte.
    public func stop() {
        stopRequested = true
    }

    /// Sends a message.
    ///
    /// The frame is written at once when the output has room, and queued otherwise; once the output is closed,
    /// messages are dropped.
    public func send(_ message: Message) {
        write(message.json)
    }

    /// Sends a notification.
    public func sendNotification(_ method: String, _ params: JSONValue) {
        send(.notification(method: method, params: params))
    }

    /// Sends a notification whose `params` member `member` is a long array, made and written one element at a time
    /// (`textDocument/publishDiagnostics` of 100,000 fields), so it never exists as values, nor as text, all at once:
    /// the frame's length is measured first (each element made once), then its text is made a piece at a time as the
    /// output takes it. `elements` must give the same elements until the frame is written.
    private func sendNotification(_ method: String, _ params: JSONValue, member: String, elements: JSONElements) {
        var params = params
        if case .object(var object) = params {
            object[member] = nil
            object[member] = .array([])
            params = .object(object)
        }
        writeMade(
            Message.notification(method: method, params: params).json.pieces(
                elementsAt: ["params", member],
                elements))
    }

    /// Sends a request to the client (such as `workspace/applyEdit`); its response reaches the handler.
    ///
    /// - Returns: the request's id, unique on this connection (integers counting from 1).
    @discardableResult
    public func sendRequest(_ method: String, _ params: JSONValue) -> RequestID {
        lastRequestID += 1
        let id = RequestID.int(lastRequestID)
        send(.request(id: id, method: method, params: params))
        return id
    }

    // MARK: - Dispatch

    /// One entry of the queue built from one read.
    private enum Incoming {
        case message(Message)
        case batch([BatchElement])
        case malformed(DecodingFailure)
        /// An empty batch: answered with one error under a `null` id.
        case invalidBatch(DecodingFailure)
        case framingError(FramingError)
    }

    /// One element of a batch: a message, or how to answer a broken one.
    private enum BatchElement {
        case message(Message)
        /// Answered with an error response (under a `null` id when `failure.id` is nil).
        case answered(DecodingFailure)
        /// A broken response: logged only, since responses are not answered.
        case logged(DecodingFailure)
    }

    /// Decodes every frame available, then dispatches them in order.
    private func dispatchFrames() {
        var queue: [Incoming] = []
        while let event = splitter.next() {
            switch event {
            case .message(let body): queue.append(decode(body))
            case .chunkedMessage(let body): queue.append(decode(body))
            case .error(let error): queue.append(.framingError(error))
            }
        }
        // Where the last cancel of each id stands, counting messages (batch elements included) in queue order.
        var cancels: [RequestID: Int] = [:]
        var position = 0
        for incoming in queue {
            switch incoming {
            case .message(let message):
                noteCancel(message, at: position, in: &cancels)
                position += 1
            case .batch(let elements):
                for case .message(let message) in elements {
                    noteCancel(message, at: position, in: &cancels)
                    position += 1
                }
            case .malformed, .invalidBatch, .framingError:
                break
            }
        }
        position = 0
        // The frames sent while this queue is handled go out together (see `writeBatch`); those of its last message
        // (and so those of a message read alone) as soon as each is sent.
        batching = true
        // `afterMessages` runs once, before the last message's reply: a client waiting for that reply has by then
        // what the messages before it changed, as if each had been answered alone.
        var finished = false
        func finish() {
            guard !finished, !stopRequested else { return }
            finished = true
            afterMessages()
        }
        defer {
            finish()
            batching = false
            writeBatch()
        }
        for (index, incoming) in queue.enumerated() {
            if stopRequested { return }
            let last = index == queue.count - 1
            if last { batching = false }
            switch incoming {
            case .message(let message):
                // A notification's handler may end the process (`exit`): what was answered before it goes out first.
                if case .notification = message { writeBatch() }
                let reply = handle(message, at: position, cancels: cancels)
                let held = takeHeldReply()
                if last { finish() }
                if let reply {
                    send(reply)
                } else if let (id, answer) = held {
                    writeResponse(to: id, answer)
                }
                position += 1
            case .batch(let elements):
                var replies: [JSONValue] = []
                for element in elements {
                    // After `exit` nothing more is handled, in a batch as elsewhere; what came before it is answered.
                    if stopRequested { break }
                    switch element {
                    case .message(let message):
                        let reply = handle(message, at: position, cancels: cancels)
                        let held = takeHeldReply()
                        if let reply {
                            replies.append(reply.json)
                        } else if let (id, answer) = held {
                            switch answer {
                            case .success(let result):
                                replies.append(Message.response(id: id, result: result.value).json)
                            case .failure(let error): replies.append(Message.errorResponse(id: id, error: error).json)
                            }
                        }
                        position += 1
                    case .answered(let failure):
                        replies.append(Message.errorResponse(id: failure.id, error: failure.error).json)
                        log(
                            "maskd: answered a broken message in a batch (id \(failure.id?.description ?? "null")): "
                                + failure.error.message)
                    case .logged(let failure):
                        report("maskd: a response in a batch was refused: \(failure.error.message)")
                    }
                }
                if last { finish() }
                if !replies.isEmpty { write(JSONValue.array(replies)) }
            case .invalidBatch(let failure):
                send(.errorResponse(id: nil, error: failure.error))
                log("maskd: answered a broken batch: \(failure.error.message)")
            case .malformed(let failure):
                if let id = failure.id {
                    send(.errorResponse(id: id, error: failure.error))
                    log("maskd: answered a broken request \(id): \(failure.error.message)")
                } else {
                    report("maskd: a message was refused (\(failure.error.code)): \(failure.error.message)")
                }
            case .framingError(let error):
                report("maskd: framing: \(error.message)")
            }
        }
    }

    /// Reads one body as JSON, then as an envelope or a batch of envelopes.
    private func decode(_ body: [UInt8]) -> Incoming {
        decode { try JSONValue.parse(body) }
    }

    /// Reads one large body, given up a chunk at a time as jansson reads it.
    private func decode(_ body: ByteChunks) -> Incoming {
        decode { try JSONValue.parse(body) }
    }

    private func decode(_ parse: () throws -> JSONValue) -> Incoming {
        let value: JSONValue
        do {
            value = try parse()
        } catch {
            return .malformed(DecodingFailure(id: nil, error: .parseError("invalid JSON: \(error)")))
        }
        if case .array(let elements) = value {
            guard !elements.isEmpty else {
                return .invalidBatch(DecodingFailure(id: nil, error: .invalidRequest("an empty batch")))
            }
            return .batch(
                elements.map { element in
                    switch Message.decode(element) {
                    case .success(let message):
                        return .message(message)
                    case .failure(let failure):
                        // A broken response (no method, but a result or an error) is not answered; anything else is.
                        if failure.id == nil, case .object(let object) = element, object["method"] == nil,
                            object["result"] != nil || object["error"] != nil
                        {
                            return .logged(failure)
                        }
                        return .answered(failure)
                    }
                })
        }
        switch Message.decode(value) {
        case .success(let message): return .message(message)
        case .failure(let failure): return .malformed(failure)
        }
    }

    /// Records a `$/cancelRequest` at `position`.
    private func noteCancel(_ message: Message, at position: Int, in cancels: inout [RequestID: Int]) {
        guard case .notification("$/cancelRequest", let params) = message, let id = RequestID(json: params["id"]) else {
            return
        }
        cancels[id] = position
    }

    /// Dispatches one message, answering a request that a later cancel in the queue cancelled.
    private func handle(_ message: Message, at position: Int, cancels: [RequestID: Int]) -> Message? {
        switch message {
        case .request(let id, let method, _):
            if let cancel = cancels[id], cancel > position {
                return .errorResponse(id: id, error: .requestCancelled("\(method) was cancelled before it was handled"))
            }
        case .notification("$/cancelRequest", _):
            return nil
        default:
            break
        }
        handling = true
        defer { handling = false }
        return handler?(message)
    }

    /// The response sent while the last message was handled, taken.
    private func takeHeldReply() -> (id: RequestID, answer: Result<any OutgoingBody, ResponseError>)? {
        guard let held = heldReply else { return nil }
        heldReply = nil
        return held
    }

    /// Tells the client about a problem that has no request to answer, and logs it.
    private func report(_ text: String) {
        log(text)
        sendNotification("window/logMessage", ["type": 1, "message": .string(text)])
    }

    // MARK: - Output

    /// Writes a response, its result as the body offers it: members written straight from typed values, or a value.
    private func writeResponse(to id: RequestID, _ answer: Result<any OutgoingBody, ResponseError>) {
        switch answer {
        case .success(let result) where result.goesAsMembers:
            write { Message.serializeResponse(id: id, into: &$0, result: result.writeMembers) }
        case .success(let result):
            send(.response(id: id, result: result.value))
        case .failure(let error):
            send(.errorResponse(id: id, error: error))
        }
    }

    private var hasPendingOutput: Bool { queuedHead < queued.count }

    /// Frames a message and writes it, or keeps it for the batch being built, or queues what does not fit.
    private func write(_ body: JSONValue) {
        write { body.serialize(into: &$0) }
    }

    /// Frames the body that `serializeBody` appends and writes it, as ``write(_:)`` does.
    private func write(_ serializeBody: (inout [UInt8]) -> Void) {
        guard !outputClosed else { return }
        // The body is serialised behind room for the longest header, which is then written just before it, so a
        // frame is built in one reused buffer with no copy.
        let headerRoom = Connection.headerRoom
        frame.removeAll(keepingCapacity: frame.capacity <= 1 << 20)
        frame.append(contentsOf: repeatElement(0, count: headerRoom))
        serializeBody(&frame)
        let start = frame.withUnsafeMutableBufferPointer { buffer in
            Connection.writeHeader(bodyLength: buffer.count - headerRoom, endingAt: headerRoom, in: buffer)
        }
        if !batching, batch.isEmpty, !hasPendingOutput, frame.count >= 1 << 20 {
            // A long frame (a publication of 100,000 diagnostics) is queued as it is, not copied: what the descriptor
            // does not take at once stays in it.
            var long: [UInt8] = []
            swap(&long, &frame)
            let written = long.withUnsafeBytes { writeSome(UnsafeRawBufferPointer(rebasing: $0[start...])) }
            if start + written < long.count, !outputClosed {
                queued.append(.bytes(long))
                queuedStart = start + written
                queuedBytes += long.count - queuedStart
            }
            return
        }
        frame.withUnsafeBytes { all in
            let bytes = UnsafeRawBufferPointer(rebasing: all[start...])
            if batching {
                batch.append(contentsOf: bytes)
            } else if !batch.isEmpty {
                batch.append(contentsOf: bytes)
                writeBatch()
            } else {
                writeNow(bytes)
            }
        }
    }

    /// Frames a body given in pieces and writes it as the output takes it, after what was sent before it.
    private func writeMade(_ pieces: JSONPieces) {
        guard !outputClosed else { return }
        let length = pieces.byteCount()
        var head = [UInt8](repeating: 0, count: Connection.headerRoom)
        head.append(contentsOf: pieces.before)
        let start = head.withUnsafeMutableBufferPointer { buffer in
            Connection.writeHeader(bodyLength: length, endingAt: Connection.headerRoom, in: buffer)
        }
        // The frames kept for the batch were sent first, so they go first.
        writeBatch()
        let wasWriting = hasPendingOutput
        queued.append(.made(MadeFrame(head: head, from: start, bodyLength: length, pieces: pieces)))
        madeFramesQueued += 1
        if !wasWriting { flush() }
    }

    /// Room for `Content-Length: ` with 20 digits and the blank line.
    private static let headerRoom = 40

    /// How many queued bytes pause reading until the client takes some (see `run`). A quarter of a mebibyte: at a
    /// mebibyte the answers waiting for a client opening 100,000 fields were a megabyte of the daemon's peak memory.
    static let pauseReadingAt = 1 << 18
    /// How long the output may take nothing while reading is paused before reading goes on.
    static let stallMilliseconds: Int32 = 100
    /// How long the output may take nothing once reading has stopped before the rest of it is given up.
    static let finalWriteMilliseconds: Int32 = 10_000

    /// Writes `Content-Length: N\r\n\r\n` so that it ends at `end`. - Returns: where it starts.
    private static func writeHeader(bodyLength: Int, endingAt end: Int, in buffer: UnsafeMutableBufferPointer<UInt8>)
        -> Int
    {
        var index = end
        func put(_ byte: UInt8) {
            index -= 1
            buffer[index] = byte
        }
        for byte in "\r\n\r\n".utf8.reversed() { put(byte) }
        var length = bodyLength
        repeat {
            put(UInt8(ascii: "0") + UInt8(length % 10))
            length /= 10
        } while length > 0
        for byte in "Content-Length: ".utf8.reversed() { put(byte) }
        return index
    }

    /// Writes the frames kept while a queue was handled, in one call.
    ///
    /// Answers to messages that arrived in one read cost one `write(2)` (and one wake-up of the reader) instead of
    /// one each; a lone message's frames are written as soon as they are sent, as before.
    private func writeBatch() {
        guard !batch.isEmpty else { return }
        batch.withUnsafeBytes { writeNow($0) }
        batch.removeAll(keepingCapacity: batch.capacity <= 1 << 20)
    }

    /// Writes bytes at once when nothing is queued, and queues what the descriptor does not take.
    private func writeNow(_ bytes: UnsafeRawBufferPointer) {
        guard !outputClosed else { return }
        guard !hasPendingOutput else {
            queued.append(.bytes(Array(bytes)))
            queuedBytes += bytes.count
            return
        }
        let written = writeSome(bytes)
        if written < bytes.count, !outputClosed {
            queued.append(.bytes(Array(bytes[written...])))
            queuedStart = 0
            queuedBytes += bytes.count - written
        }
    }

    /// Writes as much queued output as the descriptor takes now.
    private func flush() {
        writing: while hasPendingOutput, !outputClosed {
            switch queued[queuedHead] {
            case .bytes(let chunk):
                let written = chunk.withUnsafeBytes { writeSome(UnsafeRawBufferPointer(rebasing: $0[queuedStart...])) }
                queuedStart += written
                queuedBytes -= written
                if written > 0 { outputStalled = false }
                guard queuedStart == chunk.count else { break writing }
            case .made(let made):
                // Made a piece at a time, each written before the next is made.
                while made.refill() {
                    let written = made.buffer.withUnsafeBytes {
                        writeSome(UnsafeRawBufferPointer(rebasing: $0[made.start...]))
                    }
                    made.start += written
                    if written > 0 { outputStalled = false }
                    guard made.start == made.buffer.count else { break writing }
                }
                madeFramesQueued -= 1
            }
            queued[queuedHead] = .bytes([])
            queuedHead += 1
            queuedStart = 0
        }
        if !hasPendingOutput || outputClosed {
            queued.removeAll()
            queuedHead = 0
            queuedStart = 0
            queuedBytes = 0
            madeFramesQueued = 0
        } else if queuedHead >= 64, queuedHead * 2 >= queued.count {
            queued.removeFirst(queuedHead)
            queuedHead = 0
        }
    }

    /// Writes until done, until the descriptor would block, or until it fails (which closes the output).
    ///
    /// - Returns: the number of bytes written.
    private func writeSome(_ bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while offset < bytes.count {
            let count = writeDescriptor(output, bytes.baseAddress! + offset, bytes.count - offset)
            if count > 0 {
                offset += count
            } else if count < 0, errno == EINTR {
                continue
            } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                break
            } else {
                if errno != EPIPE { log("maskd: write failed: \(describeErrno())") }
                outputClosed = true
                break
            }
        }
        return offset
    }

    /// A ``timeout`` as poll(2) takes it: -1 for none, else clamped to 0...Int32.max.
    private static func pollTimeout(_ milliseconds: Int?) -> Int32 {
        guard let milliseconds else { return -1 }
        return Int32(clamping: max(0, milliseconds))
    }

    /// Blocks until `fd` is ready for `events` (or fails), or for at most `timeout` milliseconds (-1: no limit).
    ///
    /// - Returns: false when the time ran out first.
    @discardableResult
    private func wait(for fd: Int32, events: Int16, timeout: Int32 = -1) -> Bool {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let count = poll(&entry, 1, timeout)
            if count < 0, errno == EINTR { continue }
            return count != 0
        }
    }
}

/// One piece of queued output.
private enum OutputChunk {
    case bytes([UInt8])
    /// A frame whose text is made as the output takes it.
    case made(MadeFrame)

    /// The bytes still to write (of a chunk at its start).
    var byteCount: Int {
        switch self {
        case .bytes(let bytes): return bytes.count
        case .made(let made): return made.unwritten
        }
    }
}

/// A frame (its header and the text before its elements made at once) whose elements are made a few at a time
/// as the output takes them: about 64 KiB of text exists at once, not the frame.
private final class MadeFrame {
    let pieces: JSONPieces
    /// Made and not yet written: `buffer` from `start` on.
    var buffer: [UInt8]
    var start: Int
    /// The next element to make; `pieces.elements.count` once all are, and one more once the text after is too.
    private var next = 0
    /// The frame's bytes made before `buffer`, where the frame starts in it, and the frame's length.
    private var madeBefore = 0
    private var frameStart: Int
    private let total: Int

    /// - Parameter head: room, then from `start` on the header and the body's text before its elements.
    init(head: [UInt8], from start: Int, bodyLength: Int, pieces: JSONPieces) {
        self.pieces = pieces
        buffer = head
        self.start = start
        frameStart = start
        total = head.count - start - pieces.before.count + bodyLength
    }

    var unwritten: Int { total - madeBefore - (start - frameStart) }

    /// Makes the next piece when the buffer is written. - Returns: false once the whole frame is written.
    func refill() -> Bool {
        guard start == buffer.count else { return true }
        let count = pieces.elements.count
        guard next <= count else { return false }
        madeBefore += buffer.count - frameStart
        buffer.removeAll(keepingCapacity: true)
        (start, frameStart) = (0, 0)
        while next < count, buffer.count < 1 << 16 {
            pieces.append(element: next, to: &buffer)
            next += 1
        }
        if next == count {
            buffer.append(contentsOf: pieces.after)
            next += 1
        }
        return true
    }
}

/// Calls write(2); a method of `Connection` would otherwise hide it.
private func writeDescriptor(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}

/// The current `errno` in words.
private func describeErrno() -> String {
    let code = errno
    return "\(String(cString: strerror(code))) (errno \(code))"
}

/// Writes one line to standard error, unbuffered.
private func writeLineToStandardError(_ text: String) {
    var line = text
    line.append("\n")
    line.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let count = write(2, bytes.baseAddress! + offset, bytes.count - offset)
            if count <= 0 { break }
            offset += count
        }
    }
}

extension Connection: Outbound {
    /// Sends a server's message, written as its body allows: a notification's long list
    /// (``JSONValue/piecewiseArrayLength`` elements or more) an element at a time as the output takes it, members of
    /// short lists straight from typed values, else the value. A response sent while the handler runs is its reply: it goes where a returned one would (in its batch,
    /// or after ``afterMessages`` for the last message of a read).
    @discardableResult
    public func send(_ message: OutgoingMessage) -> RequestID? {
        switch message {
        case .notification(let method, let params):
            if let list = params.streamedList {
                sendNotification(method, params.json, member: list.member, elements: list.elements)
            } else if params.goesAsMembers {
                write { Message.serializeNotification(method, into: &$0, params: params.writeMembers) }
            } else {
                send(.notification(method: method, params: params.value))
            }
            return nil
        case .request(let method, let params):
            return sendRequest(method, params.value)
        case .response(let id, let answer):
            if handling {
                heldReply = (id, answer)
            } else {
                writeResponse(to: id, answer)
            }
            return nil
        }
    }

    /// Whether a frame made as it is written (a long list) is still queued.
    public var isWritingLongList: Bool { madeFramesQueued > 0 }
}
