import BGSimCommands
import Foundation
import Testing

/// The `default` strategy's second phase from the command line: a failure found by a coin run
/// (run 100 or later) prints replay commands naming `--strategy default`, the same with 1 and 2
/// jobs, and both reproduce it in a new process. (The first phase's `--strategy random` replays
/// are run by ``ReplayInNewProcessTests`` and pinned by the golden outputs.)
@Suite struct DefaultPhaseReplayTests {
    /// The deep photo-index bug under `default`: first found by a coin run past the random phase
    /// at this seed (release build, `bgsim fuzz … --seed 0x5eed000000000003 --runs 480`).
    static let arguments = ["fuzz", PackageRoot.scenario("deep-photo-index-publish-failure-leaves-task-ios17.json"),
                            "--seed", "0x5eed000000000003", "--runs", "480", "--quiet", "--no-failure-db"]

    @Test("a failure of a default campaign's coin phase names --strategy default in both replays, which reproduce it")
    func coinPhaseFailureReplays() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ReplayInNewProcessTests.executable.path),
                     "build bgsim first: swift build --build-tests")
        let (one, two) = CLIRun.withOneAndTwoJobs(Self.arguments)
        #expect(one.code == .success, "\(one.stdout.suffix(600))")
        #expect(one.digest != nil && one.digest == two.digest)
        for marker in ["    replay: ", "    shrunk to "] {
            let printed = try #require(ReplayInNewProcessTests.printedReplay(one.stdout, marker: marker), "\(one.stdout)")
            #expect(Array(printed.suffix(2)) == ["--strategy", "default"], "\(printed)")
            #expect(ReplayInNewProcessTests.printedReplay(two.stdout, marker: marker) == printed)
            let child = try ReplayInNewProcessTests.runProcess(printed)
            #expect(child.code == ExitCode.violation.rawValue, "\(child.stdout.suffix(400))")
            #expect(child.stdout.contains("VIOLATION no-idle-task"), "\(child.stdout.suffix(400))")
        }
    }
}
