// maskd tests: "Format as <preset>" code actions, carried out by executeCommand and workspace/applyEdit.
import JSON
import XCTest

final class CodeActionTests: XCTestCase {
    var client: DaemonClient!

    override func tearDown() {
        _ = client?.finish()
        client = nil
    }

    func actions(
        _ editor: Editor, _ range: JSONValue, only: [String]? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) -> [JSONValue] {
        var context: JSONObject = ["diagnostics": []]
        if let only { context["only"] = .array(only.map(JSONValue.string)) }
        return client.call(
            "textDocument/codeAction",
            [
                "textDocument": editor.document.identifier, "range": range,
                "context": .object(context),
            ], file: file, line: line
        ).arrayValue ?? []
    }

    func titles(_ editor: Editor, line: Int) -> [String] {
        let text = editor.document.lines[line]
        return actions(editor, ClientDocument.range(line, 0, line, text.utf16.count)).compactMap {
            $0["title"]?.stringValue
        }
    }

    func testCodeAction_ranksPresetsForTheSelectedText() throws {
        client = try DaemonClient()
        client.initializeLSP()
        let editor = Editor(
            client, text: "4111111111111111\n13800138000\n2024-02-29\n20240229\nhello\n5551234567\n\n4111111111111112\n"
        )
        XCTAssertEqual(titles(editor, line: 0).first, "Format as card")
        XCTAssertEqual(titles(editor, line: 0).prefix(2), ["Format as card", "Format as bankcard.cn"])
        XCTAssertTrue(titles(editor, line: 0).contains("Format as amount"))
        XCTAssertEqual(titles(editor, line: 1).first, "Format as phone.cn")
        XCTAssertEqual(titles(editor, line: 2).first, "Format as date")
        XCTAssertEqual(titles(editor, line: 3).first, "Format as date")
        XCTAssertEqual(titles(editor, line: 4), [], "no preset keeps half of 'hello'")
        XCTAssertEqual(titles(editor, line: 5).first, "Format as phone.us")
        XCTAssertEqual(titles(editor, line: 6), [], "an empty line offers nothing")
        // A mistyped card number is still a card first; the amount, which takes any digits, comes last.
        XCTAssertEqual(titles(editor, line: 7).prefix(2), ["Format as card", "Format as bankcard.cn"])
        let mistyped = titles(editor, line: 7)
        XCTAssertGreaterThan(
            mistyped.firstIndex(of: "Format as amount")!, mistyped.firstIndex(of: "Format as bankcard.cn")!)
        // The date's own separators are kept; the amount drops them, so it ranks lower.
        let date = titles(editor, line: 2)
        XCTAssertFalse(date.contains("Format as iban"))
        XCTAssertLessThan(date.firstIndex(of: "Format as date")!, date.firstIndex(of: "Format as amount")!)
    }

    func testCodeAction_offersAnIdentifierOnlyWhenItTakesTheSelectionWholeAndValid() throws {
        client = try DaemonClient()
        client.initializeLSP()
        let editor = Editor(client, text: "39053344705\n39053344706\nCHE-100.155.212\n")
        XCTAssertTrue(titles(editor, line: 0).contains("Format as br.cpf"))
        XCTAssertFalse(
            titles(editor, line: 1).contains("Format as br.cpf"), "a CPF whose check digits fail is not offered")
        XCTAssertEqual(titles(editor, line: 2).first, "Format as ch.uid")
    }

    func testCodeAction_doesNotOfferGS1DataForAnyRunOfDigits() throws {
        client = try DaemonClient()
        client.initializeLSP()
        // Both are valid GS1-128 data (a GLN's `415` and any 7 digits; `00` and a shipping container code).
        let editor = Editor(client, text: "4155551234\n00123456789012345675\n")
        XCTAssertFalse(titles(editor, line: 0).contains("Format as gs1_128"))
        XCTAssertFalse(titles(editor, line: 1).contains("Format as gs1_128"))
        XCTAssertTrue(titles(editor, line: 0).contains("Format as phone.us"))
    }

