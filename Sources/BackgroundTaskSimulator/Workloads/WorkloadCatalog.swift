/// The built-in workloads: for each pattern from the seed texts, a correct variant written with
/// BackgroundTaskKit and the buggy variants P1-P8 (the `BugPatterns` article).
///
/// ```swift
/// let p1 = WorkloadCatalog.variant(workload: "download-manager", variant: "p1-overwritten-task-id")!
/// print(p1.expectedViolation ?? "pass")   // every-begin-ended
/// ```
public enum WorkloadCatalog {
    /// One workload variant and what the harness should find in it.
    public struct Variant: Sendable {
        /// The workload family (the code pattern), e.g. `download-manager`.
        public var workload: String
        /// `correct`, or the bug pattern it plants, e.g. `p1-overwritten-task-id`.
        public var variant: String
        /// The bug pattern id (P1-P8), if any.
        public var bugPattern: String?
        /// The invariant a planted bug must trip; nil for a correct variant.
        public var expectedViolation: String?
        public var info: WorkloadInfo
        /// Whether it is one of the package's own workloads (a user's declares no expectation:
        /// its scenarios do).
        public var isBuiltIn = true
        /// Whether it is a deep planted bug (``WorkloadCatalog/deep``): reached only by an
        /// ordered sequence of several actions and a fault, so a short random sweep does not
        /// find it; its scenario's budget and exploration strategy do.
        public var isDeep = false

        /// What `bgsim list` says the harness should find.
        public var expectationText: String {
            expectedViolation ?? (isBuiltIn ? "pass" : "as its scenarios expect")
        }
    }

    /// Every variant, correct ones first within each workload; then the async workloads (those
    /// with simulator types, then those in plain Swift concurrency, ``plainAsync``) and the
    /// workloads of the newer world behaviours (``world``, ``push``, ``device``) and the deep
    /// planted bugs of the exploration strategies (``deep``), then the planted data races and their
    /// twins (``races``), the workloads that lock real `NSLock`s (``plainLocks``), those of
    /// expiring activities and continued processing (``activities``), and those written in plain
    /// GCD (``plainDispatch``).
    public static var all: [Variant] {
        correct + buggy + async + plainAsync + world + precision + device + push + deep + urlSession + conditions + races
            + plainLocks + activities + plainDispatch
    }

    /// The variant with these names, if any.
    public static func variant(workload: String, variant: String) -> Variant? {
        all.first { $0.workload == workload && $0.variant == variant }
    }

    /// The names of the workload families, in catalogue order, without repeats.
    public static var workloadNames: [String] {
        var names: [String] = []
        for entry in all where !names.contains(entry.workload) { names.append(entry.workload) }
        return names
    }

    static let bgIdentifiers = [
        "com.example.bgapp.refresh", "com.example.bgapp.processing", "com.example.bgapp.export.*",
    ]

    static let newsIdentifiers = [
        "com.example.news.refresh", "com.example.news.headlines", "com.example.news.weather",
    ]

