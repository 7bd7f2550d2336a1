import Synchronization

/// Runs fuzz campaigns: many runs of one target from seeds derived from one campaign seed,
/// spread over worker threads, then the first failure of each invariant rerun, checked for
/// determinism and shrunk.
///
/// ```swift
/// let options = CampaignOptions(seed: Seed(0xb6), runs: 1_000, jobs: 2)
/// let result = Campaign.run(target, options: options)
/// for failure in result.failures {
///     print(failure.failure.invariant, failure.seed, failure.choices.token)
/// }
/// ```
///
/// Contract:
/// - Run `i` draws from `ChoiceSource(seed: options.seed.derive(index: UInt64(i)))`; this process
///   runs the indices of `options.shard`.
/// - Everything in the result except ``CampaignResult/wallSeconds`` is identical for every
///   `jobs` value: per-run results are combined by run index, never by finishing order.
/// - `isCancelled` is polled between runs (on the workers; between batches for a target whose
///   ``CampaignTarget/preferredBatchSize`` is above 1); once it returns `true` no new run
///   starts, failures are not shrunk, and ``CampaignResult/stop`` is `.interrupted`.
/// - `progress` is called on the calling thread, about 4 times a second at most.
/// - With a `crashBanner` and crash handling installed (``CrashSignals``, ``RunWatchdog``), each
///   worker keeps its run's seed in a ``CrashSlot``, so a crash or hang names the run; without
///   either, runs pay nothing for it.
public enum Campaign {
    public static func run(_ target: some CampaignTarget, options: CampaignOptions,
                           progress: (@Sendable (CampaignProgress) -> Void)? = nil,
                           isCancelled: @Sendable @escaping () -> Bool = { false },
                           crashBanner: CrashBanner? = nil) -> CampaignResult {
        let clock = WallClock()
        let (tally, interrupted, runChoices) = runRuns(target, options: options, clock: clock, progress: progress,
                                                       isCancelled: isCancelled, crashBanner: crashBanner)
        let runSeconds = clock.elapsedSeconds
        let selected = Array(tally.firstViolations.prefix(options.maxShrunkFailures))
        let followUp = FailureFollowUp(target: CrashSlotTarget(target), options: options, shrinks: !interrupted,
                                       isCancelled: isCancelled, runChoices: runChoices)
        let followingUp = crashBanner?.followingUp
        let records = WorkerPool.map(selected.count, jobs: options.jobs) { index in
            let slot = CrashSlot.claim(followingUp)
            defer { slot?.release() }
            slot?.begin(options.runSeed(selected[index].entry.firstRun))
            slot?.end()  // CrashSlotTarget times each rerun and shrink candidate on its own
            return followUp.record(selected[index].entry, firstVerdict: selected[index].verdict)
        }
        let samples = tally.sampleDigests.sorted { $0.key < $1.key }
        let sampleChecks = WorkerPool.map(samples.count, jobs: options.jobs) { index in
            let slot = CrashSlot.claim(crashBanner)
            defer { slot?.release() }
            slot?.begin(options.runSeed(samples[index].key))
            slot?.end()
            return followUp.recheck(runIndex: samples[index].key, expected: samples[index].value)
        }
        var nondeterminism = records.flatMap(\.nondeterminism) + sampleChecks.compactMap { $0 }
        nondeterminism.sort { $0.runIndex < $1.runIndex }
        return CampaignResult(
            totals: tally.totals, wallSeconds: clock.elapsedSeconds, runSeconds: runSeconds,
            stop: interrupted ? .interrupted : .completed, failures: records.map(\.record),
            nondeterminism: nondeterminism, coverage: tally.coverage.coverage, options: options)
    }

