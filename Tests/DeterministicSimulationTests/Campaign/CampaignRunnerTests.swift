import DeterministicSimulation
import Synchronization
import ThreadSanitizerSupport
import Testing

@Suite("Campaign runner")
struct CampaignRunnerTests {
    static let options = CampaignOptions(seed: Seed(0xc0ffee), runs: 300, jobs: 1)

    @Test("jobs 1, 2 and 4 give identical results: digest, counts, failures, coverage")
    func jobsDoNotChangeResults() {
        var options = Self.options
        let one = ResultFingerprint(Campaign.run(ThresholdTarget(), options: options))
        for jobs in [2, 4] {
            options.jobs = jobs
            #expect(ResultFingerprint(Campaign.run(ThresholdTarget(), options: options)) == one, "jobs \(jobs)")
        }
        #expect(one.totals.runs == 300 && one.totals.failed > 0 && one.totals.passed > 0)
    }

    @Test("run i uses seed.derive(index: i) and shards partition the runs")
    func shardsPartitionRuns() throws {
        let shard = try Shard(parsing: "2/3")
        #expect(shard.runCount(of: 10) == 3)   // 1, 4, 7
        #expect((0..<10).filter(shard.contains) == [1, 4, 7])
        #expect(Shard.whole.runCount(of: 5) == 5)
        #expect(Shard(index: 3, count: 3).runCount(of: 2) == 0)
        for bad in ["0/3", "4/3", "1/0", "a/b", "1", "1/2/3", "-1/2", ""] {
            #expect(throws: ShardParseError.self, "\(bad)") { try Shard(parsing: bad) }
        }
    }

    @Test("a failure names the first failing run, with its run seed, shrunk choices and trace")
    func failureRecords() throws {
        let result = Campaign.run(ThresholdTarget(), options: Self.options)
        let record = try #require(result.failures.first)
        #expect(record.seed == Self.options.seed.derive(index: UInt64(record.runIndex)))
        #expect(result.totals.violations.first?.firstRun == record.runIndex)
        let again = ThresholdTarget().run(choices: ChoiceSource(seed: record.seed), keepTrace: false)
        #expect(again.failures.contains { $0.invariant == record.failure.invariant })
        let shrunk = ThresholdTarget().run(choices: ChoiceSource(replaying: record.choices), keepTrace: true)
        #expect(shrunk.failures.contains { $0.invariant == record.failure.invariant })
        #expect(record.trace == shrunk.trace)
        #expect(record.shrunkEventCount <= record.originalEventCount)
        #expect(Set(result.failures.map(\.failure.invariant)).count == result.failures.count)
        #expect(result.nondeterminism.isEmpty)
    }

    @Test("the failure cap keeps the earliest invariants")
    func failureCap() {
        var options = Self.options
        options.maxShrunkFailures = 1
        let result = Campaign.run(ThresholdTarget(), options: options)
        #expect(result.failures.count == 1)
        #expect(result.failures.first?.failure.invariant == result.totals.violations.first?.invariant)
        #expect(result.totals.violations.count == 2)
    }

    @Test("cancellation stops between runs and marks the result interrupted")
    func cancellation() {
        let started = Atomic<Int>(0)
        var options = Self.options
        options.runs = 100_000
        options.jobs = 2
        let result = Campaign.run(ThresholdTarget(), options: options, isCancelled: {
            started.wrappingAdd(1, ordering: .relaxed).newValue > 500
        })
        #expect(result.stop == .interrupted)
        #expect(result.totals.runs < 1_000 && result.totals.runs > 0)
        #expect(result.totals.passed + result.totals.failed == result.totals.runs)
        #expect(result.failures.allSatisfy { $0.shrink == nil })
    }

    @Test("progress is reported from the calling thread while runs go on")
    func progress() {
        let updates = Mutex<[CampaignProgress]>([])
        var options = Self.options
        options.runs = 40_000
        options.jobs = 2
        let result = Campaign.run(ThresholdTarget(), options: options, progress: { update in
            updates.withAnnotatedLock { $0.append(update) }
        })
        let seen = updates.withAnnotatedLock { $0 }
        #expect(result.totals.runs == 40_000)
        for update in seen {
            #expect(update.runsTotal == 40_000 && update.runsDone <= 40_000)
        }
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.runsDone <= $1.runsDone })
    }

    @Test("a nondeterministic target is caught by the rerun of sampled runs")
    func nondeterminism() throws {
        let result = Campaign.run(FlakyTarget(), options: CampaignOptions(seed: Seed(1), runs: 50, jobs: 1))
        let first = try #require(result.nondeterminism.first)
        #expect(first.expected != first.actual)
        #expect(first.how == "a rerun from its seed")
        #expect(result.nondeterminism.count == 3)
    }

    @Test("coverage merges in first-appearance order by run index, for any jobs value")
    func coverageOrder() {
        var options = Self.options
        let one = Campaign.run(ThresholdTarget(), options: options).coverage
        options.jobs = 3
        #expect(Campaign.run(ThresholdTarget(), options: options).coverage == one)
        #expect(one.categories.map(\.name) == ["sizes", "values"])
        #expect(one.entries("sizes").reduce(0) { $0 + $1.count } == 300)
    }
}
