#if canImport(XCTest)
    public import BackgroundTaskSimulator
    import Foundation
    public import XCTest

    /// Runs a campaign inside an XCTest test and fails it once per violated invariant at your
    /// call's line: the XCTest form of `campaign.expectNoViolations()`.
    ///
    /// ```swift
    /// final class DraftUploaderTests: XCTestCase {
    ///     func testEndsEveryTask() {
    ///         XCTAssertNoViolations(WorkloadCampaign(workload: draftUploader, runs: 500))
    ///     }
    /// }
    /// ```
    ///
    /// Contract: the same campaign, failure database and messages as the Swift Testing call (one
    /// `XCTFail` per finding); it blocks the test's thread while other front-door campaigns of
    /// the process finish. XCTest has no attachments on every platform: replay the printed call
    /// and read `traceText` or `perfettoJSON` of its outcome.
    ///
    /// - Returns: the report, for more checks of your own.
    @discardableResult
    public func XCTAssertNoViolations(_ campaign: WorkloadCampaign, failureDatabase: FailureDatabase = .standard,
                                      file: StaticString = #filePath, line: UInt = #line) -> WorkloadReport {
        let report = campaign.runBlocking(with: failureDatabase)
        for finding in CampaignFinding.violations(in: report, of: campaign) {
            XCTFail(finding.text, file: file, line: line)
        }
        return report
    }

    /// The XCTest form of `campaign.expectViolation(_:)`: fails at your call's line unless
    /// `invariant` was violated.
    ///
    /// ```swift
    /// XCTAssertViolation(leakyCampaign, "expiry-ends-task")
    /// ```
    @discardableResult
    public func XCTAssertViolation(_ campaign: WorkloadCampaign, _ invariant: String,
                                   failureDatabase: FailureDatabase = .standard,
                                   file: StaticString = #filePath, line: UInt = #line) -> WorkloadReport {
        let report = campaign.runBlocking(with: failureDatabase)
        for finding in CampaignFinding.missedViolation(invariant, in: report, of: campaign) {
            XCTFail(finding.text, file: file, line: line)
        }
        return report
    }

    extension WorkloadCampaign.Isolation {
        /// The XCTest form of `.testProcesses()`: the campaign's runs happen in child processes
        /// that re-run `testCase`'s test method, so a crash or hang in your code is a `no-crash`
        /// or `no-hang` failure of the test and the test run goes on.
        ///
        /// ```swift
        /// func testUploaderSurvivesEveryLifecycle() {
        ///     var campaign = WorkloadCampaign(workload: uploader, runs: 500)
        ///     campaign.isolation = .testProcesses(of: self)
        ///     XCTAssertNoViolations(campaign)
        /// }
        /// ```
        ///
        /// Contract: as the Swift Testing form's (the same campaign at this line in every process;
        /// code before it runs again in each child). Tested on Linux, where the child is this test
        /// binary with the test's `Module.Class/method` filter; on macOS it is `xctest -XCTest
        /// Module.Class/method BUNDLE`, without a Mac to try it yet.
        public static func testProcesses(of testCase: XCTestCase, file: StaticString = #filePath, line: UInt = #line)
            -> Self {
            let test = String(reflecting: type(of: testCase)) + "/" + methodName(testCase.name)
            #if os(Linux)
                let (executable, arguments) = ("/proc/self/exe", [test])
            #else
                let executable = CommandLine.arguments.first ?? ""
                let arguments = ["-XCTest", test, Bundle(for: type(of: testCase)).bundlePath]
            #endif
            return Self(rerunning: TestRerun(executable: executable, arguments: arguments, key: "\(test) \(file):\(line)"))
        }

        /// The method of an XCTest name: `-[Class method]` (Darwin) or `Class.method` (Linux).
        static func methodName(_ name: String) -> String {
            if name.hasPrefix("-["), let space = name.firstIndex(of: " ") {
                return String(name[name.index(after: space)...].dropLast())
            }
            return String(name.split(separator: ".").last ?? Substring(name))
        }
    }

    extension WorkloadCampaign {
        /// ``run(with:)`` for a synchronous test: waits for its turn blocking this thread.
        func runBlocking(with database: FailureDatabase) -> WorkloadReport {
            var campaign = self
            campaign.failureStore = database.store(for: self)
            return CampaignTurns.shared.withTurnBlocking { campaign.run() }
        }
    }
#endif

#if canImport(XCTest)
    /// Runs scenario files as `bgsim check` does inside an XCTest test, and fails it once per
    /// scenario that missed its expectation at your call's line: the XCTest form of
    /// `ScenarioGate.expectExpectationsMet(in:)`, with the same scenarios, verdicts and messages.
    ///
    /// ```swift
    /// func testScenarios() {
    ///     XCTAssertScenariosMeetExpectations(in: ["Scenarios"], workloads: MyApp.workloads)
    /// }
    /// ```
    ///
    /// Contract: blocks the test's thread while other front-door campaigns of the process finish.
    ///
    /// - Returns: the gate (nil when the scenarios did not load).
    @discardableResult
    public func XCTAssertScenariosMeetExpectations(
        in paths: [String] = ["Scenarios"], workloads: WorkloadRegistry = .builtIn, jobs: Int = 1,
        failureDatabase: FailureDatabase = .standard, isolation executable: String? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) -> ScenarioGate? {
        let checked = CampaignTurns.shared.withTurnBlocking {
            GateFinding.check(paths, workloads: workloads, jobs: jobs, store: failureDatabase.store, executable: executable)
        }
        for text in checked.findings { XCTFail(text, file: file, line: line) }
        return checked.gate
    }
#endif
