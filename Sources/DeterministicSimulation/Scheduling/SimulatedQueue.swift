/// The state of one simulated queue: its label, how many ready jobs it offers, whether it is
/// frozen, and its pending jobs in (time, sequence) order.
struct SimulatedQueue {
    let label: String
    let kind: QueueKind
    /// ``QueueKind/width``, cached.
    let width: Int
    var isFrozen = false
    /// How many more jobs may start now: ``width`` less the jobs in progress on suspended
    /// simulated threads (always ``width`` without controlled concurrency).
    var freeThreads: Int
    var heap = JobHeap()

    init(label: String, kind: QueueKind) {
        self.label = label
        self.kind = kind
        self.width = kind.width
        self.freeThreads = kind.width
    }
}
