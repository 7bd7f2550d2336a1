import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Every catalogue workload meets its expectation over a modest sweep: correct variants violate
/// nothing on two OS profiles; each planted bug trips its invariant.
///
/// A correct workload runs 50 times per profile by default, 200 under `BGSIM_TEST_SIZE=ci`
/// (``TestSize``); a planted bug runs at most 200 times at every size, stopping at its finding.
@Suite struct WorkloadExpectationTests {
    static let runs = 200
    static let correctRuns = TestSize.pick(quick: 50, ci: runs)

    /// Planted bugs that need an environment action whose weight is 0 by default, with the
    /// weights their sweep adds: Low Power Mode toggles, App Store updates (C3.7).
    static let offByDefaultActions: [String: [(EnvironmentAction, Double)]] = [
        "price-alerts/paused-in-low-power-mode": [(.lowPowerModeOn, 0.5), (.lowPowerModeOff, 0.5)],
        "reading-list/scheduled-once-at-install": [(.appUpdate, 0.2)],
    ]

    /// Runs `entry` up to `runs` times; stops after the first run that violates `until`.
    static func sweep(_ entry: WorkloadCatalog.Variant, profile: OSProfile, runs: Int = runs, until: String? = nil)
        -> (violations: [(seed: Seed, violation: Violation)], runs: Int) {
        var environment = EnvironmentConfig()
        for (action, weight) in offByDefaultActions[entry.info.name] ?? [] { environment.weights[action] = weight }
        let spec = RunSpec(profile: profile, environment: environment, workload: entry.info,
                           invariants: Invariant.all, horizon: .seconds(1800))
        var found: [(Seed, Violation)] = []
        for index in 0..<runs {
            let seed = Seed(0xc0ffee).derive(index: UInt64(index))
            let outcome = SimulationRunner.run(spec, choices: ChoiceSource(seed: seed))
            found += outcome.violations.map { (seed, $0) }
            // The runs after the planted bug's finding cannot change its verdict.
            if let until, outcome.violations.contains(where: { $0.invariant == until }) { return (found, index + 1) }
        }
        return (found, runs)
    }

    static let correct = WorkloadCatalog.all.filter { $0.expectedViolation == nil }.map(\.info.name)
    /// Planted bugs that run in process (a crash or a hang would end or stall this process: those
    /// are bgsimTests' CrashIsolationTests).
    /// Deep planted bugs need their scenario's budget and strategy: DeepPlantedBugTests.
    static let buggy = WorkloadCatalog.all.filter { $0.expectedViolation != nil && !$0.needsIsolation && !$0.isDeep }
        .map(\.info.name)

    static func entry(_ name: String) -> WorkloadCatalog.Variant? {
        WorkloadCatalog.all.first { $0.info.name == name }
    }

    /// iOS 17 and iOS 12 (three-minute budgets, no BGTaskScheduler); iOS 26 for the
    /// BGTaskScheduler app in place of iOS 12.
    @Test("a correct workload violates no invariant", arguments: correct, ["ios17", "other"])
    func correctWorkloadPasses(name: String, profileName: String) throws {
        let entry = try #require(Self.entry(name))
        let other: OSProfile = entry.info.usesTaskScheduler ? .ios26 : .ios12
        let profile = profileName == "ios17" ? OSProfile.ios17 : other
        let result = Self.sweep(entry, profile: profile, runs: Self.correctRuns)
        for (seed, violation) in result.violations.prefix(3) {
            Issue.record("\(violation) (replay: run seed \(seed), profile \(profile.name))")
        }
    }

    /// The OS profile of each planted bug's scenario, by workload name: the OS the bug lives on
    /// (iOS 7-12 for background fetch, D3; iOS 26 for continued processing, C6).
    static let plantedProfiles: [String: OSProfile] = {
        let scenarios = (try? ScenarioLoader.loadAll(in: ScenarioExpectationTests.directory)) ?? []
        var profiles: [String: OSProfile] = [:]
        for scenario in scenarios where scenario.expectation != .pass && profiles[scenario.workload.info.name] == nil {
            profiles[scenario.workload.info.name] = scenario.profile
        }
        return profiles
    }()

    @Test("a planted bug trips its invariant on its scenario's OS", arguments: buggy)
    func plantedBugIsFound(name: String) throws {
        let entry = try #require(Self.entry(name))
        let expected = try #require(entry.expectedViolation)
        let profile = try #require(Self.plantedProfiles[name], "no planted scenario runs \(name)")
        let result = Self.sweep(entry, profile: profile, until: expected)
        #expect(result.violations.contains { $0.violation.invariant == expected },
                "\(expected) not found in \(result.runs) runs of \(name)")
    }
}
