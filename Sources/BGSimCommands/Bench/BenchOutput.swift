import DeterministicSimulation
import SimulationFormats
import Foundation

/// The benchmark as a Markdown table (the form README.md shows).
enum BenchTable {
    static func print(_ report: BenchReport, io: CommandIO) {
        let m = report.machine
        io.out("\(io.toolName) bench: \(m.cpu), \(m.cores) cores, \(m.system), \(m.build) build")
        io.out("")
        if report.throughput.isEmpty {  // --shrink-only, --isolation-only, --strategies-only, --exhaustive-only, --busy-only
            if !report.busyMachine.isEmpty {
                BusyMachine.print(report.busyMachine, io: io)
            } else if !report.exhaustive.isEmpty {
                ExhaustiveBench.print(report.exhaustive, io: io)
            } else if !report.strategies.isEmpty {
                printStrategies(report, io: io)
            } else if report.isolation.isEmpty {
                printShrinks(report, io: io)
            } else {
                printIsolation(report, io: io)
            }
            return
        }
        io.out("| workload | jobs | runs | events/run | runs/s (best / median) | events/s (best / median) | sim s per wall s |")
        io.out("|---|---:|---:|---:|---:|---:|---:|")
        for line in report.throughput {
            io.out("| \(line.benchCase) | \(line.jobs) | \(line.runs) | \(number(line.rates.eventsPerRun)) | "
                + "\(pair(line.rates.runsPerSecond)) | \(pair(line.rates.eventsPerSecond)) | "
                + "\(number(Spread(line.rates.simulatedPerWallSecond).median)) |")
        }
        io.out("")
        io.out("| run length (token, 1 job) | horizon | runs/s (median) | events/s (median) | ns per event |")
        io.out("|---|---:|---:|---:|---:|")
        for point in report.lengthCurve {
            let eventsPerSecond = Spread(point.rates.eventsPerSecond).median
            io.out("| \(point.label) | \(point.horizonSeconds) s | \(number(Spread(point.rates.runsPerSecond).median)) | "
                + "\(number(eventsPerSecond)) | \(number(1e9 / max(eventsPerSecond, 1))) |")
        }
        io.out("")
        io.out("| jobs (token) | runs/s (median) | speed-up |")
        io.out("|---:|---:|---:|")
        let base = report.jobsCurve.first.map { Spread($0.rates.runsPerSecond).median } ?? 1
        for point in report.jobsCurve {
            let rate = Spread(point.rates.runsPerSecond).median
            io.out("| \(point.jobs) | \(number(rate)) | \(String(format: "%.2fx", rate / max(base, 1e-9))) |")
        }
        io.out("")
        io.out("- \(number(Double(report.tenThousand.runs)))-run token campaign with \(report.tenThousand.jobs) jobs: "
            + String(format: "%.2f s", report.tenThousand.seconds))
        if let found = report.findAndShrink {
            io.out("- P1 found after \(found.runsToFind) runs in " + String(format: "%.3f s", found.findSeconds)
                + "; shrunk from \(found.originalEvents) to \(found.shrunkEvents) events in "
                + String(format: "%.3f s", found.shrinkSeconds) + " (\(found.invariant))")
        } else {
            io.out("- P1 NOT FOUND: a harness bug")
        }
        for race in report.races {
            io.out("- \(race.name) (\(race.invariant)): found in a median of \(race.medianRuns) runs "
                + "(per seed: \(race.runsToFind.map(String.init).joined(separator: ", ")))")
        }
        for entry in report.memory {
            io.out("- peak memory, \(entry.benchCase), \(entry.runs) runs: "
                + (entry.peakBytes.map { String(format: "%.1f MiB", Double($0) / 1_048_576) } ?? "unavailable"))
        }
        io.out("")
        ExhaustiveBench.print(report.exhaustive, io: io)
        io.out("")
        printIsolation(report, io: io)
        io.out("")
        printShrinks(report, io: io)
        io.out("")
        printStrategies(report, io: io)
        io.out("")
        BusyMachine.print(report.busyMachine, io: io)
    }

