#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
internal import SimulationRuntimeShims

/// The real monotonic clock, on any thread: the harness's own timing (run timeouts, watchdogs,
/// the deadline of a child's answer). Inside a run the process's clock functions answer the
/// run's virtual time (the engine's `VirtualClocks`); this reads past them.
///
/// ```swift
/// let started = RealClock.monotonicNanoseconds()
/// ```
///
/// Contract: never virtual, never a result: only ever a duration the harness waits.
package enum RealClock {
    /// The real monotonic time in nanoseconds.
    package static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        _ = bgsim_real_clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// The real monotonic time in milliseconds.
    package static func monotonicMilliseconds() -> Int {
        Int(monotonicNanoseconds() / 1_000_000)
    }
}
