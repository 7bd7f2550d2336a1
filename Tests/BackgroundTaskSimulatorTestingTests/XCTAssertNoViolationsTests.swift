#if canImport(XCTest)
    import BackgroundTaskSimulator
    import BackgroundTaskSimulatorTesting
    import XCTest

    final class XCTAssertNoViolationsTests: XCTestCase {
        func testTheCorrectTwinPassesAndThePlantedBugIsFound() {
            let correct = ExpectNoViolationsTests.campaign("correct")
            XCTAssertTrue(XCTAssertNoViolations(correct, failureDatabase: .off).passed)
            let planted = ExpectNoViolationsTests.campaign("p1-overwritten-task-id")
            XCTAssertFalse(XCTAssertViolation(planted, "expiry-ends-task", failureDatabase: .off).passed)
        }
    }
#endif
