// maskd tests: the standard LSP side of a client: full capabilities, answering the daemon's requests.
import JSON
import XCTest

extension DaemonClient {
    /// Initializes as an LSP 3.17 client that applies workspace edits.
    /// - Parameters:
    ///   - plain: asks for the plain-client mode (`initializationOptions.edits: "applyEdit"`).
    ///   - literals: offers `codeActionLiteralSupport` (else code actions come as `Command`s).
    ///   - documentChanges: takes versioned `documentChanges` in workspace edits.
    ///   - refresh: offers `workspace.inlayHint.refreshSupport`.
    ///   - diagnosticsDelay: `initializationOptions.diagnosticsDelay`; 0 (the default here) publishes once the
    ///     messages of a read are handled, so a test sees each message's diagnostics at once; nil leaves it out.
    ///   - applyEditDelay: with `plain`, `initializationOptions.applyEditDelay`; 0 (the default here) sends a
    ///     plain client's formatting once the messages of a read are handled; nil leaves it out.
    @discardableResult
    func initializeLSP(
        plain: Bool = false, literals: Bool = true, documentChanges: Bool = true,
        refresh: Bool = false, diagnosticsDelay: Int? = 0, applyEditDelay: Int? = 0,
        locale: String? = nil, region: String? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) -> JSONValue {
        var textDocument: JSONObject = ["hover": ["contentFormat": ["markdown", "plaintext"]], "inlayHint": [:]]
        if literals {
            textDocument["codeAction"] = [
                "codeActionLiteralSupport": [
                    "codeActionKind": [
                        "valueSet": [
                            "quickfix", "refactor", "refactor.rewrite",
                        ]
                    ]
                ]
            ]
        }
        var params: JSONObject = [
            "processId": .int(Int64(getpid())),
            "capabilities": [
                "workspace": [
                    "applyEdit": true, "workspaceEdit": ["documentChanges": .bool(documentChanges)],
                    "inlayHint": ["refreshSupport": .bool(refresh)],
                ],
                "textDocument": .object(textDocument),
            ],
        ]
        if let locale { params["locale"] = .string(locale) }
        var options: JSONObject = [:]
        if let region { options["region"] = .string(region) }
        if plain { options["edits"] = "applyEdit" }
        if plain, let applyEditDelay { options["applyEditDelay"] = .int(Int64(applyEditDelay)) }
        if let diagnosticsDelay { options["diagnosticsDelay"] = .int(Int64(diagnosticsDelay)) }
        if !options.isEmpty { params["initializationOptions"] = .object(options) }
        let result = call("initialize", .object(params), file: file, line: line)
        notify("initialized", [:])
        return result
    }

    /// Answers a request the daemon sent.
    func respond(_ request: JSONValue, _ result: JSONValue) {
        send(["jsonrpc": "2.0", "id": request["id"]!, "result": result])
    }

    /// The diagnostics published since the last call, as `(version, diagnostics)` per notification, for `uri`.
    func takeDiagnostics(_ uri: String) -> [(version: Int?, diagnostics: [JSONValue])] {
        take("textDocument/publishDiagnostics").filter { $0["uri"]?.stringValue == uri }.map {
            ($0["version"]?.intValue, $0["diagnostics"]?.arrayValue ?? [])
        }
    }
}

extension Editor {
    /// Answers the daemon's `workspace/applyEdit` requests as a plain LSP client does.
    ///
    /// An edit for another version than the document's is refused (`applied: false`); otherwise the
    /// edits are applied, the cursor follows them the way most editors move it (an edit before the
    /// cursor shifts it, an edit over it leaves it at the edit's end, an insertion at it or after it
    /// leaves it), the change is reported in one `didChange` (the echo) and the request answered.
    /// Answers until no more come (edits held behind an unanswered one follow its answer); checks that no
    /// `didFormat` came. - Returns: the requests answered.
    @discardableResult
    func answerApplyEdits(file: StaticString = #filePath, line: UInt = #line) -> [JSONValue] {
        client.settle()
        var answered: [JSONValue] = []
        var refused = true
        // Edits held behind an unanswered applyEdit go once it is answered: answer until none come. After a round
        // all applied, nothing may come: that would be the echo formatted.
        while case let requests = client.takeRequests("workspace/applyEdit"), !requests.isEmpty {
            XCTAssertTrue(refused || answered.isEmpty, "the echo must not be formatted", file: file, line: line)
            refused = false
            for request in requests {
                let edit = request["params"]?["edit"] ?? .null
                let edits: [JSONValue]
                if let changes = edit["documentChanges"]?.arrayValue {
                    XCTAssertEqual(changes.count, 1, file: file, line: line)
                    XCTAssertEqual(
                        changes.first?["textDocument"]?["uri"]?.stringValue, document.uri, file: file, line: line)
                    guard changes.first?["textDocument"]?["version"]?.intValue == document.version else {
                        client.respond(request, ["applied": false, "failureReason": "the document has moved on"])
                        refused = true
                        continue
                    }
                    edits = changes.first?["edits"]?.arrayValue ?? []
                } else {
                    edits = edit["changes"]?[document.uri]?.arrayValue ?? []
                }
                XCTAssertFalse(edits.isEmpty, "an applyEdit without edits", file: file, line: line)
                moveCursor(through: edits)
                document.apply(.array(edits))
                document.version += 1
                client.notify(
                    "textDocument/didChange",
                    document.changeParams(edits.reversed().map { ["range": $0["range"]!, "text": $0["newText"]!] }))
                client.respond(request, ["applied": true])
            }
            answered += requests
            client.settle()
            XCTAssertLessThan(answered.count, 1000, "edits without end", file: file, line: line)
            if answered.count >= 1000 { break }
        }
        XCTAssertEqual(
            client.take("maskd/didFormat").count, 0, "a plain client gets no didFormat", file: file, line: line)
        return answered
    }

    /// Moves the cursor as an editor does when it applies `edits` (all against the current text).
    private func moveCursor(through edits: [JSONValue]) {
        let cursorLine = document.cursor.line
        var character = document.cursor.character
        let sorted = edits.sorted {
            ($0["range"]!["start"]!["character"]!.intValue!) > ($1["range"]!["start"]!["character"]!.intValue!)
        }
        for edit in sorted {
            let r = edit["range"]!
            let (sl, sc, el, ec) = (
                r["start"]!["line"]!.intValue!, r["start"]!["character"]!.intValue!,
                r["end"]!["line"]!.intValue!, r["end"]!["character"]!.intValue!
            )
            guard sl == cursorLine, el == cursorLine else { continue }
            let inserted = document.units(Substring(edit["newText"]!.stringValue!))
            if ec <= character && sc < character {
                character += inserted - (ec - sc)
            } else if sc < character && character < ec {
                character = sc + inserted
            }
        }
        document.cursor = (cursorLine, character)
    }
}
