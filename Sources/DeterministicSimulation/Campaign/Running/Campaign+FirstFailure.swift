extension Campaign {
    /// How many runs a campaign takes to first violate `invariant`: the number (counting from 1)
    /// of the first run that does, or `nil` when none of `options.runs` does. For measuring
    /// exploration strategies (`bgsim bench --strategies-only`): no follow-up, no shrinking.
    ///
    /// ```swift
    /// let options = CampaignOptions(seed: Seed(0x5eed), runs: 10_000, jobs: 1, guidance: .coverage)
    /// let runs = Campaign.runsToFirstFailure(target, of: "no-idle-task", options: options)   // e.g. 412
    /// ```
    ///
    /// Contract: the runs are those of ``run(_:options:progress:isCancelled:crashBanner:)`` with the
    /// same options; a coverage-guided campaign stops after the generation of the first failure.
    public static func runsToFirstFailure(_ target: some CampaignTarget, of invariant: String,
                                          options: CampaignOptions) -> Int? {
        runsToFirstFailure(phases: RunPhases<any CampaignTarget>(target), of: invariant, options: options)
    }

    /// ``runsToFirstFailure(_:of:options:)`` for a phased campaign (``RunPhases``): the runs of
    /// ``run(phases:options:progress:isCancelled:crashBanners:)`` with the same targets and options.
    package static func runsToFirstFailure(phases targets: RunPhases<any CampaignTarget>, of invariant: String,
                                          options: CampaignOptions) -> Int? {
        if let guidance = options.guidance {
            let outcome = guided(targets.late, options: options, guidance: guidance, isCancelled: { false },
                                 progress: nil, crashBanner: nil, stopAtFirstFailureOf: invariant)
            return outcome.tally.totals.violations.first { $0.invariant == invariant }.map { $0.firstRun + 1 }
        }
        for run in 0..<options.runs {
            let verdict = targets.value(forRun: run).run(choices: ChoiceSource(seed: options.runSeed(run)), keepTrace: false)
            if verdict.failures.contains(where: { $0.invariant == invariant }) { return run + 1 }
        }
        return nil
    }
}
