extension WorkloadCatalog {
    /// The async workloads (Swift concurrency: tasks, task groups, continuations, the virtual
    /// clock, the simulated main actor), each family's correct variant first.
    ///
    /// ```swift
    /// let leak = WorkloadCatalog.variant(workload: "podcast-downloads", variant: "continuation-never-resumed")!
    /// print(leak.info.usesAsync, leak.expectedViolation ?? "pass")   // true no-watchdog-kill
    /// ```
    static let async: [Variant] = [
        asyncVariant("token-async", "correct", nil,
                     "each save on leaving the foreground runs in a Task under its own token") {
            AsyncDraftSaver()
        },
        asyncVariant("token-async", "plain-task", nil,
                     "each save runs in a plain Task { }, as apps write it: the process's executors keep it in the run") {
            AsyncDraftSaverPlainTask.make()
        },
        asyncVariant("journal-sync", "correct", nil,
                     "the expiration handler cancels the sync Task and ends the task on the main actor") {
            JournalSync()
        },
        asyncVariant("journal-sync", "handler-ends-in-task", "expiry-ends-task",
                     "the expiration handler ends the task from inside a Task { }") {
            JournalSyncEndingInTask.make()
        },
        asyncVariant("journal-sync", "cursor-saved-through-data-source", "no-async-escape",
                     "the expiration handler saves the cursor through a store whose writer calls back through a DispatchSource") {
            JournalSyncCursorSavedThroughDataSource.make()
        },
        asyncVariant("podcast-downloads", "correct", nil,
                     "a BGProcessingTask awaits a callback SDK through a continuation resumed on every path",
                     scheduler: true) {
            PodcastDownloads()
        },
        asyncVariant("podcast-downloads", "continuation-never-resumed", "no-watchdog-kill",
                     "the continuation is resumed only by the SDK, which calls nothing back once cancelled",
                     scheduler: true) {
            PodcastDownloadsLeakingContinuation.make()
        },
        asyncVariant("photo-import", "correct", nil,
                     "thumbnails rendered in a task group awaited under a token") {
            PhotoImport()
        },
        asyncVariant("photo-import", "unawaited-thumbnail-tasks", "background-work-held",
                     "each thumbnail in a fire-and-forget Task that outlives the token") {
            PhotoImportUnawaitedThumbnails.make()
        },
        asyncVariant("forecast-refresh", "correct", nil,
                     "a fetch retried with backoff on the clock, stopped by cancellation") {
            ForecastRefresh()
        },
        asyncVariant("forecast-refresh", "retry-ignores-cancellation", "background-work-held",
                     "the retry loop swallows the backoff sleep's CancellationError and keeps fetching") {
            ForecastRefreshIgnoringCancellation.make()
        },
        asyncVariant("inbox-sync", "correct", nil,
                     "two fetches at once with async let, then attachments in a task group, all awaited under a token") {
            InboxSync()
        },
        asyncVariant("inbox-sync", "child-ignores-cancellation", "background-work-held",
                     "an async let child awaits a callback API that ignores cancellation, past the token's expiry") {
            InboxSyncChildIgnoringCancellation.make()
        },
        asyncVariant("health-upload", "correct", nil,
                     "a repeating refresh with an async launch handler that awaits its upload",
                     scheduler: true, repeating: true) {
            HealthUpload()
        },
        asyncVariant("health-upload", "handler-returns-before-upload", "background-work-held",
                     "the async launch handler returns while its upload runs on in a Task",
                     scheduler: true, repeating: true) {
            HealthUploadReturningEarly.make()
        },
    ]

    static func asyncVariant(
        _ workload: String, _ variant: String, _ violation: String?, _ summary: String,
        scheduler: Bool = false, repeating: Bool = false, make: @escaping @Sendable () -> any Workload
    ) -> Variant {
        Variant(workload: workload, variant: variant, bugPattern: nil, expectedViolation: violation,
                info: WorkloadInfo(name: "\(workload)/\(variant)", summary: summary,
                                   permittedIdentifiers: scheduler ? bgIdentifiers : [],
                                   backgroundModes: scheduler ? ["fetch", "processing"] : [],
                                   repeatingRefreshIdentifiers: repeating ? ["com.example.bgapp.refresh"] : [],
                                   usesAsync: true, make: make))
    }
}
