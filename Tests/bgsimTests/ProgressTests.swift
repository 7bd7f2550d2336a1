import BGSimCommands
import Testing

/// Progress goes to stderr only when it is a terminal and `--quiet` is not given; results go to
/// stdout either way.
@Suite struct ProgressTests {
    static let arguments = ["fuzz", PackageRoot.scenario("token-correct-ios17.json"), "--runs", "400", "--jobs", "1"]

    @Test func aTerminalGetsProgressLines() {
        let (io, captured) = CommandIO.capturing(terminal: true)
        #expect(BGSim.run(Self.arguments, io: io) == .success)
        #expect(captured.stderr.contains("runs/s"), "progress: \(captured.stderr)")
        #expect(captured.stderr.contains("/400 runs"))
        #expect(captured.stdout.contains("400 runs: 400 passed"))
    }

    @Test func quietOrNotATerminalGetsNone() {
        let (quietIO, quiet) = CommandIO.capturing(terminal: true)
        #expect(BGSim.run(Self.arguments + ["--quiet"], io: quietIO) == .success)
        #expect(quiet.stderr.isEmpty)
        let (pipeIO, pipe) = CommandIO.capturing(terminal: false)
        #expect(BGSim.run(Self.arguments, io: pipeIO) == .success)
        #expect(pipe.stderr.isEmpty)
        #expect(pipe.stdout.contains("400 runs: 400 passed"))
    }
}
