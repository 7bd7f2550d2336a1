import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// The false-alarm class, one test per invariant (issue 32): the correct workload of the
/// invariant's pair (``InvariantCanFailTests/pairs``, the workload whose planted twin trips it)
/// lives its scripted life with every action that ends, expires, interrupts or refuses injected
/// at every moment after every step, and the invariant never fires. The twins are still found:
/// `InvariantCanFailTests` and `ScenarioExpectationTests` run them.
@Suite("False-alarm class per invariant")
struct FalseAlarmClassTests {
    @Test("an action the app cannot prevent, at any point of the paired correct workload's life, is no violation",
          arguments: Invariant.all.map(\.id))
    func excuseHolds(invariant id: String) throws {
        let pair = try #require(InvariantCanFailTests.pairs.first { $0.invariant == id })
        let correct = try #require(WorkloadCatalog.all.first { $0.info.name == pair.correct })
        let invariant = try #require(Invariant.named(id))
        // Background fetch exists only on iOS 7-12 (D3).
        let profile: OSProfile = id == "fetch-completion-called-once" ? .ios12 : .ios17
        #expect(invariant.applies(correct.info), "\(id) does not apply to \(pair.correct)")
        var life = ScriptedLife(workload: correct.info, profile: profile)
        life.invariants = [invariant]
        var injected = 0
        for step in life.steps.indices {
            for moment in ScriptedLife.Moment.allCases {
                for action in FalseAlarmSweepTests.fullActions {
                    let point = ScriptedLife.Point(step: step, moment: moment)
                    let outcome = life.run(injecting: action, at: point)
                    if outcome.injected { injected += 1 }
                    for violation in outcome.violations {
                        Issue.record("""
                            \(pair.correct) on \(profile.name): \(action) at \(point) of \(life.steps.map(\.rawValue)): \
                            \(violation)
                            rerun: swift test --skip-build --filter "FalseAlarmClassTests"
                            """)
                    }
                }
            }
        }
        #expect(injected >= life.steps.count, "\(pair.correct): only \(injected) injections were possible")
    }
}
