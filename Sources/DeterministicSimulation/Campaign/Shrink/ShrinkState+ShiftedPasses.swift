/// The pass that deletes a run of actions with its block of draws shifted across the action
/// boundaries, so that what follows lines up again.
extension ShrinkState {
    /// For each run of actions `i..<j` whose first action and the action after it were chosen by
    /// the same draw value (`home … home`, `open … open`), deletes the draws from a few past action
    /// `i`'s choice up to as many past action `j`'s (``ShrinkPass/shiftWindow``), the block also
    /// one draw longer or shorter: action `i` stays, and what action `j` set off takes the place
    /// of what action `i` set off. Only in runs of at most ``ShrinkPass/replacementActionLimit``
    /// actions; the longest runs first, and the first candidate that still fails is adopted.
    ///
    /// ```
    /// launch, home (its upload draws, then the gap), memoryPressureKill, launch, home (gap, then upload), networkDown, …
    /// -> launch, home, networkDown, …      (the first home kept, the second one's draws after it, realigned)
    /// ```
    ///
    /// Why a pass of its own: deleting the run with all its draws (``ActionExtent/all``) makes
    /// action `j` the one after `i - 1`, but the draws action `j` set off were drawn in the order
    /// its own process made them. The first process after a launch may draw in another order
    /// than a relaunched one (say, an upload's durations before the next gap there, after it
    /// here, or one draw more for a lazily started thread), so those draws land on other
    /// decisions and the failure goes. Where the earlier action was chosen by the same value, the
    /// block can start inside its draws instead and end at the same offset inside the later one's,
    /// which keeps the earlier draws' order up to the shift and the later draws after it; the
    /// one-longer or one-shorter block absorbs a draw one process made and the other did not.
    ///
    /// Complexity: at most 3 · ``ShrinkPass/shiftWindow`` attempts per pair of actions chosen by
    /// the same value, O(a²) pairs in a run of a actions.
    mutating func deleteShifted() {
        tryRunsLongestFirst(followedByAction: true,
                            while: { $0.currentActions.count <= ShrinkPass.replacementActionLimit }) { state, run in
            state.deleteShifted(run)
        }
    }

    /// Tries the shifted deletions of `run` (followed by an action); true if one was adopted.
    private mutating func deleteShifted(_ run: Range<Int>) -> Bool {
        let first = currentActions[run.lowerBound]
        let next = currentActions[run.upperBound]
        guard first.isSkippable, next.isSkippable, next.firstDraw < current.count,
              current.values[first.firstDraw] == current.values[next.firstDraw] else { return false }
        // The shift stays inside both actions' own draws, so neither action's choice goes.
        let firstEnd = drawRange(run.lowerBound..<run.lowerBound + 1).upperBound
        let nextEnd = drawRange(run.upperBound..<run.upperBound + 1).upperBound
        let window = min(ShrinkPass.shiftWindow, firstEnd - first.firstDraw - 1, nextEnd - next.firstDraw - 1)
        guard window >= 1 else { return false }
        for shift in 1...window {
            for stretch in [0, 1, -1] {
                let lower = first.firstDraw + shift
                let upper = next.firstDraw + shift + stretch
                guard upper > lower, upper <= current.count else { continue }
                var values = current.values
                values.removeSubrange(lower..<upper)
                if attempt(values) { return true }
            }
        }
        return false
    }
}
