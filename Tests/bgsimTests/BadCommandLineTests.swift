import BGSimCommands
import Testing

/// Issue 8's bad-input table for command lines: each gets exit 64 (or 73 for an unwritable
/// output, checked before any work) and one stderr line naming the option and the fix.
@Suite struct BadCommandLineTests {
    static let scenario = PackageRoot.scenario("token-correct-ios17.json")

    static let cases: [(label: String, arguments: [String], code: ExitCode, mentions: [String])] = [
        ("unknown option", ["fuzz", scenario, "--runz", "5"], .usage, ["unknown option '--runz'", "--runs"]),
        ("missing value", ["fuzz", scenario, "--runs"], .usage, ["--runs needs a value"]),
        ("value given twice", ["fuzz", scenario, "--runs", "5", "--runs", "6"], .usage, ["given twice"]),
        ("seed with bad hex digits", ["fuzz", scenario, "--seed", "0xZZ"], .usage, ["--seed", "0xZZ"]),
        ("seed with 17 hex digits", ["fuzz", scenario, "--seed", "0x12345678901234567"], .usage, ["--seed"]),
        ("negative seed", ["fuzz", scenario, "--seed", "-5"], .usage, ["--seed"]),
        ("shard beyond its count", ["fuzz", scenario, "--shard", "3/2"], .usage, ["--shard", "K/N"]),
        ("shard zero", ["fuzz", scenario, "--shard", "0/2"], .usage, ["--shard"]),
        ("shard not K/N", ["fuzz", scenario, "--shard", "half"], .usage, ["--shard"]),
        ("zero jobs", ["fuzz", scenario, "--jobs", "0"], .usage, ["--jobs", "1 to"]),
        ("zero runs", ["fuzz", scenario, "--runs", "0"], .usage, ["--runs"]),
        ("runs not a number", ["fuzz", scenario, "--runs", "many"], .usage, ["--runs", "'many'"]),
        ("replay with both seed and choices", ["replay", scenario, "--seed", "1", "--choices", "c1.AA"], .usage,
         ["exactly one of --seed"]),
        ("replay with neither", ["replay", scenario], .usage, ["exactly one of --seed"]),
        ("replay with a bad token", ["replay", scenario, "--choices", "hello"], .usage, ["--choices"]),
        ("replay of two scenarios", ["replay", scenario, scenario, "--seed", "1"], .usage, ["exactly one SCENARIO"]),
        ("merge without --report", ["merge", "a.json"], .usage, ["--report"]),
        ("list with an unknown flag", ["list", "--jsn"], .usage, ["unknown option '--jsn'"]),
        ("missing scenario file", ["fuzz", "no/such/scenario.json"], .noInput, ["no/such/scenario.json", "no such file"]),
        ("unwritable report", ["fuzz", scenario, "--runs", "1", "--report", "/nonexistent-dir/report.json"],
         .cannotCreate, ["/nonexistent-dir/report.json"]),
        ("unwritable JUnit file", ["check", scenario, "--junit", "/nonexistent-dir/junit.xml"], .cannotCreate,
         ["/nonexistent-dir/junit.xml"]),
        ("unwritable trace", ["replay", scenario, "--seed", "1", "--trace", "/nonexistent-dir/t.json"], .cannotCreate,
         ["/nonexistent-dir/t.json"]),
        // Issue 14: the declared command line.
        ("a value for a flag", ["fuzz", scenario, "--quiet=yes"], .usage, ["--quiet takes no value"]),
        ("an empty value", ["fuzz", scenario, "--report="], .usage, ["--report needs a value"]),
        ("an option of another command", ["check", scenario, "--seed", "1"], .usage,
         ["unknown option '--seed'", "check takes --jobs, --junit, --quiet, --strategy, --failure-db, --no-failure-db"]),
        ("bench with an argument", ["bench", "quick"], .usage, ["bench takes no arguments, got 'quick'"]),
        ("help for an unknown command", ["help", "fuzzz"], .usage, ["unknown command 'fuzzz'", "did you mean 'fuzz'?"]),
        ("help for two commands", ["help", "fuzz", "check"], .usage, ["at most one COMMAND"]),
        ("merge without reports", ["merge", "--report", "m.json"], .usage, ["at least one REPORT"]),
        ("a usage error before a missing file", ["replay", "no/such.json", "--seed", "0xZZ"], .usage, ["--seed"]),
    ]

    @Test("a bad command line gets its exit code and one line", arguments: cases.indices)
    func badCommandLine(index: Int) {
        let badCase = Self.cases[index]
        let run = CLIRun(badCase.arguments)
        #expect(run.code == badCase.code, "\(badCase.label): \(run.stderr)")
        #expect(run.errorLines.count == 1, "\(badCase.label): \(run.stderr)")
        for fragment in badCase.mentions {
            #expect(run.stderr.contains(fragment), "\(badCase.label): expected '\(fragment)' in: \(run.stderr)")
        }
        if badCase.code == .usage {
            let command = badCase.arguments[0] == "help" ? "" : " " + badCase.arguments[0]
            #expect(run.stderr.hasSuffix("Run 'bgsim help\(command)' for usage.\n"), "\(badCase.label): \(run.stderr)")
        }
        // Nothing ran: a usage or output error is found before any work.
        #expect(!run.stdout.contains("runs:"), "\(badCase.label) ran a campaign: \(run.stdout)")
    }
}
