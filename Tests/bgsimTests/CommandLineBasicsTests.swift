import BGSimCommands
import Testing

@Suite struct CommandLineBasicsTests {
    @Test func noCommandIsAUsageError() {
        let (io, captured) = CommandIO.capturing()
        #expect(BGSim.run([], io: io) == .usage)
        #expect(captured.stderr.contains("no command given"))
    }

    @Test func unknownCommandIsAUsageErrorOnOneLine() {
        let (io, captured) = CommandIO.capturing()
        #expect(BGSim.run(["fuzzz"], io: io) == .usage)
        #expect(captured.stderr.split(separator: "\n").count == 1)
        #expect(captured.stderr.contains("unknown command 'fuzzz'"))
    }

    @Test func versionPrintsTheVersion() {
        for arguments in [["--version"], ["version"]] {
            let run = CLIRun(arguments)
            #expect(run.code == .success)
            #expect(run.stdout == "bgsim \(BGSim.version)\n")
        }
    }

    @Test("--help anywhere among a command's options wins over its errors, exit 0")
    func helpAnywhere() {
        let run = CLIRun(["replay", "--seed", "0xZZ", "--help"])
        #expect(run.code == .success)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.hasPrefix("bgsim replay: "))
        #expect(CLIRun(["--help", "merge"]).stdout.hasPrefix("bgsim merge: "))
    }

    @Test func helpListsEveryCommand() {
        let (io, captured) = CommandIO.capturing()
        #expect(BGSim.run(["help"], io: io) == .success)
        for command in ["fuzz", "replay", "check", "list", "bench", "merge"] {
            #expect(captured.stdout.contains("bgsim \(command)"))
        }
    }
}
