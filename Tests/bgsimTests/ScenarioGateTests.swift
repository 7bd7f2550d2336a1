@testable import BGSimCommands
import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import SimulationFormats
import Testing

/// The Swift API has what the CLI has (issue 34, item 3): `bgsim check`'s gate is the
/// simulator's ``ScenarioGate`` (same verdicts, summary line and JUnit bytes), a scenario's run
/// replays from Swift as `bgsim replay` replays it, and a ``WorkloadCampaign`` runs one shard
/// of a CI matrix whose reports `bgsim merge` joins.
@Suite struct ScenarioGateTests {
    /// A folder of three scenarios at CI-quick sizes: a planted bug (found), its correct twin
    /// (held), and the planted bug filed as a correct workload (missed).
    static func folder() throws -> TemporaryFolder {
        let folder = TemporaryFolder()
        func copy(_ file: String, as name: String, runs: Int, expectsPass: Bool = false) throws {
            var text = try String(contentsOfFile: PackageRoot.scenario(file), encoding: .utf8)
            text = text.replacing(/"name": "[^"]*"/, with: "\"name\": \"\(name)\"")
                .replacing(/"runs": [0-9]+/, with: "\"runs\": \(runs)")
            if expectsPass {
                text = text.replacing(try Regex(#""expect": \{[^}]*\}"#), with: #""expect": "pass""#)
            }
            folder.write(name + ".json", text)
        }
        try copy("download-manager-p1-overwritten-task-id-ios17.json", as: "a-planted", runs: 40)
        try copy("download-manager-correct-ios17.json", as: "b-correct", runs: 30)
        try copy("download-manager-p1-overwritten-task-id-ios17.json", as: "c-missed", runs: 20, expectsPass: true)
        return folder
    }

    @Test("ScenarioGate and bgsim check give the same verdicts, summary line, stderr line and JUnit bytes")
    func gateAndCheckAgree() throws {
        let folder = try Self.folder()
        let junit = folder.path + "/out/junit.xml"
        try FileManager.default.createDirectory(atPath: folder.path + "/out", withIntermediateDirectories: true)
        let check = CLIRun(["check", folder.path + "/a-planted.json", folder.path + "/b-correct.json",
                            folder.path + "/c-missed.json", "--jobs", "1", "--quiet", "--no-failure-db", "--no-isolate",
                            "--junit", junit])
        #expect(check.code == .violation, "\(check.stderr)")

        let scenarios = try ScenarioLoader.load(paths: [folder.path + "/a-planted.json", folder.path + "/b-correct.json",
                                                        folder.path + "/c-missed.json"])
        let gate = try ScenarioGate.run(scenarios) { ScenarioPlan(for: $0, jobs: 1) }
        #expect(gate.outcomes.map(\.verdict.outcome) == [.met, .met, .missed])
        #expect((gate.plantedFound, gate.held, gate.missed.map(\.scenario)) == (1, 1, ["c-missed"]))
        #expect(!gate.passed)
        #expect(check.stdout.split(separator: "\n").last.map(String.init) == gate.summaryLine)
        let missedLine = try #require(gate.missedLine)
        #expect(check.stderr.contains("bgsim check: \(missedLine); the summary above prints"), "\(check.stderr)")

        let written = try String(contentsOfFile: junit, encoding: .utf8)
        let replay = ReplayCommandText("bgsim")
        #expect(written == gate.junitXML(toolName: "bgsim", savedFailuresDroppedBy: "fuzz", replayCommand: replay.command))
        #expect(written.contains("failures=\"1\""))
    }

    @Test("a gate of correct workloads and found planted bugs passes; an empty gate passes vacuously and says 0 of 0")
    func gatePasses() throws {
        let folder = try Self.folder()
        let scenarios = try ScenarioLoader.load(paths: [folder.path + "/a-planted.json", folder.path + "/b-correct.json"])
        let gate = try ScenarioGate.run(scenarios) { ScenarioPlan(for: $0, jobs: 2) }
        #expect(gate.passed && gate.missedLine == nil)
        #expect(gate.summaryLine == "2 of 2 scenarios met their expectation (1 planted bug found as expected, "
            + "1 held every invariant)")
        #expect(ScenarioGate().summaryLine.hasPrefix("0 of 0 scenarios"))
    }

