public import DeterministicSimulation

/// The environment of one swarm run: which of the scenario's actions (user actions and faults:
/// network loss, early expiry, jetsam, BGTask expiry, ...) are enabled and at what weight, and
/// whether its actions come in quick bursts, all drawn from the run's own choices before
/// anything else.
///
/// ```swift
/// let choices = ChoiceSource(seed: runSeed)
/// let swarm = SwarmEnvironment.draw(for: spec, choices: choices)
/// print(swarm.environment.weights[.open])   // 0 in half the runs: the app is never reopened
/// ```
///
/// Swarm testing (Groce et al., ISSTA 2012) trades the one fixed mix, under which every action
/// competes with every other in every run, for many mixes: a bug that needs the app to stay in
/// the background through several BGTask launches is nearly unreachable while `open` always has
/// weight 1, and found at once in the runs where `open` is off.
///
/// Contract: one draw per action with a non-zero weight in the scenario, in declaration order,
/// then one for the pace; each draw's 0 outcome keeps the scenario's setting, so a shrinker that
/// zeroes them moves towards the scenario's own run. An action the scenario disabled (weight 0)
/// stays disabled. A quick-paced run draws its gaps from at most 2 s and has its horizon
/// shortened by the same factor as the mean gap, so it takes about as many actions as a
/// random run (the default mix keeps random's throughput). Nothing else of the spec changes.
/// The mix's draws are marked as one ``ChoiceSpan/Kind/swarmMix`` span (a replayed run's
/// ``ChoiceSource/spans``), which the shrinker's `undoSwarm` pass zeroes or deletes at once.
public enum SwarmEnvironment {
    /// The weight levels an action's draw selects: the scenario's weight (nil), off (three
    /// times: each action is off in half the runs, the rate Groce et al. found best), as
    /// common as `open`, dominant.
    static let weightLevels: [Double?] = [nil, 0, 0, 0, 1, 4]
    /// The longest gap of a quick-paced run.
    static let quickGapLimit = VirtualDuration.seconds(2)

    /// Draws the run spec of one swarm run from `choices`.
    public static func draw(for spec: RunSpec, choices: ChoiceSource) -> RunSpec {
        var swarm = spec
        let firstDraw = choices.drawCount
        // Marked whatever the pace decides: the span is every draw of the mix (a shrinker undoes it at once).
        defer { choices.markSpan(.swarmMix, from: firstDraw) }
        for action in EnvironmentAction.allCases where spec.environment.weights[action] > 0 {
            if let weight = weightLevels[choices.int(in: 0...(weightLevels.count - 1))] {
                swarm.environment.weights[action] = weight
            }
        }
        let gaps = spec.environment.gaps
        if choices.bool(probability: 1.0 / 3), gaps.upperBound > quickGapLimit, gaps.lowerBound < quickGapLimit {
            let quick = gaps.lowerBound...quickGapLimit
            let factor = ChoiceSource.meanDurationMicroseconds(in: quick) / ChoiceSource.meanDurationMicroseconds(in: gaps)
            swarm.environment.gaps = quick
            swarm.horizon = VirtualTime(microseconds: max(1, Int64((Double(spec.horizon.microseconds) * factor).rounded())))
        }
        return swarm
    }
}

extension ExplorationStrategy {
    /// The spec a run of this strategy runs: `spec` for a random run, a drawn one for a swarm
    /// run (``SwarmEnvironment``); a `default` run first draws which it is.
    ///
    /// ```swift
    /// let runSpec = ExplorationStrategy.default.spec(for: scenario.runSpec, choices: choices)
    /// ```
    ///
    /// Contract: draws what the strategy's type says a run draws first
    /// (``CampaignExploration/firstDraws``): nothing for `random` and `exhaustive` (whose spec is
    /// ``ExhaustiveEnvironment``'s); for `default` and `coverage`, one coin (`false`, the
    /// simplest, is a random run) with ``defaultSwarmShare``, then the swarm draws if it came up
    /// swarm. The coin and the swarm draws are marked as spans (``ChoiceSpan/Kind/strategyCoin``,
    /// ``ChoiceSpan/Kind/swarmMix``) for the shrinker; marking changes no draw.
    public func spec(for spec: RunSpec, choices: ChoiceSource) -> RunSpec {
        switch exploration.firstDraws {
        case .nothing: return spec
        case .swarmMix: return SwarmEnvironment.draw(for: spec, choices: choices)
        case .swarmCoin(let swarmShare):
            let coinDraw = choices.drawCount
            let swarms = choices.bool(probability: swarmShare)
            choices.markSpan(.strategyCoin, from: coinDraw)
            guard swarms else { return spec }
            return SwarmEnvironment.draw(for: spec, choices: choices)
        case .exhaustiveEnvironment: return ExhaustiveEnvironment.spec(for: spec)
        }
    }
}
