import Synchronization
import ThreadSanitizerSupport

/// Random walk (``ConcurrencyConfiguration/Strategy/randomWalk``): at each scheduling point the
/// running thread is preempted with probability `preemptionRate`, and the next runner is drawn
/// uniformly among the preempted thread (outcome 0: no switch), the other runnable threads and
/// the ready jobs.
///
/// ```swift
/// var walk = RandomWalkPolicy(configuration: .randomWalk(preemptionRate: 0.05))
/// let gap = walk.gap(choices)   // points until the next preemption; 0 = never
/// ```
///
/// Contract: the number of points until the next preemption (the gap) is drawn once per
/// preemption, geometric with mean `1 / preemptionRate`, and the first one lazily at the run's
/// first point; a point that does not preempt draws nothing, and with rate 0 nothing is ever
/// drawn for preemption (``initialCountdown`` is `.max`). A decision with one candidate draws
/// nothing, so a run whose jobs are never suspended draws exactly what the plain scheduler
/// draws. Random draws use only integer arithmetic and IEEE basic operations (no `log`/`pow`
/// from the platform's math library), so a seed means the same run everywhere.
struct RandomWalkPolicy: ThreadSchedulingPolicy {
    /// The largest gap a replayed value may ask for.
    static let gapReplayBound: UInt64 = (1 << 40) + 1
    /// The number of binary digits of a geometric gap (a gap of 2^40 points is "never").
    private static let gapBits = 40

    static var weighsEveryPoint: Bool { false }

    /// `thresholds[i]` is the probability, scaled to 2^53, that binary digit `i` of the
    /// geometric gap is 1. The digits of a geometric variable are independent Bernoulli variables
    /// with P(1) = q^(2^i) / (1 + q^(2^i)) for q = 1 - p; squaring is an IEEE basic operation.
    private let thresholds: [UInt64]
    /// The digits whose threshold is not 0: a draw for a later digit can never be 1, so only
    /// the generator's state is advanced for it (``Xoshiro256StarStar/skip(_:)``). At a rate of
    /// 0.05 that is 10 of the 40, and the other 30 draws were most of a gap's cost.
    private let significantDigits: Int
    private let preemptionRate: Double
    /// Whether the first gap has been drawn (lazily, at the first point).
    private var gapDrawn = false

    init(configuration: ConcurrencyConfiguration) {
        preemptionRate = configuration.preemptionRate
        thresholds = Self.thresholds(forRate: preemptionRate)
        significantDigits = (thresholds.lastIndex { $0 != 0 } ?? -1) + 1
    }

    /// The ``thresholds`` of a rate: worked out once per rate in a process (a run draws one of a
    /// few rates, the ladder's, and 40 rounds of floating-point arithmetic per run cost more
    /// than a short run's events), then looked up; the same numbers either way.
    static func thresholds(forRate rate: Double) -> [UInt64] {
        guard rate > 0, rate < 1 else { return [] }
        if let known = knownThresholds.withAnnotatedLock({ $0[rate.bitPattern] }) { return known }
        var thresholds: [UInt64] = []
        var power = 1 - rate  // q^(2^i)
        for _ in 0..<gapBits {
            let probability = power / (1 + power)
            thresholds.append(UInt64(probability * 9_007_199_254_740_992.0))
            power *= power
        }
        knownThresholds.withAnnotatedLock { known in
            if known.count < 1_024 { known[rate.bitPattern] = thresholds }
        }
        return thresholds
    }

    /// The thresholds worked out so far, by the rate's bits. Looked up, never iterated.
    private static let knownThresholds = Mutex<[UInt64: [UInt64]]>([:])

    /// With a rate the first point draws the first gap; without one no point ever preempts.
    var initialCountdown: Int { preemptionRate > 0 ? 0 : .max }

    func threadAppeared(choices: ChoiceSource) {}

    /// The first point draws the first gap (and preempts only if it is 1); a point whose
    /// countdown ran out draws the next gap and preempts.
    mutating func point(running: Int, progress: RunProgress, mayKnowDecision: Bool, choices: ChoiceSource)
        -> PointOutcome
    {
        if !gapDrawn {
            gapDrawn = true
            let gap = gap(choices)
            if gap != 1 { return .wait(countdown: gap == 0 ? .max : Int(gap - 2)) }
        }
        let gap = gap(choices)
        return .preempt(countdown: gap == 0 ? .max : Int(gap - 1))
    }

    func weigh(_ thread: Int, at index: Int) {}

    /// A uniform draw among the candidates (none for one); exhaustive search explores each.
    @inline(__always)
    func chooseRunner(count: Int, progress: RunProgress, choices: ChoiceSource) -> Int {
        guard count > 1 else { return 0 }
        let chosen = Int(choices.draw(below: UInt64(count)))
        choices.markScheduleDraw()
        // Exhaustive search: each runner is explored; 0 (no preemption) costs nothing.
        choices.exploration?.branch(position: choices.drawCount - 1,
                                    alternatives: (0..<UInt64(count)).map { $0 }, extraCost: 1)
        return chosen
    }

    func observe(_ progress: RunProgress) {}

    /// A random gap from the digit thresholds: 1 plus `2^i` for each binary digit `i` whose
    /// uniform 53-bit draw falls below `thresholds[i]`. One generator output per digit, always
    /// (a seed's later draws depend on it); those of the digits from `significantDigits` on,
    /// whose threshold is 0, are skipped over rather than drawn.
    static func gap(_ thresholds: [UInt64], significantDigits: Int, _ generator: inout Xoshiro256StarStar) -> UInt64 {
        var gap: UInt64 = 1
        for digit in 0..<significantDigits where generator.next(below: 1 << 53) < thresholds[digit] {
            gap += 1 << UInt64(digit)
        }
        generator.skip(thresholds.count - significantDigits)
        return gap
    }

    /// The number of scheduling points until the next preemption, counting the next point as 1;
    /// 0 means no further preemption in this run. Random mode: 1 + a geometric variable with
    /// success probability `preemptionRate` (rate 1: always 1). Replay: the recorded value.
    func gap(_ choices: ChoiceSource) -> UInt64 {
        // Exhaustive search: every scheduling point is a preemption point (its runner draw's 0
        // keeps the thread running), so the gap past an explored prefix is 1, not "never".
        choices.exploration?.setCanonicalForNextDraw(1)
        let gap = choices.drawRecorded(replayBound: Self.gapReplayBound) { generator in
            Self.gap(thresholds, significantDigits: significantDigits, &generator)
        }
        choices.markScheduleDraw()
        choices.markPointCountDraw()
        return gap
    }
}
