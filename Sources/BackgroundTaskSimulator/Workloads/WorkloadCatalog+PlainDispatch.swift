extension WorkloadCatalog {
    /// Workloads whose app-side code is plain GCD (`DispatchQueue.main`, `DispatchQueue.global`,
    /// a serial `DispatchQueue` of its own, `sync`): inside a run the shim hands each call to the
    /// simulator, which runs the work on the process's simulated queues (Linux; see
    /// DeterministicSimulation's "Async Under Simulation", "Real Dispatch"). The correct variant
    /// first.
    ///
    /// ```swift
    /// let bug = WorkloadCatalog.variant(workload: "gcd-photo-sync", variant: "ends-unconditionally")!
    /// print(bug.bugPattern ?? "-", bug.expectedViolation ?? "pass")   // P4 no-double-end
    /// ```
    static let plainDispatch: [Variant] = [
        Variant(workload: "gcd-photo-sync", variant: "correct", bugPattern: nil, expectedViolation: nil,
                info: WorkloadInfo(name: "gcd-photo-sync/correct",
                                   summary: "a GCD sync on the global queue hops to main and ends its task only if it is still held") {
                    GCDPhotoSync(ending: .ifStillHeld)
                }),
        Variant(workload: "gcd-photo-sync", variant: "ends-unconditionally", bugPattern: "P4", expectedViolation: "no-double-end",
                info: WorkloadInfo(name: "gcd-photo-sync/ends-unconditionally",
                                   summary: "the GCD sync's completion hops to main and ends its task even after the expiration handler did") {
                    GCDPhotoSync(ending: .unconditionally)
                }),
    ]
}
