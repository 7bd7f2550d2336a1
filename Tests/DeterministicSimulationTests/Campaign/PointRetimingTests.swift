@testable import DeterministicSimulation
import Testing

/// A toy app whose failure needs a preemption at one exact scheduling point, drawn as a count of
/// points the way the simulator's thread policies draw them: PCT's change point (a point count
/// from the run's start, drawn once at its first point) or random walk's gap (drawn at each
/// preemption, to the next one). Each action runs three points; `expire` fails
/// `expiry-ends-task` when the preemption comes at its second point (the window between marking
/// a task finished and ending it). Every other action is a `toggle`. Minimum: launch, expire
/// (2 actions), the preemption at point 2.
struct PreemptionPointTarget: CampaignTarget {
    enum Policy {
        case changePoint
        case gaps
    }

    let policy: Policy

    /// The run's point clock (``ChoiceSource/pointClock`` reads it).
    final class Clock {
        var points = 0
    }

    func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
        let clock = Clock()
        choices.pointClock = { clock.points }
        choices.markAction(firstDraw: 0, stopDraw: 0)  // the launch
        // The next preemption's point (0: none).
        var next: Int
        switch policy {
        case .changePoint:
            next = Int(choices.draw(below: 400))
            choices.markPointCountDraw()
        case .gaps:
            next = Int(choices.draw(below: 9))
            choices.markPointCountDraw()
        }
        var failures: [Violation] = []
        var trace: [TraceLine] = [TraceLine(time: .zero, name: "launch", fields: [])]
        for step in 0..<80 where failures.isEmpty {
            let stopDraw = choices.drawCount
            guard choices.bool(probability: 0.97) else { break }
            let firstDraw = choices.drawCount
            guard let index = choices.optionalIndex(weights: [6, 1]) else {
                choices.markIdleStep(stopDraw: stopDraw)
                continue
            }
            choices.markAction(firstDraw: firstDraw, stopDraw: stopDraw, skippable: true)
            let name = ["toggle", "expire"][index]
            for pointInAction in 0..<3 {
                clock.points += 1
                guard clock.points == next else { continue }
                if name == "expire", pointInAction == 1 {
                    failures.append(Violation(invariant: "expiry-ends-task", message: "still open", time: .zero))
                }
                if policy == .gaps {
                    let gap = Int(choices.draw(below: 9))
                    choices.markPointCountDraw()
                    next = gap == 0 ? 0 : clock.points + gap
                }
            }
            trace.append(TraceLine(time: .seconds(Int64(step + 1)), name: name, fields: []))
        }
        return RunVerdict(toyTrace: trace, failures: failures, simulatedTime: .zero, keepTrace: keepTrace)
    }
}

@Suite("Shrinking moves drawn preemption points with the deleted actions")
struct PointRetimingTests {
    static func keeps(_ verdict: RunVerdict) -> Bool { verdict.failures.contains { $0.invariant == "expiry-ends-task" } }

    /// The first seeded run that fails and has more than `actions` actions, with its recording.
    static func longFailure(_ target: PreemptionPointTarget, actions: Int) -> ChoiceSequence? {
        for seed in 0..<UInt64(20_000) {
            let source = ChoiceSource(seed: Seed(0x9e7 + seed))
            guard keeps(target.run(choices: source, keepTrace: false)) else { continue }
            let replay = ChoiceSource(replaying: source.recorded)
            _ = target.run(choices: replay, keepTrace: false)
            if replay.actions.count > actions { return source.recorded }
        }
        return nil
    }

    @Test("a preemption drawn as a point count (PCT's change point, random walk's gap) follows the actions deleted before it", arguments: [PreemptionPointTarget.Policy.changePoint, .gaps])
    func shrinksToTheMinimum(_ policy: PreemptionPointTarget.Policy) throws {
        let target = PreemptionPointTarget(policy: policy)
        let failing = try #require(Self.longFailure(target, actions: 15), "no long failing run")
        // Without moving the points, deleting any action before `expire` moved its preemption
        // off the second point (a change point by the deleted points; a gap chain by the gap in
        // flight), and the shrink kept most of the run.
        let result = Shrinker.shrink(failing, target: target, keeps: Self.keeps)
        #expect(result.actionCount == 2, "\(result.actionCount) actions: \(result.choices.values) \(result.stop) \(result.passes.filter { $0.attempts > 0 })")
        #expect(Self.keeps(target.run(choices: ChoiceSource(replaying: result.choices), keepTrace: false)))
    }

    @Test("an action's mark reads the point clock; a point-count draw records where it was drawn")
    func marksReadThePointClock() {
        let source = ChoiceSource(replaying: ChoiceSequence([5, 1]))
        var points = 0
        source.pointClock = { points }
        source.markAction(firstDraw: 0, stopDraw: 0)
        points = 7
        _ = source.draw(below: 9)
        source.markPointCountDraw()
        _ = source.draw(below: 2)
        source.markAction(firstDraw: 1, stopDraw: 1)
        #expect(source.actions.map(\.pointsBefore) == [0, 7])
        #expect(source.pointCountDraws == [PointCountDraw(position: 0, from: 7)])
        // A random source keeps no marks.
        let random = ChoiceSource(seed: Seed(1))
        random.pointClock = { points }
        _ = random.draw(below: 9)
        random.markPointCountDraw()
        #expect(random.pointCountDraws.isEmpty)
    }
}
