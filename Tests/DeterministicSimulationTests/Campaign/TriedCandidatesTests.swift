@testable import DeterministicSimulation
import Testing

/// The shrinker's cache (issue 37, item 4): the candidates it judged and the fronts its finished
/// replays read, in one trie. An exact repeat is skipped; a candidate that starts with a read
/// front replays that run, so it is judged without a replay. It must change nothing but the
/// number of replays.
@Suite("Tried candidates")
struct TriedCandidatesTests {
    @Test("a read front decides every sequence that starts with it, never a shorter one; a judged candidate only itself")
    func trie() {
        var tried = TriedCandidates()
        let node = TriedCandidates.bytesPerNode
        #expect(tried.knowledge(of: []) == .unknown && tried.knowledge(of: [3, 0, 7]) == .unknown)
        #expect(tried.insert([3, 0, 7][...], as: .readFront) == 3 * node)
        #expect(tried.knowledge(of: [3, 0, 7]) == .readByReplay)
        #expect(tried.knowledge(of: [3, 0, 7, 9, 9]) == .readByReplay)
        #expect(tried.knowledge(of: [3, 0]) == .unknown, "a shorter sequence would read past its end")
        #expect(tried.knowledge(of: [3, 1, 7, 9]) == .unknown)
        #expect(tried.insert([3, 0, 7, 1][...], as: .readFront) == 0, "covered by [3, 0, 7]")
        #expect(tried.insert([3, 0, 7, 1][...], as: .candidate) == node, "a judged candidate is marked even there")
        #expect(tried.knowledge(of: [3, 0, 7, 1]) == .judged, "an exact repeat comes first")
        #expect(tried.insert([5, 5][...], as: .candidate) == 2 * node)
        #expect(tried.knowledge(of: [5, 5]) == .judged)
        #expect(tried.knowledge(of: [5, 5, 1]) == .unknown && tried.knowledge(of: [5]) == .unknown, "only itself")
        #expect(tried.insert([4, 4, 4][...], as: .readFront, maxAddedBytes: 2 * node) == 0, "over the bound")
        #expect(tried.knowledge(of: [4, 4, 4]) == .unknown)
        #expect(tried.bytes == 7 * node, "the root and six nodes")
        tried.insert([][...], as: .readFront)
        #expect(tried.knowledge(of: [8]) == .readByReplay, "a run that read nothing is every run")
    }

    /// What a shrink's attempt does in one walk (``TriedCandidates/lookUp(_:)`` then
    /// ``TriedCandidates/record(_:readFront:maxAddedBytes:)``) against the two plain calls it
    /// stands for (``TriedCandidates/knowledge(of:)``, then `insert` as a candidate and of the
    /// read front): 4,000 random attempts over small values (so paths share prefixes), bounds
    /// that run out on the way, and every answer and byte count compared after each.
    @Test("lookUp then record answers and stores exactly what knowledge(of:) then two inserts do")
    func fusedWalkMatchesPlainCalls() {
        var random = SplitMix64(seed: 37)
        var fused = TriedCandidates()
        var plain = TriedCandidates()
        var seen: [[UInt64]] = []
        let node = TriedCandidates.bytesPerNode
        let bound = 1_500 * node
        var (fusedBytes, plainBytes) = (0, 0)
        for _ in 0..<4_000 {
            let length = Int(random.next() % 9)
            let values = (0..<length).map { _ in random.next() % 3 }
            let front: Int? = random.next() % 3 == 0 ? nil : Int(random.next() % UInt64(length + 1))
            #expect(fused.lookUp(values) == plain.knowledge(of: values), "\(values)")
            fusedBytes += fused.record(values, readFront: front, maxAddedBytes: bound - fusedBytes)
            plainBytes += plain.insert(values[...], as: .candidate, maxAddedBytes: bound - plainBytes)
            if let front { plainBytes += plain.insert(values[..<front], as: .readFront, maxAddedBytes: bound - plainBytes) }
            #expect(fusedBytes == plainBytes && fused.bytes == plain.bytes)
            seen.append(values)
        }
        #expect(plainBytes > bound - 9 * node, "the bound was reached on the way")
        for values in seen + seen.map({ $0 + [1] }) + seen.map({ Array($0.dropLast()) }) {
            #expect(fused.knowledge(of: values) == plain.knowledge(of: values), "\(values)")
        }
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
                let (without, _) = Self.shrink(original, base, judgesByReadFront: false)
                let (with, runs) = Self.shrink(original, base, judgesByReadFront: true)
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
                               judgesByReadFront: Bool) -> (ShrinkResult, runs: Int) {
        let target = CountingTarget(AnyToyTarget(base: base))
        var state = ShrinkState(target: target, options: ShrinkOptions(), isCancelled: { false },
                                isOverTime: { false }, keeps: ShrinkerTests.keepsBig)
        state.judgesByReadFront = judgesByReadFront
        let result = state.shrink(original)
        return (result, target.runs)
    }
}

/// A toy target behind an existential, so one loop shrinks both kinds.
private struct AnyToyTarget: CampaignTarget {
    let base: any CampaignTarget
    func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict { base.run(choices: choices, keepTrace: keepTrace) }
}
