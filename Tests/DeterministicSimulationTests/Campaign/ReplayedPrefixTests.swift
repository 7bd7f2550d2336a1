@testable import DeterministicSimulation
import Testing

/// The shrinker's prefix cache (issue 37, item 4): a candidate that starts with exactly what an
/// earlier finished replay read replays that run, so it is judged without a replay. It must
/// change nothing but the number of replays.
@Suite("Replayed prefixes")
struct ReplayedPrefixTests {
    @Test("a trie of prefixes: a sequence is known when an inserted prefix starts it, never when it is shorter")
    func trie() {
        var prefixes = ReplayedPrefixes()
        #expect(!prefixes.containsPrefix(of: []))
        #expect(!prefixes.containsPrefix(of: [3, 0, 7]))
        #expect(prefixes.insert([3, 0, 7][...]) == 3 * ReplayedPrefixes.bytesPerNode)
        #expect(prefixes.containsPrefix(of: [3, 0, 7]))
        #expect(prefixes.containsPrefix(of: [3, 0, 7, 9, 9]))
        #expect(!prefixes.containsPrefix(of: [3, 0]), "a shorter sequence would read past its end")
        #expect(!prefixes.containsPrefix(of: [3, 1, 7, 9]))
        #expect(prefixes.insert([3, 0, 7, 1][...]) == 0, "covered by [3, 0, 7]")
        #expect(prefixes.insert([3, 1][...]) == ReplayedPrefixes.bytesPerNode, "shares the node of the 3")
        #expect(prefixes.containsPrefix(of: [3, 1, 5]) && prefixes.containsPrefix(of: [3, 0, 7, 2]))
        #expect(prefixes.insert([4, 4, 4][...], maxAddedBytes: 2 * ReplayedPrefixes.bytesPerNode) == 0, "over the bound")
        #expect(!prefixes.containsPrefix(of: [4, 4, 4]))
        #expect(prefixes.bytes == 5 * ReplayedPrefixes.bytesPerNode, "the root and four nodes")
        prefixes.insert([][...])
        #expect(prefixes.containsPrefix(of: [8]), "a run that read nothing is every run")
    }

    @Test("a replay tells how much of its sequence it read, only when that front alone decided the run")
    func prefixLength() {
        let target = ThresholdTarget()
        let recorded = ShrinkerTests.failingRecording(target)
        let exact = ChoiceSource(replaying: recorded)
        _ = target.run(choices: exact, keepTrace: false)
        #expect(exact.replayedPrefixLength == recorded.count)
        let longer = ChoiceSource(replaying: ChoiceSequence(recorded.values + [5, 5, 5]))
        _ = target.run(choices: longer, keepTrace: false)
        #expect(longer.replayedPrefixLength == recorded.count, "the three extra values are never read")
        let cut = ChoiceSource(replaying: ChoiceSequence(Array(recorded.values.prefix(3))))
        _ = target.run(choices: cut, keepTrace: false)
        #expect(cut.replayedPrefixLength == nil, "it read past its end")
        let random = ChoiceSource(seed: Seed(1))
        _ = target.run(choices: random, keepTrace: false)
        #expect(random.replayedPrefixLength == nil)
        let mutant = ChoiceSource(replaying: recorded, filling: Seed(1))
        _ = target.run(choices: mutant, keepTrace: false)
        #expect(mutant.replayedPrefixLength == nil)
        let adopted = ChoiceSource(replaying: recorded)
        adopted.adopt(outcomes: recorded.values, actions: [], idleSteps: [], fallbackCount: 0)
        #expect(adopted.replayedPrefixLength == nil, "a run in another process")
    }

    /// 60 shrinks of two toy targets (one stops drawing on a coin, one draws a fixed count), each
    /// with and without the cache: the same result, attempts and pass statistics; fewer replays.
    @Test("a shrink with the cache takes the same path as one that replays every candidate, with fewer replays")
    func samePathFewerReplays() {
        var attempts = 0
        var replays = 0
        for seed in 0..<30 as Range<UInt64> {
            let threshold = ShrinkerTests.failingRecording(ThresholdTarget(), from: seed * 97)
            let fixed = ShrinkerTests.failingRecording(FixedCountTarget(), from: seed * 97)
            for (name, original, base) in [("threshold", threshold, ThresholdTarget() as any CampaignTarget),
                                            ("fixed", fixed, FixedCountTarget())] {
                let (without, _) = Self.shrink(original, base, judgesByPrefix: false)
                let (with, runs) = Self.shrink(original, base, judgesByPrefix: true)
                #expect(with.choices == without.choices, "\(name) \(seed)")
                #expect(with.attempts == without.attempts && with.passes == without.passes && with.stop == without.stop)
                #expect(without.replays == without.attempts)
                #expect(with.replays <= with.attempts)
                #expect(runs == with.replays + 1, "the input's run, then one run per replay")
                attempts += with.attempts
                replays += with.replays
            }
        }
        #expect(replays < attempts, "the cache judged no candidate in \(attempts)")
    }

    private static func shrink(_ original: ChoiceSequence, _ base: any CampaignTarget,
                               judgesByPrefix: Bool) -> (ShrinkResult, runs: Int) {
        let target = CountingTarget(AnyToyTarget(base: base))
        var state = ShrinkState(target: target, options: ShrinkOptions(), isCancelled: { false },
                                isOverTime: { false }, keeps: ShrinkerTests.keepsBig)
        state.judgesByPrefix = judgesByPrefix
        let result = state.shrink(original)
        return (result, target.runs)
    }
}

/// A toy target behind an existential, so one loop shrinks both kinds.
private struct AnyToyTarget: CampaignTarget {
    let base: any CampaignTarget
    func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict { base.run(choices: choices, keepTrace: keepTrace) }
}
