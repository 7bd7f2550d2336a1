import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// A shrink's candidates are run with only the kept invariant checked
/// (`CampaignTarget.checking(only:)`, `Shrinker.shrink(_:target:while:)`): the same runs for less
/// work, so the same shrink. These tests hold the narrowed target to its contract on real
/// scenarios, and the shrink to the plain one's result, field for field.
@Suite struct ShrinkCheckingOnlyTests {
    /// Planted bugs whose runs also break other invariants (so the narrowed runs leave out
    /// `violation` events), one with threads and shared state (`no-data-race` stays checked).
    static let scenarios = [
        "chat-outbox-task-registered-after-begin-ios17",
        "download-manager-p1-overwritten-task-id-ios17",
        "feed-refresh-main-blocked-across-deadline-ios17",
        "backup-p4-unconditional-end-ios17",
    ]

    /// Those whose failing runs also break other invariants (`bgsim check` lists them as "also
    /// violated"): the narrowed runs leave those checkers' findings out.
    static let breaksOthers: Set = ["chat-outbox-task-registered-after-begin-ios17", "feed-refresh-main-blocked-across-deadline-ios17"]

    static func load(_ name: String) throws -> Scenario {
        try ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/" + name + ".json")
    }

    @Test("a narrowed run draws, costs and stops as the full one, and fails the invariant exactly when it does",
          arguments: scenarios)
    func narrowedRunsAreTheSameRuns(name: String) throws {
        let scenario = try Self.load(name)
        guard case .violation(let invariant) = scenario.expectation else { Issue.record("not a planted bug"); return }
        let full = SimulationTarget(spec: scenario.runSpec)
        let narrowed = full.checking(only: invariant)
        var failing = 0
        var othersLeftOut = 0
        for index in 0..<60 {
            let seed = scenario.campaign.seed.derive(index: UInt64(index))
            let fullSource = ChoiceSource(seed: seed)
            let narrowSource = ChoiceSource(seed: seed)
            let a = full.run(choices: fullSource, keepTrace: false)
            let b = narrowed.run(choices: narrowSource, keepTrace: false)
            #expect(fullSource.recorded == narrowSource.recorded, "\(name) seed \(seed): draws differ")
            #expect(a.cost == b.cost && a.stop == b.stop, "\(name) seed \(seed): cost or stop differ")
            let failsA = a.failures.contains { $0.invariant == invariant }
            #expect(failsA == b.failures.contains { $0.invariant == invariant }, "\(name) seed \(seed)")
            #expect(b.failures.allSatisfy { $0.invariant == invariant || $0.invariant == "no-data-race" })
            if failsA { failing += 1 }
            if a.failures.contains(where: { $0.invariant != invariant }) { othersLeftOut += 1 }
        }
        #expect(failing > 0, "\(name): no run of 60 failed \(invariant), so the test shows nothing")
        if Self.breaksOthers.contains(name) {
            #expect(othersLeftOut > 0, "\(name): no run broke another invariant, so nothing was left out")
        }
    }

    @Test("the shrink with only the kept invariant checked gives the plain shrink's result", arguments: scenarios)
    func sameShrink(name: String) throws {
        let scenario = try Self.load(name)
        guard case .violation(let invariant) = scenario.expectation else { Issue.record("not a planted bug"); return }
        let found = try #require(scenario.shrinkPlantedBug(options: ShrinkOptions(maxAttempts: 0)))
        let target = SimulationTarget(spec: scenario.runSpec)
        let source = ChoiceSource(seed: found.seed)
        _ = target.run(choices: source, keepTrace: false)
        let options = ShrinkOptions(maxAttempts: 400)
        let plain = Shrinker.shrink(source.recorded, target: target, options: options) { verdict in
            verdict.failures.contains { $0.invariant == invariant }
        }
        let narrowed = Shrinker.shrink(source.recorded, target: target, while: invariant, options: options)
        #expect(narrowed.choices == plain.choices, "\(name)")
        #expect(narrowed.eventCount == plain.eventCount && narrowed.actionCount == plain.actionCount, "\(name)")
        #expect(narrowed.attempts == plain.attempts && narrowed.replays == plain.replays, "\(name)")
        #expect(narrowed.stop == plain.stop, "\(name)")
    }

    @Test("asked for an invariant it does not check, the simulator's target stays whole: same failures, coverage, digest")
    func unknownInvariantKeepsTheTargetWhole() throws {
        let scenario = try Self.load(Self.scenarios[0])
        let target = SimulationTarget(spec: scenario.runSpec)
        let same = target.checking(only: "no-such-invariant")
        // A failing run, so that failures left out would show (and a narrowed run counts no coverage).
        let found = try #require(scenario.shrinkPlantedBug(options: ShrinkOptions(maxAttempts: 0)))
        let whole = target.run(choices: ChoiceSource(seed: found.seed), keepTrace: false)
        let other = same.run(choices: ChoiceSource(seed: found.seed), keepTrace: false)
        #expect(!whole.failures.isEmpty && whole.coverage != Coverage())
        #expect(other.failures.map(\.invariant) == whole.failures.map(\.invariant))
        #expect(other.coverage == whole.coverage && other.digest == whole.digest)
    }
}
