import BGSimCommands
import Foundation
import SimulationFormats
import Testing

/// Issue 32, item 1: a fault of bgsim's own code (its shrinker trapping or making no progress)
/// never costs a finding. In process the handler prints the failure, unshrunk, with a replay
/// command that works, and exits 71; isolated, the shrink runs in a child, the failure stands
/// unshrunk in the summary, the report and JUnit, and the campaign goes on. The faults are planted
/// with `BGSIM_INJECT_INTERNAL_ERROR` (``InjectedFault`` in the engine).
@Suite struct InternalErrorTests {
    static let planted = PackageRoot.scenario("download-manager-p1-overwritten-task-id-ios17.json")
    static let correct = PackageRoot.scenario("token-correct-ios17.json")
    static let trap = ["BGSIM_INJECT_INTERNAL_ERROR": "shrink"]

    @Test("a trap in the shrinker without isolation prints the failure unshrunk with a replay that reproduces it, exit 71")
    func trapInProcess() throws {
        let run = try CrashIsolationTests.spawn(["fuzz", Self.planted, "--runs", "10", "--jobs", "1", "--no-isolate",
                                                 "--quiet"], environment: Self.trap)
        #expect(run.code == ExitCode.internalError.rawValue, "\(run.stderr)")
        #expect(run.stderr.contains("bgsim: INTERNAL ERROR: fatal signal SIGILL"), "\(run.stderr)")
        #expect(!run.stderr.contains("bgsim: CRASH"), "a fault of bgsim is not blamed on workload code")
        let failure = try #require(run.stderr.split(separator: "\n").first { $0.hasPrefix("bgsim: the failure: ") })
        let invariant = String(failure.dropFirst("bgsim: the failure: ".count).prefix { $0 != " " })
        #expect(failure.contains("in run seed 0x"), "\(failure)")
        let replay = try #require(CrashIsolationTests.replayArguments(run.stderr), "\(run.stderr)")
        #expect(CrashIsolationTests.seedArgument(replay) != nil)
        let replayed = try ReplayInNewProcessTests.runProcess(replay)  // reads its long trace as it comes
        #expect(replayed.code == ExitCode.violation.rawValue, "the printed replay reproduces the failure")
        #expect(replayed.stdout.contains(invariant), "\(replayed.stdout)")
    }

    @Test("a shrinker that makes no progress is stopped by the watchdog as bgsim's internal error, exit 71")
    func hangInProcess() throws {
        let run = try CrashIsolationTests.spawn(["fuzz", Self.planted, "--runs", "10", "--jobs", "1", "--no-isolate",
                                                 "--quiet", "--run-timeout", "1"],
                                                environment: ["BGSIM_INJECT_INTERNAL_ERROR": "shrink-hang"])
        #expect(run.code == ExitCode.internalError.rawValue, "\(run.stderr)")
        #expect(run.stderr.contains("bgsim: INTERNAL ERROR: bgsim's own code made no progress for 1 s"), "\(run.stderr)")
        #expect(run.stderr.contains("bgsim: the failure: "), "\(run.stderr)")
        #expect(!run.stderr.contains("HANG"), "not blamed on workload code")
    }

    @Test("isolated, a trap in the shrinker costs only the shrink: failures stand unshrunk, the next scenario runs, exit 71")
    func trapIsolated() throws {
        let folder = TemporaryFolder()
        let run = try CrashIsolationTests.spawn(["fuzz", Self.planted, Self.correct, "--runs", "10", "--isolate", "--quiet",
                                                 "--report", folder.path + "/", "--junit", folder.path + "/junit.xml"],
                                                environment: Self.trap)
        #expect(run.code == ExitCode.internalError.rawValue, "\(run.stderr)")
        #expect(run.stdout.contains("NOT SHRUNK: bgsim INTERNAL ERROR while shrinking"), "\(run.stdout)")
        #expect(run.stdout.contains("2 of 2 scenarios met their expectation"), "the campaign went on: \(run.stdout)")
        #expect(run.stderr.contains("an internal error of bgsim while shrinking"), "\(run.stderr)")
        let path = folder.path + "/download-manager-p1-overwritten-task-id-ios17.json"
        let report = try JSONParser().parse([UInt8](try #require(FileManager.default.contents(atPath: path))))
        let failures = try #require(report["failures"]?.arrayValue)
        #expect(!failures.isEmpty)
        for failure in failures {
            #expect(failure["shrinkFault"]?["internalError"] == true)
            #expect(failure["shrink"] == .null)
            #expect(failure["replay"]?.stringValue?.contains("--seed 0x") == true)
        }
        #expect(FileManager.default.fileExists(atPath: folder.path + "/junit.xml"))
    }

    @Test("check goes on after an internal error in a shrink and names it, exit 71")
    func checkGoesOn() throws {
        let run = try CrashIsolationTests.spawn(["check", Self.planted, Self.correct, "--quiet", "--no-failure-db"],
                                                environment: Self.trap)
        #expect(run.code == ExitCode.internalError.rawValue, "\(run.stderr)")
        #expect(run.stdout.contains("INTERNAL ERROR of bgsim while shrinking"), "\(run.stdout)")
        #expect(run.stdout.contains("ok   token-correct-ios17"), "the gate went on to the next scenario: \(run.stdout)")
    }

    @Test("a trap while writing the report is bgsim's internal error after the printed findings, never a workload crash")
    func trapWritingTheReport() throws {
        let folder = TemporaryFolder()
        let run = try CrashIsolationTests.spawn(["fuzz", Self.planted, "--runs", "10", "--jobs", "1", "--quiet",
                                                 "--report", folder.path + "/r.json"],
                                                environment: ["BGSIM_INJECT_INTERNAL_ERROR": "report"])
        #expect(run.code == ExitCode.internalError.rawValue, "\(run.stderr)")
        #expect(run.stderr.contains("bgsim: INTERNAL ERROR: fatal signal SIGILL"), "\(run.stderr)")
        #expect(run.stderr.contains("while writing the report of download-manager-p1-overwritten-task-id-ios17"))
        #expect(!run.stderr.contains("bgsim: CRASH"))
        #expect(run.stdout.contains("replay: bgsim replay"), "the findings were printed before: \(run.stdout)")
    }
}
