/// How a run interleaves its simulated threads: the strategy and its knobs, passed to
/// ``Scheduler/enableControlledConcurrency(_:pool:)``.
///
/// ```swift
/// let walk = ConcurrencyConfiguration.randomWalk(preemptionRate: 0.05, maxDelay: .milliseconds(50))
/// let pct = ConcurrencyConfiguration.pct(depth: 3, stepBound: 2_000)
/// ```
///
/// Contract:
/// - ``Strategy/randomWalk``: at each scheduling point, with probability ``preemptionRate``,
///   the running thread is preempted: the next runner is drawn uniformly among the preempted
///   thread (outcome 0: no switch), the other runnable threads and the ready jobs. The number of
///   points until the next preemption is drawn once per preemption (geometric with mean
///   `1 / preemptionRate`), so a point that does not preempt draws nothing. With rate 0 nothing
///   is ever drawn for preemption.
/// - ``Strategy/pct``: probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010). Each
///   simulated thread gets a random priority when it first appears; the highest-priority
///   runnable thread always runs, re-checked at every scheduling point; at `depth - 1` change
///   points, step indices drawn uniformly in `1...stepBound`, the running thread drops below all
///   others. A bug of depth `d` among `n` threads and `k` points is found with probability at
///   least `1 / (n k^(d-1))` per run.
/// - Both strategies: at a preemption (random walk) or change point (PCT), the preempted thread
///   is kept off the CPU, with probability ``delayProbability``, for a delay drawn in
///   `1 µs ... maxDelay`, log-uniform by decade, during which virtual time advances and other threads and due jobs run.
public struct ConcurrencyConfiguration: Hashable, Sendable {
    /// How the next runner is chosen.
    public enum Strategy: Hashable, Sendable {
        /// A uniform choice among runnable threads at drawn preemption points.
        case randomWalk
        /// Random priorities with `depth - 1` priority change points among `stepBound` points.
        case pct(depth: Int, stepBound: Int)
    }

    /// How the next runner is chosen.
    public var strategy: Strategy
    /// The probability that a scheduling point preempts (random walk), in `0...1`.
    public var preemptionRate: Double
    /// The longest time a preempted thread is kept off the CPU; zero for none.
    public var maxDelay: VirtualDuration
    /// The probability that a preemption also keeps the thread off the CPU for a while.
    public var delayProbability: Double

    /// A configuration; see the type's contract.
    ///
    /// ```swift
    /// ConcurrencyConfiguration(strategy: .randomWalk, preemptionRate: 0.1,
    ///                          maxDelay: .seconds(1), delayProbability: 0.25)
    /// ```
    public init(
        strategy: Strategy, preemptionRate: Double, maxDelay: VirtualDuration = .zero,
        delayProbability: Double = 0.5
    ) {
        self.strategy = strategy
        self.preemptionRate = preemptionRate
        self.maxDelay = maxDelay
        self.delayProbability = delayProbability
    }

    /// Random walk with the given preemption rate and delays.
    ///
    /// ```swift
    /// scheduler.enableControlledConcurrency(.randomWalk(preemptionRate: 0.05), pool: pool)
    /// ```
    public static func randomWalk(
        preemptionRate: Double, maxDelay: VirtualDuration = .zero, delayProbability: Double = 0.5
    ) -> ConcurrencyConfiguration {
        ConcurrencyConfiguration(
            strategy: .randomWalk, preemptionRate: preemptionRate, maxDelay: maxDelay,
            delayProbability: delayProbability)
    }

    /// PCT of depth `depth` (at least 1) over an expected `stepBound` scheduling points.
    ///
    /// ```swift
    /// scheduler.enableControlledConcurrency(.pct(depth: 2, stepBound: 500), pool: pool)
    /// ```
    public static func pct(
        depth: Int, stepBound: Int, maxDelay: VirtualDuration = .zero, delayProbability: Double = 0.5
    ) -> ConcurrencyConfiguration {
        ConcurrencyConfiguration(
            strategy: .pct(depth: max(1, depth), stepBound: max(1, stepBound)), preemptionRate: 0,
            maxDelay: maxDelay, delayProbability: delayProbability)
    }

    /// Threads and blocking, but no preemption: a job runs until it blocks or ends.
    ///
    /// ```swift
    /// scheduler.enableControlledConcurrency(.blockingOnly, pool: pool)   // draws nothing extra
    /// ```
    public static let blockingOnly = ConcurrencyConfiguration(strategy: .randomWalk, preemptionRate: 0)
}
