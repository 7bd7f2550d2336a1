import BGSimCommands
import DeterministicSimulation
import SimulationFormats
import Foundation
import Testing

/// Issue 17 part 3: a crash or a hang in workload code must not lose the failure. Without
/// isolation the process prints the run seed and the replay command, then exits 70 (crash) or
/// 124 (hang); with isolation (`fuzz --isolate`, `check` by default) the campaign goes on and
/// reports `no-crash` / `no-hang` findings, shrunk, with replays that reproduce them.
@Suite struct CrashIsolationTests {
    static let crashing = PackageRoot.scenario("backup-force-unwrapped-task-id-ios17.json")
    static let hanging = PackageRoot.scenario("backup-spins-until-online-ios17.json")

    /// Runs the built `bgsim` with these arguments (and these variables added to the
    /// environment); exit status, stdout and stderr.
    static func spawn(_ arguments: [String], environment: [String: String] = [:]) throws
        -> (code: Int32, stdout: String, stderr: String) {
        try #require(FileManager.default.isExecutableFile(atPath: ReplayInNewProcessTests.executable.path),
                     "build bgsim first: swift build --build-tests")
        let process = Process()
        process.executableURL = ReplayInNewProcessTests.executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: PackageRoot.path)
        // Replay commands start with plain `bgsim` (not `swift run bgsim`), as the tests parse them.
        process.environment = ProcessInfo.processInfo.environment.merging(["BGSIM_INVOCATION": "bgsim"]) { $1 }
            .merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// The seeds the banner names after "during run seed".
    static func bannerSeeds(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "during run seed ") else { return nil }
            return String(line[range.upperBound...].prefix(18))
        }
    }

    /// The seed a replay command's `--seed` gives (the command also names the run's strategy).
    static func seedArgument(_ replay: [String]) -> String? {
        replay.firstIndex(of: "--seed").flatMap { replay.indices.contains($0 + 1) ? replay[$0 + 1] : nil }
    }

    /// Whether `text` holds what the Swift runtime prints for the planted force unwrap: its
    /// message in a debug build; an optimized build traps without one, so there only the banner
    /// names the crash (always true).
    static func showsForceUnwrapMessage(_ text: String) -> Bool {
        #if DEBUG
        text.contains("Fatal error: Unexpectedly found nil while unwrapping an Optional value")
        #else
        true
        #endif
    }

    /// The arguments of the banner's or summary's first `replay:` command.
    static func replayArguments(_ text: String) -> [String]? {
        ReplayInNewProcessTests.printedReplay(text, marker: "replay: bgsim replay")
    }

    @Test("a crash without isolation prints the scenario, run seed and replay command, and exits 70")
    func crashBannerWithoutIsolation() throws {
        let run = try Self.spawn(["fuzz", Self.crashing, "--no-isolate", "--jobs", "1", "--quiet"])
        #expect(run.code == ExitCode.crashed.rawValue, "\(run.stderr)")
        #expect(Self.showsForceUnwrapMessage(run.stderr), "\(run.stderr)")
        #expect(run.stderr.contains("bgsim: CRASH: fatal signal SIG"), "\(run.stderr)")
        #expect(run.stderr.contains("of scenario backup-force-unwrapped-task-id-ios17"))
        let seeds = Self.bannerSeeds(run.stderr)
        #expect(seeds.count == 1, "\(run.stderr)")
        let replay = try #require(Self.replayArguments(run.stderr), "\(run.stderr)")
        #expect(Self.seedArgument(replay) == seeds.first)
        #expect(Array(replay.suffix(2)) == ["--strategy", "random"], "a default campaign's run 0 is a random run")
        let again = try Self.spawn(replay)
        #expect(again.code == ExitCode.crashed.rawValue, "the printed replay reproduces the crash: \(again.stderr)")
        #expect(Self.bannerSeeds(again.stderr) == seeds)
    }

    @Test("with --jobs 2 the banner names the run that crashed, not every run in flight")
    func crashBannerNamesTheCrashingRunWithTwoJobs() throws {
        // A short horizon makes crashes rarer, so the other worker's run is usually one that passes.
        let folder = TemporaryFolder()
        let text = try String(contentsOfFile: Self.crashing, encoding: .utf8)
            .replacingOccurrences(of: "\"horizonSeconds\": 1800", with: "\"horizonSeconds\": 300")
        let scenario = folder.write("rare-crash.json", text)
        let run = try Self.spawn(["fuzz", scenario, "--no-isolate", "--jobs", "2", "--runs", "200", "--quiet"])
        #expect(run.code == ExitCode.crashed.rawValue, "\(run.stderr)")
        let seeds = Self.bannerSeeds(run.stderr)
        #expect(seeds.count == 1, "one run named, the crashing thread's: \(run.stderr)")
        let seed = try #require(seeds.first)
        let replay = try Self.spawn(["replay", scenario, "--seed", seed])
        #expect(replay.code == ExitCode.crashed.rawValue, "run seed \(seed) must be one that crashes")
    }

    @Test("an isolated campaign goes on after crashes, reports no-crash shrunk, and its replays reproduce")
    func isolatedCampaignReportsNoCrash() throws {
        let folder = TemporaryFolder()
        let report = folder.path + "/report.json"
        let run = CLIRun(["fuzz", Self.crashing, "--isolate", "--jobs", "2", "--quiet", "--report", report])
        #expect(run.code == .success, "the crash is the scenario's expected finding: \(run.stderr)")
        #expect(run.stdout.contains("  20 runs: "), "every run ran: \(run.stdout)")
        #expect(run.stdout.contains("FOUND no-crash"))
        #expect(Self.showsForceUnwrapMessage(run.stdout), "\(run.stdout)")
        #expect(run.stdout.contains("(fatal signal SIG"))
        let json = try JSONParser().parse([UInt8](try #require(FileManager.default.contents(atPath: report))))
        let failure = try #require(json["failures"]?.arrayValue?.first)
        #expect(failure["invariant"] == .string("no-crash"))
        let shrunk = try #require(failure["shrunkActionCount"]?.intValue)
        let original = try #require(failure["originalActionCount"]?.intValue)
        #expect(shrunk <= 4 && shrunk < original, "a crash is shrunk like any failure: \(original) -> \(shrunk) actions")

        let bySeed = try #require(Self.replayArguments(run.stdout), "\(run.stdout)")
        let seedReplay = try Self.spawn(bySeed)
        #expect(seedReplay.code == ExitCode.crashed.rawValue)
        #expect(Self.bannerSeeds(seedReplay.stderr).first == Self.seedArgument(bySeed))
        let byChoices = try #require(ReplayInNewProcessTests.printedReplay(run.stdout, marker: "--choices"))
        let choicesReplay = try Self.spawn(byChoices)
        #expect(choicesReplay.code == ExitCode.crashed.rawValue, "the shrunk choices crash too: \(choicesReplay.stderr)")
    }

    @Test("isolation changes nothing for runs that do not crash: same report for --jobs 1 in process and --jobs 2 isolated")
    func isolationKeepsResults() throws {
        let folder = TemporaryFolder()
        let scenario = PackageRoot.scenario("backup-p4-unconditional-end-ios17.json")
        let local = CLIRun(["fuzz", scenario, "--runs", "40", "--jobs", "1", "--quiet", "--report", folder.path + "/a.json"])
        let isolated = CLIRun(["fuzz", scenario, "--runs", "40", "--jobs", "2", "--isolate", "--quiet",
                               "--report", folder.path + "/b.json"])
        #expect(local.code == .success && isolated.code == .success, "the planted bug found as expected both ways")
        let a = try JSONParser().parse([UInt8](try #require(FileManager.default.contents(atPath: folder.path + "/a.json"))))
        var b = try JSONParser().parse([UInt8](try #require(FileManager.default.contents(atPath: folder.path + "/b.json"))))
        #expect(a["summary"]?["traceDigest"] == b["summary"]?["traceDigest"])
        // The reports differ only in timing and in the jobs they record.
        var campaign = try #require(b["campaign"]?.objectValue)
        campaign["jobs"] = 1
        var object = try #require(b.objectValue)
        object["campaign"] = .object(campaign)
        b = .object(object)
        #expect(CampaignReport.timingFree(a) == CampaignReport.timingFree(b))
    }

    @Test("a crashing campaign's digest does not depend on what the binary is called (the crash text names no tool)")
    func crashDigestIgnoresToolName() throws {
        let folder = TemporaryFolder()
        let renamed = folder.path + "/appsim"
        try FileManager.default.createSymbolicLink(atPath: renamed, withDestinationPath: ReplayInNewProcessTests.executable.path)
        func digest(_ executable: String) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["fuzz", Self.crashing, "--isolate", "--runs", "6", "--jobs", "1", "--no-failure-db"]
            process.currentDirectoryURL = URL(fileURLWithPath: PackageRoot.path)
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(text.contains("FOUND no-crash"), "\(executable): \(text)")
            let line = try #require(text.split(separator: "\n").first { $0.contains("digest ") }, "\(text)")
            return String(line[line.range(of: "digest ")!.upperBound...])
        }
        #expect(try digest(ReplayInNewProcessTests.executable.path) == digest(renamed))
    }

    @Test("an isolated run that makes no progress for --run-timeout is stopped and reported as no-hang; the campaign goes on")
    func hangIsKilledAndReported() throws {
        let run = CLIRun(["fuzz", Self.hanging, "--isolate", "--run-timeout", "1", "--jobs", "2", "--quiet"])
        #expect(run.code == .success, "the hang is the scenario's expected finding: \(run.stderr)")
        #expect(run.stdout.contains("  30 runs: "), "\(run.stdout)")
        #expect(run.stdout.contains("FOUND no-hang"))
        #expect(run.stdout.contains("made no progress (no job started, no thread resumed) for 1 s of wall-clock time"),
                "\(run.stdout)")
        #expect(Self.replayArguments(run.stdout) != nil, "a hang names its seed and replay: \(run.stdout)")
    }

    @Test("without isolation the watchdog prints the hanging run and exits 124")
    func hangWithoutIsolation() throws {
        let run = try Self.spawn(["fuzz", Self.hanging, "--no-isolate", "--run-timeout", "1", "--jobs", "2", "--quiet"])
        #expect(run.code == ExitCode.hung.rawValue, "\(run.stderr)")
        #expect(run.stderr.contains("bgsim: HANG: a run made no progress for 1 s"), "\(run.stderr)")
        #expect(Self.bannerSeeds(run.stderr).count == 1)
        #expect(Self.replayArguments(run.stderr) != nil)
    }

    /// The token scenario with actions close together: one run is about 70,000 jobs in a debug
    /// build's horizon, seconds of wall-clock time (3 s at a load of 11 on 2 cores), each job
    /// microseconds; an optimized build runs the same jobs ten times faster, so it gets ten
    /// times the horizon.
    static func slowScenario(_ folder: TemporaryFolder) throws -> String {
        let text = try String(contentsOfFile: PackageRoot.scenario("token-correct-ios17.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"horizonSeconds\": 1800", with: "\"horizonSeconds\": \(slowHorizonSeconds)")
            .replacingOccurrences(of: "\"invariants\"", with: "\"environment\": {\"gapSeconds\": {\"min\": 0.01, \"max\": 0.05}},\n  \"invariants\"")
        return folder.write("token-slow.json", text)
    }

    static let slowHorizonSeconds: Int = {
        #if DEBUG
        400
        #else
        4_000
        #endif
    }()

    @Test("a slow run that keeps stepping is not a hang: far longer than --run-timeout in all, in process and isolated")
    func slowRunIsNotAHang() throws {
        let folder = TemporaryFolder()
        let scenario = try Self.slowScenario(folder)
        for isolation in ["--no-isolate", "--isolate"] {
            let report = folder.path + "/report\(isolation).json"
            let run = try Self.spawn(["fuzz", scenario, isolation, "--runs", "1", "--jobs", "1", "--run-timeout", "0.5",
                                      "--quiet", "--no-failure-db", "--report", report])
            #expect(run.code == ExitCode.success.rawValue, "\(isolation): \(run.stdout)\(run.stderr)")
            #expect(!run.stderr.contains("HANG") && !run.stdout.contains("no-hang"), "\(isolation): \(run.stdout)\(run.stderr)")
            // The test means something only if a run took longer than the timeout (else it could not fail).
            let json = try JSONParser().parse([UInt8](try #require(FileManager.default.contents(atPath: report))))
            let wall = try #require(json["summary"]?["wallSeconds"]?.doubleValue)
            #expect(wall > 0.5, "\(isolation): the run took \(wall) s; make slowHorizonSeconds larger")
        }
    }

    @Test("check isolates by default: the crash and hang scenarios meet their expectations; --no-isolate crashes")
    func checkIsolatesByDefault() throws {
        let check = CLIRun(["check", Self.crashing, Self.hanging, "--quiet"])
        #expect(check.code == .success, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("found no-crash"))
        #expect(check.stdout.contains("found no-hang"))
        let unisolated = try Self.spawn(["check", Self.crashing, "--no-isolate", "--quiet"])
        #expect(unisolated.code == ExitCode.crashed.rawValue)
    }

    @Test("the correct counterpart (backup/correct), isolated, neither crashes nor hangs")
    func correctCounterpartHolds() {
        let run = CLIRun(["fuzz", PackageRoot.scenario("backup-correct-ios17.json"), "--isolate", "--runs", "60",
                          "--jobs", "2", "--run-timeout", "5", "--quiet"])
        #expect(run.code == .success, "\(run.stdout)")
        #expect(!run.stdout.contains("no-crash") && !run.stdout.contains("no-hang"))
    }

    @Test("a scenario expecting a crash is isolated by fuzz without --isolate")
    func fuzzIsolatesCrashScenarios() throws {
        let run = CLIRun(["fuzz", Self.crashing, "--runs", "5", "--jobs", "1", "--quiet"])
        #expect(run.code == .success)
        #expect(run.stdout.contains("FOUND no-crash"))
    }

    @Test("a saved crash is replayed in a child by an isolated campaign, never in bgsim's own process")
    func savedCrashReplaysIsolated() throws {
        // The crashing scenario expected to pass: the first campaign saves its no-crash failure,
        // which the next one replays first. It was replayed in bgsim's own process, which
        // crashed "outside any run of a campaign" (exit 70) before any run.
        let folder = TemporaryFolder()
        let text = try String(contentsOfFile: Self.crashing, encoding: .utf8)
        let expectation = "\"expect\": {\n    \"violation\": \"no-crash\"\n  }"
        try #require(text.contains(expectation))
        let file = folder.write("crash-unexpected.json", text.replacingOccurrences(of: expectation, with: "\"expect\": \"pass\""))
        let arguments = ["fuzz", file, "--isolate", "--failure-db", folder.path + "/failures", "--jobs", "1"]
        let first = try Self.spawn(arguments)
        #expect(first.code == ExitCode.violation.rawValue && first.stdout.contains("saved"), "\(first.stdout)\(first.stderr)")
        let second = try Self.spawn(arguments)
        #expect(second.code == ExitCode.violation.rawValue, "\(second.stdout)\(second.stderr)")
        #expect(second.stdout.contains("still fail") && second.stdout.contains("(no-crash"), "\(second.stdout)")
        #expect(!second.stderr.contains("CRASH"), "\(second.stderr)")
    }

    @Test("--isolate and --no-isolate together, or a bad --run-timeout, are usage errors")
    func badIsolationFlags() {
        #expect(CLIRun(["fuzz", Self.crashing, "--isolate", "--no-isolate"]).code == .usage)
        let bad = CLIRun(["fuzz", Self.crashing, "--run-timeout", "soon"])
        #expect(bad.code == .usage)
        #expect(bad.stderr.contains("--run-timeout soon"))
    }
}
