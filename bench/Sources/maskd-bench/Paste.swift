// maskd-bench: row 8, a long paste into a field of every mask kind, through maskd/apply and as a didChange.
import JSON
import MaskEngine
import MaskdClient

enum PasteBench {
    /// One mask kind: its name and its wire spelling.
    struct Kind {
        var name: String
        var mask: JSONValue
    }

    static let kinds: [Kind] = [
        Kind(name: "bracket", mask: "+1 ([000]) [000]-[0000]"),
        Kind(name: "… slot", mask: ["notation": "[_…]"]),
        Kind(name: "oneOf", mask: ["oneOf": ["[000]-[000]", "[0000] [0000] [00]"]]),
        Kind(name: "card", mask: ["preset": "card"]),
        Kind(name: "iban", mask: ["preset": "iban"]),
        Kind(name: "phone.us", mask: ["preset": "phone.us"]),
        Kind(name: "date (blocks)", mask: ["preset": "date"]),
        Kind(name: "amount (number)", mask: ["preset": "amount"]),
    ]

    /// What the rows measured for one kind.
    struct Outcome {
        var kind: Kind
        var apply = Samples()
        var didChange = Samples()
        /// The field's text after the paste, and how many characters were reported (rejected plus overflow).
        var text = ""
        var reported = 0
        /// The server's CPU time over the timed pastes of each path, in nanoseconds.
        var applyCPU: UInt64 = 0
        var didChangeCPU: UInt64 = 0
    }

    /// A paste of `length` characters: digits and letters, none of them a literal of these masks (`1` is
    /// the US phone's, `0` a number's leading zero, which is dropped silently), so every one is kept or reported.
    static func paste(_ length: Int) -> String {
        let pattern = Array("4a7Z2x9b5Q8k3")
        return String((0..<length).map { pattern[$0 % pattern.count] })
    }

    /// Checks that the field kept or reported every pasted character: at most its own text is unaccounted for.
    static func checkAccounted(_ what: String, pasted: Int, text: String, rejected: String, overflow: String) throws {
        let reported = rejected.count + overflow.count
        guard reported >= pasted - text.count, reported <= pasted else {
            throw BenchFailure(
                "\(what): \(pasted) characters pasted, the field holds \(text.count) characters and "
                    + "\(reported) were reported: characters were lost")
        }
    }

    /// The body of the next message whose first or last bytes hold `marker` (the answer's id, the notification's method);
    /// the messages before it are skipped.
    static func readUntil(_ server: DaemonProcess, containing marker: [UInt8]) throws -> ArraySlice<UInt8> {
        while true {
            let body = try server.readBody()
            // Members come in any order: the marker is looked for at both ends, not in the megabyte between.
            for part in [body.prefix(256), body.suffix(256)] where part.count >= marker.count {
                if (part.startIndex...(part.endIndex - marker.count)).contains(where: {
                    part[$0..<($0 + marker.count)].elementsEqual(marker)
                }) {
                    return body
                }
            }
        }
    }

    /// `reps` pastes of `length` characters for each kind, one daemon for all, taking turns; each sample is from
    /// writing the message to having read its whole answer (the `maskd/apply` result, or the `didFormat`).
    static func run(_ subject: ServerUnderTest, length: Int, reps: Int, timeout: Double)
        throws -> (outcomes: [Outcome], peakRSS: Double, idleRSS: Double)
    {
        let server = try subject.spawn(timeout: timeout)
        defer { server.kill() }
        try server.initialize()
        let idle = try server.peakRSS()
        let text = paste(length)
        var outcomes = kinds.map { Outcome(kind: $0) }
        var version = 1
        for rep in 0..<(reps + 1) {
            for i in outcomes.indices {
                let kind = outcomes[i].kind
                // maskd/apply: the paste into the empty field.
                let id = server.newID()
                let params: JSONValue = [
                    "mask": kind.mask, "text": "",
                    "edit": ["start": 0, "end": 0, "text": .string(text)],
                ]
                let request = DaemonProcess.frame(DaemonProcess.request(id: id, "maskd/apply", params))
                let cpu0 = try server.cpuNS()
                let t0 = nowNS()
                try server.write(request)
                // The clock stops when the answer's last byte is read; it is parsed after.
                let answerBody = try readUntil(server, containing: Array("\"id\":\(id)".utf8))
                let t1 = nowNS()
                let cpu1 = try server.cpuNS()
                let answer = try answerBody.withUnsafeBytes { try JSONValue.parse($0) }
                guard answer["id"]?.intValue == id, let result = answer["result"] else {
                    throw BenchFailure("\(kind.name): maskd/apply answered \(answer.serializedString().prefix(200))")
                }
                guard let fieldText = result["text"]?.stringValue else {
                    throw BenchFailure("\(kind.name): maskd/apply answered \(result.serializedString().prefix(200))")
                }
                try checkAccounted(
                    "\(kind.name), maskd/apply", pasted: length, text: fieldText,
                    rejected: result["rejected"]?.stringValue ?? "", overflow: result["overflow"]?.stringValue ?? "")
                // didChange: the same paste into an open, empty field of a one-line document.
                let uri = "file:///paste-\(i)-\(rep)"
                try server.notify("textDocument/didOpen", Messages.didOpen(uri: uri, text: "paste: \n"))
                let field = try server.request(
                    "maskd/openField",
                    Messages.openField(uri: uri, line: 0, from: 7, to: 7, mask: kind.mask))
                guard field["field"] != nil else { throw BenchFailure("\(kind.name): openField answered \(field)") }
                version += 1
                let change = DaemonProcess.frame(
                    DaemonProcess.notification(
                        "textDocument/didChange",
                        Messages.didChange(
                            uri: uri, version: version, changes: [Messages.change(line: 0, from: 7, to: 7, text: text)])
                    ))
                let cpu2 = try server.cpuNS()
                let t2 = nowNS()
                try server.write(change)
                let formattedBody = try readUntil(server, containing: Array("maskd/didFormat".utf8))
                let t3 = nowNS()
                let cpu3 = try server.cpuNS()
                let formatted = try formattedBody.withUnsafeBytes { try JSONValue.parse($0) }
                let p = formatted["params"]
                let state = p?["fields"]?.arrayValue?.first
                try checkAccounted(
                    "\(kind.name), didChange", pasted: length, text: state?["text"]?.stringValue ?? "",
                    rejected: p?["rejected"]?.stringValue ?? "", overflow: p?["overflow"]?.stringValue ?? "")
                try server.notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
                if rep > 0 {
                    outcomes[i].apply.add(Double(t1 - t0))
                    outcomes[i].didChange.add(Double(t3 - t2))
                    outcomes[i].applyCPU += cpu1 - cpu0
                    outcomes[i].didChangeCPU += cpu3 - cpu2
                }
                outcomes[i].text = fieldText
                outcomes[i].reported =
                    (result["rejected"]?.stringValue?.count ?? 0) + (result["overflow"]?.stringValue?.count ?? 0)
            }
        }
        let peak = try server.peakRSS()
        try server.stop()
        return (outcomes, peak, idle)
    }
}
