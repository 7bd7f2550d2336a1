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

    /// Runs whose coverage has the layout of the first run added (the same categories and
    /// entries in the same order, as every run of one target has) are summed here by position,
    /// with no hashing; ``flushed()`` moves them into ``slots``. With one layout, an entry's rank
    /// is (earliest such run, its category position, its entry position), as in ``slots``.
    private struct Dense: Sendable {
        var layout: Coverage
        var counts: [[Int]]
        var firstRun: Int
    }

    private var dense: Dense?

    mutating func add(_ coverage: Coverage, runIndex: Int) {
        if dense == nil, slots.isEmpty {
            dense = Dense(layout: coverage, counts: coverage.categories.map(\.counts), firstRun: runIndex)
            return
        }
        if dense != nil, Self.sameLayout(dense!.layout, coverage) {
            dense!.firstRun = min(dense!.firstRun, runIndex)
            for (c, category) in coverage.categories.enumerated() {
                for (e, count) in category.counts.enumerated() where count != 0 { dense!.counts[c][e] += count }
            }
            return
        }
        addToSlots(coverage, runIndex: runIndex)
    }

    /// Whether two coverages list the same entries in the same order (names compared; coverages
    /// copied from one template share their name arrays, which compare by identity first, so this
    /// is cheap).
    private static func sameLayout(_ a: Coverage, _ b: Coverage) -> Bool {
        guard a.categories.count == b.categories.count else { return false }
        for (x, y) in zip(a.categories, b.categories) {
            guard x.name == y.name, x.names == y.names else { return false }
        }
        return true
    }

    /// The same tally with the dense sums moved into ``slots``.
    private func flushed() -> CoverageTally {
        guard let dense else { return self }
        var result = self
        result.dense = nil
        for (c, category) in dense.layout.categories.enumerated() {
            for (e, name) in category.names.enumerated() {
                result.add(Key(category: category.name, name: name),
                           Slot(count: dense.counts[c][e], rank: (dense.firstRun, c, e)))
            }
        }
        return result
    }

    private mutating func addToSlots(_ coverage: Coverage, runIndex: Int) {
        for (c, category) in coverage.categories.enumerated() {
            for (e, (name, count)) in zip(category.names, category.counts).enumerated() {
                add(Key(category: category.name, name: name), Slot(count: count, rank: (runIndex, c, e)))
            }
        }
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
