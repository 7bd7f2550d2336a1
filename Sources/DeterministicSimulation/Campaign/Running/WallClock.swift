/// Wall-clock time for speed figures only (`wallSeconds`, runs per second, progress, `bgsim
/// bench`'s timings); it never decides what a campaign runs or finds.
package struct WallClock {
    package init() {}

    private let start = ContinuousClock.now   // tidy: allow speed figures only, never results

    /// Seconds since this clock was made.
    package var elapsedSeconds: Double {
        let elapsed = ContinuousClock.now - start   // tidy: allow speed figures only, never results
        let (seconds, attoseconds) = elapsed.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
