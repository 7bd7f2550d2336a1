import DeterministicSimulation

/// The run spec of a bounded exhaustive search's runs (`--strategy exhaustive`): the scenario's
/// own, with the simulated threads on the random walk (never PCT) at one fixed rate, so that no
/// draw picks the interleaving strategy and every scheduling point is a choice the search
/// enumerates.
///
/// ```swift
/// let spec = ExhaustiveEnvironment.spec(for: scenario.runSpec)
/// ```
///
/// What the search enumerates and what it fixes is decided at the draw sites, not here: past
/// its replayed prefix every draw of an exhaustive run takes its canonical value (the simplest
/// outcome, 0: the shortest gap, the shortest work duration, no fault, no preemption delay, a
/// workload's lowest `drawInt`), except the preemption gap, which is 1 (every scheduling point
/// is a point where the search may switch threads). Branch points are the environment's go-on
/// draw (stop, or one more action: costs 1 of the depth), its choice of action (free: paid by
/// the go-on), and every scheduling choice among runnable threads and ready jobs (the first,
/// no preemption, is free; any other costs 1). See the ExplorationStrategies article.
///
/// Contract: draws nothing; a run of this spec replays from its recorded choices in a new
/// process like any run (`bgsim replay --choices … --strategy exhaustive`, or a scenario whose
/// `campaign.strategy` is `exhaustive`).
public enum ExhaustiveEnvironment {
    public static func spec(for spec: RunSpec) -> RunSpec {
        var exhaustive = spec
        var concurrency = spec.environment.concurrency
        if concurrency.enabled {
            concurrency.strategy = .randomWalk
            // One rate, so nothing is drawn for it; a scenario that never preempts (rate 0) still never does.
            let rate = concurrency.preemptionRates.upperBound
            concurrency.preemptionRates = rate...rate
            exhaustive.environment.concurrency = concurrency
        }
        return exhaustive
    }
}
