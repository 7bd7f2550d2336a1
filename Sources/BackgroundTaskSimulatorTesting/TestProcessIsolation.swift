public import BackgroundTaskSimulator
import Foundation
import Testing

extension WorkloadCampaign.Isolation {
    /// Runs the campaign's runs in child processes that re-run the calling Swift Testing test,
    /// so a crash or hang in your code is a `no-crash` or `no-hang` finding (shrunk, with its
    /// replay) and the test run goes on: no tool of your own, no scenario file.
    ///
    /// ```swift
    /// @Test func uploaderSurvivesEveryLifecycle() async throws {
    ///     var campaign = WorkloadCampaign(workload: uploader, runs: 500)
    ///     campaign.isolation = try .testProcesses()
    ///     await campaign.expectNoViolations()
    /// }
    /// ```
    ///
    /// How: each child is this test binary, run with `--filter` for this test alone and told in
    /// its environment which campaign to serve. It runs the test up to the campaign's `run()`,
    /// which serves the parent's runs and ends the child; the parent's report is the one an
    /// unisolated campaign gives for runs that neither crash nor hang (same digest).
    ///
    /// Contract: the test must make the same campaign (workload name, seed, runs) at this line in
    /// every process; code before it runs again in each child (keep it cheap), and it must not
    /// depend on test arguments that differ between the cases of a parameterized test beyond the
    /// campaign itself. Tested on Linux, where `CommandLine.arguments[0]` is the test binary; on
    /// macOS the same arguments are passed to the same executable, without a Mac to try it yet.
    ///
    /// - Throws: ``TestProcessIsolationError`` outside a Swift Testing test (in an XCTest method:
    ///   `.testProcesses(of: self)`).
    public static func testProcesses(fileID: String = #fileID, line: Int = #line, column: Int = #column)
        throws(TestProcessIsolationError) -> Self {
        // Literals, not `#_sourceLocation`: that macro would not compile in a file without
        // `import Testing` (an XCTest file), where the call should throw this error instead.
        guard let test = Test.current else { throw TestProcessIsolationError() }
        let id = String(describing: test.id)
        #if os(Linux)
            let executable = "/proc/self/exe"
        #else
            let executable = CommandLine.arguments.first ?? ""
        #endif
        var arguments: [String] = []
        let given = CommandLine.arguments
        if let at = given.firstIndex(of: "--test-bundle-path"), at + 1 < given.count {
            arguments += Array(given[at...(at + 1)])  // swiftpm-testing-helper on macOS
        }
        arguments += ["--testing-library", "swift-testing", "--filter", "^" + regexEscaped(id) + "$"]
        let place = "\(fileID):\(line):\(column)"
        return Self(rerunning: TestRerun(executable: executable, arguments: arguments, key: "\(id) \(place)"))
    }

    /// `text` as a regular expression that matches it alone (Swift Testing's `--filter` is one).
    static func regexEscaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}

/// `WorkloadCampaign.Isolation.testProcesses()` was called outside a Swift Testing test.
public struct TestProcessIsolationError: Error, CustomStringConvertible {
    public var description: String {
        "WorkloadCampaign.Isolation.testProcesses() re-runs the calling Swift Testing test and works only inside one "
            + "(a @Test function); in an XCTest method use .testProcesses(of: self), and outside a test your own tool: "
            + ".init(executable: \"path/to/your-bgsim\", scenarioFile: \"Scenarios/x.json\")"
    }
}
