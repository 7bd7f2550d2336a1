import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// The race workloads of issue 15 prove that controlled concurrency finds what one thread cannot:
/// each planted race is found with simulated threads in a few runs, and not found (or much more
/// rarely) with `concurrency` off on the same run seeds; each correct counterpart passes.
@Suite struct RaceWorkloadTests {
    /// How a planted race behaves without threads.
    enum WithoutThreads {
        /// Never found: the bug needs threads to interleave.
        case neverFound
        /// Much rarer (at most a fifth as often): the model without threads makes one long blocking
        /// job freeze the whole run, which delays the expiry callout on its own now and then.
        case muchRarer
    }

    static let races: [(workload: String, variant: String, invariant: String, off: WithoutThreads)] = [
        ("photo-sync", "unguarded-task-id", "no-double-end", .neverFound),
        ("chat-outbox", "task-registered-after-begin", "expiry-ends-task", .neverFound),
        ("notes-import", "handler-syncs-busy-queue", "expiration-handlers-return-in-time", .neverFound),
        ("feed-refresh", "main-blocked-across-deadline", "no-watchdog-kill", .muchRarer),
        ("voice-memos", "main-sync-in-handler", "no-deadlock", .neverFound),
        ("workout-export", "lock-order-inversion", "no-deadlock", .neverFound),
    ]

    static let campaign = Seed(0x4ace)

    /// Runs `runs` runs of the variant on the campaign's run seeds; the number of runs in which
    /// `invariant` (or, when nil, any invariant) was violated, and the first such run's seed.
    static func failures(
        _ workload: String, _ variant: String, invariant: String?, threads: Bool, runs: Int
    ) throws -> (count: Int, first: Seed?) {
        let entry = try #require(WorkloadCatalog.variant(workload: workload, variant: variant))
        var environment = EnvironmentConfig()
        if !threads { environment.concurrency = .off }
        let spec = RunSpec(profile: .ios17, environment: environment, workload: entry.info,
                           invariants: Invariant.all, horizon: .seconds(1_800))
        var count = 0
        var first: Seed?
        for index in 0..<runs {
            let seed = campaign.derive(index: UInt64(index))
            let outcome = SimulationRunner.run(spec, choices: ChoiceSource(seed: seed))
            guard outcome.violations.contains(where: { invariant == nil || $0.invariant == invariant }) else { continue }
            count += 1
            if first == nil { first = seed }
        }
        return (count, first)
    }

    @Test("the catalogue lists each race with the violation it plants", arguments: races.map(\.workload))
    func catalogued(workload: String) throws {
        let race = try #require(Self.races.first { $0.workload == workload })
        let entry = try #require(WorkloadCatalog.variant(workload: race.workload, variant: race.variant))
        #expect(entry.expectedViolation == race.invariant)
        #expect(WorkloadCatalog.variant(workload: race.workload, variant: "correct") != nil)
    }

    @Test("a planted race is found with threads, and not (or much more rarely) without", arguments: races.map(\.workload))
    func raceFoundOnlyWithThreads(workload: String) throws {
        let race = try #require(Self.races.first { $0.workload == workload })
        let runs = 40
        let with = try Self.failures(race.workload, race.variant, invariant: race.invariant, threads: true, runs: runs)
        let without = try Self.failures(race.workload, race.variant, invariant: race.invariant, threads: false, runs: runs)
        #expect(with.count > 0, "\(race.invariant) not found in \(runs) runs of \(workload)/\(race.variant) with threads")
        switch race.off {
        case .neverFound:
            #expect(without.count == 0, """
                \(race.invariant) found without threads in \(without.count) of \(runs) runs \
                (replay: run seed \(without.first.map { "\($0)" } ?? "-"), concurrency off)
                """)
        case .muchRarer:
            #expect(without.count * 5 <= with.count, """
                \(race.invariant) without threads in \(without.count) runs, with threads in \(with.count) of \(runs)
                """)
        }
    }

    @Test("a race's correct counterpart violates nothing, with threads and without", arguments: races.map(\.workload))
    func correctCounterpartPasses(workload: String) throws {
        for threads in [true, false] {
            let result = try Self.failures(workload, "correct", invariant: nil, threads: threads, runs: 60)
            #expect(result.count == 0, """
                \(workload)/correct failed \(result.count) of 60 runs (threads: \(threads)); \
                replay: run seed \(result.first.map { "\($0)" } ?? "-")
                """)
        }
    }
}
