@testable import DeterministicSimulation
import Testing

/// A shrink asked of an isolated worker, and its answer, cross the pipe as one JSON line each; the
/// child must shrink with exactly the parent's options, and the parent must read back exactly the
/// child's result, or isolation would change what a campaign reports.
@Suite struct IsolatedShrinkWireTests {
    static let choices = ChoiceSequence([3, 0, 17, UInt64.max, 1])

    @Test("a shrink request keeps its choices, invariant, every budget and the run timeout")
    func requestRoundTrip() throws {
        let options = ShrinkOptions(maxAttempts: 123, maxSeconds: 4.5, maxCacheBytes: 1 << 20)
        let request = IsolatedShrinkWire.ShrinkRequest(choices: Self.choices, invariant: "no-double-end\t\"x\"",
                                                       options: options, runTimeoutMilliseconds: 2_500)
        let line = IsolatedShrinkWire.request(request)
        #expect(line.hasPrefix(#"{"shrink":{"#) && line.hasSuffix("}}\n") && line.dropLast().allSatisfy { $0 != "\n" })
        #expect(IsolatedShrinkWire.parseRequest(line.dropLast()) == request)
    }

    @Test("a shrink without a time limit or a run timeout crosses as one (JSON has no infinity)")
    func unlimited() throws {
        let request = IsolatedShrinkWire.ShrinkRequest(choices: Self.choices, invariant: "x",
                                                       options: ShrinkOptions(maxSeconds: .infinity),
                                                       runTimeoutMilliseconds: nil)
        let parsed = try #require(IsolatedShrinkWire.parseRequest(IsolatedShrinkWire.request(request).dropLast()))
        #expect(parsed.options.timeLimit == nil && parsed.runTimeoutMilliseconds == nil)
        #expect(IsolatedTarget<ToyWire>.shrinkDeadline(parsed.options, runTimeout: 60_000) == nil)
        #expect(IsolatedTarget<ToyWire>.shrinkDeadline(ShrinkOptions(), runTimeout: 1_000) == 72_000)
    }

    @Test("a shrink result and its pass statistics survive the wire exactly; a broken line is nil")
    func answerRoundTrip() {
        let result = ShrinkResult(choices: Self.choices, eventCount: 45, actionCount: 4, attempts: 321, stop: .timeLimit,
                                  passes: [ShrinkPassStats(name: "deleteRuns", attempts: 300, accepted: 7),
                                           ShrinkPassStats(name: "foldTime", attempts: 21, accepted: 0)],
                                  replays: 250)
        let line = IsolatedShrinkWire.answer(result)
        #expect(IsolatedShrinkWire.parseAnswer(line.dropLast()) == result)
        #expect(IsolatedShrinkWire.parseAnswer(line.dropLast().dropLast(3)) == nil)
        #expect(IsolatedShrinkWire.parseRequest(Substring(#"{"shrink":{}}"#)) == nil)
        #expect(IsolatedShrinkWire.parseAnswer(IsolatedShrinkWire.request(.init(choices: Self.choices, invariant: "x",
            options: ShrinkOptions(), runTimeoutMilliseconds: nil)).dropLast()) == nil, "a request is not an answer")
    }

    @Test("a child that ended with the internal-error code is bgsim's fault; a crash or a signal is not")
    func faultKinds() {
        let fault = ShrinkFault.ended(stderr: "Fatal error: boom\nbgsim: INTERNAL ERROR: fatal signal SIGILL (a trap)",
                                         status: 71 << 8)
        #expect(fault.isInternalError)
        #expect(fault.message == "Fatal error: boom; bgsim: INTERNAL ERROR: fatal signal SIGILL (a trap) (exit code 71)")
        #expect(!ShrinkFault.ended(stderr: "bgsim: CRASH: fatal signal SIGSEGV", status: 70 << 8).isInternalError)
        #expect(!ShrinkFault.ended(stderr: "", status: 9).isInternalError)
    }

    struct ToyWire: CampaignTarget {
        func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
            RunVerdict(digest: TraceDigest(0), eventCount: 0, simulatedTime: .zero, failures: [])
        }
    }
}
