import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Shrinking proves it works on a known failure: P1 (a task id overwritten by a second
/// background entry) shrinks to the story that explains it: launch, home, open, home (the
/// minimum, issue 17), the first task's expiry, the watchdog kill at the deadline.
@Suite struct ShrinkingTests {
    static func p1Campaign() throws -> CampaignResult {
        let entry = try #require(WorkloadCatalog.variant(workload: "download-manager", variant: "p1-overwritten-task-id"))
        let spec = RunSpec(profile: .ios17, environment: EnvironmentConfig(), workload: entry.info,
                           invariants: Invariant.all, horizon: .seconds(1_800))
        return Campaign.run(SimulationTarget(spec: spec), options: CampaignOptions(seed: Seed(0xb6), runs: 10, jobs: 1))
    }

    @Test("the P1 failure shrinks to launch, home, open, home and the deadline")
    func p1ShrinksToItsStory() throws {
        let result = try Self.p1Campaign()
        let failure = try #require(result.failures.first { $0.failure.invariant == "every-begin-ended" })
        #expect(failure.shrunkEventCount <= 50, "shrunk to \(failure.shrunkEventCount) events")
        #expect(failure.shrunkEventCount * 10 < failure.originalEventCount)
        let names = failure.trace.map(\.name)
        #expect(failure.shrunkActionCount == 4, "\(names)")
        #expect(names.filter { $0.hasPrefix("env.") } == ["env.launch", "env.home", "env.open", "env.home"])
        #expect(failure.originalActionCount > failure.shrunkActionCount)
        #expect(names.filter { $0 == "lifecycle.didEnterBackground" }.count == 2, "\(names)")
        #expect(names.filter { $0 == "task.begin" }.count == 2)
        #expect(names.contains("task.expirationCallout"))
        let kill = try #require(failure.trace.first { $0.name == "process.terminated" })
        #expect(kill.fields.contains { $0.key == "reason" && "\($0.value)".contains("0x8badf00d") })
    }

    @Test("a shrunk failure replays to the same violation")
    func shrunkChoicesReplay() throws {
        let result = try Self.p1Campaign()
        let failure = try #require(result.failures.first { $0.failure.invariant == "every-begin-ended" })
        let entry = try #require(WorkloadCatalog.variant(workload: "download-manager", variant: "p1-overwritten-task-id"))
        let spec = RunSpec(profile: .ios17, environment: EnvironmentConfig(), workload: entry.info,
                           invariants: Invariant.all, horizon: .seconds(1_800))
        let outcome = SimulationRunner.run(spec, choices: ChoiceSource(replaying: failure.choices))
        #expect(outcome.violations.contains { $0.invariant == "every-begin-ended" })
        #expect(outcome.eventCount == failure.shrunkEventCount)
    }
}
