import BackgroundTaskSimulator
import DeterministicSimulation
import SimulationFormats

/// A bounded exhaustive search of the token workload (`bgsim bench`'s exhaustive rows): how
/// many sequences and distinct states a depth gives, how fast, and the peak memory.
///
/// ```swift
/// let row = ExhaustiveBench.measure(depth: 6, jobs: 2)
/// print(row.sequences, row.distinctStates, row.sequencesPerSecond)
/// ```
///
/// Contract: a measurement; the counts are the same on every machine and for every `jobs`
/// (the search's contract), the time and memory are not.
struct ExhaustiveBench: Sendable {
    var benchCase: String
    var depth: Int
    var jobs: Int
    var sequences: Int
    var distinctStates: Int
    var prunedBranches: Int
    var seconds: Double
    var peakBytes: Int?

    var sequencesPerSecond: Double { seconds > 0 ? Double(sequences) / seconds : 0 }

    /// The depths and job counts of the rows: depth 6 (the issue's yardstick) with 1 job and
    /// all cores; `quick`: depth 3 with all cores.
    static func rows(quick: Bool, cores: Int) -> [(depth: Int, jobs: Int)] {
        quick ? [(3, cores)] : (cores > 1 ? [(6, 1), (6, cores)] : [(6, 1)])
    }

    /// Searches the token workload (``BenchCase/token``) to `depth`.
    static func measure(depth: Int, jobs: Int) -> ExhaustiveBench {
        let benchCase = BenchCase.token
        var spec = benchCase.spec
        spec.exploration = .exhaustive
        let reset = PeakMemory.reset()
        var plan = CampaignPlan(options: CampaignOptions(seed: benchCase.seed, runs: 0, jobs: jobs))
        plan.exhaustiveDepth = depth
        let result = Campaign.run(CampaignPhases(CampaignPhase(SimulationTarget(spec: spec))), plan: plan)
        let stats = result.exhaustive ?? ExhaustiveStats(depth: depth)
        return ExhaustiveBench(benchCase: benchCase.name, depth: depth, jobs: jobs, sequences: stats.sequences,
                               distinctStates: stats.distinctStates, prunedBranches: stats.prunedBranches,
                               seconds: result.runSeconds, peakBytes: reset ? PeakMemory.peakBytes() : nil)
    }

    /// The table lines.
    static func print(_ rows: [ExhaustiveBench], io: CommandIO) {
        guard !rows.isEmpty else { return }
        io.out("| exhaustive search | depth | jobs | sequences | distinct states | pruned | seconds | sequences/s | peak memory |")
        io.out("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for row in rows {
            let memory = row.peakBytes.map { String(format: "%.1f MiB", Double($0) / 1_048_576) } ?? "unavailable"
            io.out("| \(row.benchCase) | \(row.depth) | \(row.jobs) | \(row.sequences) | \(row.distinctStates) | "
                + "\(row.prunedBranches) | \(String(format: "%.2f", row.seconds)) | \(Int(row.sequencesPerSecond)) | \(memory) |")
        }
    }

    /// The JSON array of the rows.
    static func json(_ rows: [ExhaustiveBench]) -> JSONValue {
        .array(rows.map { row in
            .object(["case": .string(row.benchCase), "depth": .int(Int64(row.depth)), "jobs": .int(Int64(row.jobs)),
                     "sequences": .int(Int64(row.sequences)), "distinctStates": .int(Int64(row.distinctStates)),
                     "prunedBranches": .int(Int64(row.prunedBranches)), "seconds": .double(row.seconds),
                     "sequencesPerSecond": .double(row.sequencesPerSecond),
                     "peakBytes": row.peakBytes.map { .int(Int64($0)) } ?? .null])
        })
    }
}