    func testCodeAction_offersTheGermanRegisterNumberForAValidOneOfAnyLength() throws {
        client = try DaemonClient()
        client.initializeLSP()
        let editor = Editor(client, text: "Aachen HRA 11223\nHRB 44123 Frankfurt am Main\nAachen HRC 11223\n")
        XCTAssertEqual(titles(editor, line: 0).first, "Format as de.handelsregisternummer")
        XCTAssertEqual(titles(editor, line: 1).first, "Format as de.handelsregisternummer")
        XCTAssertFalse(
            titles(editor, line: 2).contains("Format as de.handelsregisternummer"), "HRC is no register type")
    }

    func testCodeAction_offersPhoneForANumberWrittenWithItsPlus() throws {
        client = try DaemonClient()
        client.initializeLSP()
        let editor = Editor(client, text: "+44 121 234 5678\n01212345678\n")
        XCTAssertEqual(titles(editor, line: 0).first, "Format as phone")
        XCTAssertFalse(
            titles(editor, line: 1).contains("Format as phone"), "without its + a number is not taken for one")
    }

    func testCodeAction_offersNoPresetThatWouldDropLettersOrDigits() throws {
        client = try DaemonClient()
        client.initializeLSP()
        // Each preset would drop the letters (or cut digits past 16): opening it would be refused (-32803).
        let editor = Editor(client, text: "card 4111111111111111\n41111111111111111111111\n")
        XCTAssertEqual(titles(editor, line: 0), [])
        XCTAssertFalse(titles(editor, line: 1).contains("Format as card"), "a card has at most 19 digits")
    }

    func testCodeAction_shape_commandArguments_trimmedRange_preferredFirst() throws {
        client = try DaemonClient()
        client.initializeLSP()
        let editor = Editor(client, text: "Pay  4111111111111111 today\n")
        let all = actions(editor, ClientDocument.range(0, 3, 0, 22))
        let first = all[0]
        XCTAssertEqual(
            first,
            [
                "title": "Format as card", "kind": "refactor.rewrite", "isPreferred": true,
                "command": [
                    "title": "Format as card", "command": "maskd.openField",
                    "arguments": [
                        [
                            "textDocument": ["uri": .string(editor.document.uri), "version": 3],
                            "range": ClientDocument.range(0, 5, 0, 21),
                            "mask": ["preset": "card"],
                        ]
                    ],
                ],
            ])
        XCTAssertEqual(all.filter { $0["isPreferred"] != nil }.count, 1)
        XCTAssertEqual(actions(editor, ClientDocument.range(0, 3, 0, 22), only: ["quickfix"]), [])
        XCTAssertEqual(actions(editor, ClientDocument.range(0, 3, 0, 22), only: ["refactor"]).count, all.count)
        XCTAssertEqual(actions(editor, ClientDocument.range(0, 5, 1, 0)), [], "a field is one line")
    }

