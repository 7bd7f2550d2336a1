import DeterministicSimulation
import SimulationFormats
import Testing

/// A run of ``ThresholdTarget`` after one coin (the shape of a `default` run after its phase of
/// random runs): heads also fails `heads`, which ``ThresholdTarget`` alone never does.
struct CoinThresholdTarget: CampaignTarget {
    func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
        let heads = choices.bool(probability: 0.5)
        var verdict = ThresholdTarget().run(choices: choices, keepTrace: keepTrace)
        if heads { verdict.failures.append(Violation(invariant: "heads", message: "the coin was heads", time: .zero)) }
        return verdict
    }
}

@Suite("Phased campaigns")
struct PhasedCampaignTests {
    static let options = CampaignOptions(seed: Seed(0x5eed), runs: 200, jobs: 2)
    static let phases = RunPhases<any CampaignTarget>(first: 50, use: ThresholdTarget(), then: CoinThresholdTarget())

    @Test("run i runs on its phase's target: one phase for all runs is that target's campaign")
    func phasesChooseTargets() {
        let early = ResultFingerprint(Campaign.run(ThresholdTarget(), options: Self.options))
        let late = ResultFingerprint(Campaign.run(CoinThresholdTarget(), options: Self.options))
        let allEarly = RunPhases<any CampaignTarget>(first: Self.options.runs, use: ThresholdTarget(),
                                                     then: CoinThresholdTarget())
        #expect(ResultFingerprint(Campaign.run(phases: allEarly, options: Self.options)) == early)
        let allLate = RunPhases<any CampaignTarget>(first: 0, use: ThresholdTarget(), then: CoinThresholdTarget())
        #expect(ResultFingerprint(Campaign.run(phases: allLate, options: Self.options)) == late)
        let phased = ResultFingerprint(Campaign.run(phases: Self.phases, options: Self.options))
        #expect(phased != early && phased != late)
    }

    @Test("a failure of the late phase is found there, rerun and shrunk on the late target")
    func lateFailureIsShrunkOnItsTarget() throws {
        let result = Campaign.run(phases: Self.phases, options: Self.options)
        #expect(result.nondeterminism.isEmpty)
        let heads = try #require(result.failures.first { $0.failure.invariant == "heads" })
        #expect(heads.runIndex >= 50)
        let replayed = CoinThresholdTarget().run(choices: ChoiceSource(replaying: heads.choices), keepTrace: false)
        #expect(replayed.failures.contains { $0.invariant == "heads" })
        let big = try #require(result.failures.first { $0.failure.invariant == "big-value" })
        #expect(big.runIndex < 50)
        let early = ThresholdTarget().run(choices: ChoiceSource(replaying: big.choices), keepTrace: false)
        #expect(early.failures.contains { $0.invariant == "big-value" })
        #expect(Campaign.runsToFirstFailure(phases: Self.phases, of: "heads", options: Self.options) == heads.runIndex + 1)
    }

    @Test("jobs and shards change speed, never results: 1 and 2 jobs agree, shards merge to the whole")
    func jobsAndShards() throws {
        var options = Self.options
        options.jobs = 1
        let one = Campaign.run(phases: Self.phases, options: options)
        options.jobs = 2
        #expect(ResultFingerprint(Campaign.run(phases: Self.phases, options: options)) == ResultFingerprint(one))
        func report(_ options: CampaignOptions) -> JSONValue {
            CampaignReport.json(Campaign.run(phases: Self.phases, options: options), scenarioName: "toy",
                                scenarioFile: "Scenarios/toy.json", toolVersion: "9.9", toolName: "bgsim",
                                replayCommand: { "bgsim replay Scenarios/toy.json --seed \($0.seed)" })
        }
        let whole = report(Self.options)
        let shards = (1...3).map { index -> JSONValue in
            var sharded = Self.options
            sharded.shard = Shard(index: index, count: 3)
            return report(sharded)
        }
        let merged = try CampaignReport.merge(shards)
        #expect(CampaignReport.timingFree(merged) == CampaignReport.timingFree(whole))
    }
}
