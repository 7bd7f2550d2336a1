#if canImport(Glibc)
    import Glibc
#endif
import BGSimCommands
import DeterministicSimulation
import SimulationFormats
import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import Testing

/// Issue 32, item 4 and the audit's defect 5: any number of SIGINT or SIGTERM keeps everything
/// (exit 128 + the signal, a complete report and JUnit file, no temporary file), and isolated
/// children die with their parent, even one whose run spins without yielding.
@Suite struct SignalTests {
    /// The campaign the signals interrupt: about a second of runs on one job.
    static let runs: Int64 = 4_000

    /// One trial's signals: which, and how many milliseconds after the previous event each comes.
    struct Plan: CustomStringConvertible {
        var signals: [(number: Int32, delayMilliseconds: Int)]

        var description: String {
            signals.map { "\($0.number == SIGINT ? "INT" : "TERM")@+\($0.delayMilliseconds)ms" }.joined(separator: " ")
        }
    }

    /// 24 trials from one seed: 1, 2 and 3 signals in turn, each SIGINT or SIGTERM, the first
    /// 50-1,250 ms after the start, the others 0-80 ms after the one before.
    static func plans(seed: UInt64) -> [Plan] {
        var random = Xoshiro256StarStar(seed: seed)
        return (0..<24).map { trial in
            Plan(signals: (0...(trial % 3)).map { index in
                let number = random.next(below: 2) == 0 ? SIGINT : SIGTERM
                let delay = index == 0 ? 50 + Int(random.next(below: 1_200)) : Int(random.next(below: 80))
                return (number, delay)
            })
        }
    }

    @Test("SIGINT and SIGTERM at random points, 1-3 at a time: exit 128+N, a valid report and JUnit file, no temporary file")
    func signalsAtRandomPointsKeepTheReports() throws {
        let executable = ReplayInNewProcessTests.executable
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build bgsim first: swift build --build-tests")
        let seed: UInt64 = 0x5167_0032_0000_0004
        var interrupted = 0
        for (trial, plan) in Self.plans(seed: seed).enumerated() {
            let label = "trial \(trial) (seed 0x\(String(seed, radix: 16)), signals \(plan))"
            let folder = TemporaryFolder()
            let (report, junit) = (folder.path + "/report.json", folder.path + "/junit.xml")
            let process = Process()
            process.executableURL = executable
            process.arguments = ["fuzz", PackageRoot.scenario("token-correct-ios17.json"), "--runs", "\(Self.runs)",
                                 "--jobs", "1", "--quiet", "--no-failure-db", "--report", report, "--junit", junit]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            for (number, delay) in plan.signals {
                usleep(UInt32(delay * 1_000))
                kill(process.processIdentifier, number)
            }
            let status = try Self.wait(process, seconds: 30, label)
            let expected = 128 + plan.signals[0].number
            #expect(status == expected || status == 0, "\(label): exit \(status)")
            if status == expected { interrupted += 1 }
            let json = try Self.parsedReport(report, label)
            let finished = json["summary"]?["runs"]?.intValue == Self.runs
            #expect(json["summary"]?["interrupted"] == .bool(true) || finished, "\(label): \(json["summary"] ?? .null)")
            #expect(status == expected || finished, "\(label): exit 0 from an unfinished campaign")
            #expect(Self.isWellFormedXML(junit), "\(label): the JUnit file is missing or not well formed")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            #expect(left == ["junit.xml", "report.json"], "\(label): files left: \(left)")
        }
        #expect(interrupted >= 12, "most trials must interrupt the campaign; \(interrupted) of 24 did")
    }

    @Test("a killed bgsim (SIGKILL) leaves no isolated child behind, even one spinning in a hung run")
    func childrenDieWithTheirParent() throws {
        #if os(Linux)
            let executable = ReplayInNewProcessTests.executable
            try #require(FileManager.default.isExecutableFile(atPath: executable.path))
            let process = Process()
            process.executableURL = executable
            process.arguments = ["fuzz", CrashIsolationTests.hanging, "--isolate", "--run-timeout", "600", "--jobs", "2",
                                 "--quiet", "--no-failure-db"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let parent = process.processIdentifier
            // Last: while its children live, Foundation's wait for the killed parent does not return
            // (seen before the fix), so the defer below ends any that are left first.
            defer { process.waitUntilExit() }
            var children: [pid_t] = []
            var runningSamples = 0  // runs take milliseconds: a child running in two samples in a row spins
            for _ in 0..<40 where runningSamples < 2 {
                usleep(250_000)
                children = ChildProcesses.of(parent)
                runningSamples = children.contains { ChildProcesses.isRunning($0) } ? runningSamples + 1 : 0
            }
            defer {  // without the fix they spin on: end them (only isolated workers, in case a pid was reused)
                for child in children where ChildProcesses.isIsolatedWorker(child) { kill(child, SIGKILL) }
            }
            #expect(runningSamples >= 2, "no isolated child was spinning in the hung run: \(children)")
            kill(parent, SIGKILL)
            var alive = children
            for _ in 0..<50 where !alive.isEmpty {
                usleep(100_000)
                alive = alive.filter { ChildProcesses.state($0).map { $0 != "Z" } ?? false }
            }
            #expect(!children.isEmpty, "the isolated campaign started no child")
            #expect(alive.isEmpty, "children \(alive) outlived their killed parent \(parent) by 5 s")
        #endif
    }

    /// Waits for `process` at most `seconds`; kills it (and fails the test) if it does not end.
    static func wait(_ process: Process, seconds: Int, _ label: String) throws -> Int32 {
        for _ in 0..<(seconds * 20) where process.isRunning { usleep(50_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("\(label): bgsim did not end within \(seconds) s of the signals")
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    static func parsedReport(_ path: String, _ label: String) throws -> JSONValue {
        let data = try #require(FileManager.default.contents(atPath: path), "\(label): no report")
        return try JSONParser().parse([UInt8](data))
    }

    static func isWellFormedXML(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        return XMLParser(data: data).parse()
    }
}

/// Processes by their parent, read from /proc (Linux).
enum ChildProcesses {
    /// The processes whose parent is `parent`.
    static func of(_ parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { fields($0)?.parent == parent }.sorted()
    }

    /// Whether `pid` is a bgsim isolated worker (its command line names `_isolated-worker`).
    static func isIsolatedWorker(_ pid: pid_t) -> Bool {
        let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
        return String(decoding: line, as: UTF8.self).contains("_isolated-worker")
    }

    /// The one-letter state (`R` running, `S` sleeping, `Z` zombie); nil once it is gone.
    static func state(_ pid: pid_t) -> String? { fields(pid)?.state }

    /// Whether any thread of `pid` is running (an isolated worker runs its runs on a thread of
    /// its own while its main thread waits: OffMainThread).
    static func isRunning(_ pid: pid_t) -> Bool {
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return threads.contains { thread in
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/stat", encoding: .utf8),
                  let close = text.lastIndex(of: ")") else { return false }
            return text[text.index(after: close)...].split(separator: " ").first == "R"
        }
    }

    /// The state and parent fields of /proc/PID/stat (after the command name, which may hold spaces).
    private static func fields(_ pid: pid_t) -> (state: String, parent: pid_t)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let rest = text[text.index(after: close)...].split(separator: " ")
        guard rest.count > 2, let parent = pid_t(rest[1]) else { return nil }
        return (String(rest[0]), parent)
    }
}
