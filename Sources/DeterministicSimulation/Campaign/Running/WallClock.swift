/// Wall-clock time for speed figures only (`wallSeconds`, runs per second, progress); it never
/// decides what a campaign runs or finds.
struct WallClock {
    private let start = ContinuousClock.now   // tidy: allow speed figures only, never results

    /// Seconds since this clock was made.
    var elapsedSeconds: Double {
        let elapsed = ContinuousClock.now - start   // tidy: allow speed figures only, never results
        let (seconds, attoseconds) = elapsed.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
