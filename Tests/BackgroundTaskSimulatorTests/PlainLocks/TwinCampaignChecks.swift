import BackgroundTaskSimulator
import BackgroundTaskSimulatorTesting
import Testing

/// The checks a twin workload's tests make on its campaigns: the correct twin holds every run in
/// child test processes, and the buggy twin's planted bug is found.
///
/// ```swift
/// try TwinCampaignChecks.expectHoldsInTestProcesses(Self.campaign(.waitsForOperations, runs: 300))
/// TwinCampaignChecks.expectFound("background-work-held", by: Self.campaign(.endsWithoutWaiting, runs: 200).run())
/// ```
enum TwinCampaignChecks {
    /// Runs `campaign` in child test processes with a short run timeout (a crash or a hang is then
    /// a finding of the calling test, not the end of the test run) and expects every run to hold.
    static func expectHoldsInTestProcesses(_ campaign: WorkloadCampaign, fileID: String = #fileID, line: Int = #line,
                                           column: Int = #column, sourceLocation: SourceLocation = #_sourceLocation)
        throws {
        var isolated = campaign
        isolated.isolation = try .testProcesses(fileID: fileID, line: line, column: column)
        isolated.runTimeout = .seconds(10)
        let report = isolated.run()
        #expect(report.passed, "\(describe(report))", sourceLocation: sourceLocation)
        #expect(report.result.totals.runs == campaign.runs, sourceLocation: sourceLocation)
    }

    /// Expects `report` to have found `invariant`, and no hang.
    static func expectFound(_ invariant: String, by report: WorkloadReport,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(report.failures.contains { $0.invariant == invariant }, "\(describe(report))",
                sourceLocation: sourceLocation)
        #expect(!report.failures.contains { $0.invariant == "no-hang" }, sourceLocation: sourceLocation)
    }

    private static func describe(_ report: WorkloadReport) -> [String] {
        report.failures.map { "\($0.invariant): \($0.message)" }
    }
}
