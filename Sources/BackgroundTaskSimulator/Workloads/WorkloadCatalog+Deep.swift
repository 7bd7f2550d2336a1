extension WorkloadCatalog {
    /// The deep planted bugs (issue 20): each is reached only by an ordered sequence of at least
    /// three specific environment actions plus a fault, which uniform random exploration finds
    /// in fewer than 1 of 10,000 runs; each beside its correct counterpart. They are the
    /// yardstick of the exploration strategies (`bgsim bench`, the `ExplorationStrategy` docs).
    ///
    /// ```swift
    /// let deep = WorkloadCatalog.variant(workload: "reader-prefetch", variant: "lost-digest-keeps-task")!
    /// print(deep.expectedViolation ?? "pass")   // no-idle-task
    /// ```
    static let deep: [Variant] = deepVariants.map { variant in
        var marked = variant
        marked.isDeep = variant.expectedViolation != nil
        return marked
    }

    private static let deepVariants: [Variant] = [
        Variant(workload: "track-backup", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "track-backup/correct",
                                   summary: "backs up the track under a stored token; retries a lost connection twice, then gives up and ends the task") {
                    TrackBackup()
                }),
        Variant(workload: "track-backup", variant: "keeps-task-when-giving-up", bugPattern: nil,
                expectedViolation: "no-idle-task",
                info: WorkloadInfo(name: "track-backup/keeps-task-when-giving-up",
                                   summary: "after the third lost connection the backup gives up but keeps its task (deep: 5 network actions)") {
                    TrackBackupKeepsTaskWhenGivingUp.make()
                }),
        Variant(workload: "reader-prefetch", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "reader-prefetch/correct",
                                   summary: "prefetches articles on each refresh; after four unread refreshes downloads the digest under a UIKit task",
                                   permittedIdentifiers: [ReaderPrefetch.refresh], backgroundModes: ["fetch"]) {
                    ReaderPrefetch()
                }),
        Variant(workload: "reader-prefetch", variant: "lost-digest-keeps-task", bugPattern: nil,
                expectedViolation: "no-idle-task",
                info: WorkloadInfo(name: "reader-prefetch/lost-digest-keeps-task",
                                   summary: "a digest download cut by network loss returns without ending its UIKit task (deep: four refreshes without an open)",
                                   permittedIdentifiers: [ReaderPrefetch.refresh], backgroundModes: ["fetch"]) {
                    ReaderPrefetchLostDigestKeepsTask.make()
                }),
        Variant(workload: "photo-index", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "photo-index/correct",
                                   summary: "rebuilds the index in three BGProcessingTask chunks, then publishes it; every task completed on every path",
                                   permittedIdentifiers: [PhotoIndexRebuild.identifier], backgroundModes: ["processing"]) {
                    PhotoIndexRebuild()
                }),
        Variant(workload: "photo-index", variant: "publish-failure-leaves-task", bugPattern: nil,
                expectedViolation: "no-idle-task",
                info: WorkloadInfo(name: "photo-index/publish-failure-leaves-task",
                                   summary: "a failed publish after the third chunk leaves its task uncompleted (deep: three launches without an open)",
                                   permittedIdentifiers: [PhotoIndexRebuild.identifier], backgroundModes: ["processing"]) {
                    PhotoIndexRebuildPublishFailureLeavesTask.make()
                }),
    ]
}
