import Foundation

/// What a campaign's run count can vouch for: how often a finding appeared ("19 of 300 runs"),
/// and, when nothing failed, which failures the runs rule out. Every door (`bgsim fuzz`, `bgsim
/// check`, the Swift front door) words budgets through here, so they say the same.
///
/// ```swift
/// DetectionBound(runs: 300).text      // "rules out, at 95% confidence, any failure that shows in at least 1 run in 100"
/// DetectionBound.count(19, of: 300)   // "19 of 300 runs"
/// DetectionBound.runsNeeded(toSee: 11.0 / 3_000)   // 816: a race in 11 of 3,000 runs
/// ```
///
/// Contract: a failure that shows in a fraction p of runs is missed by N independent runs with
/// probability (1-p)^N, so with no failure in N runs, at 95% confidence, every failure with
/// p >= 1 - 0.05^(1/N) (about 3/N, the rule of three) would have been seen. ``oneIn`` rounds that
/// bound up to a whole "1 run in K" (K the largest whole number with 1/K >= the bound), so the
/// printed claim is never stronger than the arithmetic.
public struct DetectionBound: Sendable, Equatable {
    /// The runs that ran without a failure.
    public var runs: Int

    public init(runs: Int) {
        self.runs = runs
    }

    /// The confidence every door states.
    public static let confidence = 0.95

    /// The smallest per-run frequency the runs would have shown at 95% confidence:
    /// 1 - 0.05^(1/N); 1 when no run ran.
    package var frequency: Double {
        guard runs > 0 else { return 1 }
        return -expm1(log(1 - Self.confidence) / Double(runs))
    }

    /// K in "at least 1 run in K" (1 when the runs vouch only for failures in nearly every run).
    public var oneIn: Int { max(1, Int((1 / frequency).rounded(.down))) }

    /// `rules out, at 95% confidence, any failure that shows in at least 1 run in K` (nil for no run).
    public var text: String? {
        guard runs > 0 else { return nil }
        let share = oneIn == 1 ? "in every run" : "in at least 1 run in \(oneIn)"
        return "rules out, at 95% confidence, any failure that shows \(share)"
    }

    /// How often a finding appeared: `k of n runs`.
    public static func count(_ failing: Int, of runs: Int) -> String {
        "\(failing) of \(runs) \(runs == 1 ? "run" : "runs")"
    }

    /// The runs a campaign needs to see, at 95% confidence, a failure that shows in a fraction
    /// `frequency` of runs: the smallest N with (1 - frequency)^N <= 0.05 (about 3 / frequency).
    public static func runsNeeded(toSee frequency: Double) -> Int {
        guard frequency > 0 else { return Int.max }
        guard frequency < 1 else { return 1 }
        return Int((log(1 - confidence) / log1p(-frequency)).rounded(.up))
    }
}
