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

        /// A crash in a campaign isolated in XCTest processes is a failure of the test, which goes
        /// on: the children re-run this test method alone.
        func testACrashIsolatedInTestProcessesIsAFailure() throws {
            var campaign = TestProcessIsolationTests.campaign(unwrapsForcibly: true)
            campaign.isolation = .testProcesses(of: self)
            let report = XCTAssertViolation(campaign, "no-crash", failureDatabase: .off)
            XCTAssertTrue(report.failures.contains { $0.invariant == "no-crash" }, "\(report.failures)")
        }

        /// `.testProcesses()` compiles in a file without `import Testing` (no macro in its
        /// defaults) and, in an XCTest method, throws the error that names `.testProcesses(of:)`.
        func testSwiftTestingFormThrowsInXCTest() {
            XCTAssertThrowsError(try WorkloadCampaign.Isolation.testProcesses()) { error in
                XCTAssertTrue("\(error)".contains(".testProcesses(of: self)"))
            }
        }

        func testXCTestNamesGiveTheMethod() {
            XCTAssertEqual(WorkloadCampaign.Isolation.methodName("-[UploaderTests testCrash]"), "testCrash")
            XCTAssertEqual(WorkloadCampaign.Isolation.methodName("UploaderTests.testCrash"), "testCrash")
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
