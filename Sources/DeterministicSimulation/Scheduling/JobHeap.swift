/// A binary min-heap of ``ScheduledJob``s ordered by (time, sequence number).
///
/// Invariant: every entry precedes (or is) each of its children, `2i+1` and `2i+2`.
/// Insertion and removal at any index are O(log n); the first entry is O(1).
struct JobHeap {
    /// The entries in heap order.
    private(set) var storage: [ScheduledJob] = []

    var isEmpty: Bool { storage.isEmpty }
    var count: Int { storage.count }
    var first: ScheduledJob? { storage.first }

    subscript(index: Int) -> ScheduledJob { storage[index] }

    /// Empties the heap, returning its jobs in storage order.
    mutating func removeAll() -> [ScheduledJob] {
        defer { storage.removeAll() }
        return storage
    }

    mutating func insert(_ job: ScheduledJob) {
        storage.append(job)
        siftUp(from: storage.count - 1)
    }

    mutating func removeFirst() -> ScheduledJob {
        remove(at: 0)
    }

    /// Removes the entry at `index` (a position in heap order, e.g. found by a traversal).
    mutating func remove(at index: Int) -> ScheduledJob {
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
        return removed
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

    /// Whether the heap property holds everywhere (for invariant checks; O(n)).
    func isValid() -> Bool {
        for index in storage.indices.dropFirst()
        where storage[index].precedes(storage[(index - 1) / 2]) {
            return false
        }
        return true
    }
}
