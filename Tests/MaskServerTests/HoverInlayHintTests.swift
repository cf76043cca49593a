// maskd tests: hover and inlay hints over real pipes, and the capabilities that announce them.
import JSON
import XCTest

final class HoverInlayHintTests: XCTestCase {
    var client: DaemonClient!

    override func setUpWithError() throws {
        client = try DaemonClient()
    }

    override func tearDown() {
        _ = client?.finish()
        client = nil
    }

    func position(_ line: Int, _ character: Int) -> JSONValue {
        ["line": .int(Int64(line)), "character": .int(Int64(character))]
    }

    func testInitialize_advertisesEveryStandardFeature() {
        let capabilities = client.initializeLSP()["capabilities"]
        XCTAssertEqual(capabilities?["hoverProvider"], true)
        XCTAssertEqual(capabilities?["inlayHintProvider"], true)
        XCTAssertEqual(capabilities?["codeActionProvider"], ["codeActionKinds": ["refactor", "refactor.rewrite"]])
        XCTAssertEqual(capabilities?["executeCommandProvider"], ["commands": ["maskd.openField", "maskd.closeField"]])
        XCTAssertEqual(capabilities?["documentFormattingProvider"], true)
        XCTAssertEqual(capabilities?["documentRangeFormattingProvider"], true)
        XCTAssertEqual(capabilities?["experimental"]?["maskd"]?["edits"], "didFormat")
    }

    func testInitialize_withoutCodeActionLiterals_codeActionProviderIsTrue_andBadEditsOptionIsRefused() throws {
        XCTAssertEqual(client.initializeLSP(literals: false)["capabilities"]?["codeActionProvider"], true)
        let other = try DaemonClient()
        let error = other.callFailing(
            "initialize", ["capabilities": [:], "initializationOptions": ["edits": "carrier pigeon"]],
            code: -32602)
        XCTAssertEqual(
            error["message"]?.stringValue?.hasPrefix("params.initializationOptions.edits:"), true,
            error.serializedString())
        _ = other.finish()
    }

    func testHover_onAField_showsMaskValueStateProblemsAndBrand_inMarkdown() {
        client.initializeLSP()
        let editor = Editor(client, text: "Card: 4111111111111112\nTel: ")
        editor.openField(0, 6, 22, mask: ["preset": "card"], id: "card")
        XCTAssertEqual(editor.document.lines[0], "Card: 4111 1111 1111 1112")
        let hover = client.call(
            "textDocument/hover", ["textDocument": editor.document.identifier, "position": position(0, 10)])
        XCTAssertEqual(hover["contents"]?["kind"], "markdown")
        XCTAssertEqual(hover["range"], ClientDocument.range(0, 6, 0, 25))
        XCTAssertEqual(
            hover["contents"]?["value"]?.stringValue,
            """
            **maskd field** `card` · preset `card`: payment card; brand by prefix, grouping and length by brand, Luhn check

            - mask: `[0000] [0000] [0000] [0999] [999]`
            - value: `4111111111111112`
            - complete: yes · valid: no
            - problems: check digit does not match
            - brand: visa
            - still to fill: `  ___ `
            """)
        // Touching the field's end counts; away from it there is nothing.
        XCTAssertEqual(
            client.call(
                "textDocument/hover",
                [
                    "textDocument": editor.document.identifier,
                    "position": position(0, 25),
                ])["range"],
            ClientDocument.range(0, 6, 0, 25))
        XCTAssertEqual(
            client.call(
                "textDocument/hover",
                [
                    "textDocument": editor.document.identifier,
                    "position": position(0, 2),
                ]), .null)
        // Past the line's end is its end (LSP 3.17), where the field ends; past the document's last line is an error.
        XCTAssertEqual(
            client.call(
                "textDocument/hover",
                [
                    "textDocument": editor.document.identifier,
                    "position": position(0, 40),
                ])["range"],
            ClientDocument.range(0, 6, 0, 25))
        client.callFailing(
            "textDocument/hover", ["textDocument": editor.document.identifier, "position": position(40, 0)],
            code: -32602)
        client.callFailing(
            "textDocument/hover", ["textDocument": ["uri": "file:///nowhere"], "position": position(0, 0)],
            code: -32602)
    }

    func testHover_onAPhoneField_showsRegionAndType() {
        client.initializeLSP()
        let editor = Editor(client, text: "Tel: 01212345678")
        editor.openField(0, 5, 16, mask: ["preset": "phone", "region": "GB"], id: "tel")
        XCTAssertEqual(editor.document.lines[0], "Tel: 0121 234 5678")
        let hover = client.call(
            "textDocument/hover", ["textDocument": editor.document.identifier, "position": position(0, 8)])
        let markdown = hover["contents"]?["value"]?.stringValue ?? ""
        XCTAssertTrue(markdown.contains("- mask: `phone(region: GB)`"), markdown)
        XCTAssertTrue(markdown.contains("- region: GB · type: fixed"), markdown)
        XCTAssertTrue(markdown.contains("- complete: yes · valid: yes"), markdown)
    }

