// maskd: `maskd format` over standard input: one formatted line out per line in, streamed through the engine.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import JSON
import MaskCatalog
import MaskEngine
import MaskServer

/// The longest line read as a field, in bytes: longer ones are copied through unformatted and reported, so memory
/// stays one buffer whatever the input.
let longestLine = 1 << 16

/// Formats standard input line by line (Protocol/protocol.md, section 7, "Bulk formatting").
///
/// Each line is formatted on its own, ended as it came (`\n`, `\r\n`, or nothing for a last line without one).
/// A line that cannot be read as a field (invalid UTF-8, longer than `longestLine`) is reported on standard error
/// and copied to standard output as it came, so output line N is always input line N.
/// With `jobs` above 1, blocks of lines are formatted by that many threads and written in input order, the same
/// bytes as with one; what has been read is written before waiting for more input either way, so a caller may
/// stream batches through one process.
/// - Returns: the exit code: 0, or 1 when a line was reported (with `check`, any line not complete and valid).
/// - Parameter threadMasks: the masks of each thread, sharing no object with `masks` (threads sharing objects contend
///   for their reference counts): a copy of the one mask; tagged lines' masks each thread compiles for itself.
func formatLines(
    _ masks: LineMasks, json: Bool, check: Bool, output: LineOutput = .text, jobs: Int = 1,
    threadMasks: () -> LineMasks
) -> Int32 {
    let formatting = LineFormatting(masks: masks, json: json, check: check, output: output)
    let summary = check && !json
    if jobs <= 1 {
        var sink = FormattingHere(formatting: formatting)
        return readLines(into: &sink, summary: summary)
    }
    let perThread = (0..<jobs).map { _ in
        LineFormatting(masks: threadMasks(), json: json, check: check, output: output)
    }
    var sink = FormattingInParallel(formatting: formatting, perThread: perThread)
    return readLines(into: &sink, summary: summary)
}

/// Where `readLines` hands what it read, in input order.
protocol LineSink {
    /// Formats the complete lines of `block` (each ended by `\n`; with `final`, also a last one without), the first
    /// of them line `firstLine`.
    mutating func lines(_ block: UnsafeBufferPointer<UInt8>, firstLine: Int, final: Bool)
    /// Line `number` is longer than the buffer: reported once, then its bytes come through `copy`.
    mutating func longLine(_ number: Int)
    /// Bytes of a long line, copied as they came.
    mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>)
    /// Writes everything handed over so far (before the reader waits for input, and at the end).
    /// - Returns: false when standard output failed.
    mutating func flush() -> Bool
    /// Bytes formatted and not yet written: the reader writes them once they pass `longestLine`, input waiting
    /// or not, so memory stays bounded when the input is a file.
    var unwritten: Int { get }
    /// Lines reported so far.
    var failed: Int { get }
}

/// Reads standard input into a buffer of `longestLine` bytes and hands the sink each run of complete lines;
/// a line that fills the buffer without a break is a long line, copied through a buffer at a time.
private func readLines<Sink: LineSink>(into sink: inout Sink, summary: Bool) -> Int32 {
    var progress = ProgressLine()
    // Room for the longest line and its "\r\n"; a line that fills it without a break is longer.
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: longestLine + 2, alignment: 16)
    defer { buffer.deallocate() }
    let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
    var start = 0, end = 0
    var lineNumber = 0
    // True while copying the rest of a line longer than the buffer.
    var copyingLongLine = false
    var atEnd = false

    // The progress line is taken off the terminal while anything else is written to it.
    func flush() {
        let hide = progress.shown
        if hide { progress.erase() }
        if !sink.flush() {
            let problem = String(cString: strerror(errno))
            writeStandardError("maskd: cannot write standard output: \(problem)\n")
            exit(1)
        }
        if hide { progress.redraw() }
    }

    while true {
        if copyingLongLine, start < end, let newline = memchr(base + start, 0x0A, end - start) {
            let stop = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
            sink.copy(UnsafeBufferPointer(start: base + start, count: stop + 1 - start))
            copyingLongLine = false
            start = stop + 1
        }
        if !copyingLongLine, start < end {
            // Every complete line in the buffer, and at the end the last one without a break.
            let cut = atEnd ? end : lastNewline(base, start, end).map { $0 + 1 } ?? start
            if cut > start {
                let block = UnsafeBufferPointer(start: base + start, count: cut - start)
                sink.lines(block, firstLine: lineNumber + 1, final: atEnd)
                lineNumber += lineCount(block, final: atEnd)
                start = cut
            }
        }
        if atEnd {
            if start < end { sink.copy(UnsafeBufferPointer(start: base + start, count: end - start)) }
            break
        }
        // Keep the start of an unfinished line, unless it fills the whole buffer.
        if start == 0, end == buffer.count {
            if !copyingLongLine {
                lineNumber += 1
                sink.longLine(lineNumber)
                copyingLongLine = true
            }
            sink.copy(UnsafeBufferPointer(start: base, count: end))
            start = end
        }
        if start > 0 {
            memmove(base, base + start, end - start)
            end -= start
            start = 0
        }
        // What is formatted is written before waiting for more, so a slow input still streams.
        if sink.unwritten >= longestLine || !inputIsWaiting() { flush() }
        progress.update(lines: lineNumber)
        let count = read(0, base + end, buffer.count - end)
        if count > 0 {
            end += count
        } else if count == 0 {
            atEnd = true
        } else if errno != EINTR {
            let problem = String(cString: strerror(errno))
            flush()
            progress.erase()
            writeStandardError("maskd: cannot read standard input: \(problem)\n")
            return 1
        }
    }
    flush()
    progress.erase()
    let failed = sink.failed
    if summary, isatty(2) == 1 {
        writeStandardError("\(lineNumber) lines: \(lineNumber - failed) valid, \(failed) invalid\n")
    }
    return failed > 0 ? 1 : 0
}

