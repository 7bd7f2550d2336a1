import DeterministicSimulation
import Testing

@Suite("Choice source")
struct ChoiceSourceTests {
    /// A mixed workload of every kind of draw, returning the outcomes as text.
    static func drawMix(_ source: ChoiceSource) -> [String] {
        var outcomes: [String] = []
        for round in 0..<50 {
            outcomes.append("d\(source.draw(below: UInt64(round % 7 + 2)))")
            outcomes.append("i\(source.int(in: -5...(round + 10)))")
            outcomes.append("b\(source.bool(probability: 0.3))")
            outcomes.append("w\(source.index(weights: [3, 0, 5, 1]))")
            outcomes.append("p\(source.pick(from: ["a", "b", "c"]))")
        }
        return outcomes
    }

    @Test("replaying the recorded sequence gives identical outcomes, with no fallbacks")
    func replayIsExact() {
        for seed in 0..<20 as Range<UInt64> {
            let random = ChoiceSource(seed: Seed(seed))
            let original = Self.drawMix(random)
            #expect(!random.isReplaying)
            #expect(random.fallbackCount == 0)
            let replay = ChoiceSource(replaying: random.recorded)
            #expect(replay.isReplaying)
            #expect(Self.drawMix(replay) == original, "seed \(seed)")
            #expect(replay.recorded == random.recorded)
            #expect(replay.fallbackCount == 0)
            #expect(replay.drawCount == random.drawCount)
        }
    }

    @Test("the random mode draws through xoshiro256** next(below:)")
    func randomModeUsesGenerator() {
        let source = ChoiceSource(seed: Seed(0x2a))
        var generator = Xoshiro256StarStar(seed: 0x2a)
        for bound in [2, 3, 6, 10, 52, 1000] as [UInt64] {
            #expect(source.draw(below: bound) == generator.next(below: bound))
        }
        #expect(source.recorded.values == [0, 1, 4, 9, 51, 769])
    }

    @Test("bound 0 and 1 return 0 without consuming or recording")
    func trivialBounds() {
        let source = ChoiceSource(replaying: ChoiceSequence([5]))
        #expect(source.draw(below: 0) == 0)
        #expect(source.draw(below: 1) == 0)
        #expect(source.drawCount == 0)
        #expect(source.draw(below: 10) == 5)
        #expect(source.recorded.values == [5])
        #expect(source.fallbackCount == 0)
    }

    @Test("a truncated sequence falls back to 0 and counts each exhausted draw")
    func exhausted() {
        let source = ChoiceSource(replaying: ChoiceSequence([3]))
        #expect(source.draw(below: 10) == 3)
        #expect(source.draw(below: 10) == 0)
        #expect(source.draw(below: 10) == 0)
        #expect(source.fallbackCount == 2)
        #expect(source.recorded.values == [3, 0, 0])
    }

    @Test("a misfit (value >= bound) falls back to 0, consumes the value and is counted")
    func misfit() {
        let source = ChoiceSource(replaying: ChoiceSequence([7, 2]))
        #expect(source.draw(below: 5) == 0)
        #expect(source.draw(below: 5) == 2)
        #expect(source.fallbackCount == 1)
        #expect(source.recorded.values == [0, 2])
    }

    @Test("int(in:) adds the draw to the lower bound; one value draws nothing; full range is safe")
    func ints() {
        let replay = ChoiceSource(replaying: ChoiceSequence([4, 0, .max - 1, 1]))
        #expect(replay.int(in: 10...20) == 14)
        #expect(replay.int(in: 7...7) == 7)
        #expect(replay.int(in: -3...(-1)) == -3)
        #expect(replay.int(in: Int.min...Int.max) == Int.max - 1)
        #expect(replay.int(in: Int.min...Int.max) == Int.min + 1)
        #expect(replay.drawCount == 4)
        let random = ChoiceSource(seed: Seed(3))
        for _ in 0..<1000 {
            #expect((-2...2).contains(random.int(in: -2...2)))
            _ = random.int(in: Int.min...Int.max)
            #expect(random.int(in: (Int.max - 1)...Int.max) >= Int.max - 1)
        }
    }

