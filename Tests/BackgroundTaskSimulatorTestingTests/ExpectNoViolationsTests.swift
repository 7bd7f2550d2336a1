import BackgroundTaskSimulator
@testable import BackgroundTaskSimulatorTesting
import DeterministicSimulation
import Foundation
import Synchronization
import Testing

/// The Swift Testing front door over a planted bug of the catalog (download-manager P1, which
/// breaks five invariants in 24 runs) and its correct twin.
@Suite struct ExpectNoViolationsTests {
    static func campaign(_ variant: String, runs: Int = 24) -> WorkloadCampaign {
        WorkloadCampaign(workload: WorkloadCatalog.variant(workload: "download-manager", variant: variant)!.info, runs: runs)
    }

    /// The invariants download-manager P1 violates in 24 runs, in order of first appearance.
    static let plantedViolations = [
        "expiry-ends-task", "every-begin-ended", "no-watchdog-kill", "no-idle-task", "background-work-held",
    ]

    /// The issues `body` records, captured as known issues (none is no error).
    static func issues(in body: () async -> Void) async -> [Issue] {
        let seen = Mutex<[Issue]>([])
        await withKnownIssue(isIntermittent: true) {
            await body()
        } matching: { issue in
            seen.withLock { $0.append(issue) }
            return true
        }
        return seen.withLock { $0 }
    }

    @Test("a planted bug records one issue per violated invariant, at the caller's line, with k of n runs and the replay")
    func oneIssuePerInvariant() async throws {
        let campaign = Self.campaign("p1-overwritten-task-id")
        let expected = campaign.run()
        let counts = expected.result.totals.violations
        #expect(counts.map(\.invariant) == Self.plantedViolations)
        var line = 0
        let issues = await Self.issues {
            line = #line + 1
            await campaign.expectNoViolations(failureDatabase: .off)
        }
        #expect(issues.count == counts.count)
        for (issue, failure) in zip(issues, expected.failures) {
            let text = issue.comments.map(\.rawValue).joined()
            let runs = try #require(counts.first { $0.invariant == failure.invariant }).runs
            #expect(text.hasPrefix("\(failure.invariant) violated in \(runs) of 24 runs: \(failure.message)\n"))
            #expect(text.contains("shrunk to \(failure.shrunkSizeText); replay it:\n    try campaign.replay(choices: \""))
            #expect(text.hasSuffix("the first failing run: campaign.replay(seed: \(failure.seed))"))
            #expect(issue.sourceLocation?.line == line)
            #expect(issue.sourceLocation?.fileID == #fileID)
        }
    }

    @Test("the correct twin records no issue, and its report passes")
    func correctTwinRecordsNothing() async {
        let campaign = Self.campaign("correct")
        var report: WorkloadReport?
        let issues = await Self.issues {
            report = await campaign.expectNoViolations(failureDatabase: .off)
        }
        #expect(issues.isEmpty)
        #expect(report?.passed == true)
        #expect(report?.description.contains(
            "\n  rules out, at 95% confidence, any failure that shows in at least 1 run in 8") == true)
    }

    @Test("the printed replay code compiles and replays the shrunk failure")
    func printedReplayCompiles() async throws {
        let campaign = Self.campaign("p1-overwritten-task-id")
        let issues = await Self.issues { await campaign.expectNoViolations(failureDatabase: .off) }
        let text = try #require(issues.first?.comments.map(\.rawValue).joined())
        #expect(text.contains(#"    try campaign.replay(choices: "c1.AAAAAQAAAAAAAQAAAAEAAAAAAAA")"#), "\(text)")
        // The line above, pasted:
        let outcome = try campaign.replay(choices: "c1.AAAAAQAAAAAAAQAAAAEAAAAAAAA")
        #expect(text.hasPrefix(outcome.violations.first?.invariant ?? "none"))
    }

    @Test("expectViolation is quiet when the planted bug is found, and says how rare a missed one must be")
    func expectViolation() async {
        let found = await Self.issues {
            await Self.campaign("p1-overwritten-task-id").expectViolation("every-begin-ended", failureDatabase: .off)
        }
        #expect(found.isEmpty)
        let missed = await Self.issues {
            await Self.campaign("correct", runs: 300).expectViolation("no-double-end", failureDatabase: .off)
        }
        #expect(missed.map { $0.comments.map(\.rawValue).joined() } == [
            "the planted bug was not found: no no-double-end violation in 300 runs; if it is there, it shows in fewer "
                + "than 1 run in 100 (95% confidence): raise runs (2995 runs see a bug in 1 run in 1000)",
        ])
    }

    @Test("the failure database is replayed first: a failure saved by one test run fails the next before its runs")
    func databaseReplaysFirst() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("front-door-\(getpid())-db").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let planted = Self.campaign("p1-overwritten-task-id")
        _ = await Self.issues { await planted.expectNoViolations(failureDatabase: .directory(folder)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == Self.plantedViolations.count)
        var again = planted
        again.runs = 1
        var report: WorkloadReport?
        let second = await Self.issues { report = await again.expectNoViolations(failureDatabase: .directory(folder)) }
        #expect(second.count == Self.plantedViolations.count, "one issue per invariant, saved or found again")
        #expect(second.allSatisfy { $0.comments.map(\.rawValue).joined().contains("replay it:\n    try campaign.replay(choices: \"") })
        #expect(report?.outcome?.saved.replayed == Self.plantedViolations.count)
        #expect(report?.savedStillFailing.map(\.invariant).sorted() == Self.plantedViolations.sorted())
    }

    @Test("the standard database is the campaign's own store when it has one")
    func standardUsesTheCampaignsStore() async {
        let store = InMemoryFailureStore()
        var campaign = Self.campaign("p1-overwritten-task-id")
        campaign.failureStore = store
        _ = await Self.issues { await campaign.expectNoViolations() }
        #expect(store.failures.map(\.invariant).sorted() == Self.plantedViolations.sorted())
        #expect(FailureDatabase.standardDirectory == ".bgsim/failures")
    }
}
