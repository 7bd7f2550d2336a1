@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Issue 32's known false alarm: `refresh-stays-scheduled` blamed a correct refresh chain when
/// the process ended (force-quit, jetsam) between the system launching the refresh task and the
/// first line of its launch handler. The app could not have resubmitted: its code never ran.
/// A handler that ran and did not resubmit before the kill is still found.
@Suite("refresh-stays-scheduled: a process ended before the launch handler ran")
struct RefreshKilledBeforeHandlerTests {
    static let correct = WorkloadCatalog.variant(workload: "bg-scheduler-app", variant: "correct")!
    static let planted = WorkloadCatalog.variant(workload: "bg-scheduler-app", variant: "p8-refresh-not-resubmitted")!
    static let invariant = "refresh-stays-scheduled"

    /// Launch, home, the processing task launched (due first), the refresh task launched (at
    /// 15 min); `action` injected at `moment` after the refresh launch.
    static func life(_ variant: WorkloadCatalog.Variant, _ action: EnvironmentAction,
                     _ moment: ScriptedLife.Moment) -> ScriptedLife.Outcome {
        var life = ScriptedLife(workload: variant.info, profile: .ios17, steps: [.launch, .home, .launchBackgroundTask, .launchBackgroundTask])
        life.invariants = [Invariant.named(invariant)!]
        return life.run(injecting: action, at: ScriptedLife.Point(step: 3, moment: moment))
    }

    @Test("a correct refresh chain is not blamed for a kill before its handler's first line",
          arguments: [EnvironmentAction.forceQuit, .memoryPressureKill, .reboot, .appUpdate])
    func killBeforeHandlerIsExcused(action: EnvironmentAction) {
        let outcome = Self.life(Self.correct, action, .beforeAppReacts)
        #expect(outcome.injected)
        #expect(outcome.trace.contains { $0.contains("bgTaskLaunched(identifier: \"com.example.bgapp.refresh\"") })
        #expect(outcome.violations.isEmpty, "\(outcome.violations)\n\(outcome.trace.joined(separator: "\n"))")
    }

    @Test("a handler that ran and had not resubmitted when the process was killed is still found",
          arguments: [EnvironmentAction.forceQuit, .memoryPressureKill])
    func killAfterHandlerRanIsFound(action: EnvironmentAction) {
        // P8 resubmits only when its work succeeds: 50 ms in, the work (100 ms) is in flight.
        let outcome = Self.life(Self.planted, action, .duringWork)
        #expect(outcome.injected)
        #expect(outcome.violations.map(\.invariant) == [Self.invariant], "\(outcome.trace.joined(separator: "\n"))")
    }

    /// The checker's verdict on: a submit, the task launched, the process ended for `reason`, the
    /// probe of a launch handler that never ran (or `probe`), then (if `relaunched`) a process
    /// that submits nothing.
    static func verdict(_ reason: TerminationReason, relaunched: Bool,
                        probe: (String) -> String = SimulatedBGTask.handlerNeverRanProbe) -> [String] {
        let identifier = "com.example.refresh"
        let info = WorkloadInfo(name: "test", summary: "test", permittedIdentifiers: [identifier],
                                backgroundModes: ["fetch"], repeatingRefreshIdentifiers: [identifier]) { NoWork() }
        let invariant = Invariant.named(invariant)!
        let checker = invariant.makeChecker(RunSpec(profile: .ios17, environment: EnvironmentConfig(), workload: info,
                                                    invariants: [invariant], horizon: .seconds(3_600)))
        let facts = RunFacts()
        var events: [SimEvent] = [
            .requestSubmitted(identifier: identifier, kind: "appRefresh", error: nil),
            .bgTaskLaunched(identifier: identifier, task: 1, kind: "appRefresh"),
            .terminated(reason, openTasks: []),
            .probe(probe(identifier)),
        ]
        if relaunched { events.append(.processLaunched(process: 2, inBackground: false)) }
        for (index, event) in events.enumerated() {
            facts.observe(event, at: .seconds(Int64(index)))
            _ = checker.observe(event, at: .seconds(Int64(index)), facts: facts)
        }
        return checker.finish(at: .seconds(3_600), facts: facts)
    }

    @Test("the excuse lasts until a new process has had its chance to submit")
    func excuseEndsWithTheNextProcess() {
        #expect(Self.verdict(.memoryPressure, relaunched: false).isEmpty)
        #expect(Self.verdict(.memoryPressure, relaunched: true).count == 1)
    }

    @Test("a handler cut short by the kill (called, not yet returned) is excused like one that never ran")
    func cutShortHandlerIsExcused() {
        #expect(Self.verdict(.reboot, relaunched: false, probe: SimulatedBGTask.handlerCutShortProbe).isEmpty)
        #expect(Self.verdict(.reboot, relaunched: true, probe: SimulatedBGTask.handlerCutShortProbe).count == 1)
        let crash = TerminationReason.exception(name: "NSInternalInconsistencyException", reason: "test")
        #expect(Self.verdict(crash, relaunched: false, probe: SimulatedBGTask.handlerCutShortProbe).count == 1)
    }

    /// Found by 1,000 runs of the correct price-alerts fault storm on a new campaign seed: the
    /// handler had set its expiration handler (a scheduling point after the store) and the
    /// scheduler kept its thread off the CPU for a delay before the resubmission; a reboot in
    /// that gap was reported as a stopped chain.
    @Test("price-alerts: a reboot while the scheduler holds the handler's thread before its resubmission is excused")
    func rebootInsideHandlerIsExcused() throws {
        let scenario = try ScenarioLoader.load(
            file: ScenarioExpectationTests.directory + "/price-alerts-correct-ios17-fault-storm.json")
        let outcome = scenario.replay(seed: 0xd182_4f78_c9dd_25c7, strategy: .default)
        #expect(outcome.traceText.contains("bgtask-handler-cut-short:com.example.stocks.alerts"),
                "the run no longer reaches the case: pin another seed")
        #expect(outcome.violations.isEmpty, "\(outcome.violations)")
    }

    @Test("a process end the app caused (a crash at launch) excuses nothing")
    func preventableEndIsNotExcused() {
        let crash = TerminationReason.exception(name: "NSInternalInconsistencyException", reason: "test")
        #expect(Self.verdict(crash, relaunched: false).count == 1)
    }

    @Test("a correct handler that ran resubmitted at its first line: no violation at any moment",
          arguments: ScriptedLife.Moment.allCases)
    func correctHandlerHolds(moment: ScriptedLife.Moment) {
        let outcome = Self.life(Self.correct, .forceQuit, moment)
        #expect(outcome.violations.isEmpty, "\(outcome.violations)")
    }
}

/// A workload that does nothing (the checker is fed events by hand).
private final class NoWork: Workload {
    func didFinishLaunching(_ context: WorkloadContext) {}
}
