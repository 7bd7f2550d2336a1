public import DeterministicSimulation
package import SimulationFormats

/// What a ``WorkloadCampaign`` found: counts, and for each violated invariant its first failing
/// run with the seed, the message, the shrunk choices and how to replay it.
///
/// ```swift
/// let report = campaign.run()
/// if let failure = report.failures.first {
///     let outcome = campaign.replay(seed: failure.seed)     // the same run, with its trace
/// }
/// ```
///
/// Contract: ``description`` is a readable summary: each failure says how often it appeared
/// ("k of n runs") and its every replay line ends with the Swift call that replays it; a passing
/// report says what its runs rule out (``DetectionBound``); ``result`` holds the full engine result (coverage, digests) and
/// ``jsonText`` the report in the format of `bgsim fuzz --report` (`Reports/README.md`).
public struct WorkloadReport: Sendable, CustomStringConvertible {
    /// One violated invariant's first failing run.
    public struct Failure: Sendable {
        /// The invariant's id, e.g. `every-begin-ended`.
        public var invariant: String
        /// What went wrong, in iOS terms.
        public var message: String
        /// The run's seed: `campaign.replay(seed:)` reruns it.
        public var seed: Seed
        /// The shrunk run's choices as a token: `campaign.replay(choices:)` reruns it.
        public var choices: String
        /// Events of the original and of the shrunk run.
        public var originalEventCount: Int
        public var shrunkEventCount: Int
        /// Environment actions (`env.` events) of the original and of the shrunk run.
        public var originalActionCount: Int
        public var shrunkActionCount: Int
        /// How far the failure shrank, e.g. "4 actions, 44 events (from 151 actions, 753 events)".
        public var shrunkSizeText: String
        /// Whether it was shrunk (a hang never is; a failure whose shrink a crash stopped is not).
        public var isShrunk = true
        /// The Swift call that replays the run; it compiles with `import BackgroundTaskSimulator`.
        public var replay: String
        /// The Swift call that replays the shrunk run (it throws: call it with `try`); a hang's
        /// is its seed's (nothing of it was recorded).
        public var shrunkReplay: String

        /// "shrunk to 4 actions, 44 events (from …)", or why it was not shrunk.
        public var shrinkPhrase: String {
            if isShrunk { return "shrunk to \(shrunkSizeText)" }
            return invariant == IsolatedTarget<SimulationTarget>.hangInvariant
                ? "not shrunk (a hang is not shrunk: each attempt could wait out the run timeout)" : "not shrunk"
        }
    }

    /// The engine's result.
    public let result: CampaignResult
    /// The workload's name.
    public let workload: String
    /// The scenario campaign's outcome (nil when the failure store could not be read).
    public let outcome: ScenarioOutcome?
    /// Why the failure store could not be read or written (the report then fails).
    public let storeError: FailureStoreError?

    init(result: CampaignResult, workload: String) {
        self.result = result
        self.workload = workload
        outcome = nil
        storeError = nil
    }

    init(outcome: ScenarioOutcome) {
        result = outcome.result
        workload = outcome.scenario.name
        self.outcome = outcome
        storeError = nil
    }

    init(storeError: FailureStoreError, workload: String, options: CampaignOptions) {
        result = .nothingRun(options: options)
        self.workload = workload
        outcome = nil
        self.storeError = storeError
    }

    /// Whether every run held every invariant, replays were deterministic and no saved failure
    /// still fails.
    public var passed: Bool {
        result.totals.failed == 0 && result.nondeterminism.isEmpty && storeError == nil && savedStillFailing.isEmpty
    }

    /// Saved failures (``WorkloadCampaign/failureStore``) replayed first that still fail.
    public var savedStillFailing: [SavedFailure] { outcome?.saved.stillFailing ?? [] }

    /// Saved failures replayed first that no longer fail but were saved by an older version, whose
    /// choices now mean another run (``ChoiceMeaning``): kept in the store, not taken for fixed.
    public var savedUnderOtherChoices: [SavedFailure] { outcome?.saved.savedUnderOtherChoices ?? [] }

