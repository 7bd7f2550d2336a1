import DeterministicSimulation
import Testing

@Suite("Shrinker")
struct ShrinkerTests {
    static func keepsBig(_ verdict: RunVerdict) -> Bool { verdict.failures.contains { $0.invariant == "big-value" } }

    /// A failing recording of `ThresholdTarget` found by trying seeds in order.
    static func failingRecording(_ target: some CampaignTarget, from start: UInt64 = 0) -> ChoiceSequence {
        var seed = start
        while true {
            let source = ChoiceSource(seed: Seed(seed))
            if keepsBig(target.run(choices: source, keepTrace: false)) { return source.recorded }
            seed += 1
        }
    }

    @Test("a value >= 50 among many draws shrinks to exactly one draw of 50", arguments: [0, 100, 2_000] as [UInt64])
    func shrinksToOneFifty(seed: UInt64) {
        let original = Self.failingRecording(ThresholdTarget(), from: seed)
        let result = Shrinker.shrink(original, target: ThresholdTarget(), keeps: Self.keepsBig)
        // coin "more" = 1, the value 50, then coin "stop" = 0.
        #expect(result.choices.values == [1, 50, 0], "seed \(seed): \(original.values)")
        #expect(result.eventCount == 1)
        #expect(result.stop == .fixpoint)
        #expect(result.passes.map(\.name) == ["endEarlier", "skipAllBut", "startLater", "deleteActions", "replaceLastAction", "zeroActions",
                                              "deleteChunks", "zeroChunks", "minimizeValues", "sortAdjacent",
                                              "deleteRuns", "deleteCycles", "deleteKeepingNext", "deleteReaiming", "deleteShifted",
                                              "deleteRetimed", "undoSwarm", "zeroSwarm", "canonicalSchedule", "delaySwitches"])
        #expect(result.passes.reduce(0) { $0 + $1.attempts } == result.attempts)
    }

    @Test("with a fixed number of draws, the 50 moves to the end: 29 zeros, then 50")
    func fixedCount() {
        let original = Self.failingRecording(FixedCountTarget())
        let result = Shrinker.shrink(original, target: FixedCountTarget(), keeps: Self.keepsBig)
        #expect(result.choices.values == Array(repeating: 0, count: 29) + [50])
    }

    @Test("shrinking is deterministic: same input, same result")
    func deterministic() {
        let original = Self.failingRecording(ThresholdTarget(), from: 7)
        let a = Shrinker.shrink(original, target: ThresholdTarget(), keeps: Self.keepsBig)
        let b = Shrinker.shrink(original, target: ThresholdTarget(), keeps: Self.keepsBig)
        #expect(a == b)
    }

    @Test("the attempt limit stops shrinking and says so")
    func attemptLimit() {
        let original = Self.failingRecording(ThresholdTarget(), from: 3)
        let result = Shrinker.shrink(original, target: ThresholdTarget(), options: ShrinkOptions(maxAttempts: 3),
                                     keeps: Self.keepsBig)
        #expect(result.stop == .attemptLimit)
        #expect(result.attempts == 3)
        #expect(!original.isSimpler(than: result.choices))
        #expect(Self.keepsBig(ThresholdTarget().run(choices: ChoiceSource(replaying: result.choices), keepTrace: false)))
    }

    @Test("a candidate that runs over its cost budget is rejected")
    func costBudget() {
        struct Exploding: CampaignTarget {
            // Value 0 at the first draw makes the run "explode" (costs a million).
            func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
                run(choices: choices, keepTrace: keepTrace, costBudget: .max)
            }
            func run(choices: ChoiceSource, keepTrace: Bool, costBudget: Int) -> RunVerdict {
                let first = choices.int(in: 0...9)
                let cost = first == 0 ? 1_000_000 : 10
                return RunVerdict(digest: TraceDigest(UInt64(first)), eventCount: 1, simulatedTime: .zero,
                                  failures: [Violation(invariant: "big-value", message: "", time: .zero)],
                                  cost: min(cost, costBudget), overBudget: cost > costBudget)
            }
        }
        let result = Shrinker.shrink(ChoiceSequence([7]), target: Exploding(), keeps: Self.keepsBig)
        #expect(result.choices.values == [1])
    }
}
