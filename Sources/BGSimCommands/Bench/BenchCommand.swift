import BackgroundTaskSimulator
import DeterministicSimulation
import SimulationFormats
import Foundation

/// `bgsim bench [--json] [--output FILE] [--quick]`: the standard benchmark. Prints a table of
/// throughput (1 job and all cores), how cost grows with run length and with jobs, the time to
/// find and shrink the P1 bug, the runs to find each planted race, each planted-bug scenario's
/// shrink (actions and events before and after, attempts and replays, wall-clock and CPU time), peak memory, the
/// token workload's exhaustive search to depth 6, and each threaded workload's share of a busy
/// machine (``BusyMachine``).
///
/// ```
/// swift run -c release bgsim bench                      # the table
/// swift run -c release bgsim bench --json --output Reports/bench-linux-2core.json
/// swift run -c release bgsim bench --shrink-only        # the shrink rows alone
/// ```
///
/// Contract: a measurement, never a test: it exits 0 whatever the numbers (1 only if the P1 bug
/// is not found, which would be a harness bug). `--quick` shrinks every size for smoke tests.
/// Timing uses the wall clock here, outside simulation code.
enum BenchCommand: BGSimCommand {
    static let declaration = CommandDeclaration(
        name: "bench", abstract: "the standard benchmark: throughput, scaling, find-and-shrink time, memory",
        options: [
            .flag("--json", help: "print the results as JSON instead of a table"),
            .valued("--output", "FILE", help: "also write the JSON results to FILE"),
            .flag("--quick", help: "small sizes, for smoke tests (numbers not representative)"),
            .flag("--shrink-only", help: "only the shrink rows: each planted-bug scenario in Scenarios/ shrunk"),
            .flag("--isolation-only", help: "only the crash-handling rows: token runs/s in process, with crash slots, "
                + "and isolated"),
            .flag("--strategies-only", help: "only the exploration rows: runs each strategy takes to find every "
                + "planted bug in Scenarios/ (the full bench measures the deep ones)"),
            .flag("--exhaustive-only", help: "only the exhaustive rows: the token workload searched to depth 6 "
                + "(sequences/s, distinct states, peak memory)"),
            .flag("--busy-only", help: "only the busy-machine rows: each threaded workload's runs/s on 1 job, quiet "
                + "and beside 2 CPU-bound processes the bench starts, with fibers and with OS-thread carriers, "
                + "and the CPU it was given (each measurement at least a second)"),
        ],
        discussion: [
            "A measurement, not a test: exit 0 whatever the numbers. Use a release build:",
            "swift run -c release bgsim bench",
        ])

    struct Options {
        var json: Bool
        var output: String?
        var quick: Bool
        var shrinkOnly: Bool
        var isolationOnly: Bool
        var strategiesOnly: Bool = false
        var exhaustiveOnly: Bool = false
        var busyOnly: Bool = false
    }

    static func validate(_ args: Arguments) throws(CLIError) -> Options {
        Options(json: args.flag("--json"), output: args.value("--output"), quick: args.flag("--quick"),
                shrinkOnly: args.flag("--shrink-only"), isolationOnly: args.flag("--isolation-only"),
                strategiesOnly: args.flag("--strategies-only"), exhaustiveOnly: args.flag("--exhaustive-only"),
                busyOnly: args.flag("--busy-only"))
    }

    static func run(_ options: Options, io: CommandIO, interrupt: Interrupt) throws(CLIError) -> ExitCode {
        try OutputPaths.check([options.output])
        let sizes = options.quick ? BenchSizes.quick : BenchSizes.full
        let progress: (String) -> Void = { line in
            if io.stderrIsTerminal { io.err("  bench: \(line)") }
        }
        let suite = BenchSuite(sizes: sizes, childExecutable: try? Isolation.childExecutable(io))
        let report = options.shrinkOnly ? suite.measureShrinks(progress: progress)
            : options.isolationOnly ? suite.measureIsolation(progress: progress)
            : options.strategiesOnly ? suite.measureStrategies(deepOnly: false, progress: progress)
            : options.exhaustiveOnly ? suite.measureExhaustive(progress: progress)
            : options.busyOnly ? suite.measureBusyMachine(progress: progress)
            : suite.measure(progress: progress)
        let json = BenchJSON.json(report)
        if options.json {
            io.writeOut(JSONWriter().string(for: json))
        } else {
            BenchTable.print(report, io: io)
        }
        if let path = options.output { try OutputPaths.write(JSONWriter().string(for: json), to: path) }
        let partial = options.shrinkOnly || options.isolationOnly || options.strategiesOnly || options.exhaustiveOnly
            || options.busyOnly
        return report.findAndShrink == nil && !partial ? .violation : .success
    }
}

