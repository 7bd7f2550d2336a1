@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// A BGTask registered with no queue (`using: nil`) runs its launch and expiration handlers on the
/// framework's own serial queue, `com.apple.BGTaskScheduler (<identifier>)` (C1.5: the queue
/// "should be serial"; a crash report names that queue). The simulator used the app's concurrent
/// global queue instead, so with threads an expiry's callout ran beside the launch handler: it
/// found no handler of the app yet and completed the task (C4.5) under the work the handler was
/// starting. That blamed correct code, Apple's own sample among it (it sets its expiration handler
/// after creating its operations), with `background-work-held`.
@Suite("BGTask handlers registered with no queue")
struct DefaultTaskQueueTests {
    /// Campaign seed 0x32a1's failure of the correct reading list (issue 32), as `check` found it.
    static let raceToken = "c1.AAAQAQAAAAEAAAABAAAAAQAAAwEAAAORTgQAAQIAAgAA"

    @Test("the reading list's expiry during its launch handler completes the task only after the work ended",
          arguments: ["reading-list-correct-ios17-updates", "reading-list-correct-ios26-updates"])
    func expiryDuringLaunchHandler(name: String) throws {
        let file = ScenarioExpectationTests.directory + "/" + name + ".json"
        let scenario = try ScenarioLoader.load(file: file)
        let replay = "bgsim replay Scenarios/\(name).json --choices \(Self.raceToken) --strategy random"
        let verdict = SimulationTarget(spec: scenario.runSpec)
            .run(choices: ChoiceSource(replaying: try ChoiceSequence(token: Self.raceToken)), keepTrace: true)
        #expect(verdict.failures.isEmpty, "\(verdict.failures.map(\.message)): \(replay)")
        let names = verdict.trace.map(\.name)
        let expired = try #require(names.firstIndex(of: "bgtask.expire"), "the replay expires the task: \(replay)")
        let completed = try #require(names[expired...].firstIndex(of: "bgtask.complete"), "\(replay)")
        #expect(names[expired..<completed].contains("work.finish"), "completed before the work ended: \(replay)")
    }
}
