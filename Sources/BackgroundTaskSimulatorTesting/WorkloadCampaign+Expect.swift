public import BackgroundTaskSimulator
public import Testing

extension WorkloadCampaign {
    /// Runs the campaign inside a Swift Testing test and records one issue per violated
    /// invariant at your call's line.
    ///
    /// ```swift
    /// @Test func draftUploaderEndsEveryTask() async {
    ///     let campaign = WorkloadCampaign(workload: WorkloadInfo(name: "draft-uploader", summary: "…") {
    ///         DraftUploader()
    ///     }, runs: 500)
    ///     await campaign.expectNoViolations()
    /// }
    /// ```
    /// A violation reads:
    /// ```
    /// expiry-ends-task violated in 37 of 500 runs: the expiration handler returned at 212.4s with …
    /// shrunk to 4 actions, 44 events (from 151 actions, 753 events); replay it:
    ///     try campaign.replay(choices: "c1.AAAAAQ…")
    /// the first failing run: campaign.replay(seed: 0x9e3779b97f4a7c15)
    /// ```
    /// with the shrunk run's trace (`NAME.trace.txt`) and Perfetto file (`NAME.perfetto.json`)
    /// attached.
    ///
    /// Contract: the campaign runs as ``run()`` does (strategy `.default` unless you set
    /// another), with the failure database `failureDatabase` (``FailureDatabase/standard``:
    /// `.bgsim/failures`, replayed first, saved on failure); one front-door campaign runs at a
    /// time per process (parallel tests wait their turn, suspended).
    /// Records one `Issue` per violated invariant (its iOS explanation, "k of n runs", the
    /// shrunk size, the replay call, with `try` where it throws), per nondeterministic run, and
    /// for a failure database it cannot read; nothing when every invariant held.
    ///
    /// - Returns: the report, for more checks of your own.
    @discardableResult
    public func expectNoViolations(failureDatabase: FailureDatabase = .standard,
                                   sourceLocation: SourceLocation = #_sourceLocation) async -> WorkloadReport {
        let report = await run(with: failureDatabase)
        record(CampaignFinding.violations(in: report, of: self), at: sourceLocation)
        return report
    }

    /// Runs the campaign over a planted bug kept as a regression, and records an issue at your
    /// call's line unless `invariant` was violated.
    ///
    /// ```swift
    /// @Test func theLeakyUploaderIsCaught() async {
    ///     await leakyCampaign.expectViolation("expiry-ends-task")
    /// }
    /// ```
    ///
    /// Contract: as ``expectNoViolations(failureDatabase:sourceLocation:)``, judged as a scenario's
    /// `"expect": {"violation": …}` is: met when some run (or a saved failure) violated
    /// `invariant`, whatever else the bug breaks; otherwise one issue that says how rare the bug
    /// must be to hide from these runs, and how many runs would find a rarer one.
    @discardableResult
    public func expectViolation(_ invariant: String, failureDatabase: FailureDatabase = .standard,
                                sourceLocation: SourceLocation = #_sourceLocation) async -> WorkloadReport {
        let report = await run(with: failureDatabase)
        record(CampaignFinding.missedViolation(invariant, in: report, of: self), at: sourceLocation)
        return report
    }

    /// This campaign with `database`'s store, run in its turn.
    func run(with database: FailureDatabase) async -> WorkloadReport {
        var campaign = self
        campaign.failureStore = database.store(for: self)
        return await CampaignTurns.shared.withTurn { campaign.run() }
    }

    /// One issue per finding, each with its shrunk run's files where attachments exist (Swift 6.2+).
    private func record(_ findings: [CampaignFinding], at sourceLocation: SourceLocation) {
        for finding in findings {
            Issue.record(Comment(rawValue: finding.text), sourceLocation: sourceLocation)
            #if compiler(>=6.2)
                for file in finding.attachments(of: self) {
                    Attachment.record(file.text, named: file.name, sourceLocation: sourceLocation)
                }
            #endif
        }
    }
}
