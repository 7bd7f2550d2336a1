/// One action of a run (a step of the test case: for the simulator, one environment action such
/// as `home`), as positions in the run's recorded choices: the unit a shrinker deletes.
///
/// ```swift
/// let source = ChoiceSource(replaying: failing)
/// _ = target.run(choices: source, keepTrace: false)
/// for action in source.actions { print(action.firstDraw, action.stopDraw) }
/// ```
///
/// Contract: `stopDraw <= firstDraw`; both are positions in the run's ``ChoiceSource/recorded``
/// sequence. Marked by ``ChoiceSource/markAction(firstDraw:stopDraw:)``.
public struct ChoiceAction: Sendable, Hashable {
    /// The position of the action's first draw; it owns the draws up to the next action's.
    public var firstDraw: Int
    /// The position of the draw that, cut off or set to 0, ends the run before this action
    /// (`firstDraw` when no draw can).
    public var stopDraw: Int
    /// Whether the draw at `firstDraw` chose the action and can skip it
    /// (``ChoiceSource/optionalIndex(weights:)``).
    public var isSkippable: Bool
}
