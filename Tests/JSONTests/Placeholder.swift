import XCTest

final class JSONPlaceholder: XCTestCase {
    func testBuilds() {}
}
