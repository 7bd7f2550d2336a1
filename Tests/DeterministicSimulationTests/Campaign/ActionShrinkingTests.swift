import DeterministicSimulation
import Testing

/// A toy app driven by marked actions, like the simulator's environment: after the launch, each
/// step draws whether to go on, then an action (`toggle`: home or open, or `noise`) with
/// `optionalIndex`, then a value for the work the action sets off. It fails `two-entries` when
/// it went to the background twice: launch, home, open, home is the minimum (4 actions).
struct EntriesTarget: CampaignTarget {
    func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
        choices.markAction(firstDraw: 0, stopDraw: 0)  // the launch
        var foreground = true
        var entries = 0
        var trace: [TraceLine] = [TraceLine(time: .zero, name: "launch", fields: [])]
        for step in 0..<60 {
            let stopDraw = choices.drawCount
            guard choices.bool(probability: 0.95) else { break }
            let firstDraw = choices.drawCount
            guard let action = choices.optionalIndex(weights: [1, 3]) else { continue }  // skipped
            choices.markAction(firstDraw: firstDraw, stopDraw: stopDraw, skippable: true)
            _ = choices.int(in: 0...9)  // the work the action sets off
            if action == 0 {
                foreground.toggle()
                if !foreground { entries += 1 }
            }
            let name = action == 0 ? (foreground ? "open" : "home") : "noise"
            trace.append(TraceLine(time: .seconds(Int64(step + 1)), name: name, fields: []))
        }
        let failures = entries >= 2 ? [Violation(invariant: "two-entries", message: "entered twice", time: .zero)] : []
        return RunVerdict(toyTrace: trace, failures: failures, simulatedTime: .zero, keepTrace: keepTrace)
    }
}

@Suite("Shrinking actions")
struct ActionShrinkingTests {
    static func keepsTwoEntries(_ verdict: RunVerdict) -> Bool {
        verdict.failures.contains { $0.invariant == "two-entries" }
    }

    static func failingRecording(from start: UInt64) -> ChoiceSequence {
        EntriesTarget().firstFailingRecording(from: start, keeps: keepsTwoEntries)
    }

    @Test("a failure needing two background entries shrinks to launch, home, open, home",
          arguments: [1, 50, 900] as [UInt64])
    func shrinksToTheMinimumActions(seed: UInt64) {
        let original = Self.failingRecording(from: seed)
        let result = Shrinker.shrink(original, target: EntriesTarget(), keeps: Self.keepsTwoEntries)
        #expect(result.actionCount == 4, "seed \(seed): \(result.choices.values)")
        let replay = ChoiceSource(replaying: result.choices)
        let verdict = EntriesTarget().run(choices: replay, keepTrace: true)
        #expect(Self.keepsTwoEntries(verdict))
        #expect(verdict.trace.map(\.name) == ["launch", "home", "open", "home"], "seed \(seed)")
        #expect(replay.actions.count == 4)
        #expect(replay.fallbackCount == 0, "the result replays exactly")
    }

    @Test("the action passes count their attempts, and shrinking marks nothing in random runs")
    func actionPassesAreCounted() {
        let original = Self.failingRecording(from: 7)
        let result = Shrinker.shrink(original, target: EntriesTarget(), keeps: Self.keepsTwoEntries)
        let names = ["endEarlier", "startLater", "deleteActions", "replaceLastAction", "zeroActions"]
        let actionPasses = result.passes.filter { names.contains($0.name) }
        #expect(actionPasses.count == 5)
        #expect(actionPasses.reduce(0) { $0 + $1.accepted } > 0)
        #expect(result.passes.reduce(0) { $0 + $1.attempts } == result.attempts)
    }
}

@Suite("Skippable draws")
struct OptionalIndexTests {
    @Test("a replayed value past the weights skips the draw and is recorded as weights.count")
    func skip() {
        let source = ChoiceSource(replaying: ChoiceSequence([7, 1]))
        #expect(source.optionalIndex(weights: [1, 1, 1]) == nil)
        #expect(source.optionalIndex(weights: [1, 1, 1]) == 1)
        #expect(source.recorded.values == [3, 1])
        let again = ChoiceSource(replaying: source.recorded)
        #expect(again.optionalIndex(weights: [1, 1, 1]) == nil)
        #expect(again.optionalIndex(weights: [1, 1, 1]) == 1)
        #expect(again.recorded == source.recorded)
        #expect(again.fallbackCount == 0, "a skip is a choice, not a fallback")
    }

    @Test("random draws never skip and draw as index(weights:) does; a draw past the end falls back")
    func randomAndExhausted() {
        let a = ChoiceSource(seed: Seed(42))
        let b = ChoiceSource(seed: Seed(42))
        for _ in 0..<1_000 { #expect(a.optionalIndex(weights: [5, 0, 2, 9]) == b.index(weights: [5, 0, 2, 9])) }
        let exhausted = ChoiceSource(replaying: ChoiceSequence())
        #expect(exhausted.optionalIndex(weights: [0, 3, 1]) == 1)
        #expect(exhausted.fallbackCount == 1)
    }

    @Test("marked actions are listed in order with their positions, in replay mode only")
    func marks() {
        let random = ChoiceSource(seed: Seed(1))
        random.markAction(firstDraw: 0, stopDraw: 0)
        #expect(random.actions.isEmpty, "random runs skip the bookkeeping")
        let source = ChoiceSource(replaying: ChoiceSequence([1, 1]))
        source.markAction(firstDraw: 0, stopDraw: 0)
        let stop = source.drawCount
        _ = source.bool(probability: 0.5)
        let first = source.drawCount
        _ = source.optionalIndex(weights: [1, 1])
        source.markAction(firstDraw: first, stopDraw: stop, skippable: true)
        #expect(source.actions.map(\.firstDraw) == [0, 1])
        #expect(source.actions.map(\.stopDraw) == [0, 0])
        #expect(source.actions.map(\.isSkippable) == [false, true])
        #expect(source.actions.map(\.choice) == [nil, nil], "no choice unless the caller gives one")
    }

    @Test("a marked action keeps its choice in replays only; the choice re-aims at the same outcome elsewhere")
    func choices() {
        // Outcomes numbered by the caller: home 0, lock 1, open 2, networkDown 3.
        let onScreen = [0, 1, 3]
        let offScreen = [2, 3]
        let random = ChoiceSource(seed: Seed(1))
        random.markAction(firstDraw: 0, stopDraw: 0, skippable: true, choice: ActionChoice(outcome: 3, possible: offScreen))
        #expect(random.actions.isEmpty)
        let source = ChoiceSource(replaying: ChoiceSequence([1]))
        let index = source.optionalIndex(weights: [1, 1])!
        let drawn = ActionChoice(outcome: offScreen[index], possible: offScreen)
        source.markAction(firstDraw: 0, stopDraw: 0, skippable: true, choice: drawn)
        #expect(source.actions.first?.choice == drawn)
        #expect(drawn.outcome == 3)
        // The same networkDown drawn on screen is index 2 there; off screen it was index 1.
        #expect(ActionChoice(outcome: 0, possible: onScreen).value(choosing: drawn.outcome) == 2)
        #expect(drawn.value(choosing: drawn.outcome) == 1)
        // `open` is not possible on screen.
        #expect(ActionChoice(outcome: 0, possible: onScreen).value(choosing: 2) == nil)
    }
}
