/// How long a preempted thread is kept off the CPU, under either policy: at a preemption
/// (random walk) or a change point (PCT), with probability `delayProbability`, for a drawn
/// delay during which virtual time advances and other threads and due jobs run.
///
/// ```swift
/// let delay = PreemptionDelay(configuration: .randomWalk(preemptionRate: 0.05, maxDelay: .milliseconds(50)))
/// let microseconds = delay.draw(choices)   // 0: the thread stays runnable
/// ```
///
/// Contract: the simplest outcome (0) means "no delay", so shrinking a recording towards zeros
/// removes delays; every value is recorded in the run's ``ChoiceSource``, so seeds, recordings
/// and shrunk recordings replay. Random draws use only integer arithmetic and IEEE basic
/// operations (no `log`/`pow` from the platform's math library), so a seed means the same run
/// everywhere.
struct PreemptionDelay {
    private let delayProbability: Double
    private let maxDelayMicroseconds: Int64

    init(configuration: ConcurrencyConfiguration) {
        delayProbability = configuration.delayProbability
        maxDelayMicroseconds = max(0, configuration.maxDelay.microseconds)
    }

    /// How long a preempted thread stays off the CPU, in microseconds (0: it stays runnable).
    /// Draws nothing when the configuration has no delay. Random mode: with probability
    /// `delayProbability` a value in `1...maxDelay`, log-uniform by decade (a decade `[10^k,
    /// 10^(k+1))` drawn uniformly, then a value uniform in it), so that short delays (another
    /// thread runs a few steps) and long ones (a timed system event fires meanwhile) are both
    /// common; else 0.
    func draw(_ choices: ChoiceSource) -> Int64 {
        guard maxDelayMicroseconds > 0, delayProbability > 0 else { return 0 }
        let maximum = UInt64(maxDelayMicroseconds)
        let threshold = UInt64(min(delayProbability, 1) * 9_007_199_254_740_992.0)
        defer { choices.markScheduleDraw() }
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
