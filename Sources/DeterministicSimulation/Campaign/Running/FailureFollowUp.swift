/// After the runs: reruns a failing run with its trace, checks that it reproduces (from its seed
/// and from its recorded choices), shrinks it, and reruns determinism samples, each run on the
/// target of its phase (``RunPhases``).
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
            mismatches.append(NondeterminismRecord(seed: seed, runIndex: entry.firstRun, expected: firstVerdict.digest,
                                                   actual: actual, how: how))
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
                      isCancelled: isCancelled, keeps: keeps)
        return (record, mismatches)
    }

    /// Reruns run `runIndex` from its seed; a record if its digest differs from `expected`.
    func recheck(runIndex: Int, expected: TraceDigest) -> NondeterminismRecord? {
        let seed = options.runSeed(runIndex)
        let actual = targets.value(forRun: runIndex).run(choices: source(runIndex), keepTrace: false).digest
        guard actual != expected else { return nil }
        return NondeterminismRecord(seed: seed, runIndex: runIndex, expected: expected, actual: actual,
                                    how: runChoices[runIndex] == nil ? "a rerun from its seed" : "a replay of its mutant's choices")
    }
}

extension FailureRecord {
    /// Shrinks the failing run `recorded` while `keeps` holds, then reruns the shrunk run with its
    /// trace and records it: choices, shrink result, event and action counts, trace, and the
    /// shrunk run's failure of the same invariant (else the original failure). Shared by seeded
    /// campaigns and exhaustive searches.
    ///
    /// ```swift
    /// record.shrink(recorded, crashed: verdict.stop == .crashed, target: target, options: .init(),
    ///               isCancelled: { false }, keeps: keeps)
    /// ```
    ///
    /// Contract: a failure that did not crash is shrunk in process when the target offers it
    /// (isolation: its candidates are edits of a run that completed; a pipe round trip each cost
    /// +50%); the shrunk run itself is rerun on `target`.
    mutating func shrink(_ recorded: ChoiceSequence, crashed: Bool, target: any CampaignTarget, options: ShrinkOptions,
                         isCancelled: () -> Bool, keeps: (RunVerdict) -> Bool) {
        let shrinkTarget: any CampaignTarget = crashed ? target : (target.inProcessShrinkTarget ?? target)
        let shrink = Shrinker.shrink(recorded, target: shrinkTarget, options: options, isCancelled: isCancelled,
                                     keeps: keeps)
        let shrunkSource = ChoiceSource(replaying: shrink.choices)
        let shrunk = target.run(choices: shrunkSource, keepTrace: true)
        let invariant = failure.invariant
        choices = shrink.choices
        self.shrink = shrink
        shrunkEventCount = shrunk.eventCount
        shrunkActionCount = shrunkSource.actions.count
        trace = shrunk.trace
        shrunkFailure = shrunk.failures.first { $0.invariant == invariant } ?? failure
    }
}