    /// Runs each exploration strategy takes to find each planted bug (``StrategyFinding``), and
    /// the median over the scenarios of each strategy's medians.
    static func printStrategies(_ report: BenchReport, io: CommandIO) {
        io.out("| runs to first failure (planted bug) | strategy | budget | median | per seed |")
        io.out("|---|---|---:|---:|---|")
        for row in report.strategies {
            let median = row.medianRuns > row.budget ? "not found" : "\(row.medianRuns)"
            io.out("| \(row.scenario) | \(row.strategy) | \(row.budget) | \(median) | "
                + row.runsToFind.map { $0 > row.budget ? "-" : String($0) }.joined(separator: ", ") + " |")
        }
        for strategy in StrategyFinding.strategies where report.strategies.contains(where: { $0.strategy == strategy }) {
            io.out("- \(strategy): median over the scenarios of the median runs to first failure: "
                + "\(StrategyFinding.overallMedian(report.strategies, strategy: strategy))")
        }
    }

    /// What crash handling costs (``IsolationCost``): token runs per second in each mode.
    static func printIsolation(_ report: BenchReport, io: CommandIO) {
        io.out("| crash handling (\(IsolationCost.scenarioFile)) | jobs | runs | runs/s (best / median) | vs in process |")
        io.out("|---|---:|---:|---:|---:|")
        for row in report.isolation {
            let base = report.isolation.first { $0.jobs == row.jobs && $0.mode == .inProcess }
                .map { Spread($0.rates.runsPerSecond).best } ?? 0
            let ratio = base > 0 ? String(format: "%+.1f%%", (Spread(row.rates.runsPerSecond).best / base - 1) * 100) : "-"
            io.out("| \(row.mode.rawValue)\(row.sameDigest ? "" : " (DIGEST DIFFERS)") | \(row.jobs) | \(row.runs) | "
                + "\(pair(row.rates.runsPerSecond)) | \(ratio) |")
        }
    }

    /// Each planted-bug scenario's shrink: environment actions and events before and after, time.
    static func printShrinks(_ report: BenchReport, io: CommandIO) {
        io.out("| shrink (planted bug) | invariant | env. actions | events | attempts | replays | seconds | CPU seconds |")
        io.out("|---|---|---:|---:|---:|---:|---:|---:|")
        for row in report.shrinks {
            io.out("| \(row.scenario) | \(row.invariant) | \(row.originalActions) → \(row.shrunkActions) | "
                + "\(row.originalEvents) → \(row.shrunkEvents) | \(row.attempts) | \(row.replays) | "
                + String(format: "%.3f", row.shrinkSeconds) + " | "
                + (row.cpuSeconds.map { String(format: "%.3f", $0) } ?? "unavailable") + " |")
        }
    }

    static func pair(_ samples: [Double]) -> String {
        let spread = Spread(samples)
        return "\(number(spread.best)) / \(number(spread.median))"
    }

    /// Thousands separated, no decimals above 100, two significant decimals below.
    static func number(_ value: Double) -> String {
        if value >= 100 {
            let formatter = NumberFormatter()
            formatter.numberStyle = .decimal
            formatter.maximumFractionDigits = 0
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.usesGroupingSeparator = true
            formatter.groupingSeparator = ","
            return formatter.string(from: NSNumber(value: value.rounded())) ?? String(Int(value))
        }
        return String(format: "%.2f", value)
    }
}

