extension WorkloadCatalog {
    /// The workloads of background `URLSession` (D1, issue 19), the correct variant first.
    ///
    /// ```swift
    /// let early = WorkloadCatalog.variant(workload: "gallery-uploads", variant: "completion-before-events")!
    /// print(early.expectedViolation ?? "pass")   // background-session-completion-called-once
    /// ```
    static let urlSession: [Variant] = [
        Variant(workload: "gallery-uploads", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: info("correct", "uploads photos in a background URLSession with a fixed identifier; each wake's "
                           + "completion handler kept in BackgroundSessionCompletion and called after its events") {
                    GalleryUploads()
                }),
        Variant(workload: "gallery-uploads", variant: "completion-before-events", bugPattern: nil,
                expectedViolation: "background-session-completion-called-once",
                info: info("completion-before-events", "calls handleEventsForBackgroundURLSession's completion handler "
                           + "at once, before urlSessionDidFinishEvents") {
                    GalleryCompletesBeforeEvents.make()
                }),
        Variant(workload: "gallery-uploads", variant: "identifier-per-launch", bugPattern: nil,
                expectedViolation: "background-session-recreated",
                info: info("identifier-per-launch", "makes its background session with a new identifier per launch, so "
                           + "a relaunch's events never arrive") {
                    GallerySessionIdentifierPerLaunch.make()
                }),
        Variant(workload: "gallery-uploads", variant: "handler-kept-by-view-controller", bugPattern: nil,
                expectedViolation: "background-session-completion-called-once",
                info: info("handler-kept-by-view-controller", "hands the completion handler to a view controller that "
                           + "a background relaunch never makes") {
                    GalleryHandlerKeptByViewController.make()
                }),
    ]

    private static func info(_ variant: String, _ summary: String,
                             make: @escaping @Sendable () -> any Workload) -> WorkloadInfo {
        WorkloadInfo(name: "gallery-uploads/\(variant)", summary: summary, usesBackgroundURLSession: true, make: make)
    }
}