    func testCodeAction_executeCommand_turnsTheSelectionIntoACardField_throughApplyEdit() throws {
        client = try DaemonClient()
        client.initializeLSP()
        let editor = Editor(client, text: "Pay with 4111111111111111 today")
        let action = actions(editor, ClientDocument.range(0, 9, 0, 25))[0]
        XCTAssertEqual(action["title"], "Format as card")
        let command = action["command"]!
        let result = client.call(
            "workspace/executeCommand",
            [
                "command": command["command"]!,
                "arguments": command["arguments"]!,
            ])
        XCTAssertEqual(result, .null)
        let requests = editor.answerApplyEdits()
        XCTAssertEqual(requests.count, 1)
        XCTAssertNil(requests.first?["params"]?["label"], "no label: an editor may print it")
        XCTAssertEqual(requests.first?["params"]?["edit"]?["documentChanges"]?[0]?["textDocument"]?["version"], 3)
        XCTAssertEqual(editor.document.lines[0], "Pay with 4111 1111 1111 1111 today")
        let fields = editor.fields
        XCTAssertEqual(fields[0]?["text"], "4111 1111 1111 1111")
        XCTAssertEqual(fields[0]?["brand"], "visa")
        XCTAssertEqual(fields[0]?["range"], ClientDocument.range(0, 9, 0, 28))

        // The field is live: it formats as it is typed into, and no longer offers "Format as".
        editor.document.cursor = (0, 28)
        editor.backspace()
        XCTAssertEqual(editor.document.lines[0], "Pay with 4111 1111 1111 111 today")
        let inField = actions(editor, ClientDocument.range(0, 12, 0, 12))
        XCTAssertEqual(inField.map { $0["title"] }, ["Close maskd field"])
        XCTAssertEqual(inField[0]["kind"], "refactor")
        let close = inField[0]["command"]!
        XCTAssertEqual(close["command"], "maskd.closeField")
        XCTAssertEqual(
            client.call(
                "workspace/executeCommand",
                [
                    "command": close["command"]!,
                    "arguments": close["arguments"]!,
                ]), .null)
        XCTAssertEqual(editor.fields, [])
        XCTAssertEqual(client.takeRequests("workspace/applyEdit").count, 0, "closing edits nothing")
        XCTAssertEqual(editor.document.lines[0], "Pay with 4111 1111 1111 111 today")
    }

    func testCodeAction_withoutLiteralSupport_areCommands_andTheEditIsUnversioned() throws {
        client = try DaemonClient()
        client.initializeLSP(literals: false, documentChanges: false)
        let editor = Editor(client, text: "13800138000")
        let all = actions(editor, ClientDocument.range(0, 0, 0, 11))
        XCTAssertEqual(all.first?["title"], "Format as phone.cn")
        XCTAssertEqual(all.first?["command"], "maskd.openField")
        XCTAssertNil(all.first?["kind"])
        client.call("workspace/executeCommand", ["command": "maskd.openField", "arguments": all[0]["arguments"]!])
        let requests = editor.answerApplyEdits()
        XCTAssertNotNil(requests.first?["params"]?["edit"]?["changes"]?[editor.document.uri])
        XCTAssertEqual(editor.document.lines[0], "138 0013 8000")
    }

    func testExecuteCommand_badCommandsAndArguments_areRefusedClearly() throws {
        client = try DaemonClient()
        client.initializeLSP()
        let editor = Editor(client, text: "4111111111111111")
        var error = client.callFailing(
            "workspace/executeCommand", ["command": "maskd.explode", "arguments": []], code: -32602)
        XCTAssertEqual(
            error["message"]?.stringValue?.hasPrefix("params.command: unknown command 'maskd.explode'"), true)
        error = client.callFailing("workspace/executeCommand", ["command": "maskd.openField"], code: -32602)
        XCTAssertEqual(error["message"], "params.arguments: expected one argument object, got none")
        error = client.callFailing(
            "workspace/executeCommand",
            [
                "command": "maskd.openField",
                "arguments": [["textDocument": editor.document.identifier, "mask": ["preset": "card"]]],
            ], code: -32602)
        XCTAssertEqual(error["message"], "params.arguments[0].range: missing")
        error = client.callFailing(
            "workspace/executeCommand",
            [
                "command": "maskd.openField",
                "arguments": [
                    [
                        "textDocument": editor.document.identifier, "range": ClientDocument.range(9, 0, 9, 1),
                        "mask": ["preset": "card"],
                    ]
                ],
            ], code: -32602)
        XCTAssertEqual(error["message"]?.stringValue?.hasPrefix("params.arguments[0].range:"), true)
        // An action computed for an older version is refused: the selection may have moved.
        let stale = actions(editor, ClientDocument.range(0, 0, 0, 16))[0]["command"]!
        _ = editor.send([editor.change(0, 0, 0, " ")])
        client.callFailing(
            "workspace/executeCommand", ["command": "maskd.openField", "arguments": stale["arguments"]!],
            code: -32801)
        XCTAssertEqual(editor.fields, [])
    }
}

