import Synchronization

/// The runs of a coverage-guided campaign (``CoverageGuidance``), generation by generation: each
/// generation's runs are planned from the corpus as it was at the generation's start, run on
/// `options.jobs` threads, then tallied and added to the corpus in run-index order.
///
/// ```swift
/// let runs = GenerationalRuns(target: target, options: options, guidance: .coverage)
/// let outcome = runs.run(isCancelled: { false }, progress: nil, crashBanner: nil)
/// ```
///
/// Contract: for every `jobs` value the same runs, tally and mutant choices. A fresh run draws
/// from `ChoiceSource(seed: options.runSeed(i))`, as an unguided campaign's run `i`; a mutant
/// from `ChoiceSource(replaying: plan, filling: options.runSeed(i))`, whose recorded choices are
/// kept (``Outcome/runChoices``) for the runs that need replaying later (first violations and
/// determinism samples): a mutant replays from its choices, not its seed.
struct GenerationalRuns<Target: CampaignTarget>: Sendable {
    let target: Target
    let options: CampaignOptions
    let guidance: CoverageGuidance

    /// What the runs gave.
    struct Outcome: Sendable {
        var tally = RunTally()
        var interrupted = false
        /// The recorded choices of mutant runs that are first violations or determinism samples.
        var runChoices: [Int: ChoiceSequence] = [:]
        /// Corpus entries added, over the campaign.
        var corpusAdded = 0
    }

    /// One run's result, as the workers hand it back.
    private struct RunResult: Sendable {
        var verdict: RunVerdict
        var choices: ChoiceSequence
        var isMutant: Bool
        var features: [CoverageFeatures.Feature]
    }

    func run(isCancelled: @Sendable @escaping () -> Bool, progress: (@Sendable (CampaignProgress) -> Void)?,
             crashBanner: CrashBanner?, stopAtFirstFailureOf invariant: String? = nil) -> Outcome {
        let total = options.shard.runCount(of: options.runs)
        let samples = Campaign.samplePositions(total: total, count: options.determinismSamples)
            .map(options.shard.runIndex(at:))
        var outcome = Outcome()
        var corpus: [ChoiceSequence] = []
        var seen = CoverageFeatures()
        let clock = WallClock()
        var start = 0
        while start < total {
            if isCancelled() {
                outcome.interrupted = true
                break
            }
            let positions = start..<min(total, start + guidance.generationSize)
            let parents = corpus
            // Batches for a target that asks (isolation: one pipe round trip per batch), never
            // more than an even share of the generation per job.
            let batch = max(1, min(target.preferredBatchSize, positions.count / (options.jobs * 2)))
            let batches = stride(from: positions.lowerBound, to: positions.upperBound, by: batch).map {
                $0..<min($0 + batch, positions.upperBound)
            }
            let results = WorkerPool.map(batches.count, jobs: options.jobs) { index in
                let slot = CrashSlot.claim(crashBanner)
                defer { slot?.release() }
                return runBatch(batches[index], parents: parents, slot: slot)
            }.flatMap { $0 }
            for (offset, result) in results.enumerated() {
                let runIndex = options.shard.runIndex(at: positions.lowerBound + offset)
                outcome.tally.add(result.verdict, runIndex: runIndex, isSample: samples.contains(runIndex))
                if result.isMutant,
                   samples.contains(runIndex) || outcome.tally.firstVerdicts[runIndex] != nil {
                    outcome.runChoices[runIndex] = result.choices
                }
                if seen.insertNew(result.features) > 0 {
                    corpus.append(result.choices)
                    outcome.corpusAdded += 1
                    if corpus.count > guidance.corpusLimit { corpus.removeFirst(corpus.count - guidance.corpusLimit) }
                }
            }
            start = positions.upperBound
            if let progress {
                let seconds = clock.elapsedSeconds
                let rate = seconds > 0 ? Double(start) / seconds : 0
                progress(CampaignProgress(runsDone: start, runsTotal: total, runsPerSecond: rate,
                                          failures: outcome.tally.totals.failed,
                                          secondsLeft: rate > 0 ? Double(total - start) / rate : nil))
            }
            if let invariant, outcome.tally.totals.violations.contains(where: { $0.invariant == invariant }) { break }
        }
        return outcome
    }

    /// Plans and runs the runs at `positions` of the shard.
    private func runBatch(_ positions: Range<Int>, parents: [ChoiceSequence], slot: CrashSlot?) -> [RunResult] {
        let planned = positions.map { plan(at: $0, parents: parents) }
        let verdicts: [RunVerdict]
        if planned.count == 1 && target.preferredBatchSize == 1 {
            slot?.begin(planned[0].runSeed)
            verdicts = [target.run(choices: planned[0].source, keepTrace: false)]
            slot?.end()
        } else {
            verdicts = target.run(batch: planned.map(\.source))
        }
        return zip(planned, verdicts).map { planned, verdict in
            RunResult(verdict: verdict, choices: planned.source.recorded, isMutant: planned.isMutant,
                      features: CoverageFeatures.features(of: verdict.coverage, bucketed: guidance.bucketedCategories))
        }
    }

    /// The source of the run at `position`: a mutant of the corpus (after the first generation, with
    /// the guidance's share, decided by a generator of the run's own seed) or a fresh run.
    private func plan(at position: Int, parents: [ChoiceSequence]) -> (source: ChoiceSource, runSeed: Seed, isMutant: Bool) {
        let runSeed = options.runSeed(options.shard.runIndex(at: position))
        var planner = Xoshiro256StarStar(seed: runSeed.derive("coverage").rawValue)
        let threshold = UInt64(guidance.mutantShare * 9_007_199_254_740_992.0)  // 2^53
        guard !parents.isEmpty, planner.next(below: 1 << 53) < threshold else {
            return (ChoiceSource(seed: runSeed), runSeed, false)
        }
        let parent = parents[Self.parentIndex(count: parents.count, generator: &planner)]
        let other = parents[Int(planner.next(below: UInt64(parents.count)))]
        let plan = ChoiceMutator.plan(parent: parent, other: other, generator: &planner)
        return (ChoiceSource(replaying: plan, filling: runSeed), runSeed, true)
    }

    /// The newest entries reached the newest coverage (the frontier): half the parents are one
    /// of the newest ``frontier``, the others any entry.
    static func parentIndex(count: Int, generator: inout Xoshiro256StarStar) -> Int {
        let window = generator.next(below: 2) == 0 ? min(count, frontier) : count
        return count - 1 - Int(generator.next(below: UInt64(window)))
    }

    /// How many of the newest corpus entries count as the frontier.
    static var frontier: Int { 8 }
}
