import BackgroundTaskSimulator
import DeterministicSimulation
import SimulationFormats
import Foundation

/// `bgsim bench`'s busy-machine rows: each threaded workload's runs/s on one job, quiet and then
/// beside two CPU-bound processes the bench starts itself, with fibers and with OS-thread
/// carriers. What a user's busy CI runner or a Mac compiling in the background gives a campaign.
///
/// ```swift
/// let rows = BusyMachine.measure(runs: 400, minimumSeconds: 1, repetitions: 3) { print($0) }
/// print(rows.map { "\($0.benchCase) \($0.carriers): \(Int($0.share * 100))%" })
/// ```
///
/// Contract: a measurement. A fair share with two busy processes on a machine of `n` cores is
/// about `n / (n + 1)` of a core for a one-job campaign when it runs on one OS thread (fibers);
/// OS-thread carriers hand a baton between threads, and a handed-over thread waits for a core,
/// so their share can fall far below that: the target is at least ``targetShare`` for every row.
/// ``busyCPUShare`` tells the two losses apart: the cores the campaign's process was given
/// while busy, against what each of them then did. Without `/bin/sh` (the busy processes'
/// program) there are no rows.
struct BusyMachine: Sendable {
    var benchCase: String
    var carriers: String
    var runs: Int
    var quietRunsPerSecond: Double
    var busyRunsPerSecond: Double
    /// The process's CPU seconds per wall second while busy (all its threads; 1 is a whole core),
    /// median of the busy measurements; nil where the process CPU clock cannot be read.
    var busyCPUShare: Double?

    /// The busy rate over the quiet one.
    var share: Double { quietRunsPerSecond > 0 ? busyRunsPerSecond / quietRunsPerSecond : 0 }

    /// The least share every row should keep (issue 37).
    static let targetShare = 0.4
    /// The CPU-bound processes started beside the campaign.
    static let busyProcesses = 2
    /// The most runs a calibrated measurement takes, as a multiple of the runs asked for.
    static let maxRunsFactor = 100

    /// The workloads measured: every threaded throughput case but the day-long token and the
    /// rows without race detection.
    static var cases: [BenchCase] {
        BenchCase.throughput.filter { $0.concurrency.enabled && $0.detectsRaces && $0.name != BenchCase.longToken.name }
    }

    /// Measures every case quiet and busy, with each kind of carrier this build has: for each
    /// case, `repetitions` pairs of one-job campaigns, quiet then beside the busy processes, and
    /// the median of each side. Each pair is measured within seconds: this VM's speed drifts by
    /// 20-60% within the hour, and with every quiet rate measured first and every busy rate a
    /// minute or more later, the same build's rows moved between 34% and 167% from run to run.
    /// Each measurement takes `runs` runs, or as many more as make a quiet one last
    /// `minimumSeconds` (a first quiet campaign, not counted, tells how many): the kernel shares
    /// the cores out over tens of milliseconds, and a campaign of a fifth of a second beside the
    /// busy processes measured where they happened to be placed as much as its share.
    static func measure(runs: Int, minimumSeconds: Double, repetitions: Int,
                        progress: (String) -> Void) -> [BusyMachine] {
        // Fibers where this build has them and BGSIM_CARRIERS does not ask for threads.
        let kinds: [(name: String, osThreads: Bool)] = SimulatedThreadPool.Carriers.preferred == .fibers
            ? [("fibers", false), ("os-threads", true)] : [("os-threads", true)]
        var rows: [BusyMachine] = []
        for kind in kinds {
            SimulatedThreadPool.Carriers.preferOSThreads(kind.osThreads)
            defer { SimulatedThreadPool.Carriers.preferOSThreads(false) }
            for benchCase in cases {
                progress("busy machine: \(benchCase.name), \(kind.name), quiet and beside \(busyProcesses) busy processes")
                let caseRuns = calibratedRuns(benchCase, runs: runs, minimumSeconds: minimumSeconds)
                var quiet: [Double] = []
                var busy: [Double] = []
                var busyCPU: [Double] = []
                for _ in 0..<max(1, repetitions) {
                    quiet.append(measureOnce(benchCase, runs: caseRuns).runsPerSecond)
                    guard let load = CPULoad(processes: busyProcesses) else { return [] }
                    let loaded = measureOnce(benchCase, runs: caseRuns)
                    load.stop()
                    busy.append(loaded.runsPerSecond)
                    if let cpu = loaded.cpuShare { busyCPU.append(cpu) }
                }
                rows.append(BusyMachine(benchCase: benchCase.name, carriers: kind.name, runs: caseRuns,
                                        quietRunsPerSecond: Spread(quiet).median,
                                        busyRunsPerSecond: Spread(busy).median,
                                        busyCPUShare: busyCPU.count == quiet.count ? Spread(busyCPU).median : nil))
            }
        }
        return rows
    }

