/// What a bounded exhaustive search (``ExhaustiveSearch``) learns about one run while it runs:
/// the run's *branch points* (draws whose every outcome the search enumerates) and its *nodes*
/// (points where the simulated state was hashed, so that a state reached twice is explored once).
///
/// A run explored exhaustively draws from ``ChoiceSource/init(exploring:log:)``: it replays a
/// prefix, and every draw past the prefix takes its *canonical* value (0, the simplest outcome,
/// unless the draw site asked for another with ``setCanonicalForNextDraw(_:)``). The draw sites
/// that branch say so after drawing:
///
/// ```swift
/// let position = choices.drawCount
/// let goOn = choices.bool(probability: 0.999_999)
/// choices.exploration?.branch(position: position, alternatives: [0, 1], extraCost: 1)
/// ```
///
/// Contract: a log only records; it never changes an outcome (the canonical value is what a
/// replay past the end of a recording already gives, except where a draw site set another).
/// Branches and nodes are recorded in draw order. Not thread-safe: one run, one thread, like the
/// source it belongs to.
public final class ExplorationLog {
    /// A draw whose outcomes the search enumerates.
    public struct Branch: Sendable, Equatable {
        /// The draw's position in the run's recorded choices.
        public var position: Int
        /// The outcomes to explore, the canonical one (taken past a prefix) first.
        public var alternatives: [UInt64]
        /// What taking any outcome but the first costs of the search's depth (0 or 1).
        public var extraCost: Int

        /// The depth `value` costs at this branch.
        public func cost(of value: UInt64) -> Int {
            value == alternatives.first ? 0 : extraCost
        }
    }

    /// A point where the simulated state was hashed (for the simulator: before each go-on draw
    /// of the environment, when no simulated thread is suspended mid-job).
    public struct Node: Sendable, Equatable {
        /// The position of the next draw: the node's subtree is every branch at or after it.
        public var position: Int
        /// The stable hash of the state (``StableHasher``), equal in every process.
        public var stateHash: UInt64
    }

    /// The branch points so far, in draw order.
    public private(set) var branches: [Branch] = []
    /// The nodes so far, in draw order.
    public private(set) var nodes: [Node] = []
    /// The value the next draw past the prefix takes (reset to 0 after each such draw).
    private var nextCanonical: UInt64 = 0

    public init() {}

    /// Records a branch point at `position` (the draw just made).
    ///
    /// - Parameters:
    ///   - position: the draw's position in the recorded choices.
    ///   - alternatives: the outcomes to explore, the canonical one first; fewer than two
    ///     records nothing.
    ///   - extraCost: the depth any outcome but the first costs.
    public func branch(position: Int, alternatives: [UInt64], extraCost: Int) {
        guard alternatives.count > 1 else { return }
        branches.append(Branch(position: position, alternatives: alternatives, extraCost: extraCost))
    }

    /// Records a node: the state hash at `position` (the next draw's position).
    public func node(position: Int, stateHash: UInt64) {
        nodes.append(Node(position: position, stateHash: stateHash))
    }

    /// Sets the canonical value of the next draw past the prefix (its default is 0).
    ///
    /// ```swift
    /// choices.exploration?.setCanonicalForNextDraw(1)   // the preemption gap: every point
    /// ```
    package func setCanonicalForNextDraw(_ value: UInt64) {
        nextCanonical = value
    }

    /// The canonical value of a draw past the prefix; resets it to 0.
    func takeCanonical() -> UInt64 {
        defer { nextCanonical = 0 }
        return nextCanonical
    }

    /// Forgets a pending canonical value (a draw inside the prefix consumed it).
    func clearCanonical() {
        nextCanonical = 0
    }
}
