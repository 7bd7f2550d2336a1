extension SchedulerCore {
    /// Checks the core's internal consistency, trapping with a message if it is broken:
    /// every heap is ordered, ``open`` holds exactly the unfrozen queues with a free thread and
    /// ``queued`` exactly the queues with jobs, every heap entry owns exactly one occupied slot,
    /// and ``pendingJobCount`` equals the number of live (not cancelled) entries.
    ///
    /// O(total pending jobs). Runs after every step only in builds with the compilation
    /// condition `DETERMINISTIC_SIMULATION_CHECKS`
    /// (`swift test -Xswiftc -DDETERMINISTIC_SIMULATION_CHECKS`); otherwise it is never called.
    func checkInvariants() {
        var entries = 0
        var live = 0
        for queue in queues {
            precondition(queue.heap.isValid(), "scheduler invariant: heap of \(queue.label) unordered")
            for index in 0..<queue.heap.count {
                entries += 1
                if !jobs.isFinished(queue.heap[index].number) { live += 1 }
            }
        }
        precondition(
            open.members == queues.indices.filter { !queues[$0].isFrozen && queues[$0].freeThreads > 0 },
            "scheduler invariant: open queues \(open.members) do not match the queues' flags")
        precondition(
            queued.members == queues.indices.filter { !queues[$0].heap.isEmpty },
            "scheduler invariant: queued queues \(queued.members) do not match the heaps")
        precondition(
            entries == jobs.occupiedSlotCount,
            "scheduler invariant: \(entries) heap entries but \(jobs.occupiedSlotCount) slots")
        precondition(
            live == pendingJobCount,
            "scheduler invariant: \(live) live jobs but pendingJobCount is \(pendingJobCount)")
    }
}
