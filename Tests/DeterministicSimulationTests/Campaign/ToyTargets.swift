import DeterministicSimulation
import Synchronization

/// Draws values while a coin says "more" (at most 40); fails `big-value` when a value is >= 50,
/// and `odd-count` when it drew an odd number of values greater than 90.
struct ThresholdTarget: CampaignTarget {
    func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
        var values: [Int] = []
        while values.count < 40, choices.bool(probability: 0.9) { values.append(choices.int(in: 0...100)) }
        var failures: [Violation] = []
        if let big = values.first(where: { $0 >= 50 }) {
            failures.append(Violation(invariant: "big-value", message: "drew \(big)", time: .seconds(Int64(values.count))))
        }
        if values.filter({ $0 > 90 }).count % 2 == 1 {
            failures.append(Violation(invariant: "odd-count", message: "odd count of values above 90", time: .zero))
        }
        var hasher = StableHasher()
        for value in values { hasher.combine(UInt64(value)) }
        var coverage = Coverage()
        coverage.add("sizes", values.count < 10 ? "small" : "large")
        coverage.add("values", "total", count: values.count)
        return RunVerdict(digest: TraceDigest(hasher.finalize()), eventCount: values.count,
                          simulatedTime: .seconds(Int64(values.count)), failures: failures,
                          trace: keepTrace ? values.enumerated().map {
                              TraceLine(time: .seconds(Int64($0.offset)), name: "value", fields: [TraceField("v", .int(Int64($0.element)))])
                          } : [],
                          coverage: coverage, stop: values.count == 40 ? .stepLimit : .quiescent)
    }
}

/// Draws a fixed 30 values in 0..<100; fails when any is >= 50.
struct FixedCountTarget: CampaignTarget {
    func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
        let values = (0..<30).map { _ in choices.int(in: 0...99) }
        let failures = values.contains { $0 >= 50 } ? [Violation(invariant: "big-value", message: "big", time: .zero)] : []
        return RunVerdict(digest: TraceDigest(UInt64(values.reduce(0, +))), eventCount: values.count,
                          simulatedTime: .zero, failures: failures)
    }
}

/// Never passes the same digest twice: each run reads a shared counter (a deliberately
/// nondeterministic workload).
final class FlakyTarget: CampaignTarget {
    let counter = Atomic<UInt64>(0)
    func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
        _ = choices.int(in: 0...9)
        let tick = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return RunVerdict(digest: TraceDigest(tick), eventCount: 1, simulatedTime: .zero, failures: [])
    }
}

/// A campaign result's determined parts, for equality across jobs values.
struct ResultFingerprint: Equatable {
    var totals: RunTotals
    var failures: [String]
    var coverage: Coverage

    init(_ result: CampaignResult) {
        totals = result.totals
        failures = result.failures.map { "\($0.runIndex) \($0.seed) \($0.failure.invariant) \($0.choices.token) \($0.shrunkEventCount) \($0.trace.count)" }
        coverage = result.coverage
    }
}
