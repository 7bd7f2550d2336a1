import DeterministicSimulation
import Foundation
import Testing
@testable import BackgroundTaskSimulator

/// A Perfetto file names every track it draws on, so ui.perfetto.dev shows "task 1.3",
/// "BGTask 2" or "thread p1.global#1" rather than a bare number (an issue-35 rough edge).
@Suite("Perfetto tracks are named")
struct PerfettoTrackNameTests {
    /// A BGTask app, a threaded app and a fault storm: UIKit tasks, BGTasks, simulated threads.
    @Test("every track an event is drawn on has a thread_name", arguments: [
        "bg-scheduler-app-p8-refresh-not-resubmitted-ios17.json",
        "chat-outbox-correct-ios17-fault-storm.json",
        "chat-outbox-task-registered-after-begin-ios17.json",
    ])
    func everyTrackIsNamed(file: String) throws {
        let scenario = try ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/" + file)
        for index in 0..<3 {
            let seed = scenario.campaign.seed.derive(index: UInt64(index))
            let outcome = SimulationRunner.run(scenario.runSpec, choices: ChoiceSource(seed: seed), keepTrace: true)
            let root = try #require(JSONSerialization.jsonObject(with: Data(outcome.perfettoJSON.utf8)) as? [String: Any])
            let events = try #require(root["traceEvents"] as? [[String: Any]])
            var named: Set<Int> = []
            var drawn: Set<Int> = []
            for event in events {
                guard let tid = event["tid"] as? Int else { continue }
                if event["ph"] as? String == "M" {
                    if event["name"] as? String == "thread_name" { named.insert(tid) }
                } else if event["s"] as? String != "g" {  // global instants have no track
                    drawn.insert(tid)
                }
            }
            #expect(drawn.count > 3, "\(file) seed \(seed): too few tracks to check")
            #expect(drawn.subtracting(named).isEmpty, "\(file) seed \(seed): unnamed tracks \(drawn.subtracting(named).sorted())")
        }
    }
}
