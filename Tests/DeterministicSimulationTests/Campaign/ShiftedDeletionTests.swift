import DeterministicSimulation
import Testing

/// A toy app whose first process draws in another order than a relaunched one, like the
/// simulator's track backup. Each step draws whether to go on, a gap (two draws, as the
/// simulator's decade and offset), then an action among those possible: on screen `home` or
/// `toggle`, in the background `kill` or `toggle`. `home` starts an upload whose draw (0 to 3)
/// says how long it lasts; a relaunched process first draws a thread's start (one draw more) and
/// then the upload. `kill` ends the process and relaunches it on screen (one draw: the launch's
/// options). Three `toggle`s during an upload that lasts 2 or more fail `gave-up-with-task`.
/// Minimum: launch, home, toggle, toggle, toggle (5 actions).
struct RelaunchOrderTarget: CampaignTarget {
    func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
        choices.markAction(firstDraw: 0, stopDraw: 0)  // the launch
        var relaunched = false
        var inBackground = false
        var uploadLasts: Int?
        var toggles = 0
        var failures: [Violation] = []
        var trace: [TraceLine] = [TraceLine(time: .zero, name: "launch", fields: [])]
        for step in 0..<60 where failures.isEmpty {
            let stopDraw = choices.drawCount
            guard choices.bool(probability: 0.95) else { break }
            _ = choices.int(in: 0...3)   // the gap's decade
            _ = choices.int(in: 0...9)   // and its offset
            let firstDraw = choices.drawCount
            let names = inBackground ? ["kill", "toggle"] : ["home", "toggle"]
            guard let index = choices.optionalIndex(weights: inBackground ? [1, 3] : [2, 3]) else {
                choices.markIdleStep(stopDraw: stopDraw)
                continue
            }
            choices.markAction(firstDraw: firstDraw, stopDraw: stopDraw, skippable: true)
            switch names[index] {
            case "home":
                if relaunched { _ = choices.int(in: 0...1) }  // a thread started lazily in a relaunched process
                uploadLasts = choices.int(in: 0...3)
                toggles = 0
                inBackground = true
            case "kill":
                _ = choices.int(in: 0...2)  // the relaunch's options
                relaunched = true
                inBackground = false
                uploadLasts = nil
            default:
                toggles += 1
                if let lasts = uploadLasts, lasts >= 2, toggles >= 3 {
                    failures.append(Violation(invariant: "gave-up-with-task", message: "gave up", time: .zero))
                }
            }
            trace.append(TraceLine(time: .seconds(Int64(step + 1)), name: names[index], fields: []))
        }
        return RunVerdict(toyTrace: trace, failures: failures, simulatedTime: .zero, keepTrace: keepTrace)
    }
}

@Suite("Shrinking across a relaunch (deleteShifted)")
struct ShiftedDeletionTests {
    static func keeps(_ verdict: RunVerdict) -> Bool { verdict.failures.contains { $0.invariant == "gave-up-with-task" } }

    /// launch, home (its upload lasts 0: it succeeds), kill, home (a thread, then an upload of 3),
    /// toggle ×3: every go-on 1, every gap 0.
    static let relaunched = ChoiceSequence([
        1, 0, 0, 0, 0,        // go on, gap, home; its upload lasts 0
        1, 0, 0, 0, 1,        // go on, gap, kill; the relaunch's options
        1, 0, 0, 0, 1, 3,     // go on, gap, home; the thread, then an upload of 3
        1, 0, 0, 1,           // toggle
        1, 0, 0, 1,           // toggle
        1, 0, 0, 1,           // toggle: gave up with the task held
    ])

    @Test("a run deleted whole loses the failure: the relaunched home's draws land on other decisions")
    func wholeDeletionLosesTheFailure() {
        let target = RelaunchOrderTarget()
        #expect(Self.keeps(target.run(choices: ChoiceSource(replaying: Self.relaunched), keepTrace: false)))
        // Deleting home and kill with every draw they own (from home's choice to the second home's).
        var whole = Self.relaunched.values
        whole.removeSubrange(3..<13)
        #expect(!Self.keeps(target.run(choices: ChoiceSource(replaying: ChoiceSequence(whole)), keepTrace: false)))
    }

    @Test("the run between two homes goes, its block shifted past the homes' choices: launch, home, toggle ×3")
    func deletesAcrossTheRelaunch() {
        let target = RelaunchOrderTarget()
        let result = Shrinker.shrink(Self.relaunched, target: target, keeps: Self.keeps(_:))
        let verdict = target.run(choices: ChoiceSource(replaying: result.choices), keepTrace: true)
        #expect(verdict.trace.map(\.name) == ["launch", "home", "toggle", "toggle", "toggle"],
                "\(Self.relaunched.token) -> \(result.choices.token)")
        let shifted = result.passes.first { $0.name == "deleteShifted" }
        #expect((shifted?.accepted ?? 0) >= 1, "deleteShifted made the deletion: \(result.passes)")
    }

    @Test("found at random, the relaunch shrinks away: launch, home, toggle ×3")
    func shrinksRandomRelaunches() {
        var found = 0
        var seed: UInt64 = 1
        while found < 3, seed < 5_000 {
            let source = ChoiceSource(seed: Seed(seed))
            let verdict = RelaunchOrderTarget().run(choices: source, keepTrace: true)
            seed += 1
            // Runs whose failing upload started in a relaunched process.
            guard Self.keeps(verdict), verdict.trace.contains(where: { $0.name == "kill" }) else { continue }
            found += 1
            let result = Shrinker.shrink(source.recorded, target: RelaunchOrderTarget(), keeps: Self.keeps(_:))
            let shrunk = RelaunchOrderTarget().run(choices: ChoiceSource(replaying: result.choices), keepTrace: true)
            #expect(shrunk.trace.map(\.name) == ["launch", "home", "toggle", "toggle", "toggle"],
                    "seed: \(seed - 1): \(source.recorded.token) -> \(result.choices.token)")
        }
        #expect(found == 3)
    }
}
