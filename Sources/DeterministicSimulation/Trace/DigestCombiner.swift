/// Combines the trace digests of many runs into one campaign digest, in run order.
///
/// Each run's digest is mixed with its run index, and the mixed terms are added, so the result
/// depends on which digest belongs to which run (order matters) yet shards of a campaign can be
/// combined separately and merged (``merge(_:)``) into exactly the digest of the whole campaign.
///
/// ```swift
/// var combiner = DigestCombiner()
/// for index in 0..<runs {
///     combiner.add(runDigest(campaign.derive(index: UInt64(index))))
/// }
/// print(combiner.digest)   // the report's "traceDigest"
/// ```
///
/// Contract: `term(i, d)` is the ``StableHasher`` hash of the words `i` and `d.value`; ``sum`` is
/// the wrapping sum of the terms and ``count`` the number of terms; ``digest`` is the
/// ``StableHasher`` hash of the string `"DigestCombiner"`, `sum` and `count`. Changing any one
/// run's digest always changes the result (each term is a bijection of the digest). O(1) per add.
public struct DigestCombiner: Hashable, Sendable {
    /// The wrapping sum of the per-run terms.
    public private(set) var sum: UInt64
    /// The number of run digests added.
    public private(set) var count: UInt64

    /// An empty combiner.
    ///
    /// ```swift
    /// var combiner = DigestCombiner()
    /// ```
    public init() {
        sum = 0
        count = 0
    }

    /// A combiner restored from a saved ``sum`` and ``count`` (e.g. from a shard's report).
    ///
    /// ```swift
    /// var whole = DigestCombiner(sum: shard1.sum, count: shard1.count)
    /// whole.merge(shard2)
    /// ```
    ///
    /// - Parameters:
    ///   - sum: a saved ``sum``.
    ///   - count: a saved ``count``.
    public init(sum: UInt64, count: UInt64) {
        self.sum = sum
        self.count = count
    }

    /// Adds the digest of the next run: the run index is the number of digests added so far.
    ///
    /// ```swift
    /// combiner.add(recorder.digest)
    /// ```
    ///
    /// Contract: same as `add(digest, runIndex: count)`. Use ``add(_:runIndex:)`` in a shard.
    public mutating func add(_ digest: TraceDigest) {
        add(digest, runIndex: count)
    }

    /// Adds the digest of run `runIndex` (for shards and parallel runs, which finish out of order).
    ///
    /// ```swift
    /// combiner.add(result.digest, runIndex: result.index)
    /// ```
    ///
    /// - Parameters:
    ///   - digest: the run's trace digest.
    ///   - runIndex: the run's index in the whole campaign; add each index once.
    public mutating func add(_ digest: TraceDigest, runIndex: UInt64) {
        var hasher = StableHasher()
        hasher.combine(runIndex)
        hasher.combine(digest.value)
        sum &+= hasher.finalize()
        count += 1
    }

    /// Adds everything another combiner added (a disjoint set of runs).
    ///
    /// ```swift
    /// var whole = DigestCombiner()
    /// for shard in shards { whole.merge(shard) }
    /// ```
    ///
    /// - Parameter other: a combiner over runs not added here.
    public mutating func merge(_ other: DigestCombiner) {
        sum &+= other.sum
        count += other.count
    }

    /// The campaign digest.
    public var digest: TraceDigest {
        var hasher = StableHasher()
        hasher.combine("DigestCombiner")
        hasher.combine(sum)
        hasher.combine(count)
        return TraceDigest(hasher.finalize())
    }
}
