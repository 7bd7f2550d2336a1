import DeterministicSimulation
import Testing

/// Controlled concurrency finds a lost update that run-to-completion jobs can never show, and
/// everything about it replays: by seed, by recording, across campaign job counts, shrunk.
@Suite("Scheduler concurrency: races")
struct SchedulerConcurrencyRaceTests {
    static let campaign = Seed(0xc0c0_0000_0000_0015)
    static let walk = ConcurrencyConfiguration.randomWalk(preemptionRate: 0.2, maxDelay: .microseconds(50))
    static let pct = ConcurrencyConfiguration.pct(depth: 2, stepBound: 40)

    /// The index of the first of `runs` seeds whose run loses an update, if any.
    static func firstLostUpdate(_ configuration: ConcurrencyConfiguration?, runs: Int) -> Int? {
        let pool = SimulatedThreadPool()
        for index in 0..<runs {
            let choices = ChoiceSource(seed: campaign.derive(index: UInt64(index)))
            if CounterRace.run(choices: choices, configuration: configuration, pool: pool).lostUpdate { return index }
        }
        return nil
    }

    @Test("random walk finds the lost update within 50 runs of the fixed campaign")
    func randomWalkFindsRace() {
        let found = Self.firstLostUpdate(Self.walk, runs: 50)
        #expect(found != nil, "campaign seed \(Self.campaign)")
    }

    @Test("PCT of depth 2 finds the lost update within 50 runs of the fixed campaign")
    func pctFindsRace() {
        let found = Self.firstLostUpdate(Self.pct, runs: 50)
        #expect(found != nil, "campaign seed \(Self.campaign)")
    }

    @Test("without preemption the lost update never happens (no threads, or threads with rate 0)")
    func noPreemptionNoRace() {
        #expect(Self.firstLostUpdate(nil, runs: 300) == nil)
        #expect(Self.firstLostUpdate(.blockingOnly, runs: 300) == nil)
    }

    @Test("the locked counter never loses an update under random walk or PCT")
    func lockedNeverRaces() {
        let pool = SimulatedThreadPool()
        for configuration in [Self.walk, Self.pct, .randomWalk(preemptionRate: 0.9)] {
            for index in 0..<150 {
                let seed = Self.campaign.derive(index: UInt64(index))
                let outcome = CounterRace.run(
                    choices: ChoiceSource(seed: seed), configuration: configuration, variant: .locked, pool: pool)
                #expect(outcome.counter == 6, "seed: \(seed), \(configuration.strategy)")
            }
        }
    }

    @Test("an update inside withPreemptionDeferred never loses, and preemptions still happen around it")
    func deferredNeverRaces() {
        let pool = SimulatedThreadPool()
        for configuration in [Self.walk, Self.pct, .randomWalk(preemptionRate: 0.9)] {
            var preemptions = 0
            for index in 0..<150 {
                let seed = Self.campaign.derive(index: UInt64(index))
                let outcome = CounterRace.run(
                    choices: ChoiceSource(seed: seed), configuration: configuration, variant: .deferred, pool: pool)
                #expect(outcome.counter == 6, "seed: \(seed), \(configuration.strategy)")
                preemptions += outcome.preemptions
            }
            #expect(preemptions > 0, "\(configuration.strategy): no preemption at all, so the test shows nothing")
        }
        // Its racy twin, the same code without the deferral, loses an update under rate 0.9.
        let lost = (0..<150).contains { index in
            CounterRace.run(choices: ChoiceSource(seed: Self.campaign.derive(index: UInt64(index))),
                            configuration: .randomWalk(preemptionRate: 0.9), pool: pool).lostUpdate
        }
        #expect(lost)
    }

    @Test("withPreemptionDeferred outside a job, or without threads, only runs its body")
    func deferredOutsideAJob() {
        let plain = Scheduler(choices: ChoiceSource(seed: Seed(7)))
        #expect(plain.withPreemptionDeferred { 41 + 1 } == 42)
        let threaded = Scheduler(choices: ChoiceSource(seed: Seed(7)))
        threaded.enableControlledConcurrency(.randomWalk(preemptionRate: 1), pool: SimulatedThreadPool())
        #expect(threaded.withPreemptionDeferred { threaded.withPreemptionDeferred { "nested" } } == "nested")
        threaded.discardPendingJobs()
    }

    @Test("with preemption rate 0 a run draws exactly what it draws without threads")
    func rateZeroDrawsNothingExtra() {
        let pool = SimulatedThreadPool()
        for index in 0..<50 {
            let seed = Self.campaign.derive(index: UInt64(index))
            let plain = CounterRace.run(choices: ChoiceSource(seed: seed), configuration: nil, pool: pool)
            let threaded = CounterRace.run(choices: ChoiceSource(seed: seed), configuration: .blockingOnly, pool: pool)
            // (The digests differ only because the trace names threads, which exist only here.)
            #expect(plain.recorded == threaded.recorded && plain.counter == threaded.counter, "seed: \(seed)")
            #expect(plain.events == threaded.events && threaded.preemptions == 0, "seed: \(seed)")
        }
    }

