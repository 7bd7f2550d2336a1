@testable import DeterministicSimulation
import Testing

/// The two thread-scheduling policies on their own, without a controller: what each answers at
/// a point and at a decision, and what it draws for it.
@Suite("Thread scheduling policies")
struct ThreadSchedulingPolicyTests {
    static let progress = RunProgress(jobNumber: 1, wakeCount: 0, candidateEpoch: 0)

    @Test("PCT runs the highest-priority candidate, ties to the lower id, and draws nothing to choose", arguments: 0..<20)
    func pctChoosesByPriority(seed: UInt64) {
        let choices = ChoiceSource(seed: Seed(seed))
        var pct = PCTPolicy(configuration: .pct(depth: 1, stepBound: 10))
        for _ in 0..<4 { pct.threadAppeared(choices: choices) }
        let priorities = choices.recorded.values
        let order = [3, 0, 2, 1]
        for (index, thread) in order.enumerated() { pct.weigh(thread, at: index) }
        let drawn = choices.drawCount
        let chosen = pct.chooseRunner(count: order.count, progress: Self.progress, choices: choices)
        let expected = order.indices.max { a, b in
            let (pa, pb) = (priorities[order[a]], priorities[order[b]])
            return pa != pb ? pa < pb : order[a] > order[b]
        }!
        #expect(chosen == expected, "seed: \(seed)")
        #expect(choices.drawCount == drawn, "seed: \(seed)")
    }

    @Test("a PCT change point preempts the running thread and puts it below every other")
    func pctChangePointLowers() {
        let choices = ChoiceSource(seed: Seed(1))
        var pct = PCTPolicy(configuration: .pct(depth: 2, stepBound: 1))  // the change point is step 1
        pct.threadAppeared(choices: choices)
        pct.threadAppeared(choices: choices)
        let outcome = pct.point(running: 0, progress: Self.progress, mayKnowDecision: true, choices: choices)
        guard case .preempt(countdown: 0) = outcome else {
            Issue.record("a change point gave \(outcome), not a preemption")
            return
        }
        pct.weigh(0, at: 0)
        pct.weigh(1, at: 1)
        #expect(pct.chooseRunner(count: 2, progress: Self.progress, choices: choices) == 1)
    }

    @Test("random walk without a rate never asks, and with one candidate draws nothing")
    func randomWalkDrawsNothingWhenNothingVaries() {
        let choices = ChoiceSource(seed: Seed(2))
        let still = RandomWalkPolicy(configuration: .blockingOnly)
        #expect(still.initialCountdown == .max)
        var walk = RandomWalkPolicy(configuration: .randomWalk(preemptionRate: 1))
        #expect(walk.initialCountdown == 0)
        #expect(walk.chooseRunner(count: 1, progress: Self.progress, choices: choices) == 0)
        #expect(choices.drawCount == 0)
        // Rate 1: every point preempts, and the next point is the next preemption.
        guard case .preempt(countdown: 0) = walk.point(running: 0, progress: Self.progress, mayKnowDecision: true,
                                                       choices: choices) else {
            Issue.record("rate 1 did not preempt at the first point")
            return
        }
    }

    @Test("a random walk's gap is its definition's, draw for draw: 1 + 2^i for each digit whose 53-bit draw is below its threshold",
          arguments: [0.001, 0.05, 0.3, 0.9])
    func gapMatchesDefinition(rate: Double) {
        let thresholds = RandomWalkPolicy.thresholds(forRate: rate)
        let significant = (thresholds.lastIndex { $0 != 0 } ?? -1) + 1
        #expect(thresholds.count == 40 && significant < 40, "rate \(rate): \(significant) digits can be 1")
        for seed in 0..<300 as Range<UInt64> {
            var fast = Xoshiro256StarStar(seed: seed)
            var reference = fast
            let gap = RandomWalkPolicy.gap(thresholds, significantDigits: significant, &fast)
            var expected: UInt64 = 1
            for (digit, threshold) in thresholds.enumerated() where reference.next(below: 1 << 53) < threshold {
                expected += 1 << UInt64(digit)
            }
            #expect(gap == expected, "rate \(rate), seed \(seed)")
            #expect(fast.next() == reference.next(), "rate \(rate), seed \(seed): the same outputs consumed")
        }
    }
}
