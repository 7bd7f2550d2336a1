/// After the runs: reruns a failing run with its trace, checks that it reproduces (from its seed
/// and from its recorded choices), shrinks it, and reruns determinism samples, each run on the
/// target of its phase (``RunPhases``). A rerun that does not reproduce is a
/// ``NondeterminismRecord`` naming the first event where two traced reruns part
/// (``TraceDivergence``), and its failure is not shrunk.
struct FailureFollowUp: Sendable {
    let targets: RunPhases<any CampaignTarget>
    let options: CampaignOptions
    let shrinks: Bool
    let isCancelled: @Sendable () -> Bool
    /// The recorded choices of runs their seeds do not reproduce (coverage-guided mutants).
    var runChoices: [Int: ChoiceSequence] = [:]

    /// The source that repeats run `runIndex`: its recorded choices for a mutant, else its seed.
    private func source(_ runIndex: Int) -> ChoiceSource {
        runChoices[runIndex].map { ChoiceSource(replaying: $0) } ?? ChoiceSource(seed: options.runSeed(runIndex))
    }

    /// The failure record of an invariant's first violating run (whose verdict in the campaign
    /// was `firstVerdict`), and any nondeterminism seen.
    func record(_ entry: InvariantViolations, firstVerdict: RunVerdict)
        -> (record: FailureRecord, nondeterminism: [NondeterminismRecord]) {
        let invariant = entry.invariant
        let failure = firstVerdict.failures.first { $0.invariant == invariant }!
        let seed = options.runSeed(entry.firstRun)
        let target = targets.value(forRun: entry.firstRun)
        let source = source(entry.firstRun)
        let original = target.run(choices: source, keepTrace: true)
        let recorded = source.recorded
        var mismatches: [NondeterminismRecord] = []
        func check(_ actual: TraceDigest, _ how: String) {
            guard actual != firstVerdict.digest else { return }
            let difference = TraceDivergence.explain(target: target, source: { self.source(entry.firstRun) },
                                                     known: original)
            mismatches.append(NondeterminismRecord(seed: seed, runIndex: entry.firstRun, expected: firstVerdict.digest,
                                                   actual: actual, how: how, firstDifference: difference))
        }
        check(original.digest, runChoices[entry.firstRun] == nil ? "a rerun from its seed" : "a replay of its mutant's choices")
        if original.stop == .timedOut {
            // A hang left no recorded choices (it was killed): report it by its seed, unshrunk.
            let record = FailureRecord(
                runIndex: entry.firstRun, seed: seed, failure: failure, shrunkFailure: failure,
                originalEventCount: 0, shrunkEventCount: 0, originalActionCount: 0, shrunkActionCount: 0,
                choices: recorded, shrink: nil, trace: [], runChoices: runChoices[entry.firstRun])
            return (record, mismatches)
        }
        let replaySource = ChoiceSource(replaying: recorded)  // also marks the run's actions
        let replayed = target.run(choices: replaySource, keepTrace: false)
        check(replayed.digest, "a replay of its recorded choices")

        let keeps: (RunVerdict) -> Bool = { verdict in verdict.failures.contains { $0.invariant == invariant } }
        var record = FailureRecord(
            runIndex: entry.firstRun, seed: seed, failure: failure, shrunkFailure: failure,
            originalEventCount: firstVerdict.eventCount, shrunkEventCount: firstVerdict.eventCount,
            originalActionCount: replaySource.actions.count, shrunkActionCount: replaySource.actions.count,
            choices: recorded,
            shrink: nil,
            trace: original.trace, runChoices: runChoices[entry.firstRun])
        guard shrinks, mismatches.isEmpty, keeps(original) else { return (record, mismatches) }
        record.shrink(recorded, crashed: original.stop == .crashed, target: target, options: options.shrink,
                      isCancelled: isCancelled)
        return (record, mismatches)
    }

    /// Reruns run `runIndex` from its seed; a record if its digest differs from `expected`.
    ///
    /// A rerun that timed out (no progress for the run timeout: on a loaded machine a child can
    /// be starved that long) has no trace to compare, only the hang's placeholder digest, so it
    /// is tried again, up to ``timedOutRetries`` times, before it counts; the record then says so.
    func recheck(runIndex: Int, expected: TraceDigest) -> NondeterminismRecord? {
        let seed = options.runSeed(runIndex)
        let target = targets.value(forRun: runIndex)
        var rerun = target.run(choices: source(runIndex), keepTrace: false)
        var timeouts = 0
        while rerun.stop == .timedOut, timeouts < Self.timedOutRetries {
            timeouts += 1
            rerun = target.run(choices: source(runIndex), keepTrace: false)
        }
        guard rerun.digest != expected else { return nil }
        var how = runChoices[runIndex] == nil ? "a rerun from its seed" : "a replay of its mutant's choices"
        if rerun.stop == .timedOut {
            how += " (it timed out \(timeouts + 1) times: no progress for the run timeout, where the campaign's run finished)"
        }
        return NondeterminismRecord(seed: seed, runIndex: runIndex, expected: expected, actual: rerun.digest, how: how,
                                    firstDifference: TraceDivergence.explain(target: target, source: { source(runIndex) }))
    }

    /// How many more times a timed-out recheck is tried before it counts.
    static let timedOutRetries = 2
}

extension FailureRecord {
    /// Shrinks the failing run `recorded` while it still violates this record's invariant, then
    /// reruns the shrunk run with its trace and records it: choices, shrink result, event and
    /// action counts, trace, and the shrunk run's failure of the same invariant (else the
    /// original failure). Shared by seeded campaigns and exhaustive searches.
    ///
    /// ```swift
    /// record.shrink(recorded, crashed: verdict.stop == .crashed, target: target, options: .init(),
    ///               isCancelled: { false })
    /// ```
    ///
    /// Contract: a failure that did not crash is shrunk where the target puts it
    /// (``CampaignTarget/shrinkInChild(_:invariant:options:isCancelled:)``: a child process for an
    /// isolated target), else in process; a crash is shrunk here, each candidate on `target`. A
    /// child that ends before answering leaves the record unshrunk with its ``shrinkFault``; a
    /// cancelled shrink leaves it unshrunk. The shrunk run itself is rerun on `target`.
    mutating func shrink(_ recorded: ChoiceSequence, crashed: Bool, target: any CampaignTarget, options: ShrinkOptions,
                         isCancelled: () -> Bool) {
        let invariant = failure.invariant
        let result: ShrinkResult
        switch crashed ? nil : target.shrinkInChild(recorded, invariant: invariant, options: options,
                                                    isCancelled: isCancelled) {
        case .shrunk(let shrunk)?:
            result = shrunk
        case .stopped(let fault)?:
            shrinkFault = fault
            return
        case .cancelled?:
            return
        case nil:
            InjectedFault.atShrinkStart()
            result = Shrinker.shrink(recorded, target: target, while: invariant, options: options, isCancelled: isCancelled)
        }
        let shrunkSource = ChoiceSource(replaying: result.choices)
        let shrunk = target.run(choices: shrunkSource, keepTrace: true)
        choices = result.choices
        shrink = result
        shrunkEventCount = shrunk.eventCount
        shrunkActionCount = shrunkSource.actions.count
        trace = shrunk.trace
        shrunkFailure = shrunk.failures.first { $0.invariant == invariant } ?? failure
    }
}
