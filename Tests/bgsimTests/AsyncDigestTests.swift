import BGSimCommands
import Foundation
import Testing

/// Async workloads are as deterministic as callback ones: a campaign of one gives the same trace
/// digest with one job or two, and in a new process; a replay of an escape exits 3.
@Suite struct AsyncDigestTests {
    static let scenarios = [
        "photo-import-correct-ios17.json",  // task groups, cancellation
        "podcast-downloads-continuation-never-resumed-ios17.json",  // continuations, BGTasks, kills
        "journal-sync-handler-ends-in-task-ios17.json",  // @SimulatedMainActor hops
        "token-async-plain-task-ios17.json",  // a plain Task {} on the process's executors
    ] + plainAsync

    /// Every scenario of the workloads written in plain Swift concurrency (real `@MainActor`,
    /// `MainActor.run`, `Task {}`, `Task.sleep`: Workloads/PlainAsync), correct and planted.
    static let plainAsync: [String] = {
        let families = ["main-actor-uploader", "sleep-retry", "unstructured-task", "main-actor-model-cancel",
                        "refresh-never-cancelled"]
        let files = (try? FileManager.default.contentsOfDirectory(atPath: PackageRoot.path + "/Scenarios")) ?? []
        return files.filter { file in file.hasSuffix(".json") && families.contains { file.hasPrefix($0 + "-") } }.sorted()
    }()

    @Test("the digest list holds every plain-async scenario: five families, each planted bug with its correct twin")
    func plainAsyncScenariosListed() {
        #expect(Self.plainAsync.count == 21, "\(Self.plainAsync)")
    }

    static func digest(_ stdout: String) -> Substring? {
        guard let range = stdout.range(of: "; digest ") else { return nil }
        return stdout[range.upperBound...].prefix { $0.isHexDigit }
    }

    @Test("an async campaign gives the same digest with --jobs 1 and --jobs 2, and in a new process",
          arguments: scenarios)
    func sameDigestEverywhere(file: String) throws {
        try Self.checkSameDigestEverywhere(file: file)
    }

    /// Runs a 40-run campaign of `file` with one job, two, and two in a new process, and expects
    /// one digest and one exit code.
    static func checkSameDigestEverywhere(file: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: ReplayInNewProcessTests.executable.path),
                     "build bgsim first: swift build --build-tests")
        let common = ["fuzz", PackageRoot.scenario(file), "--runs", "40", "--quiet"]
        let one = CLIRun(common + ["--jobs", "1"])
        let two = CLIRun(common + ["--jobs", "2"])
        let child = try ReplayInNewProcessTests.runProcess(common + ["--jobs", "2"])
        let digest = try #require(Self.digest(one.stdout), "\(one.stdout)")
        #expect(Self.digest(two.stdout) == digest, "\(two.stdout)")
        #expect(Self.digest(child.stdout) == digest, "new process: \(child.stdout.prefix(400))")
        #expect(one.code == two.code && Int32(one.code.rawValue) == child.code)
    }

    /// The planted escape: a cursor store whose completion handler runs on its own real
    /// DispatchQueue.
    static let escapes = ["journal-sync-cursor-saved-through-data-source-ios17.json"]

    @Test("a run that started a DispatchSource fails no-async-escape naming it; its replay exits 3",
          arguments: escapes)
    func escapeReplayExitsThree(scenario: String) throws {
        let file = PackageRoot.scenario(scenario)
        let fuzz = CLIRun(["fuzz", file, "--runs", "5", "--jobs", "1", "--quiet"])
        #expect(fuzz.code == .success, "the escape is the scenario's expected finding")
        #expect(fuzz.stdout.contains("- no-async-escape (run seed ")
                    && fuzz.stdout.contains("a DispatchSource started inside the run (dispatch_resume)"), "\(fuzz.stdout)")
        let arguments = try #require(ReplayInNewProcessTests.printedReplay(fuzz.stdout, marker: "replay: bgsim replay"),
                                     "\(fuzz.stdout)")
        let replay = CLIRun(arguments)
        #expect(replay.code == .nondeterminism, "\(replay.stderr)")
        #expect(replay.errorLines.count == 1)
        #expect(replay.stderr.contains("bgsim replay: nondeterminism:")
                    && replay.stderr.contains("a DispatchSource started inside the run (dispatch_resume)"),
                "\(replay.stderr)")
    }

    @Test("with BGSIM_PROCESS_EXECUTORS=off (the fallback), a plain Task {} is reported as an escape")
    func fallbackNamesThePlainTask() throws {
        let file = PackageRoot.scenario("token-async-plain-task-ios17.json")
        let child = try ReplayInNewProcessTests.runProcess(
            ["fuzz", file, "--runs", "5", "--jobs", "1", "--no-failure-db"],
            environment: ["BGSIM_PROCESS_EXECUTORS": "off"])
        #expect(child.stdout.contains("- no-async-escape (run seed "), "\(child.stdout.prefix(600))")
        #expect(child.stdout.contains("a job reached Swift's real global executor"), "\(child.stdout.prefix(600))")
    }
}
