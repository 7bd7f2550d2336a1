import BGSimCommands
import Testing

/// Progress goes to stderr only when it is a terminal and `--quiet` is not given; results go to
/// stdout either way.
@Suite struct ProgressTests {
    /// Enough runs to outlast the first progress tick (0.25 s) on a fast machine: about 2 s in a
    /// debug build, and in an optimized one, whose runs are about ten times faster, ten times as
    /// many.
    static let runs: Int = {
        #if DEBUG
        400
        #else
        4_000
        #endif
    }()
    static let arguments = ["fuzz", PackageRoot.scenario("token-correct-ios17.json"), "--runs", "\(runs)", "--jobs", "1"]

    @Test func aTerminalGetsProgressLines() {
        let (io, captured) = CommandIO.capturing(terminal: true)
        #expect(BGSim.run(Self.arguments, io: io) == .success)
        #expect(captured.stderr.contains("runs/s"), "progress: \(captured.stderr)")
        #expect(captured.stderr.contains("/\(Self.runs) runs"))
        #expect(captured.stdout.contains("\(Self.runs) runs: \(Self.runs) passed"))
    }

    @Test func quietOrNotATerminalGetsNone() {
        let (quietIO, quiet) = CommandIO.capturing(terminal: true)
        #expect(BGSim.run(Self.arguments + ["--quiet"], io: quietIO) == .success)
        #expect(quiet.stderr.isEmpty)
        let (pipeIO, pipe) = CommandIO.capturing(terminal: false)
        #expect(BGSim.run(Self.arguments, io: pipeIO) == .success)
        #expect(pipe.stderr.isEmpty)
        #expect(pipe.stdout.contains("\(Self.runs) runs: \(Self.runs) passed"))
    }
}
