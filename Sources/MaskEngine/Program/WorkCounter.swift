#if DEBUG
    import Synchronization
#endif

/// The engine's unit steps (a character read or sorted, an element walked, a cell placed or
/// rendered), counted in debug builds only, so a test can check that reading n characters costs
/// O(n) without timing anything. Release builds count nothing and pay nothing.
package enum WorkCounter {
    #if DEBUG
        @usableFromInline package static let counted = Atomic<Int>(0)
    #endif

    /// Whether steps are counted (debug builds).
    package static var isCounting: Bool {
        #if DEBUG
            return true
        #else
            return false
        #endif
    }

    /// The steps counted so far (always 0 in a release build).
    package static var steps: Int {
        #if DEBUG
            return counted.load(ordering: .relaxed)
        #else
            return 0
        #endif
    }

    @inlinable package static func count(_ n: Int = 1) {
        #if DEBUG
            counted.wrappingAdd(n, ordering: .relaxed)
        #endif
    }
}
