import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import Testing

/// Every file in `Scenarios/` loads and, run programmatically with a modest number of runs from
/// its own seed, meets its expectation (`bgsim check` does the same with the full budgets).
@Suite struct ScenarioExpectationTests {
    /// A planted bug's campaign: at most this many runs, stopping at its finding (most bugs trip
    /// in the first run), at every size.
    static let runs = 100
    /// A correct scenario's campaign: 25 runs by default, 100 under `BGSIM_TEST_SIZE=ci`
    /// (``TestSize``); `bgsim check` in CI runs each with its own full budget as well.
    static let passingRuns = TestSize.pick(quick: 25, ci: runs)

    static let directory: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Scenarios").path
    }()

    static let files: [String] = (try? FileManager.default.contentsOfDirectory(atPath: directory))?
        .filter { $0.hasSuffix(".json") && runsInProcess($0) }.sorted() ?? []

    /// Whether a scenario file can run in this process: one whose planted bug is a crash or a
    /// hang (`no-crash`, `no-hang`) would end or stall it, and runs only isolated (bgsimTests'
    /// CrashIsolationTests and `bgsim check` cover those).
    static func runsInProcess(_ file: String) -> Bool {
        (try? ScenarioLoader.load(file: directory + "/" + file))?.needsIsolation != true
    }

    @Test func everyPatternHasScenarios() throws {
        let scenarios = try ScenarioLoader.loadAll(in: Self.directory)
        for entry in WorkloadCatalog.all {
            #expect(scenarios.contains { $0.workload.info.name == entry.info.name },
                    "no scenario runs \(entry.info.name)")
        }
        for entry in WorkloadCatalog.all where entry.expectedViolation == nil {
            let profiles = Set(scenarios.filter { $0.workload.info.name == entry.info.name }.map(\.profile.name))
            // Background fetch (D3) exists only on iOS 7-12: its workloads run on ios12 alone.
            let fetchOnly = entry.info.backgroundModes.contains("fetch") && !entry.info.usesTaskScheduler
            #expect(fetchOnly ? profiles == ["ios12"] : profiles.count >= 2 && profiles.contains("ios17"),
                    "\(entry.info.name) runs on \(profiles.sorted())")
        }
    }

    @Test("every correct workload also runs, and must pass, under the fault-storm preset")
    func everyCorrectWorkloadFacesTheFaultStorm() throws {
        let scenarios = try ScenarioLoader.loadAll(in: Self.directory)
        let storm = EnvironmentPreset.faultStorm.configuration
        for entry in WorkloadCatalog.all where entry.expectedViolation == nil {
            #expect(scenarios.contains {
                $0.workload.info.name == entry.info.name && $0.expectation == .pass
                    && $0.runSpec.environment.faults == storm.faults && $0.runSpec.environment.weights == storm.weights
            }, "\(entry.info.name) has no fault-storm scenario (\"environment\": {\"preset\": \"fault-storm\"})")
        }
    }

    @Test("the scenario meets its expectation in a short campaign", arguments: files)
    func scenarioMeetsExpectation(file: String) throws {
        let scenario = try ScenarioLoader.load(file: Self.directory + "/" + file)
        // A deep planted bug takes thousands of runs: DeepPlantedBugTests replays its finding.
        if scenario.workload.isDeep, scenario.expectation != .pass { return }
        let spec = scenario.runSpec
        var violated: [(seed: Seed, violation: Violation)] = []
        let runs = scenario.expectation == .pass ? Self.passingRuns : Self.runs
        for index in 0..<runs {
            let seed = scenario.campaign.seed.derive(index: UInt64(index))
            let outcome = SimulationRunner.run(spec, choices: ChoiceSource(seed: seed))
            violated += outcome.violations.map { (seed, $0) }
            // A planted bug is found once its invariant trips: the runs after it cannot change
            // the verdict (they were a third of this test's time, most bugs trip in the first run).
            if case .violation(let id) = scenario.expectation, violated.contains(where: { $0.violation.invariant == id }) {
                break
            }
        }
        switch scenario.expectation {
        case .pass:
            for (seed, violation) in violated.prefix(3) {
                Issue.record("\(violation) — replay: bgsim replay Scenarios/\(file) --seed \(seed)")
            }
        case .violation(let id):
            #expect(violated.contains { $0.violation.invariant == id },
                    "\(id) not found in \(runs) runs of \(file)")
        }
    }
}
