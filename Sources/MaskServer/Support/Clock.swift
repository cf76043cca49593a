// maskd: the monotonic clock the diagnostics' delay is measured with.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Milliseconds of `CLOCK_MONOTONIC` (never jumps with the wall clock).
public func monotonicMilliseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1000 + UInt64(time.tv_nsec) / 1_000_000
}