/// "Format as postal code (XX)": offered for a selection that is, whole and as written, a postal code of a region.
final class PostalCodeActionTests: XCTestCase {
    var client: DaemonClient!

    override func tearDown() {
        _ = client?.finish()
        client = nil
    }

    func titles(_ editor: Editor, line: Int) -> [String] {
        let text = editor.document.lines[line]
        return
            (client.call(
                "textDocument/codeAction",
                [
                    "textDocument": editor.document.identifier,
                    "range": ClientDocument.range(line, 0, line, text.utf16.count),
                    "context": ["diagnostics": []],
                ]
            ).arrayValue ?? []).compactMap { $0["title"]?.stringValue }
    }

    func testACodeThatTellsItsRegion_isOffered_asThatRegionsPostalCode() throws {
        client = try DaemonClient()
        client.initializeLSP()
        let editor = Editor(client, text: "SW1A 1AA\nk1a 0b1\n40301-110\n1234 AB\n154-0023\n12345\n20240229\nSW1A 1A\n")
        XCTAssertEqual(titles(editor, line: 0), ["Format as postal code (GB)"])
        XCTAssertEqual(titles(editor, line: 1), ["Format as postal code (CA)"], "letters in either case")
        XCTAssertEqual(titles(editor, line: 2).first, "Format as postal code (BR)")
        XCTAssertEqual(titles(editor, line: 3), ["Format as postal code (NL)"])
        XCTAssertEqual(
            titles(editor, line: 4).filter { $0.hasPrefix("Format as postal") },
            ["Format as postal code (CR)", "Format as postal code (JP)"], "a code of two regions: both")
        // Digits alone are codes of dozens of regions (and dates, amounts): no region is guessed.
        XCTAssertFalse(titles(editor, line: 5).contains { $0.hasPrefix("Format as postal code") })
        XCTAssertFalse(titles(editor, line: 6).contains { $0.hasPrefix("Format as postal code") })
        XCTAssertEqual(titles(editor, line: 7), [], "not a whole code")
    }

    func testDigitsAlone_areOfferedAsTheClientsRegionsCode_fromItsLocaleOrItsOption() throws {
        client = try DaemonClient()
        client.initializeLSP(locale: "de-DE")
        let editor = Editor(client, text: "12345\n1234\nSW1A 1AA\n")
        XCTAssertEqual(titles(editor, line: 0).first, "Format as postal code (DE)")
        XCTAssertFalse(
            titles(editor, line: 1).contains { $0.hasPrefix("Format as postal code") }, "DE codes have 5 digits")
        XCTAssertEqual(titles(editor, line: 2), ["Format as postal code (GB)"])
        _ = client.finish()
        client = try DaemonClient()
        client.initializeLSP(locale: "en-US", region: "at")
        let other = Editor(client, text: "1234\n")
        XCTAssertTrue(
            titles(other, line: 0).contains("Format as postal code (AT)"), "initializationOptions.region wins")
        XCTAssertFalse(titles(other, line: 0).contains("Format as postal code (US)"))
    }

    func testTheAction_opensAPostalFieldOfThatRegion() throws {
        client = try DaemonClient()
        client.initializeLSP()
        let editor = Editor(client, text: "code: ec1y8sy\n")
        let action = client.call(
            "textDocument/codeAction",
            [
                "textDocument": editor.document.identifier, "range": ClientDocument.range(0, 6, 0, 13),
                "context": ["diagnostics": []],
            ]
        ).arrayValue?.first
        XCTAssertEqual(action?["title"], "Format as postal code (GB)")
        let arguments = action?["command"]?["arguments"]?.arrayValue?.first
        XCTAssertEqual(arguments?["mask"], ["preset": "postal", "region": "GB"])
        let opened = client.call("maskd/openField", arguments!)
        XCTAssertEqual(opened["state"]?["text"], "EC1Y 8SY")
        XCTAssertEqual(opened["state"]?["valid"], true)
    }
}
