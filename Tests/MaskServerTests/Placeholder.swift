import XCTest

final class MaskServerPlaceholder: XCTestCase {
    func testBuilds() {}
}
