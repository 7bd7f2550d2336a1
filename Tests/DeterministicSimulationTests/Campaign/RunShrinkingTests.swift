import DeterministicSimulation
import Testing

/// A toy app whose last action's index depends on an earlier action, like the simulator's
/// `sceneDisconnect`: each step draws whether to go on, then an action among those possible:
/// `arm`, `disconnect` (only while connected; once gone, it stays gone) and `fire`. `fire` after
/// two `arm`s fails `armed-fire`. Deleting a `disconnect` before the arms makes `fire`'s draw
/// pick `disconnect`: the deletion needs `fire` re-aimed one higher. Minimum: launch, arm, arm,
/// fire (4 actions).
struct ArmedFireTarget: CampaignTarget {
    func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
        choices.markAction(firstDraw: 0, stopDraw: 0)  // the launch
        var connected = true
        var arms = 0
        var failures: [Violation] = []
        var trace: [TraceLine] = [TraceLine(time: .zero, name: "launch", fields: [])]
        for step in 0..<60 where failures.isEmpty {
            let stopDraw = choices.drawCount
            guard choices.bool(probability: 0.95) else { break }
            let firstDraw = choices.drawCount
            let names = connected ? ["arm", "disconnect", "fire"] : ["arm", "fire"]
            guard let index = choices.optionalIndex(weights: connected ? [3, 2, 1] : [3, 1]) else {
                choices.markIdleStep(stopDraw: stopDraw)
                continue
            }
            choices.markAction(firstDraw: firstDraw, stopDraw: stopDraw, skippable: true)
            switch names[index] {
            case "arm": arms += 1
            case "disconnect": connected = false
            default:
                if arms >= 2 { failures.append(Violation(invariant: "armed-fire", message: "fired armed", time: .zero)) }
            }
            trace.append(TraceLine(time: .seconds(Int64(step + 1)), name: names[index], fields: []))
        }
        return RunVerdict(toyTrace: trace, failures: failures, simulatedTime: .zero, keepTrace: keepTrace)
    }
}

/// A toy app whose failure waits for a deadline behind forced actions, like a BGProcessingTask
/// on power: each step draws whether to go on, a gap of 0 to 90 s, then an action. Before
/// `charge`: `charge` or `noise`. After it, only `toggle` is possible (forced: no draw, so it
/// cannot be skipped in place) until 120 s after the charge, then `toggle` or `fire`; `fire`
/// fails `due-fired`. Minimum: launch, charge, toggle, fire (4 actions: 120 s need two gaps).
/// The gap's draw is its length in seconds, so the gaps of folded steps add up exactly.
struct ChargedDueTarget: CampaignTarget {
    func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
        choices.markAction(firstDraw: 0, stopDraw: 0)  // the launch
        var seconds: Int64 = 0
        var chargedAt: Int64?
        var failures: [Violation] = []
        var trace: [TraceLine] = [TraceLine(time: .zero, name: "launch", fields: [])]
        for _ in 0..<200 where failures.isEmpty {
            let stopDraw = choices.drawCount
            guard choices.bool(probability: 0.99) else { break }
            seconds += Int64(choices.int(in: 0...90))
            let firstDraw = choices.drawCount
            let names: [String]
            let weights: [UInt64]
            if let chargedAt {
                (names, weights) = seconds - chargedAt >= 120 ? (["toggle", "fire"], [4, 1]) : (["toggle"], [1])
            } else {
                (names, weights) = (["charge", "noise"], [1, 2])
            }
            guard let index = choices.optionalIndex(weights: weights) else {
                choices.markIdleStep(stopDraw: stopDraw)
                continue
            }
            choices.markAction(firstDraw: firstDraw, stopDraw: stopDraw, skippable: weights.count > 1)
            switch names[index] {
            case "charge": chargedAt = seconds
            case "fire": failures.append(Violation(invariant: "due-fired", message: "fired", time: .seconds(seconds)))
            default: break
            }
            trace.append(TraceLine(time: .seconds(seconds), name: names[index], fields: []))
        }
        return RunVerdict(toyTrace: trace, failures: failures, simulatedTime: .seconds(seconds), keepTrace: keepTrace)
    }
}

@Suite("Shrinking runs of actions")
struct RunShrinkingTests {
    static func keeps(_ invariant: String) -> (RunVerdict) -> Bool {
        { verdict in verdict.failures.contains { $0.invariant == invariant } }
    }

    /// The first `count` failing recordings from seed 1 on whose trace `qualifies`.
    static func recordings(_ target: some CampaignTarget, _ invariant: String, count: Int,
                           where qualifies: ([String]) -> Bool) -> [ChoiceSequence] {
        var found: [ChoiceSequence] = []
        var seed: UInt64 = 1
        while found.count < count {
            let source = ChoiceSource(seed: Seed(seed))
            let verdict = target.run(choices: source, keepTrace: true)
            if keeps(invariant)(verdict), qualifies(verdict.trace.map(\.name)) { found.append(source.recorded) }
            seed += 1
        }
        return found
    }

    @Test("deleting a disconnect re-aims the fire after it: launch, arm, arm, fire (deleteReaiming)")
    func reaimsAfterADeletion() {
        // Runs that disconnect before their second arm: the disconnect shifts fire's index.
        let originals = Self.recordings(ArmedFireTarget(), "armed-fire", count: 3) { trace in
            guard let cut = trace.firstIndex(of: "disconnect") else { return false }
            return trace[cut...].filter { $0 == "arm" }.count >= 2
        }
        for original in originals {
            let result = Shrinker.shrink(original, target: ArmedFireTarget(), keeps: Self.keeps("armed-fire"))
            let verdict = ArmedFireTarget().run(choices: ChoiceSource(replaying: result.choices), keepTrace: true)
            #expect(verdict.trace.map(\.name) == ["launch", "arm", "arm", "fire"], "\(original.token) -> \(result.choices.token)")
        }
    }

    @Test("forced toggles that only let time pass go, their time folded into one gap (foldTime in deleteRuns)")
    func foldsTheTimeOfForcedActions() {
        // Runs with at least three forced toggles between the charge and the fire.
        let originals = Self.recordings(ChargedDueTarget(), "due-fired", count: 3) { trace in
            trace.filter { $0 == "toggle" }.count >= 3
        }
        for original in originals {
            let result = Shrinker.shrink(original, target: ChargedDueTarget(), keeps: Self.keeps("due-fired"))
            let verdict = ChargedDueTarget().run(choices: ChoiceSource(replaying: result.choices), keepTrace: true)
            #expect(verdict.trace.map(\.name) == ["launch", "charge", "toggle", "fire"],
                    "\(original.token) -> \(result.choices.token)")
        }
    }
}
