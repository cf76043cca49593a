import XCTest

final class MaskEnginePlaceholder: XCTestCase {
    func testBuilds() {}
}
