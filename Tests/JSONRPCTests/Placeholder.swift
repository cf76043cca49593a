import XCTest

final class JSONRPCPlaceholder: XCTestCase {
    func testBuilds() {}
}
