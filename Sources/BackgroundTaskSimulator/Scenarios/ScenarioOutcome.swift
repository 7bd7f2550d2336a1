public import DeterministicSimulation
import Foundation

/// What one scenario campaign gave (``ScenarioCampaign``): the engine's result, the verdict of
/// the scenario's expectation, the saved failures replayed first and those saved after, and
/// each failure's replay recipe as a value. A front end renders the recipes its own way: the
/// command line as `bgsim replay` commands, the Swift API as Swift calls.
///
/// ```swift
/// for failure in outcome.failures {
///     print(failure.record.failure.invariant, failure.replay.source, failure.shrunkReplay.source)
/// }
/// ```
public struct ScenarioOutcome: Sendable {
    public var scenario: Scenario
    public var result: CampaignResult
    public var verdict: ExpectationVerdict
    /// The saved failures replayed before the campaign.
    public var saved: SavedFailureReplay
    /// The failures the campaign saved to the store.
    public var added: [SavedFailure]

    /// Each failure of the campaign with its recipes, in the result's order.
    public var failures: [(record: FailureRecord, replay: ReplayRecipe, shrunkReplay: ReplayRecipe)] {
        result.failures.map { ($0, replay(of: $0), shrunkReplay(of: $0)) }
    }

    /// A failure to show for a missed expectation: its invariant and message, how to replay it
    /// (the original run, or a saved failure's choices) and its shrunk run.
    public struct Example: Sendable {
        public var invariant: String
        public var message: String
        /// Whether it comes from the failure store (replayed first) rather than this campaign's runs.
        public var isSaved: Bool
        public var replay: ReplayRecipe
        public var shrunkReplay: ReplayRecipe
    }

    /// What a missed expectation shows: each saved failure still failing whose invariant no run
    /// of this campaign violated, then the campaign's first `limit` failures.
    public func examples(limit: Int = 3) -> [Example] {
        let saved = self.saved.stillFailing.filter { failure in
            !result.failures.contains { $0.failure.invariant == failure.invariant }
        }.map { failure in
            let recipe = ReplayRecipe.saved(failure, in: scenario)
            return Example(invariant: failure.invariant, message: failure.message, isSaved: true, replay: recipe,
                           shrunkReplay: recipe)
        }
        return saved + result.failures.prefix(limit).map { record in
            Example(invariant: record.failure.invariant, message: record.failure.message, isSaved: false,
                    replay: replay(of: record), shrunkReplay: shrunkReplay(of: record))
        }
    }

    /// The recipe of a failure's original run (``ReplayRecipe/original(of:in:)``).
    public func replay(of failure: FailureRecord) -> ReplayRecipe { .original(of: failure, in: scenario) }

    /// The recipe of a failure's shrunk choices (``ReplayRecipe/shrunk(of:in:)``).
    public func shrunkReplay(of failure: FailureRecord) -> ReplayRecipe { .shrunk(of: failure, in: scenario) }
}

/// How to replay one run of a scenario: by its run seed or by recorded choices, under the
/// scenario's (effective) strategy. A value: each front end spells it (`bgsim replay FILE --seed
/// S`, `campaign.replay(seed: S)`).
///
/// ```swift
/// let recipe = outcome.replay(of: outcome.result.failures[0])
/// if case .seed(let seed) = recipe.source { print("replay seed", seed) }
/// ```
public struct ReplayRecipe: Sendable {
    public enum Source: Sendable, Equatable {
        case seed(Seed)
        case choices(ChoiceSequence)
    }

    /// The scenario, its strategy the run's effective one.
    public var scenario: Scenario
    public var source: Source

    public init(scenario: Scenario, source: Source) {
        self.scenario = scenario
        self.source = source
    }

    /// The run's exploration strategy.
    public var strategy: ExplorationStrategy { scenario.strategy }

    /// The recipe of a failure's original run: its seed, or its choices for an exhaustive
    /// search (whose runs have no seed) and a coverage-guided mutant (which its seed alone does
    /// not reproduce), under the run's effective strategy.
    public static func original(of failure: FailureRecord, in scenario: Scenario) -> ReplayRecipe {
        if scenario.strategy == .exhaustive { return ReplayRecipe(scenario: scenario, source: .choices(failure.choices)) }
        let run = scenario.forRun(failure.runIndex)
        return ReplayRecipe(scenario: run, source: failure.runChoices.map { .choices($0) } ?? .seed(failure.seed))
    }

    /// The recipe of a failure's shrunk choices, under its run's effective strategy; the
    /// original's for a failure with nothing recorded (a hang: its child was stopped before it
    /// could tell its choices, and an empty replay would be another run).
    public static func shrunk(of failure: FailureRecord, in scenario: Scenario) -> ReplayRecipe {
        if failure.shrink == nil, failure.choices.count == 0, failure.originalActionCount == 0 {
            return original(of: failure, in: scenario)
        }
        return ReplayRecipe(scenario: scenario.forRun(failure.runIndex), source: .choices(failure.choices))
    }

    /// The recipe of a saved failure: its choices, under the strategy that saved it.
    public static func saved(_ failure: SavedFailure, in scenario: Scenario) -> ReplayRecipe {
        var run = scenario
        run.strategyOverride = failure.strategy
        return ReplayRecipe(scenario: run, source: .choices(failure.choices))
    }
}

extension ReplayRecipe {
    /// Runs the recipe's run again with its trace (``Scenario/replay(seed:strategy:)``).
    public func run() -> RunOutcome {
        let choices = switch source {
        case .seed(let seed): ChoiceSource(seed: seed)
        case .choices(let sequence): ChoiceSource(replaying: sequence)
        }
        return SimulationRunner.run(scenario.runSpec, choices: choices, keepTrace: true)
    }

    /// The recipe as the Swift call that replays it from the scenario's file, the strategy named
    /// when it is not the one a replay of the file uses by itself.
    ///
    /// ```swift
    /// recipe.swiftCall   // "try ScenarioLoader.load(file: \"Scenarios/p1.json\").replay(seed: 0x80276d8c093bb1e3)"
    /// ```
    public var swiftCall: String {
        let path = scenario.file.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let call = swiftCall(on: "ScenarioLoader.load(file: \"\(path)\")")
        return call.hasPrefix("try ") ? call : "try " + call
    }

    /// The recipe as a call of `replay` on `receiver` (a ``Scenario`` or a ``WorkloadCampaign``),
    /// with `try` when the call throws, the strategy named only when the call would not use it by
    /// itself: a seed replay takes the strategy its run had from the seed (a `default`
    /// campaign's coin runs, ``Scenario/forRunSeed(_:)``), a choices replay the file's.
    ///
    /// ```swift
    /// recipe.swiftCall(on: "campaign")   // "try campaign.replay(choices: \"c1.AAAAAQ…\", strategy: .swarm)"
    /// ```
    public func swiftCall(on receiver: String) -> String {
        var file = scenario
        file.strategyOverride = nil
        func named(unless implied: ExplorationStrategy) -> String {
            strategy == implied ? "" : ", strategy: .\(strategy)"
        }
        return switch source {
        case .seed(let seed): "\(receiver).replay(seed: \(seed)\(named(unless: file.forRunSeed(seed).runStrategy)))"
        case .choices(let choices):
            "try \(receiver).replay(choices: \"\(choices.token)\"\(named(unless: file.runStrategy)))"
        }
    }
}
