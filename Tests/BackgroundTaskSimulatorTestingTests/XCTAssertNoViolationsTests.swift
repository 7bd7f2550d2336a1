#if canImport(XCTest)
    import BackgroundTaskSimulator
    @testable import BackgroundTaskSimulatorTesting
    import XCTest

    final class XCTAssertNoViolationsTests: XCTestCase {
        func testTheCorrectTwinPassesAndThePlantedBugIsFound() {
            let correct = ExpectNoViolationsTests.campaign("correct")
            XCTAssertTrue(XCTAssertNoViolations(correct, failureDatabase: .off).passed)
            let planted = ExpectNoViolationsTests.campaign("p1-overwritten-task-id")
            XCTAssertFalse(XCTAssertViolation(planted, "expiry-ends-task", failureDatabase: .off).passed)
        }

        func testScenarioGateMeetsAPlantedBugsExpectation() throws {
            let folder = try ScenarioGateExpectTests.scenarioFolder(
                "download-manager-p1-overwritten-task-id-ios17.json", as: "planted", runs: 30)
            let gate = XCTAssertScenariosMeetExpectations(in: [folder], failureDatabase: .off)
            XCTAssertEqual(gate?.passed, true)
            XCTAssertEqual(gate?.plantedFound, 1)
        }
    }
#endif
