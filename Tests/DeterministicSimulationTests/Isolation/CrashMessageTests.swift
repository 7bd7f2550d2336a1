@testable import DeterministicSimulation
import Glibc
import Testing

/// A crashed isolated run's message comes from that run's own stderr, and an `NSLog` line in it
/// is the run's logging, not the crash's message: a workload that logged with `NSLog` and then
/// trapped in an optimized build (no message of its own) was reported with its last log line,
/// whose process id differs in every child, as its message: a false NONDETERMINISM for every
/// crashing seed of `bgsim check`.
@Suite(.timeLimit(.minutes(1)))
struct CrashMessageTests {
    @Test("an NSLog line (Linux and Darwin forms) gives its text; other lines give nil")
    func loggedLines() {
        #expect(CrashMessage.loggedText("2026-01-01 00:30:26.000 upload-bgsim[5444:42c906c0] expired with 0 photos") == "expired with 0 photos")
        #expect(CrashMessage.loggedText("2026-12-01 11:40:00.123 My App[812:90211] saved [3] drafts") == "saved [3] drafts")
        #expect(CrashMessage.loggedText("Fatal error: Unexpectedly found nil while unwrapping an Optional value") == nil)
        #expect(CrashMessage.loggedText("2026-01-01 00:30:26.000 no brackets here") == nil)
        #expect(CrashMessage.loggedText("2026-01-01 00:30:26 app[1:2] no milliseconds") == nil)
    }

    @Test("a silent crash after log lines names the last one after the message, without time or ids; a runtime message wins")
    func messages() {
        let logged = "2026-01-01 00:30:26.000 app[5444:42c906c0] expired with 0 photos waiting\nbgsim: CRASH: fatal signal SIGSEGV"
        let text = CrashMessage.text(stderr: logged, signal: SIGSEGV, status: 70 << 8)
        #expect(text.hasPrefix("the workload crashed: no message (a bad memory access"))
        #expect(text.hasSuffix("(fatal signal SIGSEGV); the last line it logged: expired with 0 photos waiting"))
        let fatal = "2026-01-01 00:30:26.000 app[5444:42c906c0] expired\nFatal error: boom\nbgsim: CRASH: fatal signal SIGILL"
        #expect(CrashMessage.text(stderr: fatal, signal: SIGILL, status: 70 << 8)
            == "the workload crashed: Fatal error: boom (fatal signal SIGILL)")
    }

    @Test("the message is read from the crashing run's own lines, not an earlier run's or a test framework's")
    func ownLinesOnly() throws {
        // A stand-in worker: a test framework's line and an earlier run's, then the crashing run
        // (which writes nothing) dumps the stderr offset it began at and dies with exit code 70.
        let script = #"printf '{"ready":{}}\n' >&4; read request; echo "◇ Test run started." >&2; "#
            + #"echo "2026-01-01 00:00:01.000 app[1:a] an earlier run" >&2; "#
            + #"offset=$(stat -L -c %s /proc/$$/fd/2); printf 'X\t11\t0\t0\t0\t0\t%s\n' "$offset" >&4; exit 70"#
        let target = IsolatedTarget(local: IsolatedShrinkWireTests.ToyWire(), executable: "/bin/sh",
                                    arguments: ["-c", script], runTimeoutSeconds: nil)
        defer { target.finishChildren() }
        let failure = try #require(target.run(seeds: [Seed(1)]).first?.failures.first)
        #expect(failure.message.hasPrefix("the workload crashed: no message (a bad memory access"))
        #expect(failure.message.hasSuffix("(fatal signal SIGSEGV)"), "\(failure.message)")
    }
}
