import BackgroundTaskSimulator
@testable import BackgroundTaskSimulatorTesting
import Foundation
import Testing

/// `bgsim check` inside a test: ``ScenarioGate/expectExpectationsMet(in:workloads:jobs:failureDatabase:isolation:sourceLocation:)``
/// records one issue per scenario that missed its expectation, at the caller's line, with the
/// Swift call that replays each failure; nothing for a gate that met every expectation.
@Suite struct ScenarioGateExpectTests {
    /// A folder holding the package's scenario `file` at `runs` runs, renamed `name`, its
    /// expectation replaced by `expect` (JSON) when given.
    static func scenarioFolder(_ file: String, as name: String, runs: Int, expect: String? = nil) throws -> String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        var text = try String(contentsOfFile: url.path + "/Scenarios/" + file, encoding: .utf8)
        text = text.replacing(/"name": "[^"]*"/, with: "\"name\": \"\(name)\"")
            .replacing(/"runs": [0-9]+/, with: "\"runs\": \(runs)")
        if let expect {
            text = text.replacing(try Regex(#""expect": (\{[^}]*\}|"pass")"#), with: "\"expect\": \(expect)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gate-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try text.write(toFile: folder + "/\(name).json", atomically: true, encoding: .utf8)
        return folder
    }

    @Test("a gate that met every expectation records nothing and returns a passing gate")
    func metRecordsNothing() async throws {
        let folder = try Self.scenarioFolder("download-manager-p1-overwritten-task-id-ios17.json", as: "planted", runs: 30)
        var gate: ScenarioGate?
        let issues = await ExpectNoViolationsTests.issues {
            gate = await ScenarioGate.expectExpectationsMet(in: [folder], failureDatabase: .off)
        }
        #expect(issues.isEmpty, "\(issues)")
        #expect(gate?.passed == true && gate?.plantedFound == 1)
    }

    @Test("a missed expectation is one issue at the caller's line: the headline, the failures, their replay calls")
    func missedIsOneIssue() async throws {
        let folder = try Self.scenarioFolder("download-manager-p1-overwritten-task-id-ios17.json", as: "leaky",
                                             runs: 30, expect: "\"pass\"")
        var line = 0
        var gate: ScenarioGate?
        let issues = await ExpectNoViolationsTests.issues {
            line = #line + 1
            gate = await ScenarioGate.expectExpectationsMet(in: [folder], failureDatabase: .off)
        }
        let outcome = try #require(gate?.outcomes.first)
        #expect(outcome.verdict.isMissed)
        try #require(issues.count == 1)
        let text = issues[0].comments.map(\.rawValue).joined()
        #expect(text.hasPrefix("leaky (\(folder)/leaky.json), expect pass: \(outcome.verdict.headline)\n"))
        let first = try #require(outcome.failures.first)
        #expect(text.contains("\n    \(first.record.failure.invariant): \(first.record.failure.message)\n"))
        #expect(text.contains("\n    replay: try ScenarioLoader.load(file: \"\(folder)/leaky.json\").replay(choices: \"c1."))
        #expect(issues[0].sourceLocation?.line == line)
    }

    @Test("a planted crash runs in child processes that re-run this test, and meets its expectation; the rest in process")
    func plantedCrashRunsInTestProcesses() async throws {
        // Two scenarios in a folder made afresh in every process (the children make their own).
        let folder = try Self.scenarioFolder("backup-force-unwrapped-task-id-ios17.json", as: "crashes", runs: 5)
        let planted = try Self.scenarioFolder("download-manager-p1-overwritten-task-id-ios17.json", as: "planted", runs: 30)
        try FileManager.default.copyItem(atPath: planted + "/planted.json", toPath: folder + "/planted.json")
        var gate: ScenarioGate?
        let issues = await ExpectNoViolationsTests.issues {
            gate = await ScenarioGate.expectExpectationsMet(in: [folder], failureDatabase: .off)
        }
        #expect(issues.isEmpty, "\(issues.map(\.comments))")
        #expect(gate?.passed == true && gate?.plantedFound == 2, "\(gate?.summaryLine ?? "no gate")")
    }

    @Test("without a test to re-run or a tool, a planted crash is not run (it would end the test run): one text saying how")
    func plantedCrashNeedsIsolation() throws {
        let folder = try Self.scenarioFolder("backup-force-unwrapped-task-id-ios17.json", as: "crashes", runs: 5)
        let checked = GateFinding.check([folder], workloads: .builtIn, jobs: 1, store: nil, executable: nil)
        #expect(checked.gate?.outcomes.isEmpty == true, "nothing ran")
        #expect(checked.findings.count == 1)
        let text = checked.findings.first ?? ""
        #expect(text.hasPrefix("crashes (\(folder)/crashes.json), expect violation no-crash: not run"), "\(text)")
        #expect(text.contains("pass isolation:"))
    }

    @Test("a crash in a gate's run prints the run and the Swift call that replays it, the strategy named for the later phase")
    func crashBanner() throws {
        let folder = try Self.scenarioFolder("download-manager-correct-ios17.json", as: "banner", runs: 200)
        let scenario = try ScenarioLoader.load(file: folder + "/banner.json")
        let random = GateFinding.banner(for: scenario.forRun(0))
        #expect(random.run == "run seed {seed} of scenario banner (\(folder)/banner.json)")
        #expect(random.replay == "try ScenarioLoader.load(file: \"\(folder)/banner.json\").replay(seed: {seed})")
        let later = GateFinding.banner(for: scenario.forRun(150))  // the phase of random and swarm runs
        #expect(later.replay.hasSuffix(".replay(seed: {seed}, strategy: .default)"), "\(later.replay)")
    }

    @Test("scenario files that do not load are one issue naming the problem, and no gate")
    func unreadableIsOneIssue() async {
        var gate: ScenarioGate?
        let issues = await ExpectNoViolationsTests.issues {
            gate = await ScenarioGate.expectExpectationsMet(in: ["/nonexistent/scenarios"], failureDatabase: .off)
        }
        #expect(gate == nil)
        #expect(issues.count == 1)
        #expect(issues.first?.comments.map(\.rawValue).joined().hasPrefix("the scenarios could not be loaded: ") == true)
    }
}
