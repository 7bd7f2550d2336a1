import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Issue 8's resource limits: a workload that keeps scheduling work forever stops at the step
/// cap, is reported as such, and does not hang the campaign.
final class RunawayPoller: Workload, @unchecked Sendable {
    func didFinishLaunching(_ context: WorkloadContext) {
        let queue = context.application.backgroundQueue
        @Sendable func poll() { queue.asyncAfter(.milliseconds(1)) { poll() } }  // never stops
        poll()
    }
}

@Suite struct RunawayWorkloadTests {
    static let spec = RunSpec(profile: .ios17, environment: EnvironmentConfig(),
                              workload: WorkloadInfo(name: "runaway", summary: "polls forever") { RunawayPoller() },
                              invariants: Invariant.all, horizon: .seconds(3_600), maxSteps: 20_000)

    @Test func aRunThatNeverEndsStopsAtTheStepCap() {
        let outcome = SimulationRunner.run(Self.spec, choices: ChoiceSource(seed: Seed(1)))
        #expect(outcome.stop == .stepLimit)
        #expect(outcome.steps <= 20_000)
    }

    @Test func theCampaignCountsStepLimitedRuns() {
        let result = Campaign.run(SimulationTarget(spec: Self.spec), options: CampaignOptions(seed: Seed(2), runs: 5, jobs: 1))
        #expect(result.totals.stops[.stepLimit] == 5 && result.totals.stops.hitLimit == 5)
        let report = CampaignReport.json(result, scenarioName: "runaway", scenarioFile: "(test)", toolVersion: "test", toolName: "bgsim",
                                         replayCommand: { _ in "" })
        #expect(report["summary"]?["stepLimitRuns"] == .int(5))
    }
}

/// A block that sends itself to its queue again at once, forever: a loop that never waits.
final class RunawaySpinner: Workload, @unchecked Sendable {
    func didFinishLaunching(_ context: WorkloadContext) {
        let queue = context.application.backgroundQueue
        @Sendable func spin() { queue.async { spin() } }  // never waits
        spin()
    }
}

/// `no-busy-loop` (RunSpec.busyLoopLimit): steps without time passing for the app stop the run
/// as a finding; a loop that waits a millisecond each time is work that never ends (the step
/// limit), not a busy loop. With simulated threads the scheduler's own preemption delays move the
/// clock during the spin, and do not count as waiting.
@Suite struct BusyLoopTests {
    static func spec(_ make: @escaping @Sendable () -> any Workload, threads: Bool) -> RunSpec {
        var environment = EnvironmentConfig()
        if !threads { environment.concurrency = .off }
        return RunSpec(profile: .ios17, environment: environment,
                       workload: WorkloadInfo(name: "runaway", summary: "never stops") { make() },
                       invariants: Invariant.all, horizon: .seconds(3_600), maxSteps: 50_000)
    }

    @Test("a block that re-sends itself at once is a busy loop, with and without simulated threads",
          arguments: [false, true])
    func spinIsABusyLoop(threads: Bool) throws {
        for seed in 1...4 as ClosedRange<UInt64> {
            let outcome = SimulationRunner.run(Self.spec({ RunawaySpinner() }, threads: threads), choices: ChoiceSource(seed: Seed(seed)))
            let finding = try #require(outcome.violations.first { $0.invariant == "no-busy-loop" }, "seed \(seed): \(outcome.violations)")
            #expect(finding.message.contains("10000 steps "), "\(finding.message)")
            #expect(outcome.stop == .stepLimit && outcome.steps < 50_000, "stopped at the loop, before the step limit: \(outcome.steps) steps")
        }
    }

    @Test("a run stopped at a busy loop is judged by the loop alone: what it left open is not a finding of its own",
          arguments: [false, true])
    func busyLoopIsTheOnlyFinding(threads: Bool) {
        for seed in 1...4 as ClosedRange<UInt64> {
            let outcome = SimulationRunner.run(Self.spec({ SpinnerHoldingATask() }, threads: threads), choices: ChoiceSource(seed: Seed(seed)))
            #expect(outcome.violations.map(\.invariant) == ["no-busy-loop"], "seed \(seed): \(outcome.violations)")
        }
    }

    @Test("a poller that waits 1 ms each time is not a busy loop: it runs to the step limit")
    func pollerIsNotABusyLoop() {
        for threads in [false, true] {
            let outcome = SimulationRunner.run(Self.spec({ RunawayPoller() }, threads: threads), choices: ChoiceSource(seed: Seed(1)))
            #expect(outcome.stop == .stepLimit)
            #expect(!outcome.violations.contains { $0.invariant == "no-busy-loop" }, "\(outcome.violations)")
        }
    }
}

/// A sync that begins a background task and spins without waiting before it could end it: the
/// run stops at the loop with the task open, which the loop, not a missing end, left so.
final class SpinnerHoldingATask: Workload, @unchecked Sendable {
    private var token: BackgroundTaskToken?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        token = BackgroundTaskToken(name: "sync", host: app)
        let queue = app.backgroundQueue
        @Sendable func spin() { queue.async { spin() } }  // never waits
        spin()
    }
}
