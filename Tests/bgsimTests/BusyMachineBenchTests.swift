@testable import BGSimCommands
import DeterministicSimulation
import Foundation
import Synchronization
import Testing

/// `bgsim bench`'s busy-machine rows (issue 37 item 2): the load it starts ends with it, the rows
/// cover every threaded workload, and a row under the target says so. The figures themselves are
/// a measurement (`bgsim bench --busy-only`), never checked here.
@Suite struct BusyMachineBenchTests {
    @Test("the CPU-bound processes run until stopped, and none is left behind")
    func loadStartsAndStops() throws {
        let load = try #require(CPULoad(processes: 2))
        let pids = load.processIdentifiers
        #expect(pids.count == 2)
        for pid in pids { #expect(kill(pid, 0) == 0, "spinner \(pid) is not running") }
        load.stop()
        for pid in pids { #expect(kill(pid, 0) != 0, "spinner \(pid) outlived stop()") }
    }

    @Test("the rows cover every threaded throughput case but the day-long token, the race workloads included")
    func everyThreadedWorkload() {
        let names = BusyMachine.cases.map(\.name)
        #expect(names.contains("token-ios17-threads"))
        #expect(names.contains("receipt-upload-ios17-threads"))
        #expect(!names.contains(BenchCase.longToken.name))
        #expect(!names.contains(BenchCase.tokenOneThread.name), "a one-thread case has no carriers to compare")
        #expect(!names.contains { $0.hasSuffix("-no-race-detection") })
    }

    @Test("the rows that measure the race detector's cost leave no-data-race out, and only that")
    func withoutRaceDetectionLeavesOutOnlyTheChecker() {
        for benchCase in BenchCase.withoutRaceDetection {
            let ids = benchCase.spec.invariants.map(\.id)
            #expect(!ids.contains("no-data-race"), "\(benchCase.name)")
            #expect(ids.count == BenchCase.token.spec.invariants.count - 1, "\(benchCase.name)")
        }
    }

    @Test("the table gives each row's share and marks a share under 40%")
    func tableMarksShortfall() {
        let rows = [
            BusyMachine(benchCase: "token-ios17-threads", carriers: "fibers", runs: 400, quietRunsPerSecond: 1_000,
                        busyRunsPerSecond: 650, busyCPUShare: 0.664),
            BusyMachine(benchCase: "token-ios17-threads", carriers: "os-threads", runs: 400, quietRunsPerSecond: 800,
                        busyRunsPerSecond: 200),
        ]
        let output = Mutex<[String]>([])
        let io = CommandIO(writeOut: { line in output.withLock { $0.append(line) } }, writeErr: { _ in },
                           stderrIsTerminal: false)
        BusyMachine.print(rows, io: io)
        let lines = output.withLock { $0 }.flatMap { $0.split(separator: "\n").map(String.init) }
        #expect(lines.contains { $0.contains("| fibers |") && $0.hasSuffix("| 66% of a core | 65% |") }, "\(lines)")
        #expect(lines.contains { $0.contains("| os-threads |") && $0.hasSuffix("| unavailable | 25% below target |") },
                "\(lines)")
    }

    @Test("a measurement takes the runs that make a quiet one last the minimum, never fewer than asked, at most 100 times")
    func calibratedRuns() {
        #expect(BusyMachine.runsLasting(1, at: 1_500, atLeast: 400) == 1_500)
        #expect(BusyMachine.runsLasting(1, at: 1_499.2, atLeast: 400) == 1_500, "rounded up")
        #expect(BusyMachine.runsLasting(1, at: 300, atLeast: 400) == 400, "a slow case keeps the runs asked for")
        #expect(BusyMachine.runsLasting(1, at: 1e9, atLeast: 400) == 40_000)
        #expect(BusyMachine.runsLasting(1, at: .infinity, atLeast: 400) == 400)
        #expect(BusyMachine.calibratedRuns(.token, runs: 10, minimumSeconds: 0) == 10, "no minimum: no calibration run")
    }
}