    /// The runs: independent (``runAll``) or coverage-guided (``GenerationalRuns``); the tally,
    /// whether cancelled, and the choices of the runs their seeds do not reproduce.
    private static func runRuns(_ target: some CampaignTarget, options: CampaignOptions, clock: WallClock,
                                progress: (@Sendable (CampaignProgress) -> Void)?,
                                isCancelled: @Sendable @escaping () -> Bool,
                                crashBanner: CrashBanner?) -> (RunTally, Bool, [Int: ChoiceSequence]) {
        if let guidance = options.guidance {
            let outcome = GenerationalRuns(target: target, options: options, guidance: guidance)
                .run(isCancelled: isCancelled, progress: progress, crashBanner: crashBanner)
            return (outcome.tally, outcome.interrupted, outcome.runChoices)
        }
        let (tally, interrupted) = runAll(target, options: options, clock: clock, progress: progress,
                                          isCancelled: isCancelled, crashBanner: crashBanner)
        return (tally, interrupted, [:])
    }

    /// The runs of the shard, on `options.jobs` threads; the merged tally and whether cancelled.
    private static func runAll(_ target: some CampaignTarget, options: CampaignOptions, clock: WallClock,
                               progress: (@Sendable (CampaignProgress) -> Void)?,
                               isCancelled: @Sendable @escaping () -> Bool,
                               crashBanner: CrashBanner?) -> (RunTally, Bool) {
        let total = options.shard.runCount(of: options.runs)
        let samples = samplePositions(total: total, count: options.determinismSamples).map(options.shard.runIndex(at:))
        let next = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        let failing = Atomic<Int>(0)
        let cancelled = Atomic<Bool>(false)
        let tallies = Mutex<[RunTally]>([])
        let jobs = max(1, min(options.jobs, total))
        // Batches only for a target that asks (isolation); never more than an even share per job.
        let batch = max(1, min(target.preferredBatchSize, total / (jobs * 4)))
        WorkerPool.run(jobs: jobs, tick: {
            guard let progress else { return }
            let runsDone = done.load(ordering: .relaxed)
            let seconds = clock.elapsedSeconds
            let rate = seconds > 0 ? Double(runsDone) / seconds : 0
            progress(CampaignProgress(runsDone: runsDone, runsTotal: total, runsPerSecond: rate,
                                      failures: failing.load(ordering: .relaxed),
                                      secondsLeft: rate > 0 ? Double(total - runsDone) / rate : nil))
        }, work: { _ in
            let slot = CrashSlot.claim(crashBanner)
            defer { slot?.release() }
            var tally = RunTally()
            while !cancelled.load(ordering: .relaxed) {
                if isCancelled() {
                    cancelled.store(true, ordering: .relaxed)
                    break
                }
                let position = next.wrappingAdd(batch, ordering: .relaxed).oldValue
                guard position < total else { break }
                if batch > 1 {
                    // A batch (an isolated target): its runs are tallied by index, as one by one.
                    let runIndices = (position..<min(position + batch, total)).map(options.shard.runIndex(at:))
                    let verdicts = target.run(seeds: runIndices.map(options.runSeed))
                    for (runIndex, verdict) in zip(runIndices, verdicts) {
                        tally.add(verdict, runIndex: runIndex, isSample: samples.contains(runIndex))
                        if !verdict.passed { failing.wrappingAdd(1, ordering: .relaxed) }
                    }
                    done.wrappingAdd(verdicts.count, ordering: .relaxed)
                    continue
                }
                let runIndex = options.shard.runIndex(at: position)
                let runSeed = options.runSeed(runIndex)
                slot?.begin(runSeed)
                let verdict = target.run(choices: ChoiceSource(seed: runSeed), keepTrace: false)
                slot?.end()
                tally.add(verdict, runIndex: runIndex, isSample: samples.contains(runIndex))
                done.wrappingAdd(1, ordering: .relaxed)
                if !verdict.passed { failing.wrappingAdd(1, ordering: .relaxed) }
            }
            tallies.withLock { $0.append(tally) }
        })
        var merged = RunTally()
        for tally in tallies.withLock({ $0 }) { merged.merge(tally) }
        return (merged, cancelled.load(ordering: .relaxed))
    }

    /// `count` positions spread evenly over `0..<total` (first, then every total/count-th).
    static func samplePositions(total: Int, count: Int) -> [Int] {
        guard total > 0, count > 0 else { return [] }
        var positions: [Int] = []
        for k in 0..<min(count, total) {
            let position = k * total / min(count, total)
            if positions.last != position { positions.append(position) }
        }
        return positions
    }
}