/// Whether standard input has bytes to read now (a regular file always has): the reader writes what it has
/// formatted only before it would wait.
private func inputIsWaiting() -> Bool {
    var entry = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLIN) != 0
}

/// The offset of the last `\n` in `base[start..<end]`.
private func lastNewline(_ base: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
    var at = end - 1
    while at >= start, base[at] != 0x0A { at -= 1 }
    return at >= start ? at : nil
}

/// The lines in a block: its line breaks, plus a last line without one when `final`.
private func lineCount(_ block: UnsafeBufferPointer<UInt8>, final: Bool) -> Int {
    guard let base = block.baseAddress else { return 0 }
    var count = 0, at = 0
    while at < block.count, let newline = memchr(base + at, 0x0A, block.count - at) {
        count += 1
        at = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
    }
    return count + (final && at < block.count ? 1 : 0)
}

/// What `maskd format --output` writes of each field: its text (the default), its value, or one of
/// libphonenumber's forms of a phone number (Protocol/protocol.md, "Bulk formatting").
enum LineOutput: String, CaseIterable {
    case text, value, e164, rfc3966, national, international

    init(_ name: String?) throws {
        guard let name else {
            self = .text
            return
        }
        guard let output = LineOutput(rawValue: name) else {
            throw UsageError(
                message:
                    "--output takes one of \(LineOutput.allCases.map(\.rawValue).joined(separator: ", ")), got '\(name)'"
            )
        }
        self = output
    }

    var isPhoneForm: Bool { self != .text && self != .value }

    /// Refuses a phone form for a mask that is not the `phone` preset.
    func check(_ mask: Mask) throws {
        if isPhoneForm, !mask.isPhone {
            throw UsageError(
                message: "--output \(rawValue) is for the phone preset ({\"preset\": \"phone\", \"region\": \"US\"}); "
                    + "other masks take --output text or value", showUsage: false)
        }
    }

    /// The form of `text` read by `mask`; nil for a phone form of a text that is no number.
    func write(_ text: String, _ mask: Mask) -> String? {
        switch self {
        case .text: return mask.format(text).text
        case .value: return mask.format(text).value
        case .e164: return mask.phoneForms(text)?.e164
        case .rfc3966: return mask.phoneForms(text)?.rfc3966
        case .national: return mask.phoneForms(text)?.national
        case .international: return mask.phoneForms(text)?.international
        }
    }

    /// Why `text` has no phone form: the field's problems, or that it has no digit.
    func noNumber(_ text: String, _ mask: Mask) -> String {
        let result = mask.format(text)
        let why = result.value.isEmpty ? "no digits" : result.problems.joined(separator: "; ")
        return "no phone number (\(why.isEmpty ? "incomplete" : why)), written as an empty line"
    }
}

/// Where the lines' masks come from.
enum LineMasks {
    /// `--mask`: one mask for every line.
    case one(Mask)
    /// `--tagged`: each line names its own mask before a tab.
    case tagged
}

