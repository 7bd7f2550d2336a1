extension WorkloadCatalog {
    /// The workloads of the simulated world's newer behaviours (issue 19: termination, network,
    /// push), each family's correct variant first.
    ///
    /// ```swift
    /// let lost = WorkloadCatalog.variant(workload: "upload-queue", variant: "saved-only-on-terminate")!
    /// print(lost.expectedViolation ?? "pass")   // work-survives-termination
    /// ```
    static let world: [Variant] = [
        Variant(workload: "upload-queue", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "upload-queue/correct",
                                   summary: "saves the upload queue on didEnterBackground and after each upload, then in willTerminate") {
                    PhotoUploadQueue()
                }),
        Variant(workload: "upload-queue", variant: "saved-only-on-terminate", bugPattern: nil,
                expectedViolation: "work-survives-termination",
                info: WorkloadInfo(name: "upload-queue/saved-only-on-terminate",
                                   summary: "saves the upload queue only in applicationWillTerminate, which a suspended app never gets") {
                    UploadQueueSavedOnlyOnTerminate.make()
                }),
        Variant(workload: "message-outbox", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "message-outbox/correct",
                                   summary: "sends the outbox on background entry; keeps it on any request failure and retries next time") {
                    MessageOutbox()
                }),
        Variant(workload: "message-outbox", variant: "lost-connection-counted-as-sent", bugPattern: nil,
                expectedViolation: "request-failure-handled",
                info: WorkloadInfo(name: "message-outbox/lost-connection-counted-as-sent",
                                   summary: "empties the outbox when the request fails with networkConnectionLost") {
                    LostConnectionCountedAsSent.make()
                }),
    ]
}
