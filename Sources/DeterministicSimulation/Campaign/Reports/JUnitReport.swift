import SimulationFormats

/// JUnit XML for CI systems (`bgsim check --junit`, `bgsim fuzz --junit`): one test suite per
/// scenario holding one test case named after its expectation (`expect pass`, `expect violation
/// no-double-end`), which passes exactly when the expectation was met.
///
/// ```swift
/// let xml = JUnitReport.xml([JUnitReport.Entry(
///     scenario: "p1", expectation: .violation("every-begin-ended"), invariants: ["every-begin-ended"],
///     result: result,
///     replayCommand: { "bgsim replay Scenarios/p1.json --seed \($0.seed)" },
///     shrunkReplayCommand: { "bgsim replay Scenarios/p1.json --choices \($0.choices.token)" })])
/// ```
///
/// Contract: a planted bug found as expected is a passing test case and a correct workload that
/// held is one too, so a green gate gives `failures="0"` (Jenkins, GitLab and GitHub show it
/// green); a missed expectation or a run that did not replay (nondeterminism) is a `<failure>`.
/// Every case's `<system-out>` says what was found and what held, with each violation's run seed,
/// replay command and shrunk replay command. Deterministic bytes: no timestamps or durations, so
/// the same campaign gives the same file for every `jobs` value.
public enum JUnitReport {
    /// One scenario's campaign and how to print its replay commands.
    public struct Entry {
        public var scenario: String
        public var expectation: CampaignExpectation
        public var invariants: [String]
        public var result: CampaignResult
        public var replayCommand: (FailureRecord) -> String
        public var shrunkReplayCommand: (FailureRecord) -> String
        /// Extra lines for `<system-out>` (for example what the failure database replayed).
        public var notes: [String]
        /// Probes the campaign had to hit (``CampaignExpectation/verdict(for:invariants:savedFailures:requiredProbes:)``).
        public var requiredProbes: [String] = []

        public init(scenario: String, expectation: CampaignExpectation, invariants: [String], result: CampaignResult,
                    replayCommand: @escaping (FailureRecord) -> String,
                    shrunkReplayCommand: @escaping (FailureRecord) -> String, notes: [String] = []) {
            self.scenario = scenario
            self.expectation = expectation
            self.invariants = invariants
            self.result = result
            self.replayCommand = replayCommand
            self.shrunkReplayCommand = shrunkReplayCommand
            self.notes = notes
        }
    }

    /// - Parameter toolName: the `<testsuites>` element's name: the front end that ran them.
    public static func xml(_ entries: [Entry], toolName: String) -> String {
        let cases = entries.map(testCase)
        let failures = cases.filter { $0.failure != nil }.count
        var writer = XMLWriter()
        writer.open("testsuites", [("name", toolName), ("tests", String(cases.count)), ("failures", String(failures))])
        for (entry, testCase) in zip(entries, cases) {
            writer.open("testsuite", [("name", entry.scenario), ("tests", "1"),
                                      ("failures", testCase.failure == nil ? "0" : "1"),
                                      ("errors", "0"), ("skipped", "0")])
            writer.open("properties")
            for (name, value) in properties(entry) {
                writer.element("property", [("name", name), ("value", value)])
            }
            writer.close()
            writer.open("testcase", [("classname", entry.scenario), ("name", entry.expectation.testCaseName)])
            if let failure = testCase.failure {
                writer.element("failure", [("message", failure.message), ("type", failure.type)], text: testCase.details)
            }
            writer.element("system-out", [(String, String)](), text: testCase.details)
            writer.close()
            writer.close()
        }
        return writer.finish()
    }

    private struct TestCase {
        var failure: (message: String, type: String)?
        var details: String
    }

    private static func properties(_ entry: Entry) -> [(String, String)] {
        let result = entry.result
        return [("expect", entry.expectation.description), ("seed", result.options.seed.description),
                ("runs", String(result.totals.runs)), ("shard", result.options.shard.description),
                ("traceDigest", result.totals.digest.digest.description), ("stop", result.stop.rawValue)]
    }

    private static func testCase(_ entry: Entry) -> TestCase {
        let result = entry.result
        let verdict = entry.expectation.verdict(for: result, invariants: entry.invariants,
                                                requiredProbes: entry.requiredProbes)
        var lines = ["\(entry.expectation.testCaseName): \(verdict.headline)", verdict.heldText]
        for record in result.failures {
            let runs = result.totals.violations(of: record.failure.invariant)?.runs ?? 0
            lines.append("\(record.failure.invariant): \(record.failure.message)")
            lines.append("  violated in \(runs) of \(result.totals.runs) runs; first at run \(record.runIndex), "
                + "seed \(record.seed)")
            lines.append("  replay: \(entry.replayCommand(record))")
            if record.shrink != nil {
                lines.append("  shrunk to \(record.shrunkSizeText): \(entry.shrunkReplayCommand(record))")
            }
        }
        for record in result.nondeterminism {
            lines.append("nondeterminism: run \(record.runIndex) seed \(record.seed): \(record.how) gave "
                + "\(record.actual), expected \(record.expected)")
        }
        if result.stop == .interrupted { lines.append("interrupted: the numbers cover the runs that finished") }
        lines += entry.notes
        let details = lines.joined(separator: "\n")
        if let first = result.nondeterminism.first {
            return TestCase(failure: ("run seed \(first.seed) did not replay: \(first.how) gave digest \(first.actual), "
                                      + "expected \(first.expected)", "nondeterminism"), details: details)
        }
        if verdict.isMissed { return TestCase(failure: (verdict.headline, "expectation"), details: details) }
        return TestCase(failure: nil, details: details)
    }
}
