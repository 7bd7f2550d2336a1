/// The coverage features a coverage-guided campaign has seen: each (category, entry) of the
/// runs' ``Coverage`` with a nonzero count, and for the categories counted by bucket
/// (``CoverageGuidance/bucketedCategories``: probes and conditions) each count bucket. A run is *interesting* when it has a
/// feature no earlier run had: a new (app state, event) pair, a new condition, a new probe, a new
/// transition, or an old one reached more often than ever (AFL's hit-count buckets: 1, 2, 3,
/// 4-7, 8-15, 16-31, 32-127, 128+), which is how the corpus goes deeper, one more BGTask launch
/// in the background at a time.
///
/// ```swift
/// var seen = CoverageFeatures()
/// let features = CoverageFeatures.features(of: verdict.coverage, bucketed: ["probes"])
/// if seen.insertNew(features) > 0 { corpus.add(choices) }
/// ```
///
/// Contract: membership only (never iterated, so hash order never shows); ``features(of:bucketed:)`` lists
/// a run's features in its coverage's order. O(nonzero entries) per run.
struct CoverageFeatures: Sendable {
    /// One feature: an entry of a category reached a count bucket.
    struct Feature: Hashable, Sendable {
        var category: String
        var name: String
        var bucket: UInt8
    }

    private var seen: Set<Feature> = []  // tidy: allow membership only, never iterated

    /// How many distinct features were seen.
    var count: Int { seen.count }

    /// The bucket of a count above 0.
    static func bucket(_ count: Int) -> UInt8 {
        switch count {
        case ...3: UInt8(count)
        case 4...7: 4
        case 8...15: 5
        case 16...31: 6
        case 32...127: 7
        default: 8
        }
    }

    /// The features of one run's coverage, in its order: an entry of a category in `bucketed`
    /// once per count bucket, an entry of any other category once (reached or not: counts of
    /// common events grow with a run's length, and a bucket each would fill the corpus with runs
    /// that were merely longer).
    static func features(of coverage: Coverage, bucketed: [String]) -> [Feature] {
        var features: [Feature] = []
        for category in coverage.categories {
            let buckets = bucketed.contains(category.name)
            for (name, count) in zip(category.names, category.counts) where count > 0 {
                features.append(Feature(category: category.name, name: name, bucket: buckets ? bucket(count) : 1))
            }
        }
        return features
    }

    /// Adds `features`; returns how many were new.
    mutating func insertNew(_ features: [Feature]) -> Int {
        var new = 0
        for feature in features where seen.insert(feature).inserted { new += 1 }
        return new
    }
}
