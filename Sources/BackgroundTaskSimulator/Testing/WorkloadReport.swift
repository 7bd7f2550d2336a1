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
/// Contract: ``description`` is a readable summary whose every failure line ends with the Swift
/// call that replays it; ``result`` holds the full engine result (coverage, digests) and
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
        /// The Swift call that replays the run; it compiles with `import BackgroundTaskSimulator`.
        public var replay: String { "campaign.replay(seed: \(seed))" }
    }

    /// The engine's result.
    public let result: CampaignResult
    /// The workload's name.
    public let workload: String

    init(result: CampaignResult, workload: String) {
        self.result = result
        self.workload = workload
    }

    /// Whether every run held every invariant and replays were deterministic.
    public var passed: Bool { result.totals.failed == 0 && result.nondeterminism.isEmpty }

    /// The failures, one per violated invariant, in order of first appearance.
    public var failures: [Failure] {
        result.failures.map { record in
            Failure(invariant: record.failure.invariant, message: record.failure.message, seed: record.seed,
                    choices: record.choices.token, originalEventCount: record.originalEventCount,
                    shrunkEventCount: record.shrunkEventCount, originalActionCount: record.originalActionCount,
                    shrunkActionCount: record.shrunkActionCount, shrunkSizeText: record.shrunkSizeText)
        }
    }

    /// The report's text, byte for byte as `bgsim fuzz --report` writes it.
    ///
    /// ```swift
    /// try report.jsonText.write(toFile: "draft-uploader.json", atomically: true, encoding: .utf8)
    /// ```
    public var jsonText: String { JSONWriter().string(for: json) }

    /// The report as a JSON value (for the package's own tests and commands).
    package var json: JSONValue {
        CampaignReport.json(result, scenarioName: workload, scenarioFile: "(Swift API)", toolVersion: "swift-api",
                            replayCommand: { "campaign.replay(seed: \($0.seed))" })
    }

    public var description: String {
        let totals = result.totals
        var lines = ["\(workload): \(totals.runs) runs, \(totals.passed) passed, \(totals.failed) failed "
            + "(seed \(result.options.seed), digest \(totals.digest.digest))"]
        for failure in failures {
            lines.append("  \(failure.invariant) (run seed \(failure.seed)): \(failure.message)")
            lines.append("    replay: \(failure.replay); shrunk to \(failure.shrunkSizeText): "
                + "campaign.replay(choices: \"\(failure.choices)\")")
        }
        for record in result.nondeterminism {
            lines.append("  NONDETERMINISM: run seed \(record.seed) gave \(record.actual), expected \(record.expected) "
                + "(\(record.how)): the workload reads real time, real threads or global state")
        }
        return lines.joined(separator: "\n")
    }
}
