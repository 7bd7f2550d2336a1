import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// The shrinker's schedule passes (issue 36 item 4): a shrunk failure of a workload on simulated
/// threads keeps only the scheduling decisions it needs. Every nonzero decision left in the
/// result (``ChoiceSource/scheduleDraws``: a preemption gap, a runner, a ready job, a delay, a
/// priority) is needed: made canonical (0) alone, the run no longer fails the same way.
@Suite struct ScheduleShrinkTests {
    /// The planted bugs of the workloads written to show races between threads, whose failures
    /// depend on the schedule, and a planted data race; with the most nonzero scheduling
    /// decisions their shrunk first failure keeps. Without the schedule passes (measured
    /// 2026-11-29): chat-outbox 7 (31 values), video-upload 1 (31 values); with them 3 (21) and
    /// 0 (18); the others were already canonical.
    static let threaded: [(name: String, maxDecisions: Int)] = [
        ("chat-outbox-task-registered-after-begin-ios17", 3), ("feed-refresh-main-blocked-across-deadline-ios17", 0),
        ("notes-import-handler-syncs-busy-queue-ios17", 1), ("photo-sync-unguarded-task-id-ios17", 0),
        ("workout-export-lock-order-inversion-ios17", 0), ("video-upload-unguarded-upload-id-ios17", 0),
    ]

    @Test("a shrunk threaded failure keeps no scheduling decision it can do without", arguments: threaded.map(\.name))
    func everyDecisionLeftIsNeeded(name: String) throws {
        let maxDecisions = try #require(Self.threaded.first { $0.name == name }).maxDecisions
        let scenario = try ScenarioLoader.load(file: "\(ScenarioExpectationTests.directory)/\(name).json")
        let planted = try #require(scenario.shrinkPlantedBug(), "\(name) finds no failure")
        let target = SimulationTarget(spec: scenario.forRun(planted.runIndex).runSpec)
        let keeps: (RunVerdict) -> Bool = { verdict in verdict.failures.contains { $0.invariant == planted.invariant } }
        let result = planted.shrink.choices
        let replay = ChoiceSource(replaying: result)
        #expect(keeps(target.run(choices: replay, keepTrace: false)))
        let decisions = replay.scheduleDraws.filter { result.values[$0] != 0 }
        #expect(decisions.count <= maxDecisions, "\(name): \(decisions.count) scheduling decisions left: \(result.values)")
        // Each decision alone, then all of them at once (a failure that needs no interleaving).
        for zeroed in decisions.map({ [$0] }) + (decisions.count > 1 ? [decisions] : []) {
            var values = result.values
            for position in zeroed { values[position] = 0 }
            let candidate = ChoiceSource(replaying: ChoiceSequence(values))
            let verdict = target.run(choices: candidate, keepTrace: false)
            let simpler = Shrinker.isSimpler(candidate.recorded, actions: candidate.actions.count,
                                             than: result, actions: replay.actions.count)
            #expect(!(keeps(verdict) && simpler),
                    "\(name): the decisions at draws \(zeroed) are not needed: \(result.token) (\(result.values))")
        }
    }
}
