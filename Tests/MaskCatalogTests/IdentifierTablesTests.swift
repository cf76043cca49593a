import XCTest

@testable import MaskCatalog
@testable import MaskEngine

/// Identifier presets whose typing the generated vectors do not reach: a longer length whose layout differs only
/// late (`ch.vat`'s MWST), letters lower-cased as typed (`mac`), free lengths (`bitcoin`, `isil`), and the registry
/// tables (`mac`, `nz.bankaccount`), and a place whose characters include a hyphen (`fi.hetu`'s century sign).
final class IdentifierTablesTests: XCTestCase {
    /// FIPS 180-2's examples (one block, two blocks), which a Base58 bitcoin address's check is taken with.
    func testSHA256_givesTheStandardsDigests() {
        func hex(_ text: String) -> String {
            SHA256.hash(Array(text.utf8)).map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        }
        XCTAssertEqual(hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    /// Types `keys` one at a time at the end, as a person would, and returns the last result.
    func typed(_ keys: String, preset: String) throws -> FieldResult {
        let mask = try Mask.compile(MaskSpec(.preset(preset)))
        var text = ""
        var last = mask.format("")
        for key in keys {
            last = mask.apply(.insert(String(key), at: text.count..<text.count), to: text)
            text = last.text
        }
        return last
    }

    func testSwissVAT_MWSTTyped_showsTheLongerLayout_valid() throws {
        let mwst = try typed("CHE107787577MWST", preset: "ch.vat")
        XCTAssertEqual(mwst.text, "CHE-107.787.577 MWST")
        XCTAssertEqual(mwst.value, "CHE107787577MWST")
        XCTAssertTrue(mwst.valid && mwst.complete)
        let tva = try typed("che107787577tva", preset: "ch.vat")
        XCTAssertEqual(tva.text, "CHE-107.787.577 TVA")
        XCTAssertTrue(tva.valid)
        let wrong = try typed("CHE107787577TWA", preset: "ch.vat")
        XCTAssertEqual(wrong.problems, ["language code TWA is not issued"])
    }

    func testMAC_upperCaseTyped_isLowerCased_andTheRegistryDecides() throws {
        let registered = try typed("D0509984A2A0", preset: "mac")
        XCTAssertEqual(registered.text, "d0:50:99:84:a2:a0")
        XCTAssertTrue(registered.valid)
        // A block the registry divides, and an address in one of its assigned smaller blocks and in none.
        XCTAssertTrue(try typed("001bc5000001", preset: "mac").valid)
        XCTAssertEqual(try typed("001bc5005001", preset: "mac").problems, ["no manufacturer has this address block"])
        // A locally administered address (bit 2 of the first octet) checks only its form.
        XCTAssertTrue(try typed("02ffffffffff", preset: "mac").valid)
        XCTAssertEqual(try typed("0g", preset: "mac").rejected, "g")
    }

    func testBitcoin_base58AndBech32_ofTheirOwnLengths() throws {
        let base58 = try typed("1NEDqZPvTWRaoho48qXuLLsrYomMXPABfD", preset: "bitcoin")
        XCTAssertTrue(base58.valid && base58.complete)
        XCTAssertFalse(try typed("1NEDqZPvTWRaoho48qXuLLsrYomMXPABfX", preset: "bitcoin").valid)
        let bech32 = try typed("bc1qardv855yjngspvxuttq897aqca3lxju2y69jce", preset: "bitcoin")
        XCTAssertEqual(bech32.text, "bc1qardv855yjngspvxuttq897aqca3lxju2y69jce")
        XCTAssertTrue(bech32.valid)
        XCTAssertEqual(try typed("0", preset: "bitcoin").rejected, "0")
    }

    func testISIL_keepsItsCase_andNeedsARegisteredAgency() throws {
        XCTAssertTrue(try typed("it-RM0267", preset: "isil").valid)
        XCTAssertEqual(try typed("it-RM0267", preset: "isil").text, "it-RM0267")
        XCTAssertEqual(try typed("WW-RM0267", preset: "isil").problems, ["not a registered agency"])
    }

    func testNewZealandBankAccount_branchTable() throws {
        let valid = try typed("0102420100194000", preset: "nz.bankaccount")
        XCTAssertEqual(valid.text, "01-0242-0100194-000")
        XCTAssertTrue(valid.valid)
        XCTAssertEqual(try typed("0199990100197000", preset: "nz.bankaccount").problems, ["no such bank branch"])
    }

    func testFinnishHETU_centurySign_refusesADigitOrASlash() throws {
        XCTAssertEqual(try typed("1310525", preset: "fi.hetu").rejected, "5")
        XCTAssertEqual(try typed("131052/", preset: "fi.hetu").rejected, "/")
        XCTAssertEqual(try typed("131052-308T", preset: "fi.hetu").text, "131052-308T")
        XCTAssertEqual(try typed("131052A308T", preset: "fi.hetu").text, "131052A308T")
    }
}
