public import DeterministicSimulation

extension Scenario {
    /// Reruns one run of this scenario exactly, keeping its trace: what `bgsim replay FILE
    /// --seed S` runs, from Swift (``RunOutcome/traceText`` prints the trace as it does).
    ///
    /// ```swift
    /// let scenario = try ScenarioLoader.load(file: "Scenarios/p1.json")
    /// let outcome = scenario.replay(seed: 0x80276d8c093bb1e3)
    /// print(outcome.traceText)
    /// ```
    ///
    /// - Parameter strategy: the run's exploration strategy, as a report's replay names it (nil:
    ///   the one the campaign ran this run seed under, ``forRunSeed(_:)``, else ``runStrategy``).
    public func replay(seed runSeed: UInt64, strategy: ExplorationStrategy? = nil) -> RunOutcome {
        let scenario = strategy == nil ? forRunSeed(Seed(runSeed)) : replaying(under: strategy)
        return ReplayRecipe(scenario: scenario, source: .seed(Seed(runSeed))).run()
    }

    /// Reruns a recorded (usually shrunk) choice sequence, given as its `c1.` token: `bgsim
    /// replay FILE --choices C` from Swift.
    ///
    /// - Throws: ``ChoiceTokenError`` when the token is not one.
    public func replay(choices token: String, strategy: ExplorationStrategy? = nil) throws(ChoiceTokenError)
        -> RunOutcome {
        ReplayRecipe(scenario: replaying(under: strategy), source: .choices(try ChoiceSequence(token: token))).run()
    }

    private func replaying(under strategy: ExplorationStrategy?) -> Scenario {
        guard let strategy else { return self }
        var run = self
        run.strategyOverride = strategy
        return run
    }
}
