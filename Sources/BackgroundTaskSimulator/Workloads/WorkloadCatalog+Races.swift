extension WorkloadCatalog {
    /// Planted data races on shared state (issue 36) and their correct twins: three shapes of a
    /// stored property touched by a background queue and the main thread through `SharedState`,
    /// each twin differing only by its synchronisation. All share state, so `no-data-race`
    /// applies to them.
    ///
    /// ```swift
    /// let flag = WorkloadCatalog.variant(workload: "receipt-upload", variant: "unguarded-did-complete")!
    /// print(flag.expectedViolation ?? "pass")   // no-data-race
    /// ```
    static let races: [Variant] = [
        Variant(workload: "receipt-upload", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "receipt-upload/correct",
                                   summary: "the upload and the expiration handler check and set didComplete under one lock",
                                   sharesState: true) {
                    ReceiptUpload(guarded: true)
                }),
        Variant(workload: "receipt-upload", variant: "unguarded-did-complete", bugPattern: nil,
                expectedViolation: "no-data-race",
                info: WorkloadInfo(name: "receipt-upload/unguarded-did-complete",
                                   summary: "the upload and the expiration handler check and set a didComplete flag with no lock",
                                   sharesState: true) {
                    ReceiptUpload(guarded: false)
                }),
        Variant(workload: "video-upload", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "video-upload/correct",
                                   summary: "the stored upload id is touched only on a private serial queue",
                                   sharesState: true) {
                    VideoUpload(isolated: true)
                }),
        Variant(workload: "video-upload", variant: "unguarded-upload-id", bugPattern: nil,
                expectedViolation: "no-data-race",
                info: WorkloadInfo(name: "video-upload/unguarded-upload-id",
                                   summary: "the worker stores the upload id, the expiration handler reads and clears it on main",
                                   sharesState: true) {
                    VideoUpload(isolated: false)
                }),
        Variant(workload: "thumbnail-prefetch", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "thumbnail-prefetch/correct",
                                   summary: "the prefetcher calls its stored completion handler on main",
                                   sharesState: true) {
                    ThumbnailPrefetch(onMain: true)
                }),
        Variant(workload: "thumbnail-prefetch", variant: "completion-handler-set-after-start", bugPattern: nil,
                expectedViolation: "no-data-race",
                info: WorkloadInfo(name: "thumbnail-prefetch/completion-handler-set-after-start",
                                   summary: "a completion handler stored on main after the prefetch started, called on the global queue",
                                   sharesState: true) {
                    ThumbnailPrefetch(onMain: false)
                }),
    ]
}
