/// Coverage merged from runs that finish in any order, giving the same ``Coverage`` as merging
/// them one by one in run-index order: counts are summed, and categories and entries are ordered
/// by where they first appeared (run index, then position within that run).
struct CoverageTally: Sendable {
    private struct Key: Hashable, Sendable {
        var category: String
        var name: String
    }

    private struct Slot: Sendable {
        var count: Int
        /// (run index, category position in that run, entry position in the category).
        var rank: (run: Int, category: Int, entry: Int)
    }

    private var slots: [Key: Slot] = [:]

    /// One category at one position, with one list of entries, as runs keep giving it: its
    /// counts are summed by position, with no hashing, until ``flushed()`` moves them into
    /// ``slots``. An entry's rank is then (the earliest such run, `position`, its entry position),
    /// the least rank any of those runs gave it, as ``slots`` would have kept.
    private struct DenseCategory: Sendable {
        var position: Int
        var name: String
        var names: [String]
        var counts: [Int]
        var firstRun: Int
    }

    /// The dense categories, by position: most categories of a target's runs are the same in
    /// every run (states, events, actions), and the few that vary (a workload's probes, in the
    /// order they fired) take a handful of shapes. A shape is found by name and entries (the
    /// runs' categories copied from one template share their name arrays, which compare by
    /// identity first, so this is cheap).
    private var dense: [[DenseCategory]] = []

    /// The shapes kept per position; a category whose position already has this many goes to
    /// ``slots`` (a workload whose probes fire in ever new orders).
    private static let shapesPerPosition = 8

    mutating func add(_ coverage: Coverage, runIndex: Int) {
        for (c, category) in coverage.categories.enumerated() {
            if c == dense.count { dense.append([]) }
            if let shape = dense[c].firstIndex(where: { $0.name == category.name && $0.names == category.names }) {
                dense[c][shape].firstRun = min(dense[c][shape].firstRun, runIndex)
                for (e, count) in category.counts.enumerated() where count != 0 { dense[c][shape].counts[e] += count }
            } else if dense[c].count < Self.shapesPerPosition {
                dense[c].append(DenseCategory(position: c, name: category.name, names: category.names,
                                              counts: category.counts, firstRun: runIndex))
            } else {
                for (e, (name, count)) in zip(category.names, category.counts).enumerated() {
                    add(Key(category: category.name, name: name), Slot(count: count, rank: (runIndex, c, e)))
                }
            }
        }
    }

    /// The same tally with the dense sums moved into ``slots``.
    private func flushed() -> CoverageTally {
        var result = self
        result.dense = []
        for shapes in dense {
            for shape in shapes {
                for (e, name) in shape.names.enumerated() {
                    result.add(Key(category: shape.name, name: name),
                               Slot(count: shape.counts[e], rank: (shape.firstRun, shape.position, e)))
                }
            }
        }
        return result
    }

    mutating func merge(_ other: CoverageTally) {
        self = flushed()
        let other = other.flushed()
        for (key, slot) in other.slots.sorted(by: { Self.precedes($0.value.rank, $1.value.rank) }) { add(key, slot) }
    }

    private mutating func add(_ key: Key, _ slot: Slot) {
        if var existing = slots[key] {
            existing.count += slot.count
            if Self.precedes(slot.rank, existing.rank) { existing.rank = slot.rank }
            slots[key] = existing
        } else {
            slots[key] = slot
        }
    }

    /// The merged coverage in first-appearance order.
    var coverage: Coverage {
        let slots = flushed().slots
        let ordered = slots.sorted { Self.precedes($0.value.rank, $1.value.rank) }
        // A category's place is its earliest (run, position); entries follow (run, position).
        var categoryRanks: [String: (run: Int, category: Int)] = [:]
        for (key, slot) in ordered where categoryRanks[key.category] == nil {
            categoryRanks[key.category] = (slot.rank.run, slot.rank.category)
        }
        let categories = categoryRanks.sorted { ($0.value.run, $0.value.category) < ($1.value.run, $1.value.category) }
        var coverage = Coverage()
        for (category, _) in categories {
            let entries = ordered.filter { $0.key.category == category }
                .sorted { ($0.value.rank.run, $0.value.rank.entry) < ($1.value.rank.run, $1.value.rank.entry) }
            for (key, slot) in entries { coverage.add(category, key.name, count: slot.count) }
        }
        return coverage
    }

    private static func precedes(_ a: (run: Int, category: Int, entry: Int), _ b: (run: Int, category: Int, entry: Int)) -> Bool {
        (a.run, a.category, a.entry) < (b.run, b.category, b.entry)
    }
}
