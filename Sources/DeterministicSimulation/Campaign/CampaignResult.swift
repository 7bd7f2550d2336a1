/// How a campaign ended.
public enum CampaignStop: String, Sendable, Equatable {
    /// Every run of the shard ran.
    case completed
    /// Cancelled between runs; the result covers the runs that finished.
    case interrupted
}

/// What a campaign found: counts, the campaign digest, coverage, failures and determinism checks.
///
/// ```swift
/// let result = Campaign.run(target, options: options)
/// print(result.totals.runs, result.totals.failed, result.totals.digest.digest)
/// if let first = result.failures.first { print(first.failure.invariant, first.seed) }
/// ```
///
/// Contract: everything except ``wallSeconds`` is the same for every `jobs` value; for a
/// completed campaign, shard results merge (``CampaignReport/merge(_:)``) into the unsharded one.
public struct CampaignResult: Sendable {
    /// What the runs that finished added up to: counts, stop reasons, violations per
    /// invariant (with their first run) and the campaign digest.
    public var totals: RunTotals
    /// Wall-clock duration of the whole campaign, shrinking included.
    public var wallSeconds: Double
    /// Wall-clock duration of the runs alone (what runs per second are measured over).
    public var runSeconds: Double
    /// How the campaign ended.
    public var stop: CampaignStop
    /// One record per distinct invariant (first failing run), ordered by run index, capped.
    public var failures: [FailureRecord]
    /// Reruns that did not reproduce their run.
    public var nondeterminism: [NondeterminismRecord]
    /// What the runs exercised, merged in order of first appearance by run index.
    public var coverage: Coverage
    /// The options the campaign ran with.
    public var options: CampaignOptions
    /// What a bounded exhaustive search explored (``ExhaustiveSearch``); nil for a campaign of
    /// seeded runs.
    public var exhaustive: ExhaustiveStats? = nil

    /// The failures whose shrink hit an internal error of bgsim (``ShrinkFault/isInternalError``):
    /// they stand unshrunk, and the campaign's command ends with its internal-error code.
    public var internalErrors: [FailureRecord] { failures.filter { $0.shrinkFault?.isInternalError == true } }
}

/// One failure of a campaign: the first run that violated one invariant, shrunk.
///
/// Contract: ``choices`` replays (with `ChoiceSource(replaying:)`) a run that violates
/// `failure.invariant`; ``trace`` is that run's trace.
public struct FailureRecord: Sendable {
    /// The run's index in the campaign.
    public var runIndex: Int
    /// The run's seed: replays the original run.
    public var seed: Seed
    /// The violation in the original run.
    public var failure: Violation
    /// The same invariant's violation in the shrunk run (equal to ``failure`` when not shrunk).
    package var shrunkFailure: Violation
    /// Events in the original run.
    public var originalEventCount: Int
    /// Events in the shrunk run (the original count when not shrunk).
    public var shrunkEventCount: Int
    /// Actions (``ChoiceSource/actions``: for the simulator, environment actions) in the original run.
    public var originalActionCount: Int
    /// Actions in the shrunk run (the original count when not shrunk).
    public var shrunkActionCount: Int
    /// The shrunk choices when shrinking ran, else the original recording.
    public var choices: ChoiceSequence
    /// The shrinker's statistics; `nil` when shrinking did not run (interrupted).
    public var shrink: ShrinkResult?
    /// The trace of the run ``choices`` replays.
    public var trace: [TraceLine]
    /// The original run's recorded choices when its seed alone does not reproduce it (a mutant of
    /// a coverage-guided campaign, ``CoverageGuidance``): its replay is `--choices` with these;
    /// `nil` when `bgsim replay --seed` ``seed`` reproduces it.
    public var runChoices: ChoiceSequence? = nil
    /// Why the failure stands unshrunk although shrinking ran: its isolated shrink ended early (an
    /// internal error of bgsim, or a candidate that crashed or hung the workload). `nil` otherwise.
    public var shrinkFault: ShrinkFault? = nil
}

extension FailureRecord {
    /// How far the failure shrank, in the words every summary uses (human, JUnit, Swift API).
    ///
    /// ```swift
    /// print("shrunk to \(record.shrunkSizeText)")   // "shrunk to 4 actions, 44 events (from 151 actions, 753 events)"
    /// ```
    /// A crash found in a child process has no events to count (the child died with them): its
    /// size is in actions alone ("3 actions (from 4 actions)").
    public var shrunkSizeText: String {
        if originalEventCount == 0, shrunkEventCount == 0, originalActionCount > 0 {
            return "\(shrunkActionCount) actions (from \(originalActionCount) actions)"
        }
        return "\(shrunkActionCount) actions, \(shrunkEventCount) events (from \(originalActionCount) actions, "
            + "\(originalEventCount) events)"
    }
}

/// A rerun that gave a different digest than the campaign saw: the target is not deterministic.
public struct NondeterminismRecord: Sendable, Equatable {
    /// The run's seed.
    public var seed: Seed
    /// The run's index.
    public var runIndex: Int
    /// The digest the campaign saw.
    public var expected: TraceDigest
    /// The digest of the rerun.
    public var actual: TraceDigest
    /// How the run was repeated, e.g. `"a rerun from its seed"`.
    public var how: String
    /// Where the runs part: the first event that differs between two traced reruns
    /// (``TraceDivergence``), or why no event can be named. `nil` when not looked for.
    public var firstDifference: String? = nil

    /// What usually makes a workload's runs differ, for the line that reports one: the one
    /// wording every front end prints. (A `Set` or `Dictionary` of values iterates the same way
    /// in every run: binaries that link the simulator hash deterministically.)
    public static let usualCauses = "the workload reads real time, real threads or global state (a singleton an "
        + "earlier run wrote), or orders work by object addresses (a Set or Dictionary of objects or "
        + "ObjectIdentifiers)"
}

extension CampaignResult {
    /// The result of a campaign that ran nothing (a front end that stopped before its runs).
    package static func nothingRun(options: CampaignOptions) -> CampaignResult {
        CampaignResult(totals: RunTotals(), wallSeconds: 0, runSeconds: 0, stop: .completed, failures: [],
                       nondeterminism: [], coverage: Coverage(), options: options)
    }
}
