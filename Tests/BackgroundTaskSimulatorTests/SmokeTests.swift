import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

@Suite struct SmokeTests {
    @Test("each planted bug is found within 300 seeds", arguments: WorkloadCatalog.all.map(\.variant))
    func plantedBugsAreFound(variant: String) throws {
        let entry = try #require(WorkloadCatalog.all.first { $0.variant == variant })
        let spec = RunSpec(profile: .ios17, environment: EnvironmentConfig(), workload: entry.info,
                           invariants: Invariant.all, horizon: .seconds(1800))
        var found = 0
        var counts: [String: Int] = [:]
        var events = 0
        for index in 0..<300 {
            let outcome = SimulationRunner.run(spec, choices: ChoiceSource(seed: Seed(42).derive(index: UInt64(index))))
            events += outcome.eventCount
            for v in outcome.violations { counts[v.invariant, default: 0] += 1 }
            if outcome.firstViolation(of: entry.expectedViolation ?? "") != nil { found += 1 }
        }
        print(variant, "found", found, "events", events, counts.sorted { $0.key < $1.key })
        #expect(found > 0)
    }
}