/// The masks tagged lines name, each compiled once (by one thread: threads share no mask).
struct TaggedMasks {
    /// A tag's mask, or why it has none.
    private var compiled: [String: Result<Mask, TagError>] = [:]
    /// Tags kept at most: a stream of ever new JSON masks keeps memory bounded.
    private static let limit = 4096
    private static let presetNames = Set(Presets.names)

    struct TagError: Error {
        let message: String
    }

    /// The last tag read, as bytes and as text, and its mask: lines of one kind often come together.
    private var last: (bytes: [UInt8], tag: String, mask: Result<Mask, TagError>)? = nil

    /// The tag of a line, which is UTF-8, as text, and its mask.
    mutating func mask(_ bytes: UnsafeBufferPointer<UInt8>) -> (tag: String, mask: Result<Mask, TagError>) {
        if let last, last.bytes.count == bytes.count,
            bytes.isEmpty
                || last.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
        {
            return (last.tag, last.mask)
        }
        let tag = String(decoding: bytes, as: UTF8.self)
        let found = mask(tag)
        last = (Array(bytes), tag, found)
        return (tag, found)
    }

    /// The mask `tag` names: a preset name (`br.cpf`), or a JSON mask object (`{"preset": "phone", ...}`).
    mutating func mask(_ tag: String) -> Result<Mask, TagError> {
        if let known = compiled[tag] { return known }
        let mask: Result<Mask, TagError>
        do {
            mask = .success(try Self.compile(tag))
        } catch let error as TagError {
            mask = .failure(error)
        } catch let error as MessageError {
            mask = .failure(TagError(message: error.message))
        } catch {
            mask = .failure(TagError(message: "\(error)"))
        }
        if compiled.count >= Self.limit { compiled.removeAll(keepingCapacity: true) }
        compiled[tag] = mask
        return mask
    }

    private static func compile(_ tag: String) throws -> Mask {
        guard tag.hasPrefix("{") else {
            guard presetNames.contains(tag) else {
                throw TagError(message: "unknown preset '\(tag)' ('maskd presets' lists them)")
            }
            return try Mask.compileUnshared(MaskSpec(.preset(tag)))
        }
        let value = try JSONValue.parse(tag)
        guard case .object = value else { throw TagError(message: "not a JSON object") }
        return try Mask.compileUnshared(try MaskSpec.compileJSON(value, path: "mask").0)
    }
}

/// The formatting of lines, into output and error buffers; the same for one thread or many.
struct LineFormatting {
    let masks: LineMasks
    let json: Bool
    let check: Bool
    let output: LineOutput
    var out = OutputBuffer(fd: 1)
    var err = OutputBuffer(fd: 2)
    var lineNumber = 0
    var failed = 0
    var tagged = TaggedMasks()
    /// Room the lines are read in, kept from line to line.
    var scratch = FormattingScratch()

    init(masks: LineMasks, json: Bool, check: Bool, output: LineOutput) {
        self.masks = masks
        self.json = json
        self.check = check
        self.output = output
    }

    /// Formats the lines of a block (see `LineSink.lines`).
    mutating func lines(_ block: UnsafeBufferPointer<UInt8>, firstLine: Int, final: Bool) {
        guard let base = block.baseAddress else { return }
        lineNumber = firstLine - 1
        var start = 0
        while start < block.count, let newline = memchr(base + start, 0x0A, block.count - start) {
            let stop = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
            let crlf = stop > start && base[stop - 1] == 0x0D
            line(
                UnsafeBufferPointer(start: base + start, count: stop - start - (crlf ? 1 : 0)),
                ending: crlf ? "\r\n" : "\n")
            start = stop + 1
        }
        if final, start < block.count {
            line(UnsafeBufferPointer(start: base + start, count: block.count - start), ending: "")
        }
    }

    /// Reports line `number` as longer than the buffer (its bytes are copied by the reader).
    mutating func longLine(_ number: Int) {
        lineNumber = number
        unreadable("longer than \(longestLine) bytes")
    }