    @Test("a failure's recipes replay from Swift as bgsim replay does: same digest, same violation; the call is pasteable")
    func recipesReplayFromSwift() throws {
        let scenario = try ScenarioLoader.load(file: PackageRoot.scenario("download-manager-p1-overwritten-task-id-ios17.json"))
        var plan = ScenarioPlan(for: scenario, jobs: 1)
        plan.options.runs = 40
        let outcome = try ScenarioCampaign.run(scenario, plan: plan)
        let (record, original, shrunk) = try #require(outcome.failures.first)
        let invariant = record.failure.invariant

        guard case .seed(let seed) = original.source else { Issue.record("a random run's recipe is its seed"); return }
        let replayed = original.run()
        #expect(replayed.violations.contains { $0.invariant == invariant })
        #expect(scenario.replay(seed: seed.rawValue, strategy: original.strategy).digest == replayed.digest)
        // A default campaign's first runs are random runs, which a replay of the file is by itself.
        #expect(original.strategy == .random && scenario.replay(seed: seed.rawValue).digest == replayed.digest)
        #expect(original.swiftCall == "try ScenarioLoader.load(file: \"\(scenario.file)\").replay(seed: \(seed))")
        var swarm = original
        swarm.scenario.strategyOverride = .swarm
        #expect(swarm.swiftCall(on: "scenario") == "scenario.replay(seed: \(seed), strategy: .swarm)")

        let cli = CLIRun(["replay", scenario.file, "--seed", "\(seed)", "--strategy", original.strategy.rawValue])
        #expect(cli.stdout.contains("digest \(replayed.digest), \(replayed.eventCount) events"), "\(cli.stdout)")

        guard case .choices(let choices) = shrunk.source else { Issue.record("a shrunk recipe is its choices"); return }
        #expect(shrunk.run().violations.contains { $0.invariant == invariant })
        #expect(try scenario.replay(choices: choices.token, strategy: shrunk.strategy).digest == shrunk.run().digest)
        #expect(shrunk.swiftCall.hasPrefix("try ScenarioLoader.load(file: \"\(scenario.file)\").replay(choices: \"c1."))
        #expect(shrunk.swiftCall(on: "campaign").hasPrefix("try campaign.replay(choices: \"c1."))
    }

    @Test("a coin run's seed replays as a coin run by itself: its Swift call names no strategy, as a random run's (probe 6)")
    func coinRunSeedCallNamesNoStrategy() throws {
        let scenario = try ScenarioLoader.load(file: PackageRoot.scenario("download-manager-p1-overwritten-task-id-ios17.json"))
        let seed = scenario.campaign.seed.derive(index: 150)  // the phase of coin runs
        let recipe = ReplayRecipe(scenario: scenario.forRun(150), source: .seed(seed))
        #expect(recipe.strategy == .default)
        #expect(recipe.swiftCall(on: "campaign") == "campaign.replay(seed: \(seed))", "\(recipe.swiftCall(on: "campaign"))")
        #expect(scenario.replay(seed: seed.rawValue).digest == recipe.run().digest, "the call without it reruns the same run")
        let choices = ReplayRecipe(scenario: scenario.forRun(150), source: .choices(ChoiceSequence([1, 2, 3])))
        #expect(choices.swiftCall(on: "campaign").hasSuffix(", strategy: .default)"), "choices do not tell their strategy")
    }

    @Test("a WorkloadCampaign runs one shard; bgsim merge and ReportMerge join the shards' reports into the whole campaign's")
    func swiftCampaignShards() throws {
        let scenario = try ScenarioLoader.load(file: PackageRoot.scenario("download-manager-correct-ios17.json"))
        var campaign = OneCampaignPipelineTests.swiftCampaign(scenario, runs: 50)
        let whole = campaign.run()
        let folder = TemporaryFolder()
        var files: [String] = []
        for index in 1...2 {
            campaign.shard = try Shard(parsing: "\(index)/2")
            let part = campaign.run()
            #expect(part.result.totals.runs == 25)
            files.append(folder.write("shard\(index).json", part.jsonText))
        }
        let merged = folder.path + "/merged.json"
        let merge = CLIRun(["merge"] + files + ["--report", merged])
        #expect(merge.code == .success, "\(merge.stderr)")
        let written = try String(contentsOfFile: merged, encoding: .utf8)
        let json = try JSONParser().parse(Array(written.utf8))
        #expect(json["summary"]?["traceDigest"]?.stringValue == "\(whole.result.totals.digest.digest)")
        #expect(json["summary"]?["runs"]?.intValue == 50)
        // bgsim merge from Swift: the same bytes; a text that is not a report names itself.
        let texts = try files.map { try String(contentsOfFile: $0, encoding: .utf8) }
        #expect(try ReportMerge.merge(texts, names: files) == written)
        #expect(throws: ReportMergeError.self) { try ReportMerge.merge([texts[0], "{"], names: ["a", "b"]) }
        do {
            _ = try ReportMerge.merge([texts[0], texts[0]])
            Issue.record("a shard given twice merges")
        } catch {
            #expect(error.description.contains("shard 1/2 is given twice"), "\(error)")
        }
    }
}
