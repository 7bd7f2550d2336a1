import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation

/// The numbers of one benchmark line, over several repetitions: min and median of each rate.
struct Rates: Sendable {
    var runsPerSecond: [Double] = []
    var eventsPerSecond: [Double] = []
    var simulatedPerWallSecond: [Double] = []
    var eventsPerRun: Double = 0

    mutating func add(_ result: CampaignResult) {
        let wall = max(result.wallSeconds, 1e-9)
        let totals = result.totals
        runsPerSecond.append(Double(totals.runs) / wall)
        eventsPerSecond.append(Double(totals.events) / wall)
        simulatedPerWallSecond.append(totals.simulatedSeconds / wall)
        eventsPerRun = Double(totals.events) / Double(max(1, totals.runs))
    }
}

/// Best and median of a list of rate samples; the best rate is the repetition with the minimum
/// wall time.
struct Spread: Sendable {
    var best: Double
    var median: Double

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        best = sorted.last ?? 0
        median = sorted.isEmpty ? 0 : (sorted.count % 2 == 1 ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2)
    }
}

/// Runs benchmark campaigns: no determinism re-runs, no shrinking, nothing but the runs.
enum BenchRunner {
    static func campaign(_ benchCase: BenchCase, runs: Int, jobs: Int) -> CampaignResult {
        let options = CampaignOptions(seed: benchCase.seed, runs: runs, jobs: jobs, determinismSamples: 0,
                                      maxShrunkFailures: 0)
        return Campaign.run(SimulationTarget(spec: benchCase.spec), options: options)
    }

    static func rates(_ benchCase: BenchCase, runs: Int, jobs: Int, repetitions: Int) -> Rates {
        var rates = Rates()
        for _ in 0..<repetitions { rates.add(campaign(benchCase, runs: runs, jobs: jobs)) }
        return rates
    }
}

/// Time to find the first P1 failure run by run, and to shrink it.
struct FindAndShrink: Sendable {
    var runsToFind: Int
    var findSeconds: Double
    var shrinkSeconds: Double
    var originalEvents: Int
    var shrunkEvents: Int
    var invariant: String

    static func measure(_ benchCase: BenchCase, maxRuns: Int) -> FindAndShrink? {
        let target = SimulationTarget(spec: benchCase.spec)
        let finding = WallClock()
        for index in 0..<maxRuns {
            let source = ChoiceSource(seed: benchCase.seed.derive(index: UInt64(index)))
            let verdict = target.run(choices: source, keepTrace: false)
            guard let failure = verdict.failures.first else { continue }
            let findSeconds = finding.elapsedSeconds
            let shrinking = WallClock()
            let shrink = Shrinker.shrink(source.recorded, target: target, while: failure.invariant)
            return FindAndShrink(runsToFind: index + 1, findSeconds: findSeconds,
                                 shrinkSeconds: shrinking.elapsedSeconds, originalEvents: verdict.eventCount,
                                 shrunkEvents: shrink.eventCount, invariant: failure.invariant)
        }
        return nil
    }
}

/// Peak resident memory of this process, with a reset so each measurement starts fresh.
enum PeakMemory {
    /// Resets the kernel's high-water mark (Linux `clear_refs` 5); false where unsupported.
    static func reset() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do { try handle.write(contentsOf: Data("5".utf8)) } catch { return false }
        return true
    }

    /// `VmHWM` from `/proc/self/status` in bytes, or nil where there is no procfs.
    static func peakBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.split(separator: " ").compactMap { Int($0) }
            if let kilobytes = digits.first { return kilobytes * 1024 }
        }
        return nil
    }
}
