/// The recorded draws of controlled concurrency, whose simplest outcome (0) always means "no
/// preemption", "no delay" or "no change point", so that shrinking a recording towards zeros
/// removes preemptions.
///
/// ```swift
/// var draws = PreemptionDraws(configuration: .randomWalk(preemptionRate: 0.05))
/// let gap = draws.gap(choices)       // points until the next preemption; 0 = never
/// ```
///
/// Contract: every value is recorded in the run's ``ChoiceSource``, so seeds, recordings and
/// shrunk recordings replay. Random draws use only integer arithmetic and IEEE basic operations
/// (no `log`/`pow` from the platform's math library), so a seed means the same run everywhere.
struct PreemptionDraws {
    /// The largest gap a replayed value may ask for.
    static let gapReplayBound: UInt64 = (1 << 40) + 1
    /// The number of binary digits of a geometric gap (a gap of 2^40 points is "never").
    private static let gapBits = 40

    /// `thresholds[i]` is the probability, scaled to 2^53, that binary digit `i` of the
    /// geometric gap is 1. The digits of a geometric variable are independent Bernoulli variables
    /// with P(1) = q^(2^i) / (1 + q^(2^i)) for q = 1 - p; squaring is an IEEE basic operation.
    private let thresholds: [UInt64]
    private let delayProbability: Double
    private let maxDelayMicroseconds: Int64

    init(configuration: ConcurrencyConfiguration) {
        var thresholds: [UInt64] = []
        let rate = configuration.preemptionRate
        if rate > 0, rate < 1 {
            var power = 1 - rate  // q^(2^i)
            for _ in 0..<Self.gapBits {
                let probability = power / (1 + power)
                thresholds.append(UInt64(probability * 9_007_199_254_740_992.0))
                power *= power
            }
        }
        self.thresholds = thresholds
        delayProbability = configuration.delayProbability
        maxDelayMicroseconds = max(0, configuration.maxDelay.microseconds)
    }

    /// The number of scheduling points until the next preemption, counting the next point as 1;
    /// 0 means no further preemption in this run. Random mode: 1 + a geometric variable with
    /// success probability `preemptionRate` (rate 1: always 1). Replay: the recorded value.
    func gap(_ choices: ChoiceSource) -> UInt64 {
        // Exhaustive search: every scheduling point is a preemption point (its runner draw's 0
        // keeps the thread running), so the gap past an explored prefix is 1, not "never".
        choices.exploration?.setCanonicalForNextDraw(1)
        return choices.drawRecorded(replayBound: Self.gapReplayBound) { generator in
            var gap: UInt64 = 1
            for (digit, threshold) in thresholds.enumerated()
            where generator.next(below: 1 << 53) < threshold {
                gap += 1 << UInt64(digit)
            }
            return gap
        }
    }

    /// How long a preempted thread stays off the CPU, in microseconds (0: it stays runnable).
    /// Draws nothing when the configuration has no delay. Random mode: with probability
    /// `delayProbability` a value in `1...maxDelay`, log-uniform by decade (a decade `[10^k,
    /// 10^(k+1))` drawn uniformly, then a value uniform in it), so that short delays (another
    /// thread runs a few steps) and long ones (a timed system event fires meanwhile) are both
    /// common; else 0.
    func delay(_ choices: ChoiceSource) -> Int64 {
        guard maxDelayMicroseconds > 0, delayProbability > 0 else { return 0 }
        let maximum = UInt64(maxDelayMicroseconds)
        let threshold = UInt64(min(delayProbability, 1) * 9_007_199_254_740_992.0)
        return Int64(
            choices.drawRecorded(replayBound: maximum + 1) { generator in
                guard generator.next(below: 1 << 53) < threshold else { return 0 }
                var decades: UInt64 = 1  // decades starting at or below maximum: 1, 10, 100, ...
                var start: UInt64 = 10
                while start <= maximum {
                    decades += 1
                    start *= 10
                }
                var low: UInt64 = 1
                for _ in 0..<generator.next(below: decades) { low *= 10 }
                let high = min(maximum, low * 10 - 1)
                return low + generator.next(below: high - low + 1)
            })
    }

    /// A PCT change point: a step index in `1...stepBound`, or 0 (replay only) for none.
    func changePoint(_ choices: ChoiceSource, stepBound: Int) -> Int {
        let bound = UInt64(stepBound)
        return Int(choices.drawRecorded(replayBound: bound + 1) { 1 + $0.next(below: bound) })
    }
}

extension ChoiceSource {
    /// A recorded draw whose random-mode distribution is the caller's: `random` samples from the
    /// generator; replay returns the next recorded value if below `replayBound`, else 0 (a
    /// fallback, as for every draw). The outcome is recorded in both modes.
    func drawRecorded(replayBound: UInt64, random: (inout Xoshiro256StarStar) -> UInt64) -> UInt64 {
        let value = replaysNextDraw() ? nextReplayed(below: replayBound) : withGenerator(random)
        record(value)
        return value
    }
}
