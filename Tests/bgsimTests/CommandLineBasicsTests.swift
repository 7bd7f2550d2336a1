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

    @Test func helpListsEveryCommand() {
        let (io, captured) = CommandIO.capturing()
        #expect(BGSim.run(["help"], io: io) == .success)
        for command in ["fuzz", "replay", "check", "list", "bench", "merge"] {
            #expect(captured.stdout.contains("bgsim \(command)"))
        }
    }
}
