import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// A saved `no-crash` or `no-hang` failure is replayed only where a crash or hang cannot end the
/// process: an isolated campaign replays it in a child (`CrashIsolationTests`); a campaign in
/// process keeps it, unjudged, and says so, instead of running it and dying before its first run.
@Suite struct SavedCrashReplayTests {
    @Test("in process a saved crash is kept, not replayed, and the summary says why; other saved failures replay")
    func savedCrashNotReplayedInProcess() throws {
        let scenario = try ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/token-correct-ios17.json")
        let store = InMemoryFailureStore()
        for invariant in ["no-crash", "every-begin-ended"] {
            store.save(SavedFailure(scenarioName: scenario.name, scenarioFile: scenario.file, invariant: invariant,
                                    message: "saved", choices: ChoiceSequence([0, 1, 2]), seed: Seed(7),
                                    campaignSeed: Seed(1), toolVersion: "test"))
        }
        let replay = try store.replay(scenario, dropsFixed: true)
        #expect(replay.notReplayed.map(\.invariant) == ["no-crash"])
        #expect(replay.replayed == 1 && replay.noLongerFailing.map(\.invariant) == ["every-begin-ended"])
        #expect(store.failures.map(\.invariant) == ["no-crash"], "the unjudged crash is kept; the fixed one dropped")
        #expect(replay.summary().hasSuffix("; 1 saved crash or hang (no-crash) not replayed: it would end this process; "
            + "an isolated campaign replays it"), "\(replay.summary())")
    }
}
