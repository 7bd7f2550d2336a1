import BackgroundTaskSimulator
import DeterministicSimulation

/// One fixed workload of the standard benchmark: a built-in workload variant on a profile with a
/// horizon, always run from the same campaign seed.
///
/// ```swift
/// let spec = BenchCase.token.spec   // the correct token workload, iOS 17, 30 virtual minutes
/// ```
///
/// Contract: the cases never read `Scenarios/` (a user's edits must not change the benchmark);
/// changing a case changes the benchmark's meaning, so its name changes with it.
struct BenchCase: Sendable {
    var name: String
    var workload: String
    var variant: String
    var horizonSeconds: Int64
    var seed = Seed(0xbe7c_0000_0000_0001)
    /// How the app's threads interleave: the default (threads, swarm) unless the case says.
    var concurrency = ConcurrencySettings()
    /// Whether the run checks `no-data-race` (and so tracks happens-before): on, as in every
    /// campaign, unless the case measures what detection costs.
    var detectsRaces = true

    var spec: RunSpec {
        guard let entry = WorkloadCatalog.variant(workload: workload, variant: variant) else {
            preconditionFailure("bench case \(name) names an unknown workload \(workload)/\(variant)")
        }
        var environment = EnvironmentConfig()
        environment.concurrency = concurrency
        return RunSpec(profile: .ios17, environment: environment, workload: entry.info,
                       invariants: detectsRaces ? Invariant.all : Invariant.all.filter { $0.id != "no-data-race" },
                       horizon: .seconds(horizonSeconds))
    }

    /// The token workload with the default threads (names without a suffix mean the default).
    static let token = BenchCase(name: "token-ios17-threads", workload: "token", variant: "correct",
                                 horizonSeconds: 1_800)
    /// The same on one thread: every job runs to completion (the model before threads).
    static let tokenOneThread = BenchCase(name: "token-ios17-one-thread", workload: "token", variant: "correct",
                                          horizonSeconds: 1_800, concurrency: .off)
    /// The same on simulated threads whose preemption is never chosen: what threads cost by
    /// themselves.
    static let tokenNoPreemption = BenchCase(
        name: "token-ios17-no-preemption", workload: "token", variant: "correct", horizonSeconds: 1_800,
        concurrency: ConcurrencySettings(strategy: .randomWalk, preemptionRates: 0...0))
    /// The token pattern written with async/await (a `Task` per save on the virtual clock), with
    /// the default threads.
    static let asyncToken = BenchCase(name: "token-async-ios17-threads", workload: "token-async", variant: "correct",
                                      horizonSeconds: 1_800)
    /// The same on one thread.
    static let asyncTokenOneThread = BenchCase(name: "token-async-ios17-one-thread", workload: "token-async",
                                               variant: "correct", horizonSeconds: 1_800, concurrency: .off)
    /// Swift concurrency as apps write it: the real `@MainActor` and plain `Task { }` (journal
    /// sync), with the default threads.
    static let mainActorJournal = BenchCase(name: "journal-sync-ios17-threads", workload: "journal-sync",
                                            variant: "correct", horizonSeconds: 1_800)
    static let backgroundQueue = BenchCase(name: "background-queue-ios17-threads", workload: "background-queue",
                                           variant: "correct", horizonSeconds: 1_800)
    static let scheduler = BenchCase(name: "bg-scheduler-app-ios17-threads", workload: "bg-scheduler-app",
                                     variant: "correct", horizonSeconds: 1_800)
    static let longToken = BenchCase(name: "token-ios17-long-threads", workload: "token", variant: "correct",
                                     horizonSeconds: 86_400)
    static let p1 = BenchCase(name: "download-manager-p1-ios17", workload: "download-manager",
                              variant: "p1-overwritten-task-id", horizonSeconds: 1_800)

    /// The race workloads' correct variants (issue 15), with the default threads.
    static let races: [BenchCase] = raceWorkloads
        .filter { WorkloadCatalog.variant(workload: $0, variant: "correct") != nil }
        .map { BenchCase(name: "\($0)-ios17-threads", workload: $0, variant: "correct", horizonSeconds: 1_800) }

    /// The same on one thread: what each race workload costs without controlled concurrency
    /// (its jobs, locks and blocking calls alone), the ceiling threads are measured against.
    static let racesOneThread: [BenchCase] = raceWorkloads
        .filter { WorkloadCatalog.variant(workload: $0, variant: "correct") != nil }
        .map {
            BenchCase(name: "\($0)-ios17-one-thread", workload: $0, variant: "correct", horizonSeconds: 1_800,
                      concurrency: .off)
        }

    /// The workload families written to show races between threads: schedule-dependent bugs,
    /// then the data races on `SharedState` that `no-data-race` reports (issue 36), whose rows
    /// also show what the detector costs on code that shares state.
    static let raceWorkloads = ["photo-sync", "chat-outbox", "notes-import", "feed-refresh", "voice-memos",
                                "workout-export", "receipt-upload", "video-upload", "thumbnail-prefetch"]

    /// What the data-race detector costs (issue 36: at most 1.3x): the token workload and the
    /// three that share state, with threads, `no-data-race` left out (so nothing is tracked).
    static let withoutRaceDetection: [BenchCase] = ["token", "receipt-upload", "video-upload", "thumbnail-prefetch"].map {
        BenchCase(name: "\($0)-ios17-threads-no-race-detection", workload: $0, variant: "correct", horizonSeconds: 1_800,
                  detectsRaces: false)
    }

    /// The throughput cases, in table order.
    static let throughput = [tokenOneThread, tokenNoPreemption, token, asyncTokenOneThread, asyncToken, mainActorJournal,
                             backgroundQueue, scheduler, longToken] + races + racesOneThread + withoutRaceDetection

    /// The token workload at a horizon, for the run-length curve.
    static func token(horizonSeconds: Int64) -> BenchCase {
        BenchCase(name: "token-ios17-\(horizonSeconds)s", workload: "token", variant: "correct",
                  horizonSeconds: horizonSeconds)
    }
}
