@testable import BGSimCommands
import Testing

/// The examples in the command-line types' doc comments give the results they document.
@Suite struct CommandLineDocExamplesTests {
    @Test("OptionDeclaration, CommandDeclaration and Arguments: the documented results")
    func declarationExamples() throws {
        #expect(OptionDeclaration.valued("--runs", "N", help: "runs per scenario").synopsis == "[--runs N]")
        #expect(OptionDeclaration.positional("SCENARIO", .zeroOrMore, help: "scenario files").synopsis
            == "[SCENARIO...]")
        let merge = CommandDeclaration(
            name: "merge", abstract: "join shard reports into one report",
            options: [.positional("REPORT", .oneOrMore, help: "shard reports"),
                      .valued("--report", "FILE", required: true, help: "the merged report")])
        #expect(merge.usageLines == ["bgsim merge REPORT... --report FILE"])
        #expect(MergeCommand.declaration.helpText.hasPrefix("""
            bgsim merge: join shard reports into the report one unsharded run gives

            Usage:
              bgsim merge REPORT... --report FILE
            """))
        let args = try Arguments(parsing: ["Scenarios/a.json", "--runs=100", "--quiet"], for: FuzzCommand.declaration)
        #expect(args.positional == ["Scenarios/a.json"])
        #expect(try args.int("--runs", in: 1...10_000_000) == 100)
    }

    @Test("NameSuggestion and ExitCode.mostSevere: the documented results")
    func suggestionAndPrecedenceExamples() {
        #expect(NameSuggestion.option(for: "--rnus", among: ["--runs", "--seed"]) == "--runs")
        #expect(NameSuggestion.option(for: "-runs", among: ["--runs", "--seed"]) == "--runs")
        #expect(NameSuggestion.command(for: "fuz", among: ["fuzz", "replay"]) == "fuzz")
        #expect(ExitCode.mostSevere(.violation, .nondeterminism) == .nondeterminism)
        #expect(ExitCode.mostSevere(.nondeterminism, .interrupted) == .interrupted)
        #expect(TextWrap.lines("one two three", width: 7) == ["one two", "three"])
    }

    @Test("CampaignFlags: an option the command does not declare reads as absent")
    func campaignFlagsReadOnlyDeclaredOptions() throws {
        let fuzz = try CampaignFlags(Arguments(parsing: ["--runs", "50", "--shard", "2/4"], for: FuzzCommand.declaration))
        #expect(fuzz.runs == 50)
        #expect(fuzz.shard.index == 2 && fuzz.shard.count == 4)
        let check = try CampaignFlags(Arguments(parsing: ["--jobs", "3"], for: CheckCommand.declaration))
        #expect(check.runs == nil && check.seed == nil && check.jobs == 3 && check.shard == .whole)
    }
}
