import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import Testing

/// Exploration strategies (`campaign.strategy`, `--strategy`): swarm runs draw their mix from
/// their own choices, so they replay alone; `random` draws nothing extra; `default` is one coin
/// and then one or the other; a campaign's results do not depend on its job count.
@Suite struct ExplorationStrategyTests {
    static func spec(_ strategy: ExplorationStrategy, workload: String = "token", variant: String = "correct") throws -> RunSpec {
        let entry = try #require(WorkloadCatalog.variant(workload: workload, variant: variant))
        return RunSpec(profile: .ios17, environment: EnvironmentConfig(), workload: entry.info,
                       invariants: Invariant.all, horizon: .seconds(600), exploration: strategy)
    }

    @Test("a swarm run replays exactly from its run seed and from its recorded choices", arguments: 0..<8)
    func swarmRunReplays(index: Int) throws {
        let spec = try Self.spec(.swarm)
        let seed = Seed(0x5a4a).derive(index: UInt64(index))
        let first = SimulationRunner.run(spec, choices: ChoiceSource(seed: seed))
        let again = SimulationRunner.run(spec, choices: ChoiceSource(seed: seed))
        let replayed = SimulationRunner.run(spec, choices: ChoiceSource(replaying: first.choices))
        #expect(first.digest == again.digest, "seed \(seed)")
        #expect(first.digest == replayed.digest, "seed \(seed)")
        #expect(replayed.fallbackCount == 0)
    }

    @Test("swarm runs vary which actions are enabled and at what weight, never enabling a disabled one")
    func swarmVariesTheMix() throws {
        var base = EnvironmentConfig()
        base.weights[.memoryPressureKill] = 0
        var spec = try Self.spec(.swarm)
        spec.environment = base
        var openOff = 0
        var distinct: [[Double]] = []
        for index in 0..<60 {
            let drawn = SwarmEnvironment.draw(for: spec, choices: ChoiceSource(seed: Seed(7).derive(index: UInt64(index))))
            let weights = EnvironmentAction.allCases.map { drawn.environment.weights[$0] }
            #expect(drawn.environment.weights[.memoryPressureKill] == 0, "run \(index) enabled an action the scenario disabled")
            for action in EnvironmentAction.allCases where base.weights[action] > 0 {
                let weight = drawn.environment.weights[action]
                #expect([base.weights[action], 0, 1, 4].contains(weight), "\(action) at \(weight)")
            }
            if drawn.environment.weights[.open] == 0 { openOff += 1 }
            if !distinct.contains(weights) { distinct.append(weights) }
            // A quick-paced run shortens its horizon with its gaps.
            if drawn.environment.gaps.upperBound < base.gaps.upperBound { #expect(drawn.horizon < spec.horizon) }
        }
        #expect(openOff >= 15 && openOff <= 45, "open was off in \(openOff) of 60 swarm runs (expected about half)")
        #expect(distinct.count >= 55)
    }

    @Test("all zero swarm draws keep the scenario's own run")
    func zeroDrawsKeepTheScenario() throws {
        let spec = try Self.spec(.swarm)
        let drawn = SwarmEnvironment.draw(for: spec, choices: ChoiceSource(replaying: ChoiceSequence(Array(repeating: 0, count: 40))))
        #expect(drawn.environment == spec.environment)
        #expect(drawn.horizon == spec.horizon)
    }

    @Test("random draws nothing extra; a default run whose coin is 0 is that random run")
    func defaultCoinSelectsRandom() throws {
        let random = try Self.spec(.random)
        let mixed = try Self.spec(.default)
        let run = SimulationRunner.run(random, choices: ChoiceSource(seed: Seed(0xd1ce)))
        let viaCoin = SimulationRunner.run(mixed, choices: ChoiceSource(replaying: ChoiceSequence([0] + run.choices.values)))
        #expect(viaCoin.digest == run.digest)
        #expect(viaCoin.fallbackCount == 0)
        // And a coin of 1 is a swarm run: the swarm draws follow it.
        let swarm = SimulationRunner.run(try Self.spec(.swarm), choices: ChoiceSource(seed: Seed(0xd1ce)))
        let viaSwarmCoin = SimulationRunner.run(mixed, choices: ChoiceSource(replaying: ChoiceSequence([1] + swarm.choices.values)))
        #expect(viaSwarmCoin.digest == swarm.digest)
    }

    @Test("a swarm campaign gives the same results with 1 and 2 jobs")
    func swarmCampaignIgnoresJobs() throws {
        let target = SimulationTarget(spec: try Self.spec(.swarm, workload: "download-manager", variant: "p1-overwritten-task-id"))
        let one = Campaign.run(target, options: CampaignOptions(seed: Seed(0x5), runs: 40, jobs: 1))
        let two = Campaign.run(target, options: CampaignOptions(seed: Seed(0x5), runs: 40, jobs: 2))
        #expect(one.totals.digest == two.totals.digest)
        #expect(one.failures.map(\.choices) == two.failures.map(\.choices))
        #expect(!one.failures.isEmpty)
    }

    @Test("campaign.strategy reads every strategy; an unknown one is an error naming the field and the choices")
    func scenarioKey() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-strategy-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        func scenario(_ strategy: String?) -> String {
            let key = strategy.map { ", \"strategy\": \"\($0)\"" } ?? ""
            return """
                {"name": "strategy-key", "workload": "token", "variant": "correct", "profile": "ios17",
                 "campaign": {"runs": 10, "seed": "0x1", "horizonSeconds": 60\(key)}, "expect": "pass"}
                """
        }
        for strategy in ExplorationStrategy.allCases {
            let file = folder + "/\(strategy).json"
            _ = FileManager.default.createFile(atPath: file, contents: Data(scenario(strategy.rawValue).utf8))
            let loaded = try ScenarioLoader.load(file: file)
            #expect(loaded.strategy == strategy)
            #expect(loaded.runSpec.exploration == strategy)
        }
        let absent = folder + "/absent.json"
        _ = FileManager.default.createFile(atPath: absent, contents: Data(scenario(nil).utf8))
        // Without the key: a default campaign, whose first runs, and a single run, are random runs.
        let implicit = try ScenarioLoader.load(file: absent)
        #expect(implicit.strategy == .default)
        #expect(implicit.runSpec.exploration == .random)
        #expect(implicit.forRun(ExplorationStrategy.defaultRandomRuns - 1).runSpec.exploration == .random)
        #expect(implicit.forRun(ExplorationStrategy.defaultRandomRuns).runSpec.exploration == .default)
        let bad = folder + "/bad.json"
        _ = FileManager.default.createFile(atPath: bad, contents: Data(scenario("bfs").utf8))
        do {
            _ = try ScenarioLoader.load(file: bad)
            Issue.record("an unknown strategy loaded")
        } catch {
            let text = "\(error)"
            #expect(text.contains("campaign.strategy") && text.contains("swarm"), "\(text)")
        }
    }
}
