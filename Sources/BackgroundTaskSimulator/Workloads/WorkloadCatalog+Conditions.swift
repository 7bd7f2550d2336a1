extension WorkloadCatalog {
    /// Workloads of the device conditions issue 19 added (Low Power Mode, App Store updates,
    /// audio sessions), each family's correct variant first.
    ///
    /// ```swift
    /// let paused = WorkloadCatalog.variant(workload: "price-alerts", variant: "paused-in-low-power-mode")!
    /// print(paused.expectedViolation ?? "pass")   // refresh-stays-scheduled
    /// ```
    static let conditions: [Variant] = [
        Variant(workload: "price-alerts", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "price-alerts/correct",
                                   summary: "checks price alerts in a repeating refresh; leaves Low Power Mode to iOS, which holds the launch back",
                                   permittedIdentifiers: [PriceAlerts.refresh], backgroundModes: ["fetch"],
                                   repeatingRefreshIdentifiers: [PriceAlerts.refresh]) { PriceAlerts() }),
        Variant(workload: "price-alerts", variant: "paused-in-low-power-mode", bugPattern: nil,
                expectedViolation: "refresh-stays-scheduled",
                info: WorkloadInfo(name: "price-alerts/paused-in-low-power-mode",
                                   summary: "skips the next refresh when a check ends in Low Power Mode and never resumes the chain",
                                   permittedIdentifiers: [PriceAlerts.refresh], backgroundModes: ["fetch"],
                                   repeatingRefreshIdentifiers: [PriceAlerts.refresh]) {
                    PriceAlertsPausedInLowPowerMode()
                }),
        Variant(workload: "reading-list", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "reading-list/correct",
                                   summary: "submits its sync refresh on every launch, so an app update's dropped request comes back",
                                   permittedIdentifiers: [ReadingListSync.refresh], backgroundModes: ["fetch"],
                                   repeatingRefreshIdentifiers: [ReadingListSync.refresh]) { ReadingListSync() }),
        Variant(workload: "reading-list", variant: "scheduled-once-at-install", bugPattern: nil,
                expectedViolation: "refresh-stays-scheduled",
                info: WorkloadInfo(name: "reading-list/scheduled-once-at-install",
                                   summary: "submits its sync refresh only while a UserDefaults flag is unset; an update drops the request and keeps the flag",
                                   permittedIdentifiers: [ReadingListSync.refresh], backgroundModes: ["fetch"],
                                   repeatingRefreshIdentifiers: [ReadingListSync.refresh]) {
                    ReadingListScheduledOnceAtInstall()
                }),
        Variant(workload: "audiobook", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "audiobook/correct",
                                   summary: "plays chapters under an audio session; downloads the next one under a task whose handler cancels it",
                                   backgroundModes: ["audio"]) { AudiobookPlayer() }),
        Variant(workload: "audiobook", variant: "download-without-expiry-handler", bugPattern: nil,
                expectedViolation: "expiry-ends-task",
                info: WorkloadInfo(name: "audiobook/download-without-expiry-handler",
                                   summary: "begins the download's task with no expiration handler, trusting the audio session to keep the app running",
                                   backgroundModes: ["audio"]) { AudiobookDownloadWithoutExpiryHandler() }),
    ]
}
