import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import Testing

/// Fuzzes the shrinker (issue 32): planted-bug failures from many seeds, and arbitrary choice
/// sequences (a run's recording truncated, extended and mutated) against every scenario. Each
/// shrink must not trap (the test process surviving is the first assertion), and its result must
/// replay to the failure it kept and be no less simple than its input (fewer actions, then a simpler
/// sequence: ``Shrinker/isSimpler(_:actions:than:actions:)``).
///
/// Three sizes, by `BGSIM_SHRINK_FUZZ` (unset: `ci` under `BGSIM_TEST_SIZE=ci`, see ``TestSize``):
/// quick by default (a few cases per scenario, each shrink capped in replays); `ci` (what CI runs,
/// from a release build): 5 failures per planted scenario, each of its environment actions enabled
/// alone once, and 3 mutants per scenario, shrinks capped as in the quick one; `full`: 50 failures per planted scenario plus 2 with each of its
/// environment actions enabled alone, and 40 mutants per scenario, with full shrinks (over an hour
/// in a debug build: run it before a release, or on one scenario with `BGSIM_SHRINK_FUZZ_ONLY`). A
/// trap kills the process before a test can report its case: with `BGSIM_SHRINK_FUZZ` set every
/// case prints its scenario and seed to stderr before it runs (with `swift test --no-parallel` the
/// last line is the case that trapped), and `BGSIM_SHRINK_FUZZ_ONLY=<file>` keeps only the
/// scenarios whose file name contains it.
@Suite struct ShrinkFuzzTests {
    /// The variable's value: `full`, `ci`, `quick` (the quick cases, printed), or nil (quick, silent).
    static let mode = ProcessInfo.processInfo.environment["BGSIM_SHRINK_FUZZ"] ?? (TestSize.isCI ? "ci" : nil)
    static let full = mode == "full"
    static let ci = mode == "ci"

    /// Shrinks of the quick and ci versions stop after this many replays; the full version's do not.
    static let options = full ? ShrinkOptions() : ShrinkOptions(maxAttempts: 100)
    /// A mutant that no longer fails rejects every candidate but one that fails anew: its shrink
    /// still walks the passes over an arbitrary run, for this many replays.
    static let passingOptions = ShrinkOptions(maxAttempts: full ? 300 : 10)
    /// Failing runs shrunk per planted scenario, and campaign runs searched for them, at most.
    static let failuresPerScenario = full ? 50 : ci ? 5 : 1
    static let runsSearched = full ? 2_000 : ci ? 400 : 40
    /// The same for each single-action variant of a planted scenario.
    static let singleActionFailures = full ? 2 : 1
    static let singleActionRuns = full ? 200 : 40
    /// Every action alone (full, ci), or one per scenario in turn (quick).
    static let everyActionAlone = full || ci
    /// Arbitrary sequences shrunk per scenario, and the runs searched for a failing one to edit.
    static let mutantsPerScenario = full ? 40 : ci ? 3 : 1
    static let mutantBaseRuns = full ? 20 : ci ? 5 : 2
    /// `BGSIM_SHRINK_FUZZ_ONLY=text`: only the scenario files whose name contains it (to rerun a case).
    static let only = ProcessInfo.processInfo.environment["BGSIM_SHRINK_FUZZ_ONLY"]

    static func selected(_ files: [String]) -> [String] {
        files.filter { file in only.map { file.contains($0) } ?? true }
    }

    /// The seed every mutant derives from (by scenario name, then case index).
    static let fuzzSeed = Seed(0x5eed_5817_0032)

    static func load(_ file: String) throws -> Scenario {
        var scenario = try ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/" + file)
        // An exhaustive search's runs have no seeds: fuzz its workload with random runs.
        if scenario.strategy == .exhaustive { scenario.strategyOverride = .random }
        return scenario
    }

    static func note(_ line: @autoclosure () -> String) {
        guard mode != nil else { return }
        FileHandle.standardError.write(Data(("shrink fuzz: " + line() + "\n").utf8))
    }

