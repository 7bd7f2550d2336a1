import BGSimCommands
import Foundation
import Testing

/// The coverage strategy from the command line: the same campaign gives the same digest and
/// failure with 1 and 2 jobs, and a failure found by a coverage-guided mutant (which its run seed
/// alone does not reproduce) prints a `--choices` replay that reproduces it in a new process.
@Suite struct CoverageReplayTests {
    /// A campaign whose first finding is a mutant: the deep photo-index bug, found at run 439 of
    /// this seed under `coverage` (fifth generation; release build, `bgsim fuzz … --report`).
    static let arguments = ["fuzz", PackageRoot.scenario("deep-photo-index-publish-failure-leaves-task-ios17.json"),
                            "--strategy", "coverage", "--seed", "0x5eed000000000004", "--runs", "450", "--quiet",
                            "--no-failure-db"]

    @Test("a coverage campaign's digest and mutant failure are the same with 1 and 2 jobs; the printed --choices replay reproduces it in a new process")
    func mutantFailureReplays() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ReplayInNewProcessTests.executable.path),
                     "build bgsim first: swift build --build-tests")
        let (one, two) = CLIRun.withOneAndTwoJobs(Self.arguments)
        #expect(one.code == .success, "\(one.stdout.suffix(600))")
        #expect(one.digest != nil && one.digest == two.digest)
        #expect(one.stdout.contains("a coverage-guided mutant"), "\(one.stdout.suffix(600))")
        let printed = try #require(ReplayInNewProcessTests.printedReplay(one.stdout, marker: "    replay: "), "\(one.stdout)")
        #expect(printed.contains("--choices") && !printed.contains("--seed"), "\(printed)")
        #expect(ReplayInNewProcessTests.printedReplay(two.stdout, marker: "    replay: ") == printed)
        let child = try ReplayInNewProcessTests.runProcess(printed)
        #expect(child.code == ExitCode.violation.rawValue, "\(child.stdout.suffix(400))")
        #expect(child.stdout.contains("VIOLATION no-idle-task"), "\(child.stdout.suffix(400))")
    }
}
