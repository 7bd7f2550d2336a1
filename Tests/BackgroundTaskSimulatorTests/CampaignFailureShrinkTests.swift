import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Every failure a scenario's campaign reports shrinks to its core, not only the one its
/// scenario expects (issue 36, item 4): the secondary findings too, which come from any run of
/// the campaign, often late and in a later process of a long run.
///
/// Two sizes (``TestSize``): quick runs the campaigns whose secondary findings once stopped far
/// from their minimum and checks them against the minimum stated here; `ci` runs every planted-bug
/// scenario's whole campaign (as `bgsim fuzz` does, in process) and checks every failure it
/// reports against ``largestCore``. `ShrinkToMinimumTests` states each expected failure's own
/// minimum.
@Suite struct CampaignFailureShrinkTests {
    /// Secondary findings that stopped far from their minimum before the passes that delete a
    /// run returning to its state (`deleteCycles`) and keep the next action the same action
    /// (`deleteKeepingNext`), with the fewest environment actions that fail and why.
    static let secondaryMinima: [String: (invariant: String, actions: Int, why: String)] = [
        "background-queue-p3-async-end-ios17": ("background-work-held", 5,
            "launch, home (the sync's late end is scheduled), earlyExpiry (the handler clears the id), open, home (a "
                + "new task) within the sync's time: the first sync's end then ends the new task under the new sync. "
                + "Found in the third process of a 136-action run; stopped at 47 actions, the two processes before kept"),
        "forecast-refresh-retry-ignores-cancellation-ios17": ("no-idle-task", 3,
            "launch, networkDown, then the settling home: the refresh's retry loop backs off for more than 10 s "
                + "with no request in flight. Found after a networkDown drawn while the app was not running; "
                + "stopped at 25 actions, since the same draw on screen picked another action"),
    ]

    /// The most environment actions any failure needs here: the largest minimum of a planted
    /// bug (`ShrinkToMinimumTests`: 7, track-backup and reader-prefetch), plus one, as there.
    static let largestCore = 8

    static let scenarios: [String] = TestSize.pick(
        quick: secondaryMinima.keys.sorted().map { $0 + ".json" },
        ci: ShrinkToMinimumTests.planted)

    @Test("every failure the campaign reports shrinks to its core and replays", arguments: scenarios)
    func everyFailureShrinks(file: String) throws {
        let scenario = try ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/" + file)
        // A deep planted bug takes thousands of runs; DeepPlantedBugTests replays its finding.
        if scenario.workload.isDeep { return }
        let outcome = try ScenarioCampaign.run(scenario, plan: ScenarioPlan(for: scenario))
        for record in outcome.result.failures {
            let invariant = record.failure.invariant
            let shrink = try #require(record.shrink, "\(invariant) of \(file) was not shrunk")
            let replay = "bgsim replay Scenarios/\(file) --choices \(shrink.choices.token)"
            #expect(shrink.actionCount <= Self.largestCore, "\(invariant) of \(file): \(shrink.actionCount) actions: \(replay)")
            if let minimum = Self.secondaryMinima[scenario.name], minimum.invariant == invariant {
                #expect(shrink.actionCount <= minimum.actions + 1,
                        "\(invariant) of \(file): \(shrink.actionCount) actions, minimum \(minimum.actions) (\(minimum.why)): \(replay)")
                #expect(shrink.actionCount >= minimum.actions, "fewer actions than the stated minimum: correct the table")
            }
            // The shrunk choices replay to the same invariant on the run's own target (a default
            // campaign's first runs are random runs), in a fresh source.
            let target = SimulationTarget(spec: scenario.forRun(record.runIndex).runSpec)
            let verdict = target.run(choices: ChoiceSource(replaying: shrink.choices), keepTrace: false)
            #expect(verdict.failures.contains { $0.invariant == invariant }, "\(replay) no longer fails \(invariant)")
        }
        if let minimum = Self.secondaryMinima[scenario.name] {
            #expect(outcome.result.failures.contains { $0.failure.invariant == minimum.invariant },
                    "the campaign of \(file) no longer reports \(minimum.invariant): pick another case for the table")
        }
    }
}
