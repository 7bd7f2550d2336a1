extension WorkloadCatalog {
    /// The async workloads written as apps write them: app-side code in plain Swift concurrency
    /// (`@MainActor`, `Task {}`, `MainActor.run`, `Task.sleep`) and BackgroundTaskKit's host
    /// protocols, with no simulator types; each family's correct variant first, then its
    /// planted bugs.
    ///
    /// ```swift
    /// let bug = WorkloadCatalog.variant(workload: "main-actor-uploader", variant: "ends-again-after-expiry")!
    /// print(bug.info.usesAsync, bug.expectedViolation ?? "pass")   // true no-double-end
    /// ```
    static let plainAsync: [Variant] = [
        asyncVariant("main-actor-uploader", "correct", nil,
                     "an @MainActor uploader ends its task from await MainActor.run only if expiry has not") {
            MainActorAppWorkload { PhotoUploader(host: $0.application, api: SimulatedAPIClient(context: $0)) }
        },
        asyncVariant("main-actor-uploader", "ends-again-after-expiry", "no-double-end",
                     "the hop back with await MainActor.run ends the task the expiration handler already ended") {
            MainActorAppWorkload {
                PhotoUploader(host: $0.application, api: SimulatedAPIClient(context: $0), endsOnlyIfHeld: false)
            }
        },
        asyncVariant("sleep-retry", "correct", nil,
                     "a backoff loop with try await Task.sleep and Task.checkCancellation stops when expiry cancels it") {  // tidy: allow virtual in a run
            MainActorAppWorkload { FeedRefresher(host: $0.application, sdk: SimulatedFeedSDK($0)) }
        },
        asyncVariant("sleep-retry", "sleep-swallows-cancellation", "background-work-held",
                     "the backoff's try? await Task.sleep swallows CancellationError: fetching goes on after expiry") {  // tidy: allow virtual in a run
            MainActorAppWorkload {
                FeedRefresher(host: $0.application, sdk: SimulatedFeedSDK($0), honoursCancellation: false)
            }
        },
        asyncVariant("episode-download", "correct", nil,
                     "a retry-until-it-works download whose backoff sleep ends the loop once expiry cancels it") {  // tidy: allow virtual in a run
            MainActorAppWorkload { RetryingEpisodeDownload(host: $0.application, api: SimulatedAPIClient(context: $0)) }
        },
        asyncVariant("episode-download", "retries-until-it-works", "no-busy-loop",
                     "try? await Task.sleep swallows CancellationError: once expiry cancels it the loop retries without waiting") {  // tidy: allow virtual in a run
            MainActorAppWorkload {
                RetryingEpisodeDownload(host: $0.application, api: SimulatedAPIClient(context: $0), stopsWhenCancelled: false)
            }
        },
        asyncVariant("unstructured-task", "correct", nil,
                     "originals and thumbnails uploaded with async let, both awaited under the token") {
            MainActorAppWorkload { GallerySync(host: $0.application, api: SimulatedAPIClient(context: $0)) }
        },
        asyncVariant("unstructured-task", "fire-and-forget-thumbnails", "background-work-held",
                     "the thumbnails go in a fire-and-forget Task {} that outlives the token") {
            MainActorAppWorkload {
                GallerySync(host: $0.application, api: SimulatedAPIClient(context: $0), awaitsThumbnails: false)
            }
        },
        asyncVariant("main-actor-model-cancel", "correct", nil,
                     "an @MainActor model's expiration handler cancels the backup Task, checkpoints and ends the task") {
            backupModel(.checkpointThenEnd)
        },
        asyncVariant("main-actor-model-cancel", "saves-progress-after-end", "background-work-held",
                     "the handler cancels the Task and ends the task; the Task's cleanup then saves the progress unheld") {
            backupModel(.endBeforeCleanup)
        },
        asyncVariant("main-actor-model-cancel", "handler-only-cancels", "expiry-ends-task",
                     "the handler only cancels the Task and leaves the end to its cleanup, after the handlers returned") {
            backupModel(.leaveEndToCleanup)
        },
        asyncVariant("refresh-never-cancelled", "correct", nil,
                     "a BGAppRefreshTask's expiration handler cancels the refresh Task, which completes the task",
                     scheduler: true) {
            RefreshNeverCancelledWorkload(cancelsOnExpiry: true)
        },
        asyncVariant("refresh-never-cancelled", "expiry-never-cancels-task", "background-work-held",
                     "the expiration handler completes the BGAppRefreshTask but never cancels the Task fetching under it",
                     scheduler: true) {
            RefreshNeverCancelledWorkload(cancelsOnExpiry: false)
        },
        asyncVariant("actor-reentrancy", "correct", nil,
                     "an actor's flush marks itself in progress before its first await; a reentrant call returns") {
            PhotoUploadCoordinatorWorkload()
        },
        asyncVariant("actor-reentrancy", "claims-after-await", "background-work-held",
                     "an actor's flush checks for a flush in progress, awaits, then stores its token: two run, and the first to finish ends the other's task") {
            PhotoUploadCoordinatorWorkload(claim: .whenUploadStarts)
        },
    ]

    /// The backup model with the harness's API client and progress store.
    private static func backupModel(_ expiry: BackupModel.Expiry) -> MainActorAppWorkload {
        MainActorAppWorkload { context in
            BackupModel(host: context.application, api: SimulatedAPIClient(context: context),
                        store: SimulatedProgressStore(context: context), expiry: expiry)
        }
    }
}