    static let buggy: [Variant] = [
        Variant(workload: "download-manager", variant: "p1-overwritten-task-id", bugPattern: "P1",
                expectedViolation: "every-begin-ended",
                info: WorkloadInfo(name: "download-manager/p1-overwritten-task-id",
                                   summary: "begins a task on every background entry into one stored id") {
                    OverwrittenTaskIDDownloader()
                }),
        Variant(workload: "analytics-flush", variant: "p2-handler-does-not-end", bugPattern: "P2",
                expectedViolation: "expiry-ends-task",
                info: WorkloadInfo(name: "analytics-flush/p2-handler-does-not-end",
                                   summary: "the expiration handler cancels the work but never ends the task") {
                    HandlerDoesNotEndUploader()
                }),
        Variant(workload: "analytics-flush", variant: "slow-expiration-handler", bugPattern: nil,
                expectedViolation: "expiration-handlers-return-in-time",
                info: WorkloadInfo(name: "analytics-flush/slow-expiration-handler",
                                   summary: "the expiration handler saves to disk for 5 s before ending the task") {
                    SlowExpirationHandlerUploader()
                }),
        Variant(workload: "background-queue", variant: "p3-async-end", bugPattern: "P3",
                expectedViolation: "expiry-ends-task",
                info: WorkloadInfo(name: "background-queue/p3-async-end",
                                   summary: "the expiration handler dispatches the end to the main queue") {
                    AsyncEndingBackgroundQueue()
                }),
        Variant(workload: "backup", variant: "p4-unconditional-end", bugPattern: "P4",
                expectedViolation: "no-double-end",
                info: WorkloadInfo(name: "backup/p4-unconditional-end",
                                   summary: "the backup's completion ends the task even after expiry ended it") {
                    UnconditionalEndBackup()
                }),
        Variant(workload: "backup", variant: "force-unwrapped-task-id", bugPattern: nil,
                expectedViolation: "no-crash",
                info: WorkloadInfo(name: "backup/force-unwrapped-task-id",
                                   summary: "the completion force-unwraps the task id the expiration handler cleared: a crash") {
                    ForceUnwrappedTaskIDBackup()
                }),
        Variant(workload: "backup", variant: "spins-until-online", bugPattern: nil,
                expectedViolation: "no-hang",
                info: WorkloadInfo(name: "backup/spins-until-online",
                                   summary: "its retry path polls reachability in a loop on its queue: that run never ends") {
                    SpinsUntilOnlineBackup()
                }),
        Variant(workload: "token", variant: "retained-by-its-handler", bugPattern: nil,
                expectedViolation: "no-idle-task",
                info: WorkloadInfo(name: "token/retained-by-its-handler",
                                   summary: "the token's expiration handler captures its owner: a cycle keeps the task held after the work") {
                    SelfRetainingDraftUploader()
                }),
        Variant(workload: "background-queue", variant: "operation-never-finishes", bugPattern: nil,
                expectedViolation: "no-idle-task",
                info: WorkloadInfo(name: "background-queue/operation-never-finishes",
                                   summary: "an upload operation returns on a server error without finish(): the chain stalls, the queue's task held") {
                    StalledChainUploader()
                }),
        Variant(workload: "bg-scheduler-app", variant: "never-completed-when-unchanged", bugPattern: nil,
                expectedViolation: "no-idle-task",
                info: WorkloadInfo(name: "bg-scheduler-app/never-completed-when-unchanged",
                                   summary: "the processing task is never completed when nothing changed, and has no expiration handler",
                                   permittedIdentifiers: bgIdentifiers, backgroundModes: ["fetch", "processing"]) {
                    UncompletedIndexRebuildApp()
                }),
        Variant(workload: "token", variant: "p5-unretained-token", bugPattern: "P5",
                expectedViolation: "background-work-held",
                info: WorkloadInfo(name: "token/p5-unretained-token",
                                   summary: "creates the task token and releases it at once") {
                    UnretainedTokenDraftSaver()
                }),
        Variant(workload: "bg-scheduler-app", variant: "p6-late-registration", bugPattern: "P6",
                expectedViolation: "bgtask-registered-in-time",
                info: WorkloadInfo(name: "bg-scheduler-app/p6-late-registration",
                                   summary: "registers its launch handler when the scene connects",
                                   permittedIdentifiers: bgIdentifiers, backgroundModes: ["fetch", "processing"]) {
                    LateRegistrationApp()
                }),
        Variant(workload: "bg-scheduler-app", variant: "p7-double-completion", bugPattern: "P7",
                expectedViolation: "bgtask-completed-once",
                info: WorkloadInfo(name: "bg-scheduler-app/p7-double-completion",
                                   summary: "completes the task twice, and never on expiry",
                                   permittedIdentifiers: bgIdentifiers, backgroundModes: ["fetch", "processing"]) {
                    DoubleCompletionApp()
                }),
        Variant(workload: "bg-scheduler-app", variant: "p8-refresh-not-resubmitted", bugPattern: "P8",
                expectedViolation: "refresh-stays-scheduled",
                info: WorkloadInfo(name: "bg-scheduler-app/p8-refresh-not-resubmitted",
                                   summary: "resubmits the refresh only when it succeeds",
                                   permittedIdentifiers: bgIdentifiers, backgroundModes: ["fetch", "processing"],
                                   repeatingRefreshIdentifiers: ["com.example.bgapp.refresh"]) {
                    RefreshNotResubmittedApp()
                }),
        Variant(workload: "news-digest", variant: "second-refresh-identifier", bugPattern: nil,
                expectedViolation: "refresh-stays-scheduled",
                info: WorkloadInfo(name: "news-digest/second-refresh-identifier",
                                   summary: "schedules a second refresh identifier with try?: tooManyPendingTaskRequests is swallowed",
                                   permittedIdentifiers: newsIdentifiers, backgroundModes: ["fetch"],
                                   repeatingRefreshIdentifiers: ["com.example.news.headlines", "com.example.news.weather"]) {
                    TwoIdentifierNewsDigest()
                }),
        Variant(workload: "photo-sync", variant: "unguarded-task-id", bugPattern: nil,
                expectedViolation: "no-double-end",
                info: WorkloadInfo(name: "photo-sync/unguarded-task-id",
                                   summary: "a worker checks the stored task id, saves, then ends it while the handler ends it on main") {
                    UnguardedTaskIDPhotoSync()
                }),
        Variant(workload: "chat-outbox", variant: "task-registered-after-begin", bugPattern: nil,
                expectedViolation: "expiry-ends-task",
                info: WorkloadInfo(name: "chat-outbox/task-registered-after-begin",
                                   summary: "each send begins a task off main and registers its id after begin returns") {
                    LateRegisteredTaskOutbox()
                }),
        Variant(workload: "notes-import", variant: "handler-syncs-busy-queue", bugPattern: nil,
                expectedViolation: "expiration-handlers-return-in-time",
                info: WorkloadInfo(name: "notes-import/handler-syncs-busy-queue",
                                   summary: "the expiration handler syncs onto the database queue a long batch is blocking") {
                    HandlerSyncsBusyDatabaseQueue()
                }),
        Variant(workload: "feed-refresh", variant: "main-blocked-across-deadline", bugPattern: nil,
                expectedViolation: "no-watchdog-kill",
                info: WorkloadInfo(name: "feed-refresh/main-blocked-across-deadline",
                                   summary: "merges and saves the refresh on the main thread, blocking it for seconds") {
                    MainContextFeedReader()
                }),
        Variant(workload: "voice-memos", variant: "main-sync-in-handler", bugPattern: nil,
                expectedViolation: "no-deadlock",
                info: WorkloadInfo(name: "voice-memos/main-sync-in-handler",
                                   summary: "the expiration handler calls a finish helper that does mainQueue.sync") {
                    MainSyncVoiceMemoRecorder()
                }),
        Variant(workload: "workout-export", variant: "lock-order-inversion", bugPattern: nil,
                expectedViolation: "no-deadlock",
                info: WorkloadInfo(name: "workout-export/lock-order-inversion",
                                   summary: "the exporter takes store then session, the expiration handler session then store") {
                    LockOrderInversionWorkoutExporter()
                }),
    ]