/// The benchmark as JSON (same numbers as the table).
enum BenchJSON {
    static func json(_ report: BenchReport) -> JSONValue {
        let m = report.machine
        var root = JSONObject()
        root.append("schemaVersion", .int(1))
        root.append("tool", .object(["name": .string("bgsim"), "version": .string(BGSim.version)]))
        root.append("machine", .object(["cpu": .string(m.cpu), "cores": .int(Int64(m.cores)),
                                        "system": .string(m.system), "build": .string(m.build)]))
        root.append("throughput", .array(report.throughput.map { line in
            var object = rates(line.rates)
            object.set(.string(line.benchCase), forKey: "workload")
            object.set(.int(Int64(line.jobs)), forKey: "jobs")
            object.set(.int(Int64(line.runs)), forKey: "runs")
            return .object(object)
        }))
        root.append("tenThousandRunCampaign", .object(["runs": .int(Int64(report.tenThousand.runs)),
                                                      "jobs": .int(Int64(report.tenThousand.jobs)),
                                                      "wallSeconds": .double(report.tenThousand.seconds)]))
        root.append("runLength", .array(report.lengthCurve.map { point in
            var object = rates(point.rates)
            object.set(.int(point.horizonSeconds), forKey: "horizonSeconds")
            return .object(object)
        }))
        root.append("jobs", .array(report.jobsCurve.map { point in
            var object = rates(point.rates)
            object.set(.int(Int64(point.jobs)), forKey: "jobs")
            return .object(object)
        }))
        if let found = report.findAndShrink {
            root.append("p1FindAndShrink", .object([
                "invariant": .string(found.invariant), "runsToFind": .int(Int64(found.runsToFind)),
                "findSeconds": .double(found.findSeconds), "shrinkSeconds": .double(found.shrinkSeconds),
                "originalEvents": .int(Int64(found.originalEvents)), "shrunkEvents": .int(Int64(found.shrunkEvents)),
            ]))
        } else {
            root.append("p1FindAndShrink", .null)
        }
        root.append("raceFinding", .array(report.races.map { race in
            .object(["workload": .string(race.name), "invariant": .string(race.invariant),
                     "medianRuns": .int(Int64(race.medianRuns)),
                     "runsToFind": .array(race.runsToFind.map { .int(Int64($0)) })])
        }))
        root.append("strategyFinding", .array(report.strategies.map { row in
            .object(["scenario": .string(row.scenario), "strategy": .string(row.strategy.rawValue),
                     "budget": .int(Int64(row.budget)), "medianRuns": .int(Int64(row.medianRuns)),
                     "runsToFind": .array(row.runsToFind.map { .int(Int64($0)) })])
        }))
        root.append("shrink", .array(report.shrinks.map { row in
            .object(["scenario": .string(row.scenario), "invariant": .string(row.invariant),
                     "originalActions": .int(Int64(row.originalActions)),
                     "shrunkActions": .int(Int64(row.shrunkActions)),
                     "originalEvents": .int(Int64(row.originalEvents)), "shrunkEvents": .int(Int64(row.shrunkEvents)),
                     "attempts": .int(Int64(row.attempts)), "replays": .int(Int64(row.replays)), "seconds": .double(row.shrinkSeconds),
                     "cpuSeconds": row.cpuSeconds.map { .double($0) } ?? .null])
        }))
        root.append("isolation", .array(report.isolation.map { row in
            var object = rates(row.rates)
            object.set(.string(row.mode.rawValue), forKey: "mode")
            object.set(.int(Int64(row.jobs)), forKey: "jobs")
            object.set(.int(Int64(row.runs)), forKey: "runs")
            object.set(.bool(row.sameDigest), forKey: "sameDigest")
            return .object(object)
        }))
        root.append("exhaustive", ExhaustiveBench.json(report.exhaustive))
        root.append("busyMachine", BusyMachine.json(report.busyMachine))
        root.append("peakMemory", .array(report.memory.map { entry in
            .object(["case": .string(entry.benchCase), "runs": .int(Int64(entry.runs)), "peakBytes": entry.peakBytes.map { .int(Int64($0)) } ?? .null])
        }))
        return .object(root)
    }

    static func rates(_ rates: Rates) -> JSONObject {
        let runs = Spread(rates.runsPerSecond)
        let events = Spread(rates.eventsPerSecond)
        return [
            "eventsPerRun": .double(rates.eventsPerRun),
            "runsPerSecond": .object(["best": .double(runs.best), "median": .double(runs.median)]),
            "eventsPerSecond": .object(["best": .double(events.best), "median": .double(events.median)]),
            "simulatedSecondsPerWallSecond": .double(Spread(rates.simulatedPerWallSecond).median),
        ]
    }
}
