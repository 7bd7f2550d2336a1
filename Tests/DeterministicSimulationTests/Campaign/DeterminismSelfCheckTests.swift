@testable import DeterministicSimulation
import Synchronization
import Testing

/// Issue 32, item 6: a sample of runs (one in 25, and every failure a campaign reports) is run
/// again and compared, and a difference names the first event where the runs part.
@Suite struct DeterminismSelfCheckTests {
    /// Five events per run; the third carries a process-wide counter (the nondeterminism).
    final class DriftingTraceTarget: CampaignTarget {
        let counter = Atomic<Int64>(0)
        func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
            let value = Int64(choices.int(in: 0...9))
            let tick = counter.wrappingAdd(1, ordering: .relaxed).newValue
            var trace: [TraceLine] = []
            if keepTrace {
                for index in 0..<5 {
                    let fields = index == 2 ? [TraceField("tick", .int(tick))] : [TraceField("value", .int(value))]
                    trace.append(TraceLine(time: VirtualTime(microseconds: Int64(index) * 1_500_000), name: "step", fields: fields))
                }
            }
            return RunVerdict(digest: TraceDigest(UInt64(tick)), eventCount: 5, simulatedTime: .zero, failures: [],
                              trace: trace)
        }
    }

    /// The same every time but the first run in the process (a cache that warms up).
    final class ColdStartTarget: CampaignTarget {
        let warm = Atomic<Bool>(false)
        func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
            _ = choices.int(in: 0...9)
            let cold = !warm.exchange(true, ordering: .relaxed)
            return RunVerdict(digest: TraceDigest(cold ? 1 : 2), eventCount: 1, simulatedTime: .zero, failures: [])
        }
    }

    @Test("a sampled run that does not replay names the first event where two traced reruns part")
    func namesTheFirstDifferingEvent() throws {
        let result = Campaign.run(DriftingTraceTarget(), options: CampaignOptions(seed: Seed(7), runs: 10, jobs: 1))
        let record = try #require(result.nondeterminism.first)
        let difference = try #require(record.firstDifference)
        #expect(difference.hasPrefix("two traced reruns part at event 3: 3.000000s step tick="), "\(difference)")
        #expect(difference.contains("in one run,") && difference.contains("in the other"), "\(difference)")
    }

    @Test("reruns that agree with each other but not with the campaign's run blame state left over in the process")
    func blamesLeftoverState() throws {
        let options = CampaignOptions(seed: Seed(7), runs: 1, jobs: 1, determinismSamples: 1)
        let result = Campaign.run(ColdStartTarget(), options: options)
        let record = try #require(result.nondeterminism.first)
        #expect(record.firstDifference?.contains("agreed with each other") == true, "\(record.firstDifference ?? "nil")")
        #expect(record.firstDifference?.contains("state left over from earlier runs") == true)
    }

    /// Runs normally, but its first recheck times out (a child starved on a loaded machine).
    final class StarvedRecheckTarget: CampaignTarget {
        let calls = Atomic<Int>(0)
        let timeouts: Int
        init(timeouts: Int) { self.timeouts = timeouts }
        func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
            _ = choices.int(in: 0...9)
            let call = calls.wrappingAdd(1, ordering: .relaxed).newValue
            if call >= 2, call < 2 + timeouts {  // the campaign's run is call 1
                return RunVerdict(digest: TraceDigest(99), eventCount: 0, simulatedTime: .zero, failures: [], stop: .timedOut)
            }
            return RunVerdict(digest: TraceDigest(1), eventCount: 1, simulatedTime: .zero, failures: [])
        }
    }

    @Test("a recheck that times out is tried again, and is no nondeterminism when a retry replays")
    func timedOutRecheckIsRetried() {
        let options = CampaignOptions(seed: Seed(7), runs: 1, jobs: 1, determinismSamples: 1)
        #expect(Campaign.run(StarvedRecheckTarget(timeouts: 1), options: options).nondeterminism.isEmpty)
        #expect(Campaign.run(StarvedRecheckTarget(timeouts: 2), options: options).nondeterminism.isEmpty)
        let stuck = Campaign.run(StarvedRecheckTarget(timeouts: 100), options: options).nondeterminism
        #expect(stuck.count == 1)
        #expect(stuck.first?.how.contains("timed out 3 times") == true, "\(stuck)")
    }

    /// Violates two invariants the first time it runs in the process, then never again (a
    /// singleton an earlier run wrote).
    final class ColdFailureTarget: CampaignTarget {
        let warm = Atomic<Bool>(false)
        func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
            _ = choices.int(in: 0...9)
            let cold = !warm.exchange(true, ordering: .relaxed)
            let failures = cold ? [Violation(invariant: "a", message: "x", time: .zero),
                                   Violation(invariant: "b", message: "y", time: .zero)] : []
            return RunVerdict(digest: TraceDigest(cold ? 1 : 2), eventCount: 1, simulatedTime: .zero, failures: failures)
        }
    }

    @Test("a run that is the first failure of two invariants is one nondeterminism record per way of rerunning it")
    func oneRecordPerRerun() {
        let options = CampaignOptions(seed: Seed(7), runs: 3, jobs: 1, determinismSamples: 3)
        let records = Campaign.run(ColdFailureTarget(), options: options).nondeterminism
        // Its rerun from the seed and the replay of its choices, each once (each was there twice).
        #expect(records.map(\.runIndex) == [0, 0] && Set(records.map(\.how)).count == 2,
                "\(records.map { ($0.runIndex, $0.how) })")
    }

    @Test("by default one run in 25 is rerun, and at least 3")
    func defaultSampleRate() {
        #expect(CampaignOptions(seed: Seed(1), runs: 20, jobs: 1).determinismSamples == 3)
        #expect(CampaignOptions(seed: Seed(1), runs: 1_000, jobs: 1).determinismSamples == 40)
        #expect(CampaignOptions(seed: Seed(1), runs: 10_000, jobs: 1, determinismSamples: 0).determinismSamples == 0)
        let flaky = Campaign.run(DriftingTraceTarget(), options: CampaignOptions(seed: Seed(1), runs: 500, jobs: 2))
        #expect(flaky.nondeterminism.count == 20)
    }

    @Test("equal traces have no divergence; a shorter one parts at its end")
    func traceComparison() {
        let line = TraceLine(time: VirtualTime(microseconds: 250), name: "task.end", fields: [TraceField("id", .int(1))],
                             thread: "p1.main")
        let engine = TraceDivergence.self
        #expect(engine.first([line, line], [line, line]) == nil)
        #expect(engine.first([line, line], [line]) == "event 2: 0.000250s task.end id=1 (thread p1.main) in one run, "
            + "the end of the run in the other")
    }
}
