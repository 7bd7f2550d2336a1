@testable import DeterministicSimulation
import SimulationRuntime
import Testing

/// An isolated worker's answers travel on a descriptor of their own (`WorkerAnswers`, 4), never
/// on stdout: a workload that logged with `print` wrote into the verdict pipe, and the parent,
/// which read a line that was no verdict and then waited politely for the child to end, waited
/// for ever for a child blocked writing to that full pipe (`bgsim check` of such a workload
/// never ended). The children here are shell scripts standing in for workers.
@Suite(.timeLimit(.minutes(1)))
struct ChildProcessLayoutTests {
    @Test("a child's stdout goes nowhere; its answers arrive on descriptor 4, which the environment names")
    func answersHaveTheirOwnDescriptor() throws {
        let script = #"echo "printed by the workload"; echo "answer $BGSIM_WORKER_ANSWERS" >&4; cat >/dev/null"#
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", script])
        defer { child.finish() }
        guard case .line(let line) = child.receive(timeoutMilliseconds: 10_000) else {
            Issue.record("no answer")
            return
        }
        #expect(line == "answer 4")
    }

    @Test("the child's other descriptors stay where they were: requests on stdin, stderr kept for a crash's message")
    func requestsAndStderr() throws {
        let script = #"read request; echo "said: $request" >&2; echo "got $request" >&4; exit 3"#
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", script])
        #expect(child.send("S\t7\n"))
        guard case .line(let line) = child.receive(timeoutMilliseconds: 10_000) else {
            Issue.record("no answer")
            return
        }
        #expect(line == "got S\t7")
        guard case .ended(let rest, let stderr, _, let status) = child.receive(timeoutMilliseconds: 10_000) else {
            Issue.record("the child did not end")
            return
        }
        #expect(rest.isEmpty && stderr == "said: S\t7\n" && (status >> 8) & 0xff == 3)
    }

    @Test("a child that answers something that is no verdict is a crash finding, and is killed rather than waited for")
    func brokenAnswerEndsTheChild() throws {
        // The child answers one line of junk, then fills the pipe and blocks on it: waiting for it
        // to end on its own, as the parent once did, never returns.
        let script = #"printf '{"ready":{}}\n' >&4; read request; echo junk >&4; yes junk >&4"#
        let target = IsolatedTarget(local: IsolatedShrinkWireTests.ToyWire(), executable: "/bin/sh",
                                    arguments: ["-c", script], runTimeoutSeconds: nil)
        defer { target.finishChildren() }
        let verdicts = target.run(seeds: [Seed(1)])
        let failure = try #require(verdicts.first?.failures.first)
        #expect(verdicts.count == 1 && verdicts[0].stop == .crashed)
        #expect(failure.invariant == "no-crash")
    }
}

extension ChildProcessLayoutTests {
    @Test("a child that ends before its ready line never served: every run says so, and only one child is started")
    func endedBeforeServing() throws {
        var wording = CrashWording()
        wording.workerStartAdvice = "; is it a worker?"
        let target = IsolatedTarget(local: IsolatedShrinkWireTests.ToyWire(), executable: "/bin/sh",
                                    arguments: ["-c", "echo 'a test run passed after 0.2 s' >&2; exit 0"],
                                    runTimeoutSeconds: 10, wording: wording)
        defer { target.finishChildren() }
        let verdicts = target.run(seeds: [Seed(1), Seed(2), Seed(3)])
        #expect(verdicts.count == 3)
        for verdict in verdicts {
            #expect(verdict.failures.map(\.message) == [
                "the isolated worker could not start: it ended before serving (exit code 0); is it a worker?"])
        }
        #expect(target.childrenStarted == 1)
    }

    @Test("a child that stays silent is given its start timeout to begin serving (by default the run timeout, at least 30 s)")
    func silentChild() throws {
        let target = IsolatedTarget(local: IsolatedShrinkWireTests.ToyWire(), executable: "/bin/sh",
                                    arguments: ["-c", "sleep 30"], runTimeoutSeconds: 0.1, startTimeoutSeconds: 0.3)
        defer { target.finishChildren() }
        let failure = try #require(target.run(seeds: [Seed(1)]).first?.failures.first)
        #expect(failure.message == "the isolated worker could not start: it did not begin serving within 0.3 s")
        let byDefault = IsolatedTarget(local: IsolatedShrinkWireTests.ToyWire(), executable: "/bin/sh",
                                       arguments: ["-c", "exit 0"], runTimeoutSeconds: 0.5)
        #expect(byDefault.pool.startTimeoutMilliseconds == 30_000)
    }
}
