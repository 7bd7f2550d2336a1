extension WorkloadCatalog {
    /// Workloads whose app-side code guards its state with real Foundation locks (`NSLock`), as
    /// SDKs write it: the simulator sees which simulated thread holds each real mutex, so a lock
    /// held across a blocking call makes the other thread wait for it instead of stopping the
    /// run (DeterministicSimulation's `PlainLocks`; Linux with glibc). The correct variant first.
    ///
    /// ```swift
    /// let bug = WorkloadCatalog.variant(workload: "metrics-flush", variant: "lock-order-inversion")!
    /// print(bug.expectedViolation ?? "pass")   // no-deadlock
    /// ```
    static let plainLocks: [Variant] = [
        Variant(workload: "metrics-flush", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "metrics-flush/correct",
                                   summary: "an SDK's flush waits for its request with a semaphore, then ends the task under one NSLock, which the expiration handler also takes") {
                    MetricsFlushWorkload(locking: .oneLock)
                }),
        Variant(workload: "metrics-flush", variant: "lock-order-inversion", bugPattern: nil, expectedViolation: "no-deadlock",
                info: WorkloadInfo(name: "metrics-flush/lock-order-inversion",
                                   summary: "the flush holds the queue's NSLock across its send and takes the task's inside it; the expiration handler takes the task's then the queue's") {
                    MetricsFlushWorkload(locking: .inverted)
                }),
    ]
}
