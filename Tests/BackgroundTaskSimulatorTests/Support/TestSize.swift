import Foundation

/// How big the long suites run: the one switch, `BGSIM_TEST_SIZE` (issue 35, item 4).
///
/// ```
/// swift test                                        # quick: every suite at its quick size
/// BGSIM_TEST_SIZE=ci swift test -c release ...      # what .ci/run sets for the long suites
/// ```
///
/// `quick` (unset, the default) keeps `swift test` within minutes on 2 cores; `ci` is what CI
/// runs (`.ci/run`, from a release build; `.ci/README.md` lists the suites and their times).
/// Every long suite reads its size here, and keeps its own variable to override one size by hand:
///
/// | suite | quick | ci |
/// |---|---|---|
/// | `CheckerFilteringTests` | 5 runs per scenario, both ways | 40 |
/// | `ScenarioExpectationTests` (a correct scenario) | 25 runs | 100 (a planted bug: up to 100 either way, stopping at its finding) |
/// | `WorkloadExpectationTests` (a correct workload) | 50 runs per profile | 200 |
/// | `InvariantCanFailTests` (the correct workload; the planted bug stops at its finding) | 50 runs | 150 |
/// | `FalseAlarmSweepTests` | the slice | every action at every moment (`BGSIM_SWEEP=full`) |
/// | `ShrinkFuzzTests` | quick | `ci` (`BGSIM_SHRINK_FUZZ=ci`; `full`, over an hour, by hand) |
/// | `ScenarioParserFuzzTests` (bgsimTests) | 250 mutants per file | 2,000 (`BGSIM_PARSER_FUZZ_MUTANTS=N`) |
/// | `CampaignFailureShrinkTests` | the two campaigns with secondary findings in later processes | every planted-bug campaign |
/// | `RequiredProbeSeedTests` | the scenarios with required probes and at most 1,000 runs, two other seeds | every scenario with required probes |
///
/// A quick size still fails on the bug its test is for: each covers every scenario or workload,
/// and only the number of runs, mutants or injection points shrinks.
enum TestSize {
    /// Whether `BGSIM_TEST_SIZE=ci` is set.
    static let isCI = ProcessInfo.processInfo.environment["BGSIM_TEST_SIZE"] == "ci"

    /// `quick` by default, `ci` under the switch.
    static func pick<T>(quick: T, ci: T) -> T { isCI ? ci : quick }
}
