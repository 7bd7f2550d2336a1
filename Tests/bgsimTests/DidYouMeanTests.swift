import BGSimCommands
import Testing

/// Issue 14: a mistyped option or command gets "did you mean", on one stderr line with exit 64,
/// before any work.
@Suite struct DidYouMeanTests {
    static let scenario = PackageRoot.scenario("token-correct-ios17.json")

    @Test("a mistyped option gets the nearest declared option and the command's help")
    func mistypedOption() {
        let run = CLIRun(["fuzz", Self.scenario, "--rnus", "5"])
        #expect(run.code == .usage)
        #expect(run.stderr == "bgsim fuzz: unknown option '--rnus'; did you mean '--runs'? "
            + "Run 'bgsim help fuzz' for usage.\n")
        #expect(run.stdout.isEmpty)
    }

    @Test("suggestions come from the command's own options", arguments: [
        (["replay", "x.json", "--sed", "1"], "'--seed'"),
        (["check", "--junt", "j.xml"], "'--junit'"),
        (["bench", "--quik"], "'--quick'"),
        (["list", "-json"], "'--json'"),
        (["merge", "a.json", "--reprot", "m.json"], "'--report'"),
        (["fuzz", "--hepl"], "'--help'"),
    ])
    func suggestionPerCommand(arguments: [String], suggestion: String) {
        let run = CLIRun(arguments)
        #expect(run.code == .usage)
        #expect(run.errorLines.count == 1)
        #expect(run.stderr.contains("did you mean \(suggestion)?"), "\(run.stderr)")
    }

    @Test("an option of another command is not suggested; the command's options are listed")
    func noNearOption() {
        let run = CLIRun(["check", "--runs", "5"])
        #expect(run.code == .usage)
        #expect(run.stderr == "bgsim check: unknown option '--runs' (check takes --jobs, --junit, --quiet, --strategy, "
            + "--failure-db, --no-failure-db, --no-isolate, --run-timeout). "
            + "Run 'bgsim help check' for usage.\n")
    }

    @Test("a mistyped command gets the nearest command")
    func mistypedCommand() {
        let run = CLIRun(["fuz", Self.scenario])
        #expect(run.code == .usage)
        #expect(run.stderr == "bgsim: unknown command 'fuz'; did you mean 'fuzz'? Run 'bgsim help' for usage.\n")
        let help = CLIRun(["help", "rplay"])
        #expect(help.code == .usage)
        #expect(help.stderr.contains("did you mean 'replay'?"), "\(help.stderr)")
    }

    @Test("nothing close: no suggestion, still one line")
    func unknownCommandFarFromAll() {
        let run = CLIRun(["xyzzy"])
        #expect(run.code == .usage)
        #expect(run.stderr == "bgsim: unknown command 'xyzzy'. Run 'bgsim help' for usage.\n")
    }
}