    static let correct: [Variant] = [
        Variant(workload: "token", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "token/correct",
                                   summary: "each save on leaving the foreground holds its own BackgroundTaskToken token") {
                    DraftSaver()
                }),
        Variant(workload: "background-queue", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "background-queue/correct",
                                   summary: "a BackgroundOperationQueue with async and sequential operations") {
                    OperationQueueUploader()
                }),
        Variant(workload: "download-manager", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "download-manager/correct",
                                   summary: "downloads declared to an InFlightWorkTracker") {
                    TrackedDownloader()
                }),
        Variant(workload: "backup", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "backup/correct",
                                   summary: "a backup on leaving the foreground, with its network check, under runUntilDone") {
                    NetworkCheckedBackup()
                }),
        Variant(workload: "analytics-flush", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "analytics-flush/correct",
                                   summary: "inTheBackground serialisation, then a batched upload under a token") {
                    BatchedEventFlusher()
                }),
        Variant(workload: "bg-scheduler-app", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "bg-scheduler-app/correct",
                                   summary: "a repeating refresh and a processing task through BackgroundTaskScheduler",
                                   permittedIdentifiers: bgIdentifiers, backgroundModes: ["fetch", "processing"],
                                   repeatingRefreshIdentifiers: ["com.example.bgapp.refresh"]) {
                    SchedulerApp()
                }),
        Variant(workload: "news-digest", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "news-digest/correct",
                                   summary: "one repeating refresh fetches headlines then weather; submit errors kept",
                                   permittedIdentifiers: newsIdentifiers, backgroundModes: ["fetch"],
                                   repeatingRefreshIdentifiers: ["com.example.news.refresh"]) {
                    SingleRefreshNewsDigest()
                }),
        Variant(workload: "photo-sync", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "photo-sync/correct",
                                   summary: "the stored task id is checked, ended and cleared under one lock") {
                    LockedTaskIDPhotoSync()
                }),
        Variant(workload: "chat-outbox", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "chat-outbox/correct",
                                   summary: "each send begins and records its task in one mainQueue.sync block, on the thread its handler runs on") {
                    RegisteredTaskOutbox()
                }),
        Variant(workload: "notes-import", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "notes-import/correct",
                                   summary: "the expiration handler interrupts the database import without waiting for it") {
                    InterruptibleDatabaseImport()
                }),
        Variant(workload: "feed-refresh", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "feed-refresh/correct",
                                   summary: "merges and saves the refresh on a private queue under a token") {
                    BackgroundContextFeedReader()
                }),
        Variant(workload: "voice-memos", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "voice-memos/correct",
                                   summary: "the finish helper updates the list inline on main, with sync elsewhere") {
                    MainSafeVoiceMemoRecorder()
                }),
        Variant(workload: "workout-export", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "workout-export/correct",
                                   summary: "the exporter and the expiration handler never hold both locks") {
                    OrderedLocksWorkoutExporter()
                }),
    ]
}
