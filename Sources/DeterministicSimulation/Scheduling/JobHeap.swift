/// A min-heap of ``ScheduledJob``s ordered by (time, sequence number), with a first-in,
/// first-out fast path for the common case of jobs that arrive in order.
///
/// ```swift
/// var heap = JobHeap()
/// heap.insert(ScheduledJob(time: 0, number: 1, slot: 0))
/// heap.insert(ScheduledJob(time: 0, number: 2, slot: 1))   // in order: appended, O(1)
/// heap.removeFirst().number                                // 1, O(1)
/// ```
///
/// Contract: positions are logical (0 is the first entry), and every entry precedes (or is) each
/// of its children, `2i+1` and `2i+2`, so a walk of the heap (``SchedulerCore``'s best-first walk
/// of a concurrent queue) works in either mode. Insertion and removal at any position are
/// O(log n); the first entry is O(1).
///
/// The fast path: most queues receive jobs in (time, number) order (an `async` is due now, and
/// numbers grow), and a sorted array is a valid heap. While that holds the heap stays sorted:
/// an insertion appends, and removing the first entry moves a start offset (``head``) instead of
/// sifting down: O(1) where the heap paid O(log n) per job (notes-import's 200-job serial queue
/// spent 6% of its time sifting). An insertion out of order, or a removal other than the first,
/// turns the array into an ordinary heap until it is empty again. Which jobs a queue offers, and
/// in which order, is the same in both modes: the first entry is the minimum, and the walk of a
/// concurrent queue takes entries in (time, number) order whatever the layout.
struct JobHeap {
    /// The entries: `storage[head...]`, in heap order (sorted while ``isSorted``).
    private var storage: [ScheduledJob] = []
    /// The physical index of the first entry; positions before it are dead (already removed).
    private var head = 0
    /// Whether `storage[head...]` is sorted, so insertions in order can append.
    private var isSorted = true

    var isEmpty: Bool { head == storage.count }
    var count: Int { storage.count - head }
    var first: ScheduledJob? { head < storage.count ? storage[head] : nil }

    /// The entry at a logical position (0 is the first).
    subscript(index: Int) -> ScheduledJob { storage[head + index] }

    /// Empties the heap, returning its jobs in heap order.
    mutating func removeAll() -> [ScheduledJob] {
        defer { reset() }
        return head == 0 ? storage : Array(storage[head...])
    }

    mutating func insert(_ job: ScheduledJob) {
        if isSorted {
            if let last = storage.last, head < storage.count, job.precedes(last) {
                becomeHeap()
            } else {
                storage.append(job)
                return
            }
        }
        storage.append(job)
        siftUp(from: storage.count - 1)
    }

    mutating func removeFirst() -> ScheduledJob {
        remove(at: 0)
    }

    /// Removes the entry at a logical position (e.g. found by a traversal).
    mutating func remove(at index: Int) -> ScheduledJob {
        if isSorted {
            if index == 0 {
                let removed = storage[head]
                head += 1
                if head == storage.count {
                    reset()
                } else if head >= 32, head * 2 >= storage.count {
                    compact()
                }
                return removed
            }
            becomeHeap()
        }
        let removed = storage[index]
        let last = storage.removeLast()
        if index < storage.count {
            storage[index] = last
            if index > 0, last.precedes(storage[(index - 1) / 2]) {
                siftUp(from: index)
            } else {
                siftDown(from: index)
            }
        }
        if storage.isEmpty { isSorted = true }
        return removed
    }

    /// Empty, sorted, with its capacity kept. Fewer than 32 entries are left in place, dead
    /// (``head`` moves past them), and cleared with the next ones: a queue that holds one job at
    /// a time empties at every job, and clearing the array each time (the standard library's
    /// generic `replaceSubrange`, about 85 instructions) was most of what its jobs paid here.
    private mutating func reset() {
        if storage.count >= 32 {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else {
            head = storage.count
        }
        isSorted = true
    }

    /// Drops the dead positions before ``head`` (keeping the order, so a sorted heap stays sorted).
    private mutating func compact() {
        storage.removeSubrange(0..<head)
        head = 0
    }

    /// Leaves the sorted mode: the physical and logical positions become the same.
    private mutating func becomeHeap() {
        if head > 0 { compact() }
        isSorted = false
    }

    private mutating func siftUp(from start: Int) {
        let moving = storage[start]
        var index = start
        while index > 0 {
            let parent = (index - 1) / 2
            guard moving.precedes(storage[parent]) else { break }
            storage[index] = storage[parent]
            index = parent
        }
        storage[index] = moving
    }

    private mutating func siftDown(from start: Int) {
        let moving = storage[start]
        let count = storage.count
        var index = start
        while true {
            var child = 2 * index + 1
            if child >= count { break }
            if child + 1 < count, storage[child + 1].precedes(storage[child]) { child += 1 }
            guard storage[child].precedes(moving) else { break }
            storage[index] = storage[child]
            index = child
        }
        storage[index] = moving
    }

    /// Whether the heap property holds everywhere, the sorted mode's order, and the bound on dead
    /// entries (fewer than 32, or fewer than the live ones) (for invariant checks; O(n)).
    func isValid() -> Bool {
        if head >= 32, head >= count { return false }
        for index in 1..<max(1, count) where self[index].precedes(self[(index - 1) / 2]) {
            return false
        }
        if isSorted {
            for index in 1..<max(1, count) where self[index].precedes(self[index - 1]) { return false }
        }
        return true
    }
}
