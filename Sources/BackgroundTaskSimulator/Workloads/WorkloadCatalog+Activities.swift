extension WorkloadCatalog {
    /// Workloads of the activities apps start outside `beginBackgroundTask`: an expiring activity
    /// (`performExpiringActivity`, A9) and an iOS 26 continued-processing task (C6), each family's
    /// correct variant first.
    ///
    /// ```swift
    /// let bug = WorkloadCatalog.variant(workload: "video-export", variant: "reuses-identifier")!
    /// print(bug.expectedViolation ?? "pass")   // bgtask-registered-in-time
    /// ```
    static let activities: [Variant] = [
        Variant(workload: "sketch-autosave", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "sketch-autosave/correct",
                                   summary: "saves the sketch inside performExpiringActivity, waiting on a semaphore; the expired call cancels the write and wakes the waiter") {
                    SketchAutosave()
                }),
        Variant(workload: "sketch-autosave", variant: "ignores-expired", bugPattern: nil,
                expectedViolation: "background-work-held",
                info: WorkloadInfo(name: "sketch-autosave/ignores-expired",
                                   summary: "returns from performExpiringActivity's expired call without stopping the write the first call waits for") {
                    AutosaveIgnoringExpiry.make()
                }),
        Variant(workload: "video-export", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "video-export/correct",
                                   summary: "exports a video as a continued-processing task under a fresh identifier per export, reporting progress; expiry cancels the export's Task",
                                   permittedIdentifiers: VideoExport.identifiers, usesAsync: true) {
                    VideoExport()
                }),
        Variant(workload: "video-export", variant: "reuses-identifier", bugPattern: nil,
                expectedViolation: "bgtask-registered-in-time",
                info: WorkloadInfo(name: "video-export/reuses-identifier",
                                   summary: "registers one fixed continued-processing identifier on every export: the second export in a process crashes",
                                   permittedIdentifiers: VideoExport.identifiers, usesAsync: true) {
                    ExportReusingIdentifier.make()
                }),
    ]
}
