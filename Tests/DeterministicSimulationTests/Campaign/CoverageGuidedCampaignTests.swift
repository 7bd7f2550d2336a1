@testable import DeterministicSimulation
import Testing

/// A staircase: draws 6 values in 0..<8 and fails `staircase` when they are 0, 1, 2, ..., 5 in
/// that order (8^-6, about 1 in 262,000 random runs). Its coverage names the longest matching prefix, so each
/// step reached is new coverage: what a coverage-guided campaign climbs and a random one never does.
struct StaircaseTarget: CampaignTarget {
    static let steps = 6

    func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
        var matched = 0
        var hasher = StableHasher()
        for step in 0..<Self.steps {
            let value = choices.int(in: 0...7)
            hasher.combine(UInt64(value))
            if matched == step, value == step { matched += 1 }
        }
        var coverage = Coverage()
        coverage.add("steps", "step \(matched)")
        let failures = matched == Self.steps
            ? [Violation(invariant: "staircase", message: "climbed all \(Self.steps) steps", time: .zero)] : []
        return RunVerdict(digest: TraceDigest(hasher.finalize()), eventCount: Self.steps, simulatedTime: .zero,
                          failures: failures, coverage: coverage)
    }
}

/// Coverage-guided campaigns (`CoverageGuidance`, the `coverage` strategy): the corpus evolves in
/// generations merged in run-index order, so results do not depend on `jobs`; mutants replay from
/// their recorded choices, not their seeds; guidance finds what independent runs cannot.
@Suite struct CoverageGuidedCampaignTests {
    static func options(jobs: Int, runs: Int = 6_000, guidance: CoverageGuidance? = .coverage) -> CampaignOptions {
        CampaignOptions(seed: Seed(0xc07e), runs: runs, jobs: jobs, determinismSamples: 3, guidance: guidance)
    }

    @Test("a coverage-guided campaign climbs a staircase that independent random runs never do")
    func guidanceClimbs() {
        let guided = Campaign.run(StaircaseTarget(), options: Self.options(jobs: 2))
        let random = Campaign.run(StaircaseTarget(), options: Self.options(jobs: 2, guidance: nil))
        #expect(guided.totals.violations.map(\.invariant) == ["staircase"], "\(guided.coverage.entries("steps"))")
        #expect(random.totals.violations.isEmpty)
        #expect(guided.nondeterminism.isEmpty)
    }

    @Test("1 and 2 jobs give the same runs, failures and coverage under coverage guidance")
    func jobsChangeNothing() {
        let one = Campaign.run(StaircaseTarget(), options: Self.options(jobs: 1, runs: 1_500))
        let two = Campaign.run(StaircaseTarget(), options: Self.options(jobs: 2, runs: 1_500))
        #expect(ResultFingerprint(one) == ResultFingerprint(two))
        #expect(one.failures.map(\.runChoices) == two.failures.map(\.runChoices))
    }

    @Test("a failing mutant replays from its recorded choices, not from its seed")
    func mutantReplaysFromChoices() throws {
        let result = Campaign.run(StaircaseTarget(), options: Self.options(jobs: 2))
        let failure = try #require(result.failures.first)
        let choices = try #require(failure.runChoices, "the staircase is climbed by a mutant, after the first generation")
        #expect(failure.runIndex >= CoverageGuidance.coverage.generationSize)
        let replayed = StaircaseTarget().run(choices: ChoiceSource(replaying: choices), keepTrace: false)
        #expect(replayed.failures.map(\.invariant) == ["staircase"])
        let fromSeed = StaircaseTarget().run(choices: ChoiceSource(seed: failure.seed), keepTrace: false)
        #expect(fromSeed.passed, "its seed alone is a fresh run, not the mutant")
        // The token round-trips, as `bgsim replay --choices` reads it.
        #expect(try ChoiceSequence(token: choices.token) == choices)
    }

    @Test("a mutant source with an empty plan draws exactly as a random source of its seed")
    func emptyPlanIsTheRandomRun() {
        for index in 0..<20 {
            let seed = Seed(0x5eed).derive(index: UInt64(index))
            let random = ChoiceSource(seed: seed)
            let mutant = ChoiceSource(replaying: ChoiceSequence(), filling: seed)
            for _ in 0..<50 {
                #expect(random.int(in: 0...1_000) == mutant.int(in: 0...1_000))
                #expect(random.bool(probability: 0.3) == mutant.bool(probability: 0.3))
                #expect(random.index(weights: [5, 0, 2, 9]) == mutant.index(weights: [5, 0, 2, 9]))
            }
            #expect(mutant.fallbackCount == 0)
        }
    }

    @Test("a mutant replays its plan, draws its fill markers and its tail at random, and its recording replays it")
    func mutantPlan() {
        let marker = ChoiceSource.fillMarker
        let mutant = ChoiceSource(replaying: ChoiceSequence([3, marker, 5]), filling: Seed(9))
        let drawn = (0..<6).map { _ in mutant.int(in: 0...9) }
        #expect(drawn[0] == 3 && drawn[2] == 5)
        #expect(mutant.fallbackCount == 0)
        let random = ChoiceSource(seed: Seed(9))
        let expected = (0..<4).map { _ in random.int(in: 0...9) }
        #expect([drawn[1]] + drawn[3...] == expected[...], "filled draws come from the seed's generator, in order")
        let replay = ChoiceSource(replaying: mutant.recorded)
        #expect((0..<6).map { _ in replay.int(in: 0...9) } == drawn)
    }

    @Test("mutation plans are deterministic and stay within one to three edits of the parent")
    func mutatorIsDeterministic() {
        let parent = ChoiceSequence((0..<200).map { UInt64($0 % 7) })
        let other = ChoiceSequence((0..<150).map { UInt64($0 % 5) })
        var changed = 0
        for index in 0..<100 {
            var a = Xoshiro256StarStar(seed: UInt64(index))
            var b = Xoshiro256StarStar(seed: UInt64(index))
            let first = ChoiceMutator.plan(parent: parent, other: other, generator: &a)
            #expect(first == ChoiceMutator.plan(parent: parent, other: other, generator: &b))
            if first != parent { changed += 1 }
        }
        #expect(changed >= 95, "only \(changed) of 100 plans differ from their parent")
    }

    @Test("count buckets: 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128 and more")
    func buckets() {
        let buckets = [1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 127, 128, 10_000].map(CoverageFeatures.bucket)
        #expect(buckets == [1, 2, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8])
    }
}
