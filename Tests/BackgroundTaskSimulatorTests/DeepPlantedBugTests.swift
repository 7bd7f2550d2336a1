import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import Testing

/// The deep planted bugs (`WorkloadCatalog.deep`): each is found by its scenario's campaign
/// (default exploration strategy, the scenario's budget), and the run that finds it replays
/// from its run seed; the same ordered sequence run against the correct counterpart holds.
/// (How rarely `random` finds them is measured by `bgsim bench`, not here: a rate is not a test.)
@Suite struct DeepPlantedBugTests {
    /// Each deep planted scenario, its correct counterpart on iOS 17, and the run seed of the
    /// first run its `bgsim check` campaign finds the bug in.
    static let findings: [(planted: String, correct: String, runSeed: UInt64)] = [
        ("deep-track-backup-keeps-task-when-giving-up-ios17", "deep-track-backup-correct-ios17", 0x6936_3683_7936_93fe),
        ("deep-photo-index-publish-failure-leaves-task-ios17", "deep-photo-index-correct-ios17", 0xc9be_f67b_d235_25ac),
        ("deep-reader-prefetch-lost-digest-keeps-task-ios17", "deep-reader-prefetch-correct-ios17", 0x86e2_2a94_63ef_cc49),
    ]

    static func load(_ name: String) throws -> Scenario {
        try ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/" + name + ".json")
    }

    @Test("every deep planted workload has a scenario pinned here", arguments: WorkloadCatalog.all.filter(\.isDeep))
    func everyDeepBugIsPinned(variant: WorkloadCatalog.Variant) throws {
        let names = try Self.findings.map { try Self.load($0.planted).workload.info.name }
        #expect(names.contains(variant.info.name), "\(variant.info.name) has no pinned finding in DeepPlantedBugTests")
    }

    @Test("the deep planted bug's finding replays from its run seed and trips the expected invariant",
          arguments: findings.map(\.planted))
    func findingReplays(planted: String) throws {
        let finding = try #require(Self.findings.first { $0.planted == planted })
        let scenario = try Self.load(planted)
        guard case .violation(let expected) = scenario.expectation else {
            Issue.record("\(planted) does not expect a violation")
            return
        }
        #expect(scenario.workload.isDeep)
        #expect(scenario.strategy == .default, "a deep scenario runs the default exploration strategy")
        let seed = Seed(finding.runSeed)
        let outcome = SimulationRunner.run(scenario.runSpec, choices: ChoiceSource(seed: seed))
        #expect(outcome.violations.contains { $0.invariant == expected },
                "\(expected) not found — replay: bgsim replay Scenarios/\(planted).json --seed \(seed)")
        // The recorded choices replay the same run.
        let again = SimulationRunner.run(scenario.runSpec, choices: ChoiceSource(replaying: outcome.choices))
        #expect(again.digest == outcome.digest)
        // The run is within the campaign's budget: its seed is one of the campaign's run seeds.
        let index = (0..<scenario.campaign.runs).first { scenario.campaign.seed.derive(index: UInt64($0)) == seed }
        #expect(index != nil, "run seed \(seed) is not within \(scenario.campaign.runs) runs of the campaign")
    }

    @Test("the correct counterpart holds under the choices that trip the planted bug", arguments: findings.map(\.planted))
    func correctCounterpartHolds(planted: String) throws {
        let finding = try #require(Self.findings.first { $0.planted == planted })
        let buggy = try Self.load(planted)
        let correct = try Self.load(finding.correct)
        let failing = SimulationRunner.run(buggy.runSpec, choices: ChoiceSource(seed: Seed(finding.runSeed)))
        // Same environment draws (the workloads differ only in the planted line, which draws nothing).
        let outcome = SimulationRunner.run(correct.runSpec, choices: ChoiceSource(replaying: failing.choices))
        for violation in outcome.violations.prefix(3) {
            Issue.record("\(violation) — the correct counterpart \(finding.correct) failed the planted bug's run")
        }
        // It took the same deep path: the probe its scenario requires was hit.
        let hit = outcome.coverage.probes.filter { $0.count > 0 }.map(\.name)
        for probe in correct.requiredProbes {
            #expect(hit.contains(probe), "\(finding.correct) did not reach \(probe) under the planted bug's choices")
        }
    }
}