    @Test("planted-bug failures shrink without a trap, still fail their invariant and are no less simple",
          arguments: selected(ShrinkToMinimumTests.planted))
    func plantedFailuresShrink(file: String) throws {
        let scenario = try Self.load(file)
        let enabled = EnvironmentAction.allCases.filter { scenario.environment.weights[$0] > 0 }
        // Issue 32's trap came from forced actions: the scenario with one action enabled alone
        // (every one in the full version; one per scenario, in turn, in the quick one).
        let position = ShrinkToMinimumTests.planted.firstIndex(of: file) ?? 0
        let alone = Self.everyActionAlone || enabled.isEmpty ? enabled : [enabled[position % enabled.count]]
        var variants = [(label: "", scenario: scenario)]
        for action in alone {
            var single = scenario
            var weights = ActionWeights()
            weights[action] = 1
            single.environment.weights = weights
            variants.append((" with only \(action) enabled", single))
        }
        var shrunk = 0
        for (label, variant) in variants {
            // A default campaign's later runs are swarm runs: the quick version takes one of each phase.
            let starts = Self.full ? [0] : [0, ExplorationStrategy.defaultRandomRuns]
            for start in starts where label.isEmpty || start == 0 {
                // The scenario's own first failure comes within ScenarioExpectationTests' runs.
                let runs = !label.isEmpty ? Self.singleActionRuns
                    : start == 0 ? max(Self.runsSearched, ScenarioExpectationTests.runs) : Self.runsSearched
                let count = label.isEmpty ? Self.failuresPerScenario : Self.singleActionFailures
                for failure in Self.failures(of: variant, from: start, runs: runs, count: count) {
                    let target = SimulationTarget(spec: variant.forRun(failure.runIndex).runSpec)
                    let context = "\(file)\(label), run \(failure.runIndex) (seed \(variant.campaign.seed.derive(index: UInt64(failure.runIndex)))), \(failure.invariant)"
                    Self.note(context)
                    Self.checkShrink(failure.choices, target: target, file: file, context: context) { verdict in
                        verdict.failures.contains { $0.invariant == failure.invariant }
                    }
                    shrunk += 1
                }
            }
        }
        // A deep planted bug takes thousands of runs (DeepPlantedBugTests); the others fail early.
        #expect(shrunk >= 1 || scenario.workload.isDeep, "no failing run of \(file) within \(Self.runsSearched) runs")
    }

    @Test("arbitrary choice sequences (truncated, extended, mutated) shrink without a trap against every scenario",
          arguments: selected(ScenarioExpectationTests.files))
    func arbitrarySequencesShrink(file: String) throws {
        let scenario = try Self.load(file).forRun(0)
        let target = SimulationTarget(spec: scenario.runSpec)
        let failsSome: (RunVerdict) -> Bool = { !$0.failures.isEmpty }
        // A failing run's recording when one of the first runs fails, else the first run's.
        let first = ChoiceSource(seed: scenario.campaign.seed.derive(index: 0))
        _ = target.run(choices: first, keepTrace: false)
        let base = Self.failures(of: scenario, from: 0, runs: Self.mutantBaseRuns).first?.choices ?? first.recorded
        for index in 0..<Self.mutantsPerScenario {
            let seed = Self.fuzzSeed.derive(scenario.name).derive(index: UInt64(index))
            let mutant = ChoiceMutation.mutate(base, seed: seed)
            let context = "\(file), mutant seed \(seed): bgsim replay Scenarios/\(file) --choices \(mutant.token)"
            Self.note(context)
            Self.checkShrink(mutant, target: target, file: file, context: context, keeps: failsSome)
        }
    }

