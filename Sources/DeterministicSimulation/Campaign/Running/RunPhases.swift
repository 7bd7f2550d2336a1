/// What a campaign's runs use, by run index: one value for every run, or (a phased campaign,
/// the `default` exploration strategy) one value for the first runs and another for the rest.
///
/// ```swift
/// let targets = RunPhases<any CampaignTarget>(first: 100, use: randomTarget, then: mixTarget)
/// targets.value(forRun: 7)      // randomTarget: runs 0 to 99
/// targets.value(forRun: 100)    // mixTarget
/// ```
///
/// Contract: a function of the run index alone (never of the shard, the job count or the order
/// runs finish in), so a phased campaign still gives the same results for every `--jobs` and
/// `--shard`, and each run replays alone from its seed under ``value(forRun:)``.
package struct RunPhases<Value: Sendable>: Sendable {
    /// The value of runs `0..<earlyRuns`.
    package let early: Value
    /// The value of every later run (and of every run when ``earlyRuns`` is 0).
    package let late: Value
    /// How many runs, from run 0, use ``early``.
    package let earlyRuns: Int

    /// One value for every run.
    package init(_ value: Value) {
        early = value
        late = value
        earlyRuns = 0
    }

    /// `early` for runs `0..<runs`, `late` from run `runs` on.
    package init(first runs: Int, use early: Value, then late: Value) {
        self.early = early
        self.late = late
        earlyRuns = max(0, runs)
    }

    /// The value of run `runIndex`.
    package func value(forRun runIndex: Int) -> Value { runIndex < earlyRuns ? early : late }

    /// Whether runs `a` and `b` are in the same phase.
    func samePhase(_ a: Int, _ b: Int) -> Bool { (a < earlyRuns) == (b < earlyRuns) }

    /// The same phases with `transform` applied to each value.
    package func map<T: Sendable>(_ transform: (Value) -> T) -> RunPhases<T> {
        RunPhases<T>(first: earlyRuns, use: transform(early), then: transform(late))
    }
}
