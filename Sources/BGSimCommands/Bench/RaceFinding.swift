import BackgroundTaskSimulator
import DeterministicSimulation

/// How many runs of the default campaign it takes to find each planted race: for several
/// campaign seeds, the number of the first run that trips the race's expected invariant.
///
/// ```swift
/// let findings = RaceFinding.measureAll(seeds: 11, maxRuns: 2_000)
/// print(findings.map { "\($0.name): median \($0.medianRuns)" })
/// ```
///
/// Contract: deterministic (fixed seeds); a seed whose campaign finds nothing in `maxRuns`
/// counts as `maxRuns + 1` (so the median says "not found" when most miss).
struct RaceFinding: Sendable {
    var name: String
    var invariant: String
    /// Runs to the first failure, one per seed, in seed order.
    var runsToFind: [Int]

    var medianRuns: Int { Self.median(runsToFind) }

    /// The middle value (the upper one of an even count); 0 for none.
    static func median(_ values: [Int]) -> Int {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// Every planted race of ``BenchCase/raceWorkloads`` in the catalogue.
    static func measureAll(seeds: Int, maxRuns: Int) -> [RaceFinding] {
        WorkloadCatalog.all
            .filter { BenchCase.raceWorkloads.contains($0.workload) && $0.expectedViolation != nil }
            .map { measure($0, seeds: seeds, maxRuns: maxRuns) }
    }

    static func measure(_ variant: WorkloadCatalog.Variant, seeds: Int, maxRuns: Int) -> RaceFinding {
        let invariant = variant.expectedViolation ?? ""
        let benchCase = BenchCase(name: variant.info.name, workload: variant.workload, variant: variant.variant,
                                  horizonSeconds: 1_800)
        let target = SimulationTarget(spec: benchCase.spec)
        var found: [Int] = []
        for seedIndex in 0..<seeds {
            let campaignSeed = Seed(0x7ace_0000_0000_0000 &+ UInt64(seedIndex))
            var first = maxRuns + 1
            for run in 0..<maxRuns {
                let verdict = target.run(choices: ChoiceSource(seed: campaignSeed.derive(index: UInt64(run))),
                                         keepTrace: false)
                if verdict.failures.contains(where: { $0.invariant == invariant }) {
                    first = run + 1
                    break
                }
            }
            found.append(first)
        }
        return RaceFinding(name: variant.info.name, invariant: invariant, runsToFind: found)
    }
}