    /// Shrinks `input` on `target`, then checks that the result replays exactly to what it kept
    /// (if the input did) and is at least as simple as the input's recording.
    static func checkShrink(_ input: ChoiceSequence, target: SimulationTarget, file: String, context: String,
                            keeps: (RunVerdict) -> Bool) {
        let inputReplay = ChoiceSource(replaying: input)
        let inputKept = keeps(target.run(choices: inputReplay, keepTrace: false))
        let result = Shrinker.shrink(input, target: target, options: inputKept ? options : passingOptions, keeps: keeps)
        let replay = ChoiceSource(replaying: result.choices)
        let verdict = target.run(choices: replay, keepTrace: false)
        let rerun = "\(context) (shrunk: \(result.choices.token)); rerun: BGSIM_SHRINK_FUZZ=\(mode ?? "quick") "
            + "BGSIM_SHRINK_FUZZ_ONLY=\(file) swift test --skip-build --filter ShrinkFuzzTests"
        if inputKept { #expect(keeps(verdict), "the shrunk run no longer fails: \(rerun)") }
        #expect(replay.recorded == result.choices, "the shrunk choices do not replay exactly: \(rerun)")
        #expect(replay.actions.count == result.actionCount, "\(rerun)")
        // In the shrinker's order: fewer actions first, so a result with fewer actions may draw
        // more values (a capped shrink of a swarm run went from 123 actions and 407 values to 3
        // and 456; its full shrink ends at 2 and 16).
        let simpler = Shrinker.isSimpler(inputReplay.recorded, actions: inputReplay.actions.count,
                                         than: result.choices, actions: result.actionCount)
        let counts = "\(inputReplay.actions.count) actions, \(inputReplay.recorded.count) values; "
            + "shrunk: \(result.actionCount) actions, \(result.choices.count) values"
        #expect(!simpler, "less simple than the input (\(counts)): \(rerun)")
        #expect(result.actionCount <= inputReplay.actions.count, "more actions than the input: \(rerun)")
    }

    /// Runs of `scenario`'s campaign from run `start` (its seeds, each run's own strategy) that
    /// fail some invariant: at most `count` of them within `runs` runs.
    static func failures(of scenario: Scenario, from start: Int, runs: Int, count: Int = 1)
        -> [(runIndex: Int, choices: ChoiceSequence, invariant: String)] {
        var found: [(runIndex: Int, choices: ChoiceSequence, invariant: String)] = []
        for index in start..<start + runs where found.count < count {
            let source = ChoiceSource(seed: scenario.campaign.seed.derive(index: UInt64(index)))
            let verdict = SimulationTarget(spec: scenario.forRun(index).runSpec).run(choices: source, keepTrace: false)
            if let failure = verdict.failures.first { found.append((index, source.recorded, failure.invariant)) }
        }
        return found
    }
}

/// Edits of a recorded choice sequence, drawn from the project's own PRNG: what a user pastes
/// after `--choices`, or what a shrinker's pass might build, at its most arbitrary.
enum ChoiceMutation {
    /// `sequence` truncated, extended with random values and mutated at random positions (each
    /// edit at random, at least one), all drawn from `seed`.
    ///
    /// ```swift
    /// let mutant = ChoiceMutation.mutate(failing.recorded, seed: Seed(7))
    /// ```
    static func mutate(_ sequence: ChoiceSequence, seed: Seed) -> ChoiceSequence {
        var random = Xoshiro256StarStar(seed: seed.rawValue)
        var values = sequence.values
        let edits = random.next(below: 7) + 1   // a nonempty subset of truncate, extend, mutate
        if edits & 1 != 0, !values.isEmpty {
            values.removeSubrange(Int(random.next(below: UInt64(values.count)))...)
        }
        if edits & 2 != 0 {
            for _ in 0..<random.next(below: 64) + 1 { values.append(value(&random)) }
        }
        if edits & 4 != 0, !values.isEmpty {
            for _ in 0..<random.next(below: 16) + 1 {
                values[Int(random.next(below: UInt64(values.count)))] = value(&random)
            }
        }
        return ChoiceSequence(values)
    }

    /// A value of one of the shapes that matter to draws: 0, 1, small (an index or a count),
    /// past any bound (a skip, a misfit), a duration, the largest.
    static func value(_ random: inout Xoshiro256StarStar) -> UInt64 {
        switch random.next(below: 6) {
        case 0: 0
        case 1: 1
        case 2: random.next(below: 32)
        case 3: random.next(below: 1 << 40)
        case 4: random.next()
        default: .max
        }
    }
}
