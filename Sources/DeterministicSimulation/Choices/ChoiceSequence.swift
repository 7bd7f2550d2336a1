/// The recorded outcomes of every random decision of one run, in the order they were made.
///
/// A ``ChoiceSource`` records one value per draw: the outcome (an index, a count, 0 or 1 for a
/// coin), not the generator's raw output. Replaying the sequence with
/// ``ChoiceSource/init(replaying:)`` repeats the run exactly; a shrinker edits it (removes values,
/// lowers them) and replays the result, because 0 is always the simplest outcome of a draw.
///
/// ```swift
/// let source = ChoiceSource(seed: Seed(0x2a))
/// let delay = source.int(in: 0...1000)
/// let token = source.recorded.token              // "c1.…": paste after `bgsim replay --choices`
/// let again = ChoiceSource(replaying: try ChoiceSequence(token: token))
/// again.int(in: 0...1000) == delay               // true
/// ```
///
/// Contract: a plain value; ``token`` and ``init(token:)`` round-trip every sequence exactly.
/// Simplicity (``isSimpler(than:)``) is defined once, here: shorter, then lexicographically
/// smaller.
public struct ChoiceSequence: Hashable, Sendable, CustomStringConvertible {
    /// The outcomes, one per recorded draw.
    public var values: [UInt64]

    /// Creates a sequence from outcomes.
    ///
    /// ```swift
    /// let simplest = ChoiceSequence()
    /// let edited = ChoiceSequence([0, 3, 1])
    /// ```
    ///
    /// - Parameter values: the outcomes, in draw order.
    public init(_ values: [UInt64] = []) {
        self.values = values
    }

    /// The number of recorded draws.
    public var count: Int { values.count }

    /// Whether `self` is strictly simpler than `other`: fewer values, or as many values and
    /// lexicographically smaller (the first differing value is smaller).
    ///
    /// ```swift
    /// ChoiceSequence([9, 9]).isSimpler(than: ChoiceSequence([0, 0, 0]))   // true: shorter
    /// ChoiceSequence([1, 0]).isSimpler(than: ChoiceSequence([1, 2]))      // true
    /// ChoiceSequence([1, 2]).isSimpler(than: ChoiceSequence([1, 2]))      // false: equal
    /// ```
    ///
    /// Contract: a strict total order (irreflexive, transitive, total on distinct sequences). A
    /// shrinker accepts an edit only when the edited sequence is simpler, so shrinking terminates.
    /// - Complexity: O(n).
    package func isSimpler(than other: ChoiceSequence) -> Bool {
        if values.count != other.values.count {
            return values.count < other.values.count
        }
        for index in values.indices where values[index] != other.values[index] {
            return values[index] < other.values[index]
        }
        return false
    }

    /// The ``token``, the form to paste into a command line.
    public var description: String { token }
}