    func testHover_onAGermanRegisterNumberField_namesThePresetAndItsValidity() {
        client.initializeLSP()
        let editor = Editor(client, text: "Reg: Würzburg HRB 1")
        editor.openField(0, 5, 19, mask: ["preset": "de.handelsregisternummer"], id: "reg")
        XCTAssertEqual(editor.document.lines[0], "Reg: Würzburg HRB 1")
        let hover = client.call(
            "textDocument/hover", ["textDocument": editor.document.identifier, "position": position(0, 8)])
        let markdown = hover["contents"]?["value"]?.stringValue ?? ""
        XCTAssertTrue(
            markdown.contains("preset `de.handelsregisternummer`: Germany: Handelsregisternummer"), markdown)
        XCTAssertTrue(markdown.contains("- value: `Würzburg HRB 1`"), markdown)
        XCTAssertTrue(markdown.contains("- complete: yes · valid: yes"), markdown)
    }

    func testHover_onAnEmptyMaskField_saysEmpty_andHasNoPresetLine() {
        client.initializeLSP()
        let editor = Editor(client, text: "Tel: ")
        editor.openField(0, 5, 5, mask: "+1 ([000]) [000]-[0000]", id: "tel")
        let value =
            client.call(
                "textDocument/hover",
                [
                    "textDocument": editor.document.identifier,
                    "position": position(0, 5),
                ])["contents"]?["value"]?.stringValue ?? ""
        XCTAssertEqual(
            value,
            """
            **maskd field** `tel`

            - mask: `+1 ([000]) [000]-[0000]`
            - value: (empty)
            - complete: no · valid: no
            - problems: 10 more digits needed
            - still to fill: `+1 (___) ___-____`
            """)
    }

    func testInlayHints_placeholderAfterEachFieldInRange_noneForFilledFields() {
        client.initializeLSP()
        let editor = Editor(client, text: "Card: 4111\nTel: \nPhone: 5551234567")
        editor.openField(0, 6, 10, mask: ["preset": "card"])
        editor.openField(1, 5, 5, mask: ["preset": "phone.us"])
        editor.openField(2, 7, 17, mask: ["preset": "phone.us"])
        XCTAssertEqual(editor.document.lines[2], "Phone: +1 (555) 123-4567")
        let all = client.call(
            "textDocument/inlayHint",
            [
                "textDocument": editor.document.identifier,
                "range": ClientDocument.range(0, 0, 99, 0),
            ])
        XCTAssertEqual(
            all,
            [
                [
                    "position": position(0, 10), "label": " ____ ____ ____ ___", "paddingLeft": false,
                    "paddingRight": false,
                ],
                [
                    "position": position(1, 5), "label": "+1 (___) ___-____", "paddingLeft": false,
                    "paddingRight": false,
                ],
            ])
        let second = client.call(
            "textDocument/inlayHint",
            [
                "textDocument": editor.document.identifier,
                "range": ClientDocument.range(1, 0, 1, 5),
            ])
        XCTAssertEqual(second.arrayValue?.count, 1)
        XCTAssertEqual(second[0]?["position"], position(1, 5))
        // The hint follows typing.
        editor.document.cursor = (1, 5)
        editor.type("555")
        let typed = client.call(
            "textDocument/inlayHint",
            [
                "textDocument": editor.document.identifier,
                "range": ClientDocument.range(1, 0, 1, 99),
            ])
        XCTAssertEqual(typed[0]?["position"], position(1, 12))
        XCTAssertEqual(typed[0]?["label"], ") ___-____")
    }

    func testInlayHintRefresh_sentOnOpenAndClose_toClientsThatOfferIt() {
        client.initializeLSP(refresh: true)
        let editor = Editor(client, text: "Tel: ")
        editor.openField(0, 5, 5, mask: ["preset": "phone.us"], id: "tel")
        XCTAssertEqual(client.takeRequests("workspace/inlayHint/refresh").count, 1)
        client.call("maskd/closeField", ["textDocument": editor.document.identifier, "field": "tel"])
        client.sync()
        let refresh = client.takeRequests("workspace/inlayHint/refresh")
        XCTAssertEqual(refresh.count, 1)
        XCTAssertNil(refresh.first?["params"])
        client.respond(refresh[0], .null)
        client.sync()
    }
}