    /// The failures, one per violated invariant, in order of first appearance.
    public var failures: [Failure] {
        result.failures.map { record in
            Failure(invariant: record.failure.invariant, message: record.failure.message, seed: record.seed,
                    choices: record.choices.token, originalEventCount: record.originalEventCount,
                    shrunkEventCount: record.shrunkEventCount, originalActionCount: record.originalActionCount,
                    shrunkActionCount: record.shrunkActionCount, shrunkSizeText: record.shrunkSizeText,
                    isShrunk: record.shrink != nil,
                    replay: outcome.map { Self.call($0.replay(of: record)) } ?? "campaign.replay(seed: \(record.seed))",
                    shrunkReplay: outcome.map { Self.call($0.shrunkReplay(of: record)) }
                        ?? "try campaign.replay(choices: \"\(record.choices.token)\")")
        }
    }

    /// A recipe spelled as the Swift call that replays it on the campaign, the strategy named
    /// only where the call would not take it by itself (``ReplayRecipe/swiftCall(on:)``): a
    /// `default` campaign's coin run printed `strategy: .default` beside runs without it.
    static func call(_ recipe: ReplayRecipe) -> String { recipe.swiftCall(on: "campaign") }

    /// The Swift call that replays a saved failure (it throws: the `try` is part of it).
    ///
    /// ```swift
    /// WorkloadReport.replay(of: saved)   // "try campaign.replay(choices: \"c1.AAAAAQ…\")"
    /// ```
    public static func replay(of saved: SavedFailure) -> String {
        let strategy = saved.strategy == .random ? "" : ", strategy: .\(saved.strategy)"
        return "try campaign.replay(choices: \"\(saved.choices.token)\"\(strategy))"
    }

    /// What a crash during a run of `workload` under `strategy` prints after the signal.
    static func banner(workload: String, strategy: ExplorationStrategy) -> CrashBanner {
        let strategyText = strategy == .random ? "" : ", strategy: .\(strategy)"
        return CrashBanner(run: "run seed {seed} of WorkloadCampaign \"\(workload)\"",
                           replay: "campaign.replay(seed: {seed}\(strategyText))")
    }

    /// The report's text, byte for byte as `bgsim fuzz --report` writes it.
    ///
    /// ```swift
    /// try report.jsonText.write(toFile: "draft-uploader.json", atomically: true, encoding: .utf8)
    /// ```
    public var jsonText: String { JSONWriter().string(for: json) }

    /// The report as a JSON value (for the package's own tests and commands).
    package var json: JSONValue {
        CampaignReport.json(result, scenarioName: workload, scenarioFile: "(Swift API)", toolVersion: "swift-api", toolName: "bgsim",
                            replayCommand: { record in
                                outcome.map { Self.call($0.replay(of: record)) } ?? "campaign.replay(seed: \(record.seed))"
                            })
    }

    public var description: String {
        let totals = result.totals
        var lines = ["\(workload): \(totals.runs) runs, \(totals.passed) passed, \(totals.failed) failed "
            + "(seed \(result.options.seed), digest \(totals.digest.digest))"]
        if let storeError { lines.append("  FAILURE STORE: \(storeError)") }
        for saved in savedStillFailing {
            lines.append("  \(saved.invariant) (saved failure, still failing): \(saved.message)")
            lines.append("    replay: \(Self.replay(of: saved))")
        }
        for saved in savedUnderOtherChoices {
            lines.append("  \(saved.invariant) (saved failure from an older version, kept): its choices now mean another "
                + "run, which passed; the bug may still be there: \(saved.message)")
        }
        if passed, result.exhaustive == nil, let ruledOut = DetectionBound(runs: totals.runs).text {
            lines.append("  \(ruledOut)")
        }
        for failure in failures {
            let count = totals.violations.first { $0.invariant == failure.invariant }?.runs ?? 1
            lines.append("  \(failure.invariant) in \(DetectionBound.count(count, of: totals.runs)) "
                + "(run seed \(failure.seed)): \(failure.message)")
            lines.append("    replay: \(failure.replay); \(failure.shrinkPhrase): \(failure.shrunkReplay)")
        }
        for record in result.nondeterminism {
            lines.append("  NONDETERMINISM: run seed \(record.seed) gave \(record.actual), expected \(record.expected) "
                + "(\(record.how))" + (record.firstDifference.map { "; where they part: \($0)" } ?? ""))
        }
        if !result.nondeterminism.isEmpty {
            lines.append("  usual causes of NONDETERMINISM: \(NondeterminismRecord.usualCauses)")
        }
        return lines.joined(separator: "\n")
    }
}
