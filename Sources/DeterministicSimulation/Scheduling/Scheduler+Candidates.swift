extension Scheduler {
    /// Fills ``candidates`` with the ready jobs every unfrozen queue offers, in queue creation
    /// order, then (due time, job id): a serial queue its first ready job, a concurrent queue of
    /// width `w` its first `w`. Expects the fronts of the queues to be live (see
    /// ``firstLiveJob(inQueue:)``).
    func gatherCandidates(now: Int64) {
        candidates.removeAll(keepingCapacity: true)
        for queueIndex in queues.indices where !queues[queueIndex].isFrozen {
            guard let first = firstLiveJob(inQueue: queueIndex), first.time <= now else {
                continue
            }
            let width = queues[queueIndex].width
            if width == 1 {
                candidates.append(Candidate(queue: queueIndex, heapIndex: 0))
            } else {
                appendReadyJobs(ofQueue: queueIndex, width: width, now: now)
            }
        }
    }

    /// Appends up to `width` ready, live jobs of one queue in (time, id) order, by a best-first
    /// walk of its heap from the root: each visited entry's children join the frontier, and the
    /// frontier's smallest entry is the next in order. Cancelled entries are passed over.
    /// O(k log k)-ish for the k entries visited, with `k` close to `width`.
    private func appendReadyJobs(ofQueue queueIndex: Int, width: Int, now: Int64) {
        let heap = queues[queueIndex].heap
        frontier.removeAll(keepingCapacity: true)
        frontier.append(0)
        var offered = 0
        while offered < width, !frontier.isEmpty {
            var best = 0
            for position in 1..<frontier.count
            where heap[frontier[position]].precedes(heap[frontier[best]]) {
                best = position
            }
            let heapIndex = frontier[best]
            frontier.swapAt(best, frontier.count - 1)
            frontier.removeLast()
            let job = heap[heapIndex]
            if job.time > now { break }
            if !jobs.isFinished(job.number) {
                candidates.append(Candidate(queue: queueIndex, heapIndex: heapIndex))
                offered += 1
            }
            let left = 2 * heapIndex + 1
            if left < heap.count { frontier.append(left) }
            if left + 1 < heap.count { frontier.append(left + 1) }
        }
    }
}
