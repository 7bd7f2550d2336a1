@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import Testing

/// The run monitor calls each built-in checker only for the event kinds it says it observes;
/// these show that this changes nothing: the same violations, messages and digests as calling
/// every checker for every event, on every scenario (the buggy ones included).
///
/// Runs per scenario: 5 by default, 40 under `BGSIM_TEST_SIZE=ci` (``TestSize``). A checker that
/// misses an event kind it needs diverges in any run where that kind occurs, and every scenario's
/// first runs already go through its workload's whole life (launch, background, expiry, relaunch).
@Suite struct CheckerFilteringTests {
    static let runs = TestSize.pick(quick: 5, ci: 40)

    static let files: [String] = (try? FileManager.default.contentsOfDirectory(atPath: ScenarioExpectationTests.directory))?
        .filter { $0.hasSuffix(".json") && ScenarioExpectationTests.runsInProcess($0) }.sorted() ?? []

    @Test("filtering checker events gives the same outcome as calling every checker", arguments: files)
    func filteringChangesNothing(file: String) throws {
        let scenario = try ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/" + file)
        let spec = scenario.runSpec
        for index in 0..<Self.runs {
            let seed = scenario.campaign.seed.derive(index: UInt64(index))
            let filtered = SimulationRunner.run(spec, choices: ChoiceSource(seed: seed), keepTrace: false,
                                                filtersCheckerEvents: true)
            let unfiltered = SimulationRunner.run(spec, choices: ChoiceSource(seed: seed), keepTrace: false,
                                                  filtersCheckerEvents: false)
            #expect(filtered.violations == unfiltered.violations, "seed: \(seed)")
            #expect(filtered.digest == unfiltered.digest, "seed: \(seed)")
        }
    }

    @Test("every event kind has a representative of that kind")
    func representativesByKind() {
        for kind in 0..<SimEvent.kindCount {
            #expect(SimEvent.representative(ofKind: kind).kindIndex == kind)
        }
    }
}