    /// A long line's bytes: copied as they came (with `json`, the line's object is its error).
    mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
        if !json { out.append(UnsafeRawBufferPointer(bytes)) }
    }

    /// Formats one line (its ending not included) and writes it out.
    private mutating func line(_ bytes: UnsafeBufferPointer<UInt8>, ending: StaticString) {
        lineNumber += 1
        guard bytes.count <= longestLine, isUTF8(bytes) else {
            unreadable(
                bytes.count > longestLine
                    ? "longer than \(longestLine) bytes"
                    : "invalid UTF-8 at byte \(firstInvalidByte(bytes))")
            copyUnformatted(bytes, ending: ending)
            return
        }
        switch masks {
        case .one(let mask):
            write(bytes, mask, tag: nil, ending: ending)
        case .tagged:
            // An empty line (a file's last, say) has nothing to read and no mask: it stays, unreported.
            if bytes.isEmpty { return json ? jsonError("an empty line has no mask") : out.append(literal: ending) }
            // The tag is what comes before the first tab: a preset's name or a JSON object, neither of which holds one.
            guard let tab = bytes.firstIndex(of: UInt8(ascii: "\t")) else {
                unreadable("no tab between a mask and the text")
                return copyUnformatted(bytes, ending: ending)
            }
            let (tag, mask) = tagged.mask(UnsafeBufferPointer(rebasing: bytes[..<tab]))
            switch mask {
            case .success(let mask):
                // Both sides of an ASCII byte in valid UTF-8 are valid UTF-8.
                if !json { out.append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[...tab])) }
                write(UnsafeBufferPointer(rebasing: bytes[(tab + 1)...]), mask, tag: tag, ending: ending)
            case .failure(let error):
                unreadable("mask '\(tag)': \(error.message)")
                copyUnformatted(bytes, ending: ending)
            }
        }
    }

    /// A line that is not formatted: its bytes as they came (with `json`, the line's object is its error).
    private mutating func copyUnformatted(_ bytes: UnsafeBufferPointer<UInt8>, ending: StaticString) {
        guard !json else { return }
        out.append(UnsafeRawBufferPointer(bytes))
        out.append(literal: ending)
    }

    /// Writes the text of a line read by `mask` (its tag and tab, if it came with them, are written already).
    /// - Parameter bytes: the text, valid UTF-8.
    private mutating func write(_ bytes: UnsafeBufferPointer<UInt8>, _ mask: Mask, tag: String?, ending: StaticString) {
        if output != .text {
            return writeForm(of: String(decoding: bytes, as: UTF8.self), mask, ending: ending)
        }
        let verdict: FormattedText.Verdict
        if json {
            let text = String(decoding: bytes, as: UTF8.self)
            let whole = mask.format(text)
            var members: [(String, JSONValue)] = [("line", .int(Int64(lineNumber)))]
            if let tag { members.append(("tag", .string(tag))) }
            if case .object(let object) = ApplyResult.json(whole, naive: text, encoding: .utf16) {
                members += object.map { ($0.key, $0.value) }
            }
            out.append(JSONValue.object(JSONObject(members)).serialized())
            out.append("\n")
            verdict = FormattedText.Verdict(whole)
        } else {
            // The text and its verdict are all a line shows: the text goes straight into the output.
            verdict = out.appending { mask.formatted(utf8: bytes, appendingTextTo: &$0, reusing: &scratch) }
            out.append(literal: ending)
        }
        if check, !(verdict.complete && verdict.valid) { report(verdict.problems) }
    }

    /// Reports the current line's problems ("incomplete" when it has none to say).
    private mutating func report(_ problems: [String]) {
        guard problems.count == 1 else {
            return report(problems.isEmpty ? "incomplete" : problems.joined(separator: "; "))
        }
        report(problems[0])
    }

    /// Writes the line in the `output` form. A line that is no phone number is an empty line, reported on
    /// standard error (and counted as failed with `check`); with `check`, a number that is not valid is reported too.
    private mutating func writeForm(of text: String, _ mask: Mask, ending: StaticString) {
        guard let written = output.write(text, mask) else {
            out.append(literal: ending)
            err.append("line \(lineNumber): \(output.noNumber(text, mask))\n")
            if check { failed += 1 }
            return
        }
        out.append(written)
        out.append(literal: ending)
        guard check else { return }
        let result = mask.format(text)
        if !(result.complete && result.valid) {
            report(result.problems)
        }
    }

    /// Reports the current line as one that is copied, not formatted; with `json`, its object is the error.
    private mutating func unreadable(_ problem: String) {
        report(problem + (json ? "" : ", copied unformatted"))
        if json { jsonError(problem) }
    }

    /// The current line's JSON object: its error.
    private mutating func jsonError(_ problem: String) {
        out.append(JSONValue.object(["line": .int(Int64(lineNumber)), "error": .string(problem)]).serialized())
        out.append("\n")
    }

    /// Counts the current line as failed and says why on standard error.
    private mutating func report(_ problem: String) {
        failed += 1
        err.append(literal: "line ")
        err.append(number: lineNumber)
        err.append(literal: ": ")
        err.append(problem)
        err.append(literal: "\n")
    }
}

