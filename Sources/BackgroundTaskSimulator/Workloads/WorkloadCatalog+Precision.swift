extension WorkloadCatalog {
    /// Planted bugs of issue 17's precision work: crashes the harness must still report.
    ///
    /// ```swift
    /// let overflow = WorkloadCatalog.variant(workload: "backup", variant: "retries-offline-recursively")!
    /// print(overflow.expectedViolation ?? "pass")   // no-crash
    /// ```
    static let precision: [Variant] = [
        Variant(workload: "backup", variant: "retries-offline-recursively", bugPattern: nil,
                expectedViolation: "no-crash",
                info: WorkloadInfo(name: "backup/retries-offline-recursively",
                                   summary: "offline, the upload retries at once by calling itself: a stack overflow") {
                    RecursiveRetryBackup()
                }),
    ]
}
