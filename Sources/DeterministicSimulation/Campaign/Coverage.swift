/// What a run or a campaign exercised: named counters in named categories (for the simulator:
/// app states, state transitions, environment actions, faults, event kinds).
///
/// ```swift
/// var coverage = Coverage()
/// coverage.add("states", "background", count: 3)
/// coverage.add("states", "suspended")            // counted once
/// coverage.count("states", "background")         // 3
/// ```
///
/// Contract: categories and entries keep the order they were first added in (never hash order),
/// so reports print identically in every process. An entry added with count 0 is kept: "never
/// exercised" is what coverage is for. ``merge(_:)`` adds counts entry by entry. O(1) average per
/// ``add(_:_:count:)``.
public struct Coverage: Sendable, Equatable {
    /// One category's entries, in first-added order.
    public struct Category: Sendable, Equatable {
        /// The category's name, e.g. `"states"`.
        public let name: String
        /// The entries' names, in first-added order.
        public private(set) var names: [String]
        /// The entries' counts, parallel to ``names``. Kept apart from the names so that counting
        /// in a copy of a template (as every run does) copies integers, not strings.
        public fileprivate(set) var counts: [Int]
        fileprivate var index: [String: Int]

        /// The entries as (name, count), in first-added order.
        public var entries: [(name: String, count: Int)] {
            zip(names, counts).map { ($0, $1) }
        }

        fileprivate init(name: String) {
            self.name = name
            self.names = []
            self.counts = []
            self.index = [:]
        }

        fileprivate mutating func append(_ name: String, count: Int) {
            index[name] = names.count
            names.append(name)
            counts.append(count)
        }

        public static func == (lhs: Category, rhs: Category) -> Bool {
            lhs.name == rhs.name && lhs.names == rhs.names && lhs.counts == rhs.counts
        }
    }

    /// The categories, in first-added order.
    public private(set) var categories: [Category] = []
    private var categoryIndex: [String: Int] = [:]

    /// An empty coverage.
    public init() {}

    /// The category of probes: named rare paths a run reached (`WorkloadContext.probe(_:)` in the
    /// simulator), with how many times.
    public static let probesCategory = "probes"

    /// The probes hit, with their counts, in first-hit order (empty when none was).
    ///
    /// ```swift
    /// result.coverage.probes   // [("upload-retried-after-expiry", 12)]
    /// ```
    public var probes: [(name: String, count: Int)] {
        categories.first { $0.name == Self.probesCategory }?.entries ?? []
    }

    /// Adds `count` to the entry `name` of `category`, creating either as needed.
    ///
    /// ```swift
    /// coverage.add("faults", "networkDown", count: 0)   // listed, never exercised
    /// ```
    public mutating func add(_ category: String, _ name: String, count: Int = 1) {
        let c: Int
        if let existing = categoryIndex[category] {
            c = existing
        } else {
            c = categories.count
            categoryIndex[category] = c
            categories.append(Category(name: category))
        }
        if let e = categories[c].index[name] {
            categories[c].counts[e] += count
        } else {
            categories[c].append(name, count: count)
        }
    }

    /// Adds every count of `other` into this coverage.
    ///
    /// ```swift
    /// total.merge(run.coverage)
    /// ```
    public mutating func merge(_ other: Coverage) {
        for category in other.categories {
            for (name, count) in zip(category.names, category.counts) { add(category.name, name, count: count) }
        }
    }

    /// Where an entry is: its category's position and its own position in that category; `nil`
    /// when it was never added. For counters with a fixed layout: find each entry's position
    /// once, in a template, then ``add(count:at:)`` by position on copies of it (no hashing).
    ///
    /// ```swift
    /// let slot = template.position("states", "background")!
    /// var coverage = template
    /// coverage.add(count: 3, at: slot)
    /// ```
    public func position(_ category: String, _ name: String) -> (category: Int, entry: Int)? {
        guard let c = categoryIndex[category], let e = categories[c].index[name] else { return nil }
        return (c, e)
    }

    /// Adds `count` to the entry at `position` (from ``position(_:_:)`` on this coverage or the
    /// template it was copied from). O(1).
    ///
    /// - Precondition: `position` names an existing entry.
    public mutating func add(count: Int, at position: (category: Int, entry: Int)) {
        categories[position.category].counts[position.entry] += count
    }

    /// The count of one entry; 0 when it was never added.
    public func count(_ category: String, _ name: String) -> Int {
        guard let c = categoryIndex[category], let e = categories[c].index[name] else { return 0 }
        return categories[c].counts[e]
    }

    /// The entries of one category in first-added order; empty when there is no such category.
    public func entries(_ category: String) -> [(name: String, count: Int)] {
        guard let c = categoryIndex[category] else { return [] }
        return categories[c].entries
    }
}
