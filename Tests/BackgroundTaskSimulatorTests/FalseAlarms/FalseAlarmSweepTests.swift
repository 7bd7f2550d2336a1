import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import Testing

/// Blame only what the code could prevent (issue 32): every correct workload, living a short
/// scripted life (``ScriptedLife``), with each action that ends, interrupts or refuses something
/// injected at each point of that life, trips no invariant. An invariant that fires here blames
/// correct code for what the environment did.
///
/// The quick slice (always) injects the process-ending actions and the expiries at the two
/// points around each step where the app's code has or has not yet reacted; `BGSIM_SWEEP=full`
/// injects every action below at every moment, as `BGSIM_TEST_SIZE=ci` does (``TestSize``; CI
/// runs it).
@Suite("False-alarm sweep")
struct FalseAlarmSweepTests {
    /// What the environment does to an app that its code cannot prevent: ends the process, expires
    /// its time, takes its scene or its continued task, or refuses its requests (C2.3).
    static let fullActions: [EnvironmentAction] = [
        .forceQuit, .memoryPressureKill, .reboot, .appUpdate, .earlyExpiry, .expireBackgroundTask,
        .sceneDisconnect, .userCancelsContinuedTask, .backgroundRefreshOff, .networkDown,
    ]
    static let quickActions: [EnvironmentAction] = [.forceQuit, .memoryPressureKill, .earlyExpiry, .expireBackgroundTask]
    static let quickMoments: [ScriptedLife.Moment] = [.beforeAppReacts, .duringWork]

    static let isFull = ProcessInfo.processInfo.environment["BGSIM_SWEEP"] == "full" || TestSize.isCI

    /// One passing scenario per correct workload and OS profile (its environment): the first
    /// file in name order that is not a fault-storm (whose faults the sweep injects itself).
    static let scenarios: [String] = {
        var chosen: [(key: String, file: String)] = []
        for file in ScenarioExpectationTests.files {
            guard let scenario = try? ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/" + file),
                scenario.expectation == .pass
            else { continue }
            let key = scenario.workload.workload + " " + scenario.profile.name
            if let index = chosen.firstIndex(where: { $0.key == key }) {
                if chosen[index].file.contains("fault-storm") && !file.contains("fault-storm") { chosen[index].file = file }
            } else {
                chosen.append((key, file))
            }
        }
        return chosen.map(\.file)
    }()

    @Test("there is a correct workload to sweep for every correct workload family")
    func everyCorrectWorkloadIsSwept() {
        let families = WorkloadCatalog.all.filter { $0.expectedViolation == nil && $0.isBuiltIn }.map(\.workload)
        #expect(Set(families).isSubset(of: Set(Self.scenarios.compactMap {
            try? ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/" + $0).workload.workload
        })))
    }

    @Test("no invariant blames a correct workload for an action injected at any point of its life",
          arguments: scenarios)
    func noFalseAlarm(file: String) throws {
        let scenario = try ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/" + file)
        var life = ScriptedLife(workload: scenario.workload.info, profile: scenario.profile)
        life.environment = scenario.environment
        life.invariants = scenario.invariants
        let plain = life.run()
        #expect(plain.violations.isEmpty, "\(file), no action injected: \(plain.violations)")
        let actions = Self.isFull ? Self.fullActions : Self.quickActions
        let moments = Self.isFull ? ScriptedLife.Moment.allCases : Self.quickMoments
        var injected = 0
        for step in life.steps.indices {
            for moment in moments {
                for action in actions {
                    let point = ScriptedLife.Point(step: step, moment: moment)
                    let outcome = life.run(injecting: action, at: point)
                    if outcome.injected { injected += 1 }
                    guard let first = outcome.violations.first else { continue }
                    Issue.record("""
                        \(file) (\(scenario.workload.workload)): \(action) injected at \(point) of the life \
                        \(life.steps.map(\.rawValue)) blamed the correct workload: \(first)
                        rerun: \(Self.isFull ? "BGSIM_SWEEP=full " : "")swift test --skip-build --filter \
                        FalseAlarmSweepTests
                        """)
                }
            }
        }
        // Every life has a background stretch where a kill is possible: the sweep is never empty.
        #expect(injected >= life.steps.count, "\(file): only \(injected) injections were possible")
    }

    @Test("no invariant blames a correct workload when every beginBackgroundTask is refused", arguments: scenarios)
    func everyBeginRefused(file: String) throws {
        let scenario = try ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/" + file)
        var life = ScriptedLife(workload: scenario.workload.info, profile: scenario.profile)
        life.environment = scenario.environment
        life.environment.faults.beginFailureProbability = 1  // A2.1: `.invalid` every time
        life.invariants = scenario.invariants
        let outcome = life.run()
        #expect(outcome.violations.isEmpty, "\(file) with every begin refused: \(outcome.violations)")
    }
}
