extension WorkloadCatalog {
    /// Planted data races on shared state (issue 36) and their correct twins: three shapes of a
    /// stored property touched by a background queue and the main thread through `SharedState`,
    /// each twin differing only by its synchronisation, judged by `no-data-race` (which applies
    /// to every workload).
    ///
    /// ```swift
    /// let flag = WorkloadCatalog.variant(workload: "receipt-upload", variant: "unguarded-did-complete")!
    /// print(flag.expectedViolation ?? "pass")   // no-data-race
    /// ```
    static let races: [Variant] = [
        Variant(workload: "receipt-upload", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "receipt-upload/correct",
                                   summary: "the upload and the expiration handler check and set didComplete under one lock") {
                    ReceiptUpload(guarded: true)
                }),
        Variant(workload: "receipt-upload", variant: "unguarded-did-complete", bugPattern: nil,
                expectedViolation: "no-data-race",
                info: WorkloadInfo(name: "receipt-upload/unguarded-did-complete",
                                   summary: "the upload and the expiration handler check and set a didComplete flag with no lock") {
                    ReceiptUpload(guarded: false)
                }),
        Variant(workload: "video-upload", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "video-upload/correct",
                                   summary: "the stored upload id is touched only on a private serial queue") {
                    VideoUpload(isolated: true)
                }),
        Variant(workload: "video-upload", variant: "unguarded-upload-id", bugPattern: nil,
                expectedViolation: "no-data-race",
                info: WorkloadInfo(name: "video-upload/unguarded-upload-id",
                                   summary: "the worker stores the upload id, the expiration handler reads and clears it on main") {
                    VideoUpload(isolated: false)
                }),
        Variant(workload: "thumbnail-prefetch", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "thumbnail-prefetch/correct",
                                   summary: "the prefetcher calls its stored completion handler on main") {
                    ThumbnailPrefetch(onMain: true)
                }),
        Variant(workload: "thumbnail-prefetch", variant: "completion-handler-set-after-start", bugPattern: nil,
                expectedViolation: "no-data-race",
                info: WorkloadInfo(name: "thumbnail-prefetch/completion-handler-set-after-start",
                                   summary: "a completion handler stored on main after the prefetch started, called on the global queue") {
                    ThumbnailPrefetch(onMain: false)
                }),
    ]
}