    @Test("the same seed gives the same interleaving, and its recording replays it exactly")
    func seedAndRecordingReplay() throws {
        let pool = SimulatedThreadPool()
        for configuration in [Self.walk, Self.pct] {
            for index in 0..<40 {
                let seed = Self.campaign.derive(index: UInt64(index))
                let first = CounterRace.run(choices: ChoiceSource(seed: seed), configuration: configuration, pool: pool)
                let again = CounterRace.run(choices: ChoiceSource(seed: seed), configuration: configuration, pool: pool)
                let token = first.recorded.token
                let replay = CounterRace.run(
                    choices: ChoiceSource(replaying: try ChoiceSequence(token: token)), configuration: configuration,
                    pool: pool)
                #expect(again.digest == first.digest && again.counter == first.counter, "seed: \(seed)")
                #expect(replay.digest == first.digest && replay.recorded == first.recorded, "choices: \(token)")
            }
        }
    }

    /// The campaign digest of 200 random-walk runs, pinned: the same interleavings in every
    /// process (regenerate as DeterminismSweepTests says, and say why in the commit).
    static let pinnedWalkDigest = "6f146498160d3fe0"

    @Test("the campaign digest is the same for 1 and 2 jobs, and matches the pinned value in every process")
    func campaignDigestPinned() {
        let target = CounterRaceTarget(configuration: Self.walk)
        let one = Campaign.run(target, options: CampaignOptions(seed: Self.campaign, runs: 200, jobs: 1))
        let two = Campaign.run(target, options: CampaignOptions(seed: Self.campaign, runs: 200, jobs: 2))
        #expect(one.totals.digest.digest == two.totals.digest.digest)
        #expect(one.totals.failed == two.totals.failed && one.totals.failed > 0, "failed: \(one.totals.failed), \(two.totals.failed)")
        #expect(one.totals.digest.digest.description == Self.pinnedWalkDigest, "actual: \(one.totals.digest.digest)")
    }

    @Test("shrinking a found lost update keeps at most the one preemption it needs")
    func shrinkingRemovesPreemptions() throws {
        let pool = SimulatedThreadPool()
        let target = CounterRaceTarget(configuration: Self.walk)
        let index = try #require(Self.firstLostUpdate(Self.walk, runs: 50))
        let seed = Self.campaign.derive(index: UInt64(index))
        let original = CounterRace.run(choices: ChoiceSource(seed: seed), configuration: Self.walk, pool: pool)
        let shrunk = Shrinker.shrink(original.recorded, target: target) { !$0.passed }
        let replay = CounterRace.run(
            choices: ChoiceSource(replaying: shrunk.choices), configuration: Self.walk, pool: pool)
        #expect(replay.lostUpdate, "seed: \(seed), shrunk: \(shrunk.choices.token)")
        #expect(replay.preemptions <= 1, "preemptions: \(original.preemptions) -> \(replay.preemptions)")
        #expect(shrunk.choices.values.count <= original.recorded.values.count)
    }
}

/// The plain scheduler's semantics survive the threaded loop: jobs without scheduling points
/// run on pool threads exactly as they ran inline, draw for draw.
@Suite("Scheduler concurrency: the sweep on threads")
struct SchedulerConcurrencySweepTests {
    @Test("the 1000-run sweep gives the pinned campaign digest on simulated threads too")
    func sweepDigestUnchanged() {
        let pool = SimulatedThreadPool()
        for configuration in [ConcurrencyConfiguration.blockingOnly, .randomWalk(preemptionRate: 0.5),
                              .pct(depth: 3, stepBound: 100)]
        {
            var combiner = DigestCombiner()
            for index in 0..<DeterminismSweepTests.runs {
                let seed = DeterminismSweepTests.campaign.derive(index: UInt64(index))
                combiner.add(SweepWorkload.run(choices: ChoiceSource(seed: seed), concurrency: (configuration, pool)).digest)
            }
            if case .pct = configuration.strategy {
                // PCT replaces the uniform draw among ready jobs by priorities: a different,
                // but equally deterministic, campaign.
                #expect(combiner.digest.description != DeterminismSweepTests.pinnedCampaignDigest)
            } else {
                #expect(
                    combiner.digest.description == DeterminismSweepTests.pinnedCampaignDigest,
                    "\(configuration.strategy), rate \(configuration.preemptionRate)")
            }
        }
        #expect(pool.threadCount == 1)
    }
}