/// How big each measurement is.
struct BenchSizes: Sendable {
    var throughputRuns: Int
    var longRuns: Int
    var repetitions: Int
    var tenThousandRuns: Int
    var memoryRuns: (small: Int, large: Int)
    var curveRuns: Int
    /// Campaign seeds per planted race, and the runs each may take to find it.
    var raceSeeds: Int
    var raceMaxRuns: Int
    /// Campaign seeds per planted bug and exploration strategy (``StrategyFinding``).
    var strategySeeds: Int = 5
    /// Runs of each busy-machine measurement at least (``BusyMachine``), and the seconds a quiet
    /// one lasts at least (more runs when `busyRuns` take less).
    var busyRuns = 400
    var busySeconds = 1.0

    static let full = BenchSizes(throughputRuns: 2_000, longRuns: 100, repetitions: 3, tenThousandRuns: 10_000,
                                 memoryRuns: (1_000, 100_000), curveRuns: 1_000, raceSeeds: 11, raceMaxRuns: 2_000)
    static let quick = BenchSizes(throughputRuns: 40, longRuns: 4, repetitions: 1, tenThousandRuns: 100,
                                  memoryRuns: (50, 200), curveRuns: 20, raceSeeds: 3, raceMaxRuns: 200, strategySeeds: 1,
                                  busyRuns: 10, busySeconds: 0)
}

/// Everything the benchmark measured.
struct BenchReport: Sendable {
    struct Line: Sendable {
        var benchCase: String
        var jobs: Int
        var runs: Int
        var rates: Rates
    }

    struct CurvePoint: Sendable {
        var label: String
        var horizonSeconds: Int64
        var jobs: Int
        var rates: Rates
    }

    var machine: BenchMachine
    var throughput: [Line] = []
    /// The fixed-size token campaign (10,000 runs; fewer with --quick): its size, jobs and time.
    var tenThousand: (runs: Int, jobs: Int, seconds: Double) = (0, 0, 0)
    var lengthCurve: [CurvePoint] = []
    var jobsCurve: [CurvePoint] = []
    var findAndShrink: FindAndShrink?
    var races: [RaceFinding] = []
    var strategies: [StrategyFinding] = []
    var shrinks: [ShrinkTiming] = []
    var isolation: [IsolationCost] = []
    var memory: [(benchCase: String, runs: Int, peakBytes: Int?)] = []
    /// Bounded exhaustive searches of the token workload (``ExhaustiveBench``).
    var exhaustive: [ExhaustiveBench] = []
    /// Each threaded workload quiet and beside busy processes (``BusyMachine``).
    var busyMachine: [BusyMachine] = []
}

/// Runs the measurements in a fixed order.
struct BenchSuite {
    var sizes: BenchSizes
    /// The program isolated runs start (nil: no isolation rows).
    var childExecutable: String?

    /// Horizons that give roughly 10, 100, 1,000 and 10,000 events per token run.
    static let lengthHorizons: [Int64] = [1, 150, 2_400, 28_800]

    func measure(progress: (String) -> Void) -> BenchReport {
        let machine = BenchMachine.current
        var report = BenchReport(machine: machine)
        let jobsList = machine.cores > 1 ? [1, machine.cores] : [1]
        // Memory first, while the process is small: the kernel's high-water mark is reset before
        // each campaign, but the allocator keeps what earlier (longer) benchmarks grew.
        // The async token too: a run's suspended Swift tasks must be freed at teardown.
        for benchCase in [BenchCase.token, BenchCase.asyncToken] {
            for runs in [sizes.memoryRuns.small, sizes.memoryRuns.large] {
                progress("peak memory, \(benchCase.name), \(runs) runs")
                let reset = PeakMemory.reset()
                _ = BenchRunner.campaign(benchCase, runs: runs, jobs: machine.cores)
                report.memory.append((benchCase.name, runs, reset ? PeakMemory.peakBytes() : nil))
            }
        }
        report.exhaustive = exhaustiveRows(cores: machine.cores, progress: progress)
        for benchCase in BenchCase.throughput {
            let runs = benchCase.horizonSeconds > 10_000 ? sizes.longRuns : sizes.throughputRuns
            for jobs in jobsList {
                progress("\(benchCase.name), \(jobs) job(s)")
                let rates = BenchRunner.rates(benchCase, runs: runs, jobs: jobs, repetitions: sizes.repetitions)
                report.throughput.append(.init(benchCase: benchCase.name, jobs: jobs, runs: runs, rates: rates))
            }
        }
        progress("\(sizes.tenThousandRuns)-run token campaign")
        let tenJobs = min(2, machine.cores)
        let ten = BenchRunner.campaign(.token, runs: sizes.tenThousandRuns, jobs: tenJobs)
        report.tenThousand = (sizes.tenThousandRuns, tenJobs, ten.wallSeconds)
        for horizon in Self.lengthHorizons {
            progress("run length: token at \(horizon) s")
            let rates = BenchRunner.rates(.token(horizonSeconds: horizon), runs: horizon > 10_000 ? sizes.longRuns
                : sizes.curveRuns, jobs: 1, repetitions: sizes.repetitions)
            report.lengthCurve.append(.init(label: "\(Int(rates.eventsPerRun.rounded())) events/run",
                                            horizonSeconds: horizon, jobs: 1, rates: rates))
        }
        for jobs in Array(Set([1, 2, machine.cores])).sorted() {
            progress("jobs curve: \(jobs)")
            let rates = BenchRunner.rates(.token, runs: sizes.curveRuns * 2, jobs: jobs, repetitions: sizes.repetitions)
            report.jobsCurve.append(.init(label: "\(jobs) jobs", horizonSeconds: BenchCase.token.horizonSeconds,
                                          jobs: jobs, rates: rates))
        }
        progress("find and shrink P1")
        report.findAndShrink = FindAndShrink.measure(.p1, maxRuns: 10_000)
        progress("runs to find each planted race")
        report.races = RaceFinding.measureAll(seeds: sizes.raceSeeds, maxRuns: sizes.raceMaxRuns)
        report.isolation = isolationRows(jobs: jobsList, progress: progress)
        progress("shrink each planted-bug scenario")
        report.shrinks = ShrinkTiming.measureAll(in: "Scenarios")
        report.strategies = StrategyFinding.measureAll(in: "Scenarios", seeds: sizes.strategySeeds, deepOnly: true,
                                                       progress: progress)
        report.busyMachine = BusyMachine.measure(runs: sizes.busyRuns, minimumSeconds: sizes.busySeconds,
                                                 repetitions: sizes.repetitions, progress: progress)
        return report
    }

