import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Every invariant proves it can fail: a planted-bug workload trips it, and the correct workload
/// of the same pattern, run on the same seeds, does not.
///
/// The planted bug runs until it trips the invariant (at most 150 runs); the correct workload
/// runs 50 times by default, 150 under `BGSIM_TEST_SIZE=ci` (``TestSize``).
@Suite struct InvariantCanFailTests {
    static let correctRuns = TestSize.pick(quick: 50, ci: 150)

    /// For each invariant: the planted bug that must trip it and the correct workload of the same
    /// pattern that must not.
    static let pairs: [(invariant: String, planted: String, correct: String)] = [
        ("every-begin-ended", "download-manager/p1-overwritten-task-id", "download-manager/correct"),
        ("no-double-end", "backup/p4-unconditional-end", "backup/correct"),
        ("expiry-ends-task", "analytics-flush/p2-handler-does-not-end", "analytics-flush/correct"),
        ("no-watchdog-kill", "analytics-flush/p2-handler-does-not-end", "analytics-flush/correct"),
        ("expiration-handlers-return-in-time", "analytics-flush/slow-expiration-handler", "analytics-flush/correct"),
        ("background-work-held", "token/p5-unretained-token", "token/correct"),
        ("no-idle-task", "token/retained-by-its-handler", "token/correct"),
        ("bgtask-registered-in-time", "bg-scheduler-app/p6-late-registration", "bg-scheduler-app/correct"),
        ("bgtask-completed-once", "bg-scheduler-app/p7-double-completion", "bg-scheduler-app/correct"),
        ("refresh-stays-scheduled", "bg-scheduler-app/p8-refresh-not-resubmitted", "bg-scheduler-app/correct"),
        ("no-deadlock", "voice-memos/main-sync-in-handler", "voice-memos/correct"),
        ("no-busy-loop", "episode-download/retries-until-it-works", "episode-download/correct"),
        ("no-async-escape", "journal-sync/cursor-saved-through-data-source", "journal-sync/correct"),
        ("work-survives-termination", "upload-queue/saved-only-on-terminate", "upload-queue/correct"),
        ("request-failure-handled", "message-outbox/lost-connection-counted-as-sent", "message-outbox/correct"),
        ("protected-data-available", "offline-articles/complete-protection-at-night", "offline-articles/correct"),
        ("no-file-lock-at-suspend", "shared-notes/lock-held-across-suspension", "shared-notes/correct"),
        ("push-completion-called-once", "push-mail-sync/completion-missing-on-failure", "push-mail-sync/correct"),
        ("fetch-completion-called-once", "weather-fetch/completion-only-on-new-data", "weather-fetch/correct"),
        ("background-session-completion-called-once", "gallery-uploads/completion-before-events", "gallery-uploads/correct"),
        ("background-session-recreated", "gallery-uploads/identifier-per-launch", "gallery-uploads/correct"),
        // The flag race; DataRacePairTests checks the stored id and stored completion handler too.
        ("no-data-race", "receipt-upload/unguarded-did-complete", "receipt-upload/correct"),
    ]

    @Test func everyInvariantHasAPair() {
        #expect(Set(Self.pairs.map(\.invariant)) == Set(Invariant.all.map(\.id)))
    }

    /// The violations of `invariant` in up to `runs` runs of `workload`; with `stopAtFirst`, the
    /// runs end at the first run that has one.
    static func violations(of invariant: String, in workload: String, runs: Int = 150, stopAtFirst: Bool = false)
        throws -> Int {
        let entry = try #require(WorkloadCatalog.all.first { $0.info.name == workload })
        let checked = try #require(Invariant.named(invariant))
        // Background fetch exists only on iOS 7-12 (D3).
        let profile: OSProfile = invariant == "fetch-completion-called-once" ? .ios12 : .ios17
        let spec = RunSpec(profile: profile, environment: EnvironmentConfig(), workload: entry.info,
                           invariants: [checked], horizon: .seconds(1_800))
        var count = 0
        for index in 0..<runs {
            let outcome = SimulationRunner.run(spec, choices: ChoiceSource(seed: Seed(0x1a7).derive(index: UInt64(index))))
            count += outcome.violations.filter { $0.invariant == invariant }.count
            if stopAtFirst, count > 0 { break }
        }
        return count
    }

    @Test("the invariant trips on its planted bug and holds on the correct workload", arguments: pairs.map(\.invariant))
    func invariantCanFail(invariant: String) throws {
        let pair = try #require(Self.pairs.first { $0.invariant == invariant })
        #expect(try Self.violations(of: invariant, in: pair.planted, stopAtFirst: true) > 0,
                "\(pair.planted) must trip \(invariant)")
        #expect(try Self.violations(of: invariant, in: pair.correct, runs: Self.correctRuns) == 0,
                "\(pair.correct) must hold \(invariant)")
    }
}
