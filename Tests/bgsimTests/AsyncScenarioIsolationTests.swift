import BackgroundTaskSimulator
@testable import BGSimCommands
import Testing

/// The runs of a Swift concurrency scenario never run at once in one process (its actors in a
/// `static let` are one per process: `ScenarioPlan.runsOneAtATime`): `fuzz --jobs 2` runs them
/// in child processes, one at a time in each, unless `--no-isolate` keeps them in process, where
/// they run one at a time. Other scenarios keep `fuzz`'s in-process default.
@Suite struct AsyncScenarioIsolationTests {
    static func isolation(_ arguments: [String]) throws -> BGSimCommands.Isolation {
        try BGSimCommands.Isolation(Arguments(parsing: arguments, for: FuzzCommand.declaration), byDefault: false)
    }

    @Test("fuzz isolates a Swift concurrency scenario only when --jobs asks for parallel runs")
    func asyncScenarioIsolatedForParallelJobs() throws {
        let async = try ScenarioLoader.load(file: PackageRoot.scenario("actor-reentrancy-correct-ios17.json"))
        let plain = try ScenarioLoader.load(file: PackageRoot.scenario("token-correct-ios17.json"))
        #expect(ScenarioPlan.runsOneAtATime(async) && !ScenarioPlan.runsOneAtATime(plain))
        let byDefault = try Self.isolation([])
        #expect(byDefault.isolates(async, jobs: 2))
        #expect(!byDefault.isolates(async, jobs: 1))
        #expect(!byDefault.isolates(plain, jobs: 2))
        #expect(!(try Self.isolation(["--no-isolate"])).isolates(async, jobs: 2))
    }

    @Test("a Swift concurrency scenario gives the same report with --jobs 2 (child processes) as with --jobs 1")
    func sameDigestInChildren() throws {
        let scenario = PackageRoot.scenario("actor-reentrancy-correct-ios17.json")
        let one = CLIRun(["fuzz", scenario, "--runs", "60", "--jobs", "1", "--quiet", "--no-failure-db"])
        let two = CLIRun(["fuzz", scenario, "--runs", "60", "--jobs", "2", "--quiet", "--no-failure-db"])
        let local = CLIRun(["fuzz", scenario, "--runs", "60", "--jobs", "2", "--no-isolate", "--quiet", "--no-failure-db"])
        #expect(one.code == .success && two.code == .success && local.code == .success)
        let digests = [one, two, local].map { run in run.stdout.split(separator: " ").last { $0.count == 16 } }
        #expect(digests[0] != nil && digests[0] == digests[1] && digests[1] == digests[2], "\(digests)")
    }
}