    /// The busy-machine rows alone (`--busy-only`).
    func measureBusyMachine(progress: (String) -> Void) -> BenchReport {
        var report = BenchReport(machine: BenchMachine.current)
        report.busyMachine = BusyMachine.measure(runs: sizes.busyRuns, minimumSeconds: sizes.busySeconds,
                                                 repetitions: sizes.repetitions, progress: progress)
        return report
    }

    /// The exhaustive rows alone (`--exhaustive-only`).
    func measureExhaustive(progress: (String) -> Void) -> BenchReport {
        var report = BenchReport(machine: BenchMachine.current)
        report.exhaustive = exhaustiveRows(cores: report.machine.cores, progress: progress)
        return report
    }

    /// The token workload searched exhaustively (``ExhaustiveBench/rows(quick:cores:)``).
    func exhaustiveRows(cores: Int, progress: (String) -> Void) -> [ExhaustiveBench] {
        ExhaustiveBench.rows(quick: sizes.repetitions == BenchSizes.quick.repetitions && sizes.throughputRuns
            == BenchSizes.quick.throughputRuns, cores: cores).map { row in
            progress("exhaustive search, token, depth \(row.depth), \(row.jobs) job(s)")
            return ExhaustiveBench.measure(depth: row.depth, jobs: row.jobs)
        }
    }

    /// The exploration rows alone (`--strategies-only`): every planted bug, or the deep ones.
    func measureStrategies(deepOnly: Bool, progress: (String) -> Void) -> BenchReport {
        var report = BenchReport(machine: BenchMachine.current)
        report.strategies = StrategyFinding.measureAll(in: "Scenarios", seeds: sizes.strategySeeds, deepOnly: deepOnly,
                                                       progress: progress)
        return report
    }

    /// The crash-handling rows alone (`--isolation-only`).
    func measureIsolation(progress: (String) -> Void) -> BenchReport {
        var report = BenchReport(machine: BenchMachine.current)
        let cores = report.machine.cores
        report.isolation = isolationRows(jobs: cores > 1 ? [1, cores] : [1], progress: progress)
        return report
    }

    private func isolationRows(jobs: [Int], progress: (String) -> Void) -> [IsolationCost] {
        progress("crash handling: in process, crash slots, isolated")
        return IsolationCost.measureAll(executable: childExecutable, runs: sizes.throughputRuns, jobs: jobs,
                                        repetitions: sizes.repetitions)
    }

    /// The shrink rows alone (`--shrink-only`).
    func measureShrinks(progress: (String) -> Void) -> BenchReport {
        var report = BenchReport(machine: BenchMachine.current)
        progress("shrink each planted-bug scenario")
        report.shrinks = ShrinkTiming.measureAll(in: "Scenarios")
        return report
    }
}

/// The machine the numbers came from.
struct BenchMachine: Sendable {
    var cores: Int
    var cpu: String
    var system: String
    var build: String

    static var current: BenchMachine {
        let info = ProcessInfo.processInfo
        var cpu = "unknown CPU"
        if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":") {
            cpu = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        #if DEBUG
        let build = "debug (numbers not representative: use swift run -c release)"
        #else
        let build = "release"
        #endif
        return BenchMachine(cores: max(1, info.activeProcessorCount), cpu: cpu,
                            system: info.operatingSystemVersionString, build: build)
    }
}