/// Whether `bytes` are UTF-8: ASCII, nearly always, is told eight bytes at a time without decoding.
private func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    EncodedText.isSingleByte(bytes) || String(validating: bytes, as: UTF8.self) != nil
}

/// The byte offset of the first byte of `bytes` that is not part of valid UTF-8.
private func firstInvalidByte(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var offset = 0
    while case .scalarValue(let scalar) = decoder.decode(&iterator) {
        offset += UTF8.width(scalar)
    }
    return offset
}

/// Bytes for a descriptor, written in large pieces.
struct OutputBuffer {
    let fd: Int32
    private var bytes: [UInt8] = []
    private let limit = 1 << 16

    init(fd: Int32) {
        self.fd = fd
        bytes.reserveCapacity(limit + 4096)
    }

    var isEmpty: Bool { bytes.isEmpty }
    var count: Int { bytes.count }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends a literal (a line's ending, the words of a report) with no string made: most lines end in one byte.
    mutating func append(literal text: StaticString) {
        if text.utf8CodeUnitCount == 1 {
            bytes.append(text.utf8Start.pointee)
        } else {
            bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
    }

    /// Lends the buffered bytes to `body`, which appends to them.
    mutating func appending<R>(_ body: (inout [UInt8]) -> R) -> R { body(&bytes) }

    /// Appends `number`, which is not negative, in decimal (a line number: no string is made for it).
    mutating func append(number: Int) {
        var divisor = 1
        while divisor <= number / 10 { divisor *= 10 }
        var rest = number
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    mutating func append(_ data: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: data)
    }

    mutating func append(_ data: [UInt8]) {
        bytes.append(contentsOf: data)
    }

    /// What is buffered, handed over and no longer kept.
    mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    /// Writes what is buffered. - Returns: false when the descriptor failed (errno says why).
    mutating func flush() -> Bool {
        guard !bytes.isEmpty else { return true }
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes.withUnsafeBytes { writeAll(fd, $0) }
    }
}

/// "12345 lines, 310k lines/s" on standard error while a long run goes on, when standard error is a terminal and
/// standard input is not (a person typing lines needs no progress line between them).
private struct ProgressLine {
    let enabled = isatty(2) == 1 && isatty(0) == 0
    private(set) var shown = false
    private var text = ""
    private let startNS = monotonicNS()
    private var lastNS: UInt64 = 0

    /// No line before half a second, then at most four a second.
    mutating func update(lines: Int) {
        guard enabled else { return }
        let now = monotonicNS()
        let elapsed = now - startNS
        guard elapsed >= 500_000_000, now - lastNS >= 250_000_000 else { return }
        lastNS = now
        let rate = Double(lines) / (Double(elapsed) / 1e9)
        text = "\(lines) lines, \(formatRate(rate)) lines/s"
        redraw()
    }

    /// Puts the last progress line back after something else was written.
    mutating func redraw() {
        guard enabled, !text.isEmpty else { return }
        writeStandardError("\r\u{1B}[K" + text)
        shown = true
    }

    /// Takes the progress line off the terminal.
    mutating func erase() {
        guard shown else { return }
        writeStandardError("\r\u{1B}[K")
        shown = false
    }

    /// Whether `fd` writes to the same terminal as standard error.
    func sharesTerminal(with fd: Int32) -> Bool {
        guard isatty(fd) == 1 else { return false }
        var a = stat(), b = stat()
        return fstat(fd, &a) == 0 && fstat(2, &b) == 0 && a.st_rdev == b.st_rdev
    }
}

private func monotonicNS() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// 950, 12.3k, 310k, 1.25M.
private func formatRate(_ rate: Double) -> String {
    func digits(_ value: Double) -> String {
        value >= 100 ? "\(Int(value.rounded()))" : "\(Double(Int((value * 10).rounded())) / 10)"
    }
    if rate >= 1e6 { return digits(rate / 1e6) + "M" }
    if rate >= 1e3 { return digits(rate / 1e3) + "k" }
    return "\(Int(rate.rounded()))"
}
