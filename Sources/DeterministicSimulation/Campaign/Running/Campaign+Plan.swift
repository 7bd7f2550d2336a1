extension Campaign {
    /// Runs a planned campaign: the one entry point of the front ends (a command line, a test
    /// API). It decides what the plan implies: an exhaustive search or seeded runs, the phases'
    /// targets in this process (crash slots with each phase's banner; the hang watchdog where
    /// ``CrashSignals`` is installed) or in child processes (``IsolatedTarget``, ended when the
    /// campaign is), and the run timeout.
    ///
    /// ```swift
    /// var plan = CampaignPlan(options: CampaignOptions(seed: Seed(0x2a), runs: 500, jobs: 2))
    /// plan.isCancelled = { interrupt.isRequested }
    /// let result = Campaign.run(CampaignPhases(CampaignPhase(target, crashBanner: banner)), plan: plan)
    /// ```
    ///
    /// Contract: as ``run(_:options:progress:isCancelled:crashBanner:)`` for seeded runs and
    /// ``ExhaustiveSearch/run(_:options:campaign:isCancelled:)`` for a search (which runs on the
    /// last phase's target, in this process: a crash there ends the process as without
    /// isolation). Isolation and the timeout change what a crash or hang does, never the result
    /// of a run that does neither. A crash or hang in process prints the phase's banner and ends
    /// the process with the exit codes ``CrashSignals`` and ``CampaignPlan/hangExitCode`` name.
    public static func run(_ phases: CampaignPhases, plan: CampaignPlan) -> CampaignResult {
        let phases = phases.phases
        let timeout = plan.runTimeoutSeconds.flatMap { $0 > 0 ? $0 : nil }
        if let depth = plan.exhaustiveDepth {
            return ExhaustiveSearch.run(phases.late.target, options: ExhaustiveOptions(depth: depth, jobs: plan.options.jobs),
                                        campaign: plan.options, isCancelled: plan.isCancelled)
        }
        var banners: RunPhases<CrashBanner>?
        if let early = phases.early.crashBanner, let late = phases.late.crashBanner {
            banners = RunPhases(first: phases.earlyRuns, use: early, then: late)
        }
        switch plan.isolation {
        case .childProcesses(let executable):
            let early = isolated(phases.early, executable: executable, timeout: timeout, wording: plan.wording)
            let late = isolated(phases.late, executable: executable, timeout: timeout, wording: plan.wording)
            defer {
                early.finish()
                late.finish()
            }
            let targets = RunPhases<any CampaignTarget>(first: phases.earlyRuns, use: early.target, then: late.target)
            return run(phases: targets, options: plan.options, progress: plan.progress, isCancelled: plan.isCancelled,
                       crashBanners: banners)
        case .inProcess:
            if CrashSignals.isInstalled { RunWatchdog.start(timeoutSeconds: timeout ?? 0, exitCode: plan.hangExitCode) }
            return run(phases: phases.map(\.target), options: plan.options, progress: plan.progress,
                       isCancelled: plan.isCancelled, crashBanners: banners)
        }
    }

    /// `phase`'s target run in child processes, and the call that ends them.
    private static func isolated(_ phase: CampaignPhase, executable: String, timeout: Double?, wording: CrashWording)
        -> (target: any CampaignTarget, finish: () -> Void) {
        func make(_ target: some CampaignTarget) -> (target: any CampaignTarget, finish: () -> Void) {
            let isolated = IsolatedTarget(local: target, executable: executable, arguments: phase.workerArguments,
                                          environment: phase.workerEnvironment, runTimeoutSeconds: timeout,
                                          wording: wording)
            return (isolated, { isolated.finishChildren() })
        }
        return make(phase.target)
    }
}

extension Campaign {
    /// Runs `body`, one replay's runs in this process, guarded as a campaign's run: a crash
    /// during it prints `banner` (with `seed`), and where ``CrashSignals`` is installed a run
    /// that makes no progress for `runTimeoutSeconds` prints it too and ends the process with
    /// `hangExitCode`.
    ///
    /// ```swift
    /// let outcome = Campaign.replaying(banner: banner, seed: seed, runTimeoutSeconds: 60, hangExitCode: 124) {
    ///     SimulationRunner.run(spec, choices: ChoiceSource(seed: seed), keepTrace: true)
    /// }
    /// ```
    public static func replaying<T>(banner: CrashBanner, seed: Seed, runTimeoutSeconds: Double, hangExitCode: Int32,
                                    _ body: () throws -> T) rethrows -> T {
        let slot = CrashSlot.claim(banner)
        defer { slot?.release() }
        if CrashSignals.isInstalled { RunWatchdog.start(timeoutSeconds: runTimeoutSeconds, exitCode: hangExitCode) }
        slot?.begin(seed)
        defer { slot?.end() }
        return try body()
    }

    /// ``runsToFirstFailure(phases:of:options:)`` of planned phases (their targets).
    public static func runsToFirstFailure(_ phases: CampaignPhases, of invariant: String,
                                          options: CampaignOptions) -> Int? {
        runsToFirstFailure(phases: phases.phases.map(\.target), of: invariant, options: options)
    }
}
