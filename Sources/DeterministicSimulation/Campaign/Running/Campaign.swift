import Synchronization
import ThreadSanitizerSupport

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
///   runs the indices of `options.shard`. A phased campaign (``run(phases:options:progress:isCancelled:crashBanners:)``)
///   runs run `i` on its phase's target, chosen by `i` alone.
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
        run(phases: RunPhases<any CampaignTarget>(target), options: options, progress: progress, isCancelled: isCancelled,
            crashBanners: crashBanner.map { RunPhases($0) })
    }

    /// A phased campaign (``RunPhases``): run `i` runs on `targets.value(forRun: i)`, is rerun,
    /// checked and shrunk there, and a crash during it prints `crashBanners.value(forRun: i)`.
    /// A coverage-guided campaign (``CampaignOptions/guidance``) runs every run on `targets.late`.
    ///
    /// ```swift
    /// let targets = RunPhases<any CampaignTarget>(first: 100, use: randomTarget, then: mixTarget)
    /// let result = Campaign.run(phases: targets, options: options)
    /// ```
    package static func run(phases targets: RunPhases<any CampaignTarget>, options: CampaignOptions,
                           progress: (@Sendable (CampaignProgress) -> Void)? = nil,
                           isCancelled: @Sendable @escaping () -> Bool = { false },
                           crashBanners: RunPhases<CrashBanner>? = nil) -> CampaignResult {
        let clock = WallClock()
        let (tally, interrupted, runChoices) = runRuns(targets, options: options, clock: clock, progress: progress,
                                                       isCancelled: isCancelled, crashBanners: crashBanners)
        let runSeconds = clock.elapsedSeconds
        let selected = Array(tally.firstViolations.prefix(options.maxShrunkFailures))
        let followUp = FailureFollowUp(targets: targets.map { slotted($0) }, options: options,
                                       shrinks: !interrupted, isCancelled: isCancelled, runChoices: runChoices)
        let records = WorkerPool.map(selected.count, jobs: options.jobs) { index in
            let (entry, verdict) = selected[index]
            let banner = crashBanners?.value(forRun: entry.firstRun)
            let slot = CrashSlot.claim(banner?.followingUp)
            defer { slot?.release() }
            slot?.begin(options.runSeed(entry.firstRun))
            slot?.end()  // CrashSlotTarget times each rerun and shrink candidate on its own
            // Between those runs the code is bgsim's: a fault there prints the failure, unshrunk.
            if let banner, let failure = verdict.failures.first(where: { $0.invariant == entry.invariant }) {
                slot?.beginHarness(banner.internalError(seed: options.runSeed(entry.firstRun), invariant: entry.invariant,
                                                        message: failure.message))
            }
            return followUp.record(entry, firstVerdict: verdict)
        }
        let samples = tally.sampleDigests.sorted { $0.key < $1.key }
        let sampleChecks = WorkerPool.map(samples.count, jobs: options.jobs) { index in
            let slot = CrashSlot.claim(crashBanners?.value(forRun: samples[index].key))
            defer { slot?.release() }
            slot?.begin(options.runSeed(samples[index].key))
            slot?.end()
            return followUp.recheck(runIndex: samples[index].key, expected: samples[index].value)
        }
        var nondeterminism = records.flatMap(\.nondeterminism) + sampleChecks.compactMap { $0 }
        nondeterminism.sort { $0.runIndex < $1.runIndex }
        // A run that was the first failure of two invariants is followed up twice: one record
        // per run and way of rerunning it, the first (it was reported twice, word for word).
        var seen = Set<String>()  // tidy: allow membership only, never iterated
        nondeterminism.removeAll { !seen.insert("\($0.runIndex) \($0.how)").inserted }
        return CampaignResult(
            totals: tally.totals, wallSeconds: clock.elapsedSeconds, runSeconds: runSeconds,
            stop: interrupted ? .interrupted : .completed, failures: records.map(\.record),
            nondeterminism: nondeterminism, coverage: tally.coverage.coverage, options: options)
    }

    /// The runs: independent (``runAll``) or coverage-guided (``GenerationalRuns``); the tally,
    /// whether cancelled, and the choices of the runs their seeds do not reproduce.
    private static func runRuns(_ targets: RunPhases<any CampaignTarget>, options: CampaignOptions, clock: WallClock,
                                progress: (@Sendable (CampaignProgress) -> Void)?,
                                isCancelled: @Sendable @escaping () -> Bool,
                                crashBanners: RunPhases<CrashBanner>?) -> (RunTally, Bool, [Int: ChoiceSequence]) {
        if let guidance = options.guidance {
            let outcome = guided(targets.late, options: options, guidance: guidance, isCancelled: isCancelled,
                                 progress: progress, crashBanner: crashBanners?.late)
            return (outcome.tally, outcome.interrupted, outcome.runChoices)
        }
        let (tally, interrupted) = runAll(targets, options: options, clock: clock, progress: progress,
                                          isCancelled: isCancelled, crashBanners: crashBanners)
        return (tally, interrupted, [:])
    }

    /// The runs of the shard, on `options.jobs` threads; the merged tally and whether cancelled.
    /// A worker's slot carries the banner of its run's phase: it claims the next phase's when its
    /// runs cross the boundary (a worker takes positions in increasing order).
    private static func runAll(_ targets: RunPhases<any CampaignTarget>, options: CampaignOptions, clock: WallClock,
                               progress: (@Sendable (CampaignProgress) -> Void)?,
                               isCancelled: @Sendable @escaping () -> Bool,
                               crashBanners: RunPhases<CrashBanner>?) -> (RunTally, Bool) {
        let total = options.shard.runCount(of: options.runs)
        let samples = samplePositions(total: total, count: options.determinismSamples).map(options.shard.runIndex(at:))
        let next = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        let failing = Atomic<Int>(0)
        let cancelled = Atomic<Bool>(false)
        let tallies = Mutex<[RunTally]>([])
        let jobs = max(1, min(options.jobs, total))
        // Batches only for a target that asks (isolation); never more than an even share per job.
        let batch = max(1, min(targets.late.preferredBatchSize, total / (jobs * 4)))
        WorkerPool.run(jobs: jobs, tick: {
            guard let progress else { return }
            let runsDone = done.load(ordering: .relaxed)
            let seconds = clock.elapsedSeconds
            let rate = seconds > 0 ? Double(runsDone) / seconds : 0
            progress(CampaignProgress(runsDone: runsDone, runsTotal: total, runsPerSecond: rate,
                                      failures: failing.load(ordering: .relaxed),
                                      secondsLeft: rate > 0 ? Double(total - runsDone) / rate : nil))
        }, work: { _ in
            var slot: CrashSlot? = nil
            var slotRun: Int? = nil  // a run of the phase whose banner `slot` carries
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
                    // A batch (an isolated target): its runs are tallied by index, as one by one,
                    // each phase's runs on that phase's target.
                    let runIndices = (position..<min(position + batch, total)).map(options.shard.runIndex(at:))
                    let early = runIndices.filter { $0 < targets.earlyRuns }
                    let late = runIndices.filter { $0 >= targets.earlyRuns }
                    let verdicts = (early.isEmpty ? [] : targets.early.run(seeds: early.map(options.runSeed)))
                        + (late.isEmpty ? [] : targets.late.run(seeds: late.map(options.runSeed)))
                    for (runIndex, verdict) in zip(runIndices, verdicts) {
                        tally.add(verdict, runIndex: runIndex, isSample: samples.contains(runIndex))
                        if !verdict.passed { failing.wrappingAdd(1, ordering: .relaxed) }
                    }
                    done.wrappingAdd(verdicts.count, ordering: .relaxed)
                    continue
                }
                let runIndex = options.shard.runIndex(at: position)
                let runSeed = options.runSeed(runIndex)
                if let banners = crashBanners, slotRun.map({ !targets.samePhase($0, runIndex) }) ?? true {
                    slot?.release()
                    slot = CrashSlot.claim(banners.value(forRun: runIndex))
                    slotRun = runIndex
                }
                slot?.begin(runSeed)
                let verdict = targets.value(forRun: runIndex).run(choices: ChoiceSource(seed: runSeed), keepTrace: false)
                slot?.end()
                tally.add(verdict, runIndex: runIndex, isSample: samples.contains(runIndex))
                done.wrappingAdd(1, ordering: .relaxed)
                if !verdict.passed { failing.wrappingAdd(1, ordering: .relaxed) }
            }
            tallies.withAnnotatedLock { $0.append(tally) }
        })
        var merged = RunTally()
        for tally in tallies.withAnnotatedLock({ $0 }) { merged.merge(tally) }
        return (merged, cancelled.load(ordering: .relaxed))
    }

    /// The runs of a coverage-guided campaign on `target` (``GenerationalRuns``).
    static func guided(_ target: some CampaignTarget, options: CampaignOptions, guidance: CoverageGuidance,
                       isCancelled: @Sendable @escaping () -> Bool,
                       progress: (@Sendable (CampaignProgress) -> Void)?, crashBanner: CrashBanner?,
                       stopAtFirstFailureOf invariant: String? = nil) -> (tally: RunTally, interrupted: Bool,
                                                                            runChoices: [Int: ChoiceSequence]) {
        let outcome = GenerationalRuns(target: target, options: options, guidance: guidance)
            .run(isCancelled: isCancelled, progress: progress, crashBanner: crashBanner, stopAtFirstFailureOf: invariant)
        return (outcome.tally, outcome.interrupted, outcome.runChoices)
    }

    /// `target` timed on its thread's crash slot run by run (``CrashSlotTarget``).
    private static func slotted(_ target: some CampaignTarget) -> any CampaignTarget { CrashSlotTarget(target) }

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
