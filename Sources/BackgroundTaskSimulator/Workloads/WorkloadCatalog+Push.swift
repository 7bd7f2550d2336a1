extension WorkloadCatalog {
    /// The workloads of the other background modes (issue 19, part A: silent push, background
    /// fetch), each family's correct variant first.
    ///
    /// ```swift
    /// let twice = WorkloadCatalog.variant(workload: "push-mail-sync", variant: "completion-called-twice")!
    /// print(twice.expectedViolation ?? "pass")   // push-completion-called-once
    /// ```
    static let push: [Variant] = [
        Variant(workload: "push-mail-sync", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "push-mail-sync/correct",
                                   summary: "fetches mail on a silent push and calls the completion handler once on every path",
                                   backgroundModes: ["remote-notification"]) {
                    PushMailSync()
                }),
        Variant(workload: "push-mail-sync", variant: "completion-called-twice", bugPattern: nil,
                expectedViolation: "push-completion-called-once",
                info: WorkloadInfo(name: "push-mail-sync/completion-called-twice",
                                   summary: "calls the push's completion handler with .failed, then falls through and calls it again",
                                   backgroundModes: ["remote-notification"]) {
                    PushCompletionCalledTwice.make()
                }),
        Variant(workload: "push-mail-sync", variant: "completion-missing-on-failure", bugPattern: nil,
                expectedViolation: "push-completion-called-once",
                info: WorkloadInfo(name: "push-mail-sync/completion-missing-on-failure",
                                   summary: "returns from a failed fetch without calling the push's completion handler",
                                   backgroundModes: ["remote-notification"]) {
                    PushCompletionMissingOnFailure.make()
                }),
        Variant(workload: "weather-fetch", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "weather-fetch/correct",
                                   summary: "refreshes the forecast in background fetch (iOS 7-12) and calls the completion handler once on every path",
                                   backgroundModes: ["fetch"]) {
                    WeatherFetch()
                }),
        Variant(workload: "weather-fetch", variant: "completion-only-on-new-data", bugPattern: nil,
                expectedViolation: "fetch-completion-called-once",
                info: WorkloadInfo(name: "weather-fetch/completion-only-on-new-data",
                                   summary: "calls the background fetch's completion handler only when a new forecast arrived",
                                   backgroundModes: ["fetch"]) {
                    FetchCompletionOnlyOnNewData.make()
                }),
    ]
}
