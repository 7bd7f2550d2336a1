import BackgroundTaskSimulator
import DeterministicSimulation

/// One issue a front-door campaign records: its text, and the shrunk run's trace and Perfetto
/// file where there is one. Swift Testing and XCTest present the same findings, each its way.
///
/// ```swift
/// for finding in CampaignFinding.violations(in: report, of: campaign) {
///     Issue.record(Comment(rawValue: finding.text), sourceLocation: sourceLocation)
/// }
/// ```
///
/// Contract: one finding per violated invariant (in order of first appearance; a saved failure
/// that still fails counts for its invariant), one for all the runs that did not replay the
/// same (each named, with where its reruns part when known; the usual causes once), one for a failure
/// store that cannot be read; each invariant's text names it, its iOS explanation, how often it
/// appeared ("k of n runs"), the shrunk size and the replay as Swift code to paste.
struct CampaignFinding: Sendable {
    var text: String
    /// The invariant, when the finding is a violation.
    var invariant: String?
    /// How to rerun the shrunk run for its files (nil: no run to attach).
    var shrunkRun: (choices: String, strategy: ExplorationStrategy)?

    /// The files of the shrunk run: `NAME.trace.txt` (as `bgsim replay` prints it) and
    /// `NAME.perfetto.json` (ui.perfetto.dev).
    func attachments(of campaign: WorkloadCampaign) -> [(name: String, text: String)] {
        // A crash or a hang (found by isolation) would end this process if replayed here.
        guard let run = shrunkRun, let invariant, !Invariant.processLevel.contains(where: { $0.id == invariant }),
              let outcome = try? campaign.replay(choices: run.choices, strategy: run.strategy) else { return [] }
        // A file name: a catalog workload's name has a slash (`download-manager/p1-…`).
        let name = "\(campaign.workload.name)-\(invariant)".replacing("/", with: "-")
        return [(name + ".trace.txt", outcome.traceText), (name + ".perfetto.json", outcome.perfettoJSON)]
    }

    /// What `expectNoViolations` records: every violated invariant, nondeterminism, store errors.
    static func violations(in report: WorkloadReport, of campaign: WorkloadCampaign) -> [CampaignFinding] {
        let runs = report.result.totals.runs
        var findings: [CampaignFinding] = []
        if let error = report.storeError {
            findings.append(CampaignFinding(text: "the failure database could not be used: \(error)"))
        }
        let recipes = report.outcome?.failures ?? []
        for (index, failure) in report.failures.enumerated() {
            let count = report.result.totals.violations.first { $0.invariant == failure.invariant }?.runs ?? 1
            let text = "\(failure.invariant) violated in \(DetectionBound.count(count, of: runs)): \(failure.message)\n"
                + "\(failure.shrinkPhrase); replay it:\n    \(failure.shrunkReplay)\n"
                + "the first failing run: \(failure.replay)"
                + (Invariant.processLevel.contains { $0.id == failure.invariant }
                    ? "\n(a replay crashes or hangs the process it runs in, as the run did: replay it in a test of its "
                        + "own, under a debugger)" : "")
            let strategy = index < recipes.count ? recipes[index].shrunkReplay.strategy : .random
            findings.append(CampaignFinding(text: text, invariant: failure.invariant,
                                            shrunkRun: (failure.choices, strategy)))
        }
        for saved in report.savedStillFailing where !report.failures.contains(where: { $0.invariant == saved.invariant }) {
            findings.append(CampaignFinding(
                text: "\(saved.invariant) violated in a saved failure (the failure database, replayed first): "
                    + "\(saved.message)\nreplay it:\n    \(WorkloadReport.replay(of: saved))",
                invariant: saved.invariant, shrunkRun: (saved.choices.token, saved.strategy)))
        }
        findings += nondeterminism(in: report)
        return findings
    }

    /// What `expectViolation(id)` records: nothing when `id` was violated (the planted bug was
    /// found; other invariants it breaks are the bug's), else why not; nondeterminism either way.
    static func missedViolation(_ id: String, in report: WorkloadReport, of campaign: WorkloadCampaign) -> [CampaignFinding] {
        if let error = report.storeError {
            return [CampaignFinding(text: "the failure database could not be used: \(error)")] + nondeterminism(in: report)
        }
        let verdict = CampaignExpectation.violation(id).verdict(
            for: report.result, invariants: campaign.invariants.map(\.id),
            savedFailures: report.savedStillFailing.map(\.invariant))
        guard verdict.isMissed else { return nondeterminism(in: report) }
        let runs = report.result.totals.runs
        let rarer = DetectionBound(runs: runs).oneIn
        let advice = "; if it is there, it shows in fewer than 1 run in \(rarer) (95% confidence): raise runs "
            + "(\(DetectionBound.runsNeeded(toSee: 1 / Double(rarer * 10))) runs see a bug in 1 run in \(rarer * 10))"
        return [CampaignFinding(text: verdict.headline + advice)] + nondeterminism(in: report)
    }

    /// The runs that did not replay the same, as one finding: they usually share a cause (a probe
    /// got three issues, each with the whole explanation, for one `Dictionary` of objects).
    private static func nondeterminism(in report: WorkloadReport) -> [CampaignFinding] {
        nondeterminismText(report.result.nondeterminism).map { [CampaignFinding(text: $0)] } ?? []
    }

    /// The text of ``nondeterminism(in:)``'s finding; nil without records.
    static func nondeterminismText(_ records: [NondeterminismRecord]) -> String? {
        guard let first = records.first else { return nil }
        let shown = records.prefix(5).map { record in
            "  run seed \(record.seed) gave \(record.actual), expected \(record.expected) (\(record.how))"
                + (record.firstDifference.map { "; where they part: \($0)" } ?? "")
        }
        let more = records.count > shown.count ? "\n  and \(records.count - shown.count) more" : ""
        let runs = Set(records.map(\.runIndex)).count  // tidy: allow membership count only
        return "nondeterminism: \(runs == 1 ? "a run" : "\(runs) runs") did not replay to the same trace:\n"
            + shown.joined(separator: "\n") + more
            + "\nusual causes: \(NondeterminismRecord.usualCauses)\nreplay it: campaign.replay(seed: \(first.seed))"
    }
}
