/// What an exhaustive search does with each invariant's first failing run: replays its recorded
/// choices (a plain replay, as `bgsim replay --choices` does), checks the digest, and shrinks it.
///
/// ```swift
/// let followUp = ExhaustiveFollowUp(target: target, campaign: options, shrinks: true, isCancelled: { false })
/// let (record, mismatch) = followUp.record(failure)
/// ```
///
/// Contract: the record's ``FailureRecord/choices`` replay the failure with
/// ``ChoiceSource/init(replaying:)``; ``FailureRecord/runIndex`` is the run's number in the
/// search and ``FailureRecord/seed`` the campaign seed (a search's runs have no seed of their
/// own). A replay whose digest differs from the search's run is reported as nondeterminism and
/// not shrunk.
struct ExhaustiveFollowUp<Target: CampaignTarget>: Sendable {
    let target: Target
    let campaign: CampaignOptions
    let shrinks: Bool
    let isCancelled: @Sendable () -> Bool

    func record(_ found: ExhaustiveFailure) -> (record: FailureRecord, nondeterminism: NondeterminismRecord?) {
        let invariant = found.invariant
        let failure = found.verdict.failures.first { $0.invariant == invariant }!
        let source = ChoiceSource(replaying: found.choices)  // also marks the run's actions
        let replayed = target.run(choices: source, keepTrace: true)
        var record = FailureRecord(
            runIndex: found.sequence, seed: campaign.seed, failure: failure, shrunkFailure: failure,
            originalEventCount: found.verdict.eventCount, shrunkEventCount: found.verdict.eventCount,
            originalActionCount: source.actions.count, shrunkActionCount: source.actions.count,
            choices: found.choices, shrink: nil, trace: replayed.trace)
        guard replayed.digest == found.verdict.digest else {
            let mismatch = NondeterminismRecord(seed: campaign.seed, runIndex: found.sequence, expected: found.verdict.digest,
                                                actual: replayed.digest, how: "a replay of its recorded choices",
                                                firstDifference: TraceDivergence.explain(
                                                    target: target, source: { ChoiceSource(replaying: found.choices) },
                                                    known: replayed))
            return (record, mismatch)
        }
        let keeps: (RunVerdict) -> Bool = { verdict in verdict.failures.contains { $0.invariant == invariant } }
        guard shrinks, keeps(replayed) else { return (record, nil) }
        record.shrink(found.choices, crashed: replayed.stop == .crashed, target: target, options: campaign.shrink,
                      isCancelled: isCancelled)
        return (record, nil)
    }
}
