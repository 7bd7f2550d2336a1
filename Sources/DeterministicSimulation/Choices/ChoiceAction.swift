/// One action of a run (a step of the test case: for the simulator, one environment action such
/// as `home`), as positions in the run's recorded choices: the unit a shrinker deletes.
///
/// ```swift
/// let source = ChoiceSource(replaying: failing)
/// _ = target.run(choices: source, keepTrace: false)
/// for action in source.actions { print(action.firstDraw, action.stopDraw, action.choice?.outcome ?? -1) }
/// ```
///
/// Contract: `stopDraw <= firstDraw`; both are positions in the run's ``ChoiceSource/recorded``
/// sequence. Marked by ``ChoiceSource/markAction(firstDraw:stopDraw:skippable:choice:)``.
public struct ChoiceAction: Sendable, Hashable {
    /// The position of the action's first draw; it owns the draws up to the next action's.
    public var firstDraw: Int
    /// The position of the draw that, cut off or set to 0, ends the run before this action
    /// (`firstDraw` when no draw can).
    public var stopDraw: Int
    /// Whether the draw at `firstDraw` chose the action and can skip it
    /// (``ChoiceSource/optionalIndex(weights:)``).
    package var isSkippable: Bool
    /// What the draw at `firstDraw` chose and among what, in the caller's own numbering of its
    /// outcomes; `nil` when the caller did not say (a forced action, or a caller that does not
    /// number its outcomes).
    public var choice: ActionChoice?
    /// The scheduling points the run's thread policy counted before the action was marked
    /// (``ChoiceSource/notePoints(_:)``; 0 without simulated threads): a deletion of the actions
    /// from this one to a later one removes the points between their marks.
    package var pointsBefore: Int

    public init(firstDraw: Int, stopDraw: Int, isSkippable: Bool, choice: ActionChoice? = nil) {
        self.init(firstDraw: firstDraw, stopDraw: stopDraw, isSkippable: isSkippable, choice: choice, pointsBefore: 0)
    }

    package init(firstDraw: Int, stopDraw: Int, isSkippable: Bool, choice: ActionChoice?, pointsBefore: Int) {
        self.firstDraw = firstDraw
        self.stopDraw = stopDraw
        self.isSkippable = isSkippable
        self.choice = choice
        self.pointsBefore = pointsBefore
    }
}

/// A drawn action in terms that do not depend on the state it was drawn in: which outcome the
/// draw chose, in the caller's stable numbering of its outcomes (for the simulator, the
/// environment action's place among all of them: `home` is `home` in every state), and, in the
/// order the draw indexed them, the outcomes that were possible then.
///
/// Why: the draw's value is the chosen outcome's index among the possible ones, and what is
/// possible depends on the state (`home` is the first possible action on screen, `open` the
/// first off screen). A shrinker that deletes the actions before one moves its draw into
/// another state, where the same value picks another action; with this it can re-aim the draw
/// at the same outcome (``value(choosing:)``), as Hypothesis' rule-based state machines keep a
/// rule's identity when earlier steps go.
///
/// ```swift
/// let moved = ActionChoice(outcome: 2, possible: [1, 2, 5])       // `home` (2), drawn as index 1
/// ActionChoice(outcome: 4, possible: [4, 2, 3]).value(choosing: moved.outcome)   // 1: index 1 there
/// ```
///
/// Contract: `possible` lists distinct outcomes, `outcome` among them.
public struct ActionChoice: Sendable, Hashable {
    /// The outcome the draw chose, in the caller's numbering (at least 0).
    public var outcome: Int
    /// The outcomes that were possible, in the order the draw indexed them.
    public var possible: [Int]

    public init(outcome: Int, possible: [Int]) {
        self.outcome = outcome
        self.possible = possible
    }

    /// The draw value that chooses `outcome` in the state this choice was drawn in: its index
    /// among ``possible``; `nil` when it was not possible there.
    ///
    /// Complexity: O(possible.count).
    public func value(choosing outcome: Int) -> UInt64? {
        possible.firstIndex(of: outcome).map { UInt64($0) }
    }
}
