public import DeterministicSimulation
import Synchronization

/// How a scenario's runs interleave the app's threads (controlled concurrency): on or off, the
/// strategy, the preemption rates and the delays a preempted thread may be kept off the CPU.
///
/// ```swift
/// var environment = EnvironmentConfig()
/// environment.concurrency.strategy = .pct          // every run uses PCT
/// environment.concurrency = .off                   // one thread, jobs run to completion
/// ```
///
/// Contract: with ``enabled`` (the default) every run gives the main thread, each serial queue
/// and each slot of the global queue a simulated thread, preemptible at every host call; each run
/// draws its own ``ConcurrencyConfiguration`` from its choices (``configuration(drawingFrom:)``),
/// so a campaign varies the strategy and rate across runs (swarm testing) and a seed replays
/// exactly. With ``enabled`` false nothing is drawn and runs are as before controlled
/// concurrency existed (same digests).
public struct ConcurrencySettings: Sendable, Equatable {
    /// Which strategy runs use.
    public enum Strategy: String, CaseIterable, Sendable {
        /// Random walk: preempt at a drawn rate, pick the next runner uniformly.
        case randomWalk = "random-walk"
        /// PCT: random thread priorities and drawn priority change points.
        case pct
        /// Each run draws one: random walk in three runs of four, PCT in one.
        case swarm

        /// One line for `bgsim list`.
        public var summary: String {
            switch self {
            case .randomWalk:
                "at each host call, preempt with the run's rate (drawn from preemptionRate); the next thread "
                    + "is uniform among the runnable ones; a preempted background thread may stay off the CPU "
                    + "for up to maxDelaySeconds"
            case .pct:
                "probabilistic concurrency testing (Burckhardt et al. 2010): random thread priorities, "
                    + "depth-1 priority change points among pctStepBound points; finds a depth-d bug with "
                    + "probability at least 1/(n k^(d-1)) per run"
            case .swarm:
                "the default: each run draws random-walk (3 in 4) or pct (1 in 4) and its rate or depth, "
                    + "so a campaign has runs that barely preempt and runs that preempt often"
            }
        }
    }

    /// Whether runs have simulated threads at all.
    public var enabled: Bool
    /// The strategy, or ``Strategy/swarm`` to draw one per run.
    public var strategy: Strategy
    /// Random walk: each run draws its preemption rate from the steps of ``rateLadder`` that lie
    /// in this range (a single value: that rate, nothing drawn).
    public var preemptionRates: ClosedRange<Double>
    /// PCT: each run draws its depth (bug depth covered) from this range.
    public var pctDepths: ClosedRange<Int>
    /// PCT: about how many scheduling points a run has (the change points are drawn among them).
    public var pctStepBound: Int
    /// The longest time a preempted thread is kept off the CPU (log-uniform by decade).
    public var maxDelay: VirtualDuration
    /// The probability that a preemption also keeps the thread off the CPU.
    public var delayProbability: Double

    public init(
        enabled: Bool = true, strategy: Strategy = .swarm, preemptionRates: ClosedRange<Double> = 0.002...0.2,
        pctDepths: ClosedRange<Int> = 1...3, pctStepBound: Int = 1_000, maxDelay: VirtualDuration = .milliseconds(100),
        delayProbability: Double = 0.5
    ) {
        self.enabled = enabled
        self.strategy = strategy
        self.preemptionRates = preemptionRates
        self.pctDepths = pctDepths
        self.pctStepBound = pctStepBound
        self.maxDelay = maxDelay
        self.delayProbability = delayProbability
    }

    /// One thread, every job runs to completion: the model before controlled concurrency.
    public static let off = ConcurrencySettings(enabled: false)

    /// The preemption rates a random-walk run may draw: 1, 2 and 5 per decade, so that some runs
    /// barely preempt and others preempt often (drawn by index: no platform math).
    public static let rateLadder: [Double] = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1]

    /// This run's configuration, drawn from `choices`; nil (drawing nothing) when not ``enabled``.
    ///
    /// ```swift
    /// if let configuration = settings.configuration(drawingFrom: device.choices) { ... }
    /// ```
    public func configuration(drawingFrom choices: ChoiceSource) -> ConcurrencyConfiguration? {
        guard enabled else { return nil }
        let usesPCT: Bool
        switch strategy {
        case .randomWalk: usesPCT = false
        case .pct: usesPCT = true
        case .swarm: usesPCT = choices.index(weights: [3, 1]) == 1
        }
        if usesPCT {
            let depth = choices.int(in: pctDepths)
            return .pct(depth: depth, stepBound: pctStepBound, maxDelay: maxDelay, delayProbability: delayProbability)
        }
        return .randomWalk(preemptionRate: drawRate(choices), maxDelay: maxDelay, delayProbability: delayProbability)
    }

    /// A rate from the ladder inside ``preemptionRates``, or the range's bound when it is one value
    /// or holds no step of the ladder.
    private func drawRate(_ choices: ChoiceSource) -> Double {
        if preemptionRates.lowerBound == preemptionRates.upperBound { return preemptionRates.lowerBound }
        let steps = Self.rateLadder.filter { preemptionRates.contains($0) }
        guard !steps.isEmpty else { return preemptionRates.upperBound }
        return steps[choices.int(in: 0...(steps.count - 1))]
    }
}

extension ConcurrencyConfiguration {
    /// A short description for traces: `random-walk rate 0.05, delays up to 10s (p 0.5)`.
    ///
    /// Every threaded run emits it, and formatting its numbers costs about 6,000 instructions
    /// (more than a short run's events), so each configuration's text is made once per process
    /// and looked up after (a run draws one of a few configurations: the rate ladder, the PCT
    /// depths). Looked up, never iterated: no hash order reaches a run.
    var traceDescription: String {
        if let known = Self.descriptions.withLock({ $0[self] }) { return known }
        let delays = maxDelay > .zero ? ", delays up to \(maxDelay) (p \(delayProbability))" : ""
        let text = switch strategy {
        case .randomWalk: "random-walk rate \(preemptionRate)\(delays)"
        case .pct(let depth, let stepBound): "pct depth \(depth) of \(stepBound) points\(delays)"
        }
        Self.descriptions.withLock { known in
            if known.count < Self.maxRememberedDescriptions { known[self] = text }
        }
        return text
    }

    /// The texts made so far, by configuration (at most ``maxRememberedDescriptions``).
    private static let descriptions = Mutex<[ConcurrencyConfiguration: String]>([:])
    private static let maxRememberedDescriptions = 1_024
}
