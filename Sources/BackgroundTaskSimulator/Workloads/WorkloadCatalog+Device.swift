extension WorkloadCatalog {
    /// The workloads of the device's own behaviours (issue 19 part B: lock and data protection,
    /// reboot, shared-container locks, view visibility), each family's correct variant first.
    ///
    /// ```swift
    /// let night = WorkloadCatalog.variant(workload: "offline-articles", variant: "complete-protection-at-night")!
    /// print(night.expectedViolation ?? "pass")   // protected-data-available
    /// ```
    static let device: [Variant] = [
        Variant(workload: "offline-articles", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "offline-articles/correct",
                                   summary: "a night-time refresh writes articles with completeUntilFirstUserAuthentication and keeps them when the write fails",
                                   permittedIdentifiers: [OfflineArticles.refresh], backgroundModes: ["fetch"],
                                   repeatingRefreshIdentifiers: [OfflineArticles.refresh]) {
                    OfflineArticles()
                }),
        Variant(workload: "offline-articles", variant: "complete-protection-at-night", bugPattern: nil,
                expectedViolation: "protected-data-available",
                info: WorkloadInfo(name: "offline-articles/complete-protection-at-night",
                                   summary: "writes a complete-protection file from the refresh with try? and reports success while the device is locked",
                                   permittedIdentifiers: [OfflineArticles.refresh], backgroundModes: ["fetch"],
                                   repeatingRefreshIdentifiers: [OfflineArticles.refresh]) {
                    CompleteProtectionAtNight.make()
                }),
        Variant(workload: "shared-notes", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "shared-notes/correct",
                                   summary: "saves the note in an app-group SQLite transaction and releases the lock before the task ends, on expiry too") {
                    SharedNotesStore()
                }),
        Variant(workload: "shared-notes", variant: "lock-held-across-suspension", bugPattern: nil,
                expectedViolation: "no-file-lock-at-suspend",
                info: WorkloadInfo(name: "shared-notes/lock-held-across-suspension",
                                   summary: "the expiration handler ends the task but leaves the app-group database locked (0xdead10cc)") {
                    LockHeldAcrossSuspension.make()
                }),
        Variant(workload: "quote-watchlist", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "quote-watchlist/correct",
                                   summary: "polls quotes while ViewVisibility says the screen is visible: going home or locking stops it") {
                    QuoteWatchlist()
                }),
        Variant(workload: "quote-watchlist", variant: "polling-tied-to-view-appearance", bugPattern: nil,
                expectedViolation: "background-work-held",
                info: WorkloadInfo(name: "quote-watchlist/polling-tied-to-view-appearance",
                                   summary: "polls from viewDidAppear to viewWillDisappear, which going home never sends") {
                    PollingTiedToViewAppearance.make()
                }),
    ]
}
