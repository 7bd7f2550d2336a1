import SimulationFormats

/// JUnit XML for CI systems (`bgsim fuzz --junit`, `bgsim check --junit`): one test suite per
/// scenario, one test case per invariant (plus `determinism`), a failure carrying the message
/// and the replay command.
///
/// ```swift
/// let xml = JUnitReport.xml([(scenario: "p1", invariants: ["every-begin-ended"], result: result,
///                             replayCommand: { "bgsim replay Scenarios/p1.json --seed \($0.seed)" })])
/// ```
///
/// Contract: deterministic bytes: no timestamps or durations, so the same campaign gives the
/// same file for every `jobs` value. Invariants violated but not listed get their own case.
public enum JUnitReport {
    public static func xml(_ suites: [(scenario: String, invariants: [String], result: CampaignResult,
                                       replayCommand: (FailureRecord) -> String)]) -> String {
        let cases = suites.map { testCases($0.invariants, $0.result, $0.replayCommand) }
        let tests = cases.reduce(0) { $0 + $1.count }
        let failures = cases.reduce(0) { $0 + $1.filter { $0.failure != nil }.count }
        var writer = XMLWriter()
        writer.open("testsuites", [("name", "bgsim"), ("tests", String(tests)), ("failures", String(failures))])
        for (suite, cases) in zip(suites, cases) {
            writer.open("testsuite", [("name", suite.scenario), ("tests", String(cases.count)),
                                      ("failures", String(cases.filter { $0.failure != nil }.count)),
                                      ("errors", "0"), ("skipped", "0")])
            writer.open("properties")
            for (name, value) in properties(suite.result) {
                writer.element("property", [("name", name), ("value", value)])
            }
            writer.close()
            for testCase in cases {
                writer.open("testcase", [("classname", suite.scenario), ("name", testCase.name)])
                if let failure = testCase.failure {
                    writer.element("failure", [("message", failure.message), ("type", failure.type)],
                                   text: failure.body)
                }
                writer.close()
            }
            writer.close()
        }
        return writer.finish()
    }

    private struct TestCase {
        var name: String
        var failure: (message: String, type: String, body: String)?
    }

    private static func properties(_ result: CampaignResult) -> [(String, String)] {
        [("seed", result.options.seed.description), ("runs", String(result.totals.runs)),
         ("shard", result.options.shard.description), ("traceDigest", result.totals.digest.digest.description),
         ("stop", result.stop.rawValue)]
    }

    private static func testCases(_ invariants: [String], _ result: CampaignResult,
                                  _ replay: (FailureRecord) -> String) -> [TestCase] {
        let totals = result.totals
        var names = invariants
        for entry in totals.violations where !names.contains(entry.invariant) { names.append(entry.invariant) }
        var cases = names.map { name -> TestCase in
            guard let count = totals.violations(of: name)?.runs else { return TestCase(name: name) }
            guard let record = result.failures.first(where: { $0.failure.invariant == name }) else {
                return TestCase(name: name, failure: ("\(name) violated in \(count) runs", "violation",
                                                      "violated in \(count) of \(totals.runs) runs; "
                                                          + "no record kept (over the failure cap)"))
            }
            var body = "\(record.failure.message)\nviolated in \(count) of \(totals.runs) runs; "
                + "first at run \(record.runIndex), seed \(record.seed)\nreplay: \(replay(record))"
            if record.shrink != nil {
                body += "\nshrunk to \(record.shrunkSizeText), choices \(record.choices.token)"
            }
            return TestCase(name: name, failure: (record.failure.message, "violation", body))
        }
        var determinism = TestCase(name: "determinism")
        if let first = result.nondeterminism.first {
            determinism.failure = (
                "run seed \(first.seed) gave digest \(first.actual) on \(first.how), expected \(first.expected)",
                "nondeterminism",
                result.nondeterminism.map { "run \($0.runIndex) seed \($0.seed): \($0.how) gave \($0.actual), "
                    + "expected \($0.expected)" }.joined(separator: "\n"))
        }
        cases.append(determinism)
        return cases
    }
}
