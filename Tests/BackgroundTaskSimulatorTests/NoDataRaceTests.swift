import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// A workload that sets a `didComplete` flag on the background queue and reads it on main;
/// `ordered` hands the read to main from the writer itself (the twin). It records its accesses
/// through the engine's API directly, until the shared-state type lands.
final class FlagRacer: Workload, @unchecked Sendable {
    // @unchecked Sendable: touched only by the run's baton holder, like the simulated app.
    final class Flag { var isSet = false }
    let ordered: Bool
    let flag = Flag()
    var scheduler: Scheduler?

    init(ordered: Bool) { self.ordered = ordered }

    func record(_ kind: SharedAccessKind) {
        scheduler?.recordSharedAccess(kind, to: ObjectIdentifier(flag), name: "didComplete")
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        scheduler = context.application.device.scheduler
        let main = context.application.mainQueue
        context.application.backgroundQueue.async { [self] in
            record(.write)
            flag.isSet = true
            if ordered { main.async { self.record(.read) } }
        }
        if !ordered { main.async { self.record(.read) } }
    }
}

@Suite("no-data-race through a simulated run")
struct NoDataRaceTests {
    /// The flag workload's run; it declares nothing about shared state unless it `optsOut`.
    static func spec(ordered: Bool, optsOut: Bool = false) -> RunSpec {
        let name = ordered ? "flag-racer/ordered" : "flag-racer/racy"
        var workload = WorkloadInfo(name: name, summary: "a didComplete flag") { FlagRacer(ordered: ordered) }
        if optsOut { workload.sharesState = false }
        return RunSpec(profile: .ios17, environment: EnvironmentConfig(), workload: workload,
                       invariants: Invariant.all, horizon: .seconds(600))
    }

    @Test("race checking is on for a workload that declares nothing, and off for one that opts out")
    func onByDefault() {
        let seed = Seed(0x0036)
        let checked = SimulationRunner.run(Self.spec(ordered: false), choices: ChoiceSource(seed: seed))
        #expect(checked.violations.contains { $0.invariant == "no-data-race" }, "seed: \(seed): \(checked.violations)")
        let optedOut = SimulationRunner.run(Self.spec(ordered: false, optsOut: true), choices: ChoiceSource(seed: seed))
        #expect(!optedOut.violations.contains { $0.invariant == "no-data-race" }, "seed: \(seed)")
    }

    @Test("an unordered flag is a violation in every run, named with the state; its twin holds")
    func flagRace() {
        for index in 0..<30 {
            let seed = Seed(0x0036).derive(index: UInt64(index))
            let racy = SimulationRunner.run(Self.spec(ordered: false), choices: ChoiceSource(seed: seed), keepTrace: true)
            let races = racy.violations.filter { $0.invariant == "no-data-race" }
            // At least one per launch of the app that got to both accesses (each process has its own flag).
            #expect(!races.isEmpty, "seed: \(seed): \(racy.violations)")
            #expect(races.allSatisfy { $0.message.contains("'didComplete'") }, "seed: \(seed)")
            #expect(racy.trace.contains { $0.event.name == "threads.race" }, "seed: \(seed)")
            let again = SimulationRunner.run(Self.spec(ordered: false), choices: ChoiceSource(seed: seed))
            #expect(again.digest == racy.digest, "seed: \(seed)")
            let twin = SimulationRunner.run(Self.spec(ordered: true), choices: ChoiceSource(seed: seed))
            #expect(!twin.violations.contains { $0.invariant == "no-data-race" }, "seed: \(seed): \(twin.violations)")
        }
    }
}