    /// `runs`, or the runs a quiet one-job campaign of this case takes to last `minimumSeconds`
    /// (measured once, at most ``maxRunsFactor`` times `runs`).
    static func calibratedRuns(_ benchCase: BenchCase, runs: Int, minimumSeconds: Double) -> Int {
        guard minimumSeconds > 0 else { return runs }
        let rate = measureOnce(benchCase, runs: runs).runsPerSecond
        return runsLasting(minimumSeconds, at: rate, atLeast: runs)
    }

    /// The runs that last `seconds` at `runsPerSecond`, rounded up, between `runs` and
    /// ``maxRunsFactor`` times it.
    static func runsLasting(_ seconds: Double, at runsPerSecond: Double, atLeast runs: Int) -> Int {
        let needed = (runsPerSecond * seconds).rounded(.up)
        guard needed.isFinite, needed > Double(runs) else { return runs }
        return min(Int(needed), runs * maxRunsFactor)
    }

    /// One one-job campaign: its runs/s, and the process's CPU seconds per wall second over it.
    private static func measureOnce(_ benchCase: BenchCase, runs: Int) -> (runsPerSecond: Double, cpuShare: Double?) {
        let stopwatch = CPUStopwatch()
        let result = BenchRunner.campaign(benchCase, runs: runs, jobs: 1)
        let elapsed = max(stopwatch.wallSeconds, 1e-9)
        return (Double(result.totals.runs) / max(result.wallSeconds, 1e-9), stopwatch.cpuSeconds.map { $0 / elapsed })
    }

    /// The table lines.
    static func print(_ rows: [BusyMachine], io: CommandIO) {
        guard !rows.isEmpty else { return }
        io.out("| busy machine (1 job beside \(busyProcesses) CPU-bound processes) | carriers | runs | quiet runs/s | "
            + "busy runs/s | CPU while busy | share (target \(Int(targetShare * 100))%) |")
        io.out("|---|---|---:|---:|---:|---:|---:|")
        for row in rows {
            let below = row.share < targetShare ? " below target" : ""
            let cpu = row.busyCPUShare.map { "\(Int(($0 * 100).rounded()))% of a core" } ?? "unavailable"
            io.out("| \(row.benchCase) | \(row.carriers) | \(row.runs) | \(Int(row.quietRunsPerSecond.rounded())) | "
                + "\(Int(row.busyRunsPerSecond.rounded())) | \(cpu) | \(Int((row.share * 100).rounded()))%\(below) |")
        }
    }

    /// The JSON array of the rows.
    static func json(_ rows: [BusyMachine]) -> JSONValue {
        .array(rows.map { row in
            .object(["case": .string(row.benchCase), "carriers": .string(row.carriers), "runs": .int(Int64(row.runs)),
                     "busyProcesses": .int(Int64(busyProcesses)),
                     "quietRunsPerSecond": .double(row.quietRunsPerSecond),
                     "busyRunsPerSecond": .double(row.busyRunsPerSecond),
                     "busyCPUShare": row.busyCPUShare.map { .double($0) } ?? .null, "share": .double(row.share)])
        })
    }
}

/// CPU-bound processes for a measurement under load: each a shell spinning in a loop that ends
/// by itself once the bench is gone (it checks its parent on every turn), so a bench killed
/// hard leaves nothing spinning.
///
/// ```swift
/// guard let load = CPULoad(processes: 2) else { return }
/// defer { load.stop() }
/// ```
final class CPULoad {
    private let processes: [Process]

    /// Starts `processes` spinners; nil if `/bin/sh` cannot be started (none are left running).
    init?(processes count: Int) {
        var started: [Process] = []
        for _ in 0..<count {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "while kill -0 $PPID 2>/dev/null; do :; done"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                for process in started { kill(process.processIdentifier, SIGKILL) }
                return nil
            }
            started.append(process)
        }
        processes = started
    }

    /// The spinners' process ids.
    var processIdentifiers: [Int32] { processes.map(\.processIdentifier) }

    /// Stops every spinner and waits for it. SIGKILL, not `terminate()`'s SIGTERM: a child
    /// inherits its parent's blocked signals, and a test runner that blocks SIGTERM left the
    /// spinners running and `stop()` waiting for ever.
    func stop() {
        for process in processes where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for process in processes { process.waitUntilExit() }
    }
}