    @Test("bool: p <= 0, NaN and p >= 1 draw nothing; otherwise the recorded value is the outcome")
    func bools() {
        let source = ChoiceSource(seed: Seed(1))
        #expect(!source.bool(probability: 0))
        #expect(!source.bool(probability: -1))
        #expect(!source.bool(probability: .nan))
        #expect(source.bool(probability: 1))
        #expect(source.bool(probability: 2))
        #expect(source.drawCount == 0)
        let outcomes = (0..<100).map { _ in source.bool(probability: 0.5) }
        #expect(source.recorded.values == outcomes.map { $0 ? 1 : 0 })
        let replay = ChoiceSource(replaying: ChoiceSequence([1, 0, 2]))
        #expect(replay.bool(probability: 0.01))
        #expect(!replay.bool(probability: 0.99))
        #expect(!replay.bool(probability: 0.5))
        #expect(replay.fallbackCount == 1)
    }

    @Test("bool matches the documented threshold rule exactly")
    func boolRule() {
        let source = ChoiceSource(seed: Seed(77))
        var generator = Xoshiro256StarStar(seed: 77)
        for _ in 0..<1000 {
            let expected = generator.next(below: 1 << 53) < UInt64(0.3 * 9_007_199_254_740_992.0)
            #expect(source.bool(probability: 0.3) == expected)
        }
    }

    @Test("bool(probability: 0.3) is true about 30% of the time over 100 000 draws")
    func boolFrequency() {
        let source = ChoiceSource(seed: Seed(2024))
        var trues = 0
        for _ in 0..<100_000 where source.bool(probability: 0.3) {
            trues += 1
        }
        // Standard deviation is about 145; 0.3 ± 0.006 is more than 4 deviations.
        #expect(abs(trues - 30_000) < 600, "trues: \(trues)")
    }

    @Test("index(weights:) never picks zero weights and follows the weights")
    func weights() {
        let source = ChoiceSource(seed: Seed(5))
        var counts = [0, 0, 0, 0]
        for _ in 0..<40_000 {
            counts[source.index(weights: [1, 0, 2, 1])] += 1
        }
        #expect(counts[1] == 0)
        #expect(abs(counts[0] - 10_000) < 500 && abs(counts[2] - 20_000) < 700
            && abs(counts[3] - 10_000) < 500, "counts: \(counts)")
        #expect(source.recorded.values.allSatisfy { $0 == 0 || $0 == 2 || $0 == 3 })
    }

    @Test("index(weights:) edge cases: empty, all zero and one nonzero weight draw nothing")
    func weightEdges() {
        let source = ChoiceSource(seed: Seed(5))
        #expect(source.index(weights: []) == 0)
        #expect(source.index(weights: [0, 0, 0]) == 0)
        #expect(source.index(weights: [0, 0, 9]) == 2)
        #expect(source.drawCount == 0)
        let huge = (0..<1000).map { _ in source.index(weights: [.max, .max, 1]) }
        #expect(huge.allSatisfy { $0 < 3 })
    }

    @Test("replaying a zero-weight or out-of-range index falls back to the first nonzero weight")
    func weightReplayFallback() {
        let source = ChoiceSource(replaying: ChoiceSequence([1, 9, 3, 2]))
        #expect(source.index(weights: [0, 0, 4, 4]) == 2)  // index 1 has zero weight
        #expect(source.index(weights: [0, 0, 4, 4]) == 2)  // 9 is out of range
        #expect(source.index(weights: [0, 0, 4, 4]) == 3)
        #expect(source.index(weights: [0, 0, 4, 4]) == 2)
        #expect(source.index(weights: [0, 0, 4, 4]) == 2)  // exhausted
        #expect(source.fallbackCount == 3)
        #expect(source.recorded.values == [2, 2, 3, 2, 2])
    }

    @Test("pick(from:) draws an index; a single item draws nothing")
    func picks() {
        let source = ChoiceSource(replaying: ChoiceSequence([2, 5]))
        #expect(source.pick(from: ["a", "b", "c"]) == "c")
        #expect(source.pick(from: ["only"]) == "only")
        #expect(source.pick(from: ["a", "b"]) == "a")  // 5 is a misfit
        #expect(source.recorded.values == [2, 0])
    }
}
