import DeterministicSimulation
import Testing

/// A toy app whose failure needs time to pass, like a `BGTask` that is due only 15 minutes after
/// its submit while the environment's gaps are at most 90 s: after the launch each step draws
/// whether to go on, a gap of 1 to 90 s, then an action (`toggle`: home or open, `noise`, or
/// `fire`). `fire` while the app is away and at least 900 s after the launch fails `due-fired`.
/// A skipped step is marked idle. The minimum is launch, home, fire (3 actions): the 900 s pass
/// in idle steps.
struct DueTarget: CampaignTarget {
    func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
        choices.markAction(firstDraw: 0, stopDraw: 0)  // the launch
        var away = false
        var seconds: Int64 = 0
        var failures: [Violation] = []
        var trace: [TraceLine] = [TraceLine(time: .zero, name: "launch", fields: [])]
        for _ in 0..<200 {
            let stopDraw = choices.drawCount
            guard choices.bool(probability: 0.99) else { break }
            seconds += Int64(choices.int(in: 1...90))
            let firstDraw = choices.drawCount
            guard let action = choices.optionalIndex(weights: [3, 3, 1]) else {
                choices.markIdleStep(stopDraw: stopDraw)
                continue
            }
            choices.markAction(firstDraw: firstDraw, stopDraw: stopDraw, skippable: true)
            switch action {
            case 0: away.toggle()
            case 2 where away && seconds >= 900:
                failures.append(Violation(invariant: "due-fired", message: "fired at \(seconds) s", time: .seconds(seconds)))
            default: break
            }
            let name = action == 0 ? (away ? "home" : "open") : action == 1 ? "noise" : "fire"
            trace.append(TraceLine(time: .seconds(seconds), name: name, fields: []))
            if !failures.isEmpty { break }
        }
        return RunVerdict(toyTrace: trace, failures: failures, simulatedTime: .seconds(seconds), keepTrace: keepTrace)
    }
}

@Suite("Shrinking a failure that needs time to pass")
struct IdleStepShrinkingTests {
    static func keepsDue(_ verdict: RunVerdict) -> Bool {
        verdict.failures.contains { $0.invariant == "due-fired" }
    }

    @Test("skipping every action but home and fire keeps the 900 s in idle steps: launch, home, fire",
          arguments: [1, 77, 4_000] as [UInt64])
    func shrinksToThreeActions(seed: UInt64) {
        let original = DueTarget().firstFailingRecording(from: seed, keeps: Self.keepsDue)
        let originalActions = ChoiceSource(replaying: original)
        _ = DueTarget().run(choices: originalActions, keepTrace: false)
        #expect(originalActions.actions.count > 11, "seed \(seed): a random run needs at least 11 actions")
        let result = Shrinker.shrink(original, target: DueTarget(), keeps: Self.keepsDue)
        #expect(result.actionCount == 3, "seed \(seed): \(result.choices.token)")
        let replay = ChoiceSource(replaying: result.choices)
        let verdict = DueTarget().run(choices: replay, keepTrace: true)
        #expect(Self.keepsDue(verdict))
        #expect(verdict.trace.map(\.name) == ["launch", "home", "fire"], "seed \(seed)")
        #expect(!replay.idleSteps.isEmpty, "the time passes in idle steps")
        #expect(result.passes.first { $0.name == "skipAllBut" }.map { $0.accepted > 0 } == true)
    }

    @Test("idle steps are marked in replay mode only, in draw order")
    func idleMarks() {
        let random = ChoiceSource(seed: Seed(3))
        random.markIdleStep(stopDraw: 0)
        #expect(random.idleSteps.isEmpty)
        let source = ChoiceSource(replaying: ChoiceSequence([1, 40, 9]))
        _ = source.bool(probability: 0.5)
        _ = source.int(in: 1...90)
        #expect(source.optionalIndex(weights: [1, 1, 1]) == nil)
        source.markIdleStep(stopDraw: 0)
        #expect(source.idleSteps == [0..<3])
        #expect(source.actions.isEmpty, "an idle step is not an action")
    }
}

extension CampaignTarget {
    /// The recording of the first random run from seed `start` on (counting up) that `keeps`.
    func firstFailingRecording(from start: UInt64, keeps: (RunVerdict) -> Bool) -> ChoiceSequence {
        var seed = start
        while true {
            let source = ChoiceSource(seed: Seed(seed))
            if keeps(run(choices: source, keepTrace: false)) { return source.recorded }
            seed += 1
        }
    }
}

extension RunVerdict {
    /// A toy target's verdict: one event per trace line, the digest over the lines' name lengths.
    init(toyTrace trace: [TraceLine], failures: [Violation], simulatedTime: VirtualTime, keepTrace: Bool) {
        var hasher = StableHasher()
        for line in trace { hasher.combine(UInt64(line.name.utf8.count)) }
        self.init(digest: TraceDigest(hasher.finalize()), eventCount: trace.count, simulatedTime: simulatedTime,
                  failures: failures, trace: keepTrace ? trace : [])
    }
}
