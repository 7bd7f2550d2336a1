/// The passes over the schedule: the draws the scheduler marked as its decisions
/// (``ChoiceSource/scheduleDraws``: which ready job runs, which thread runs at a preemption point,
/// when the next preemption comes, a thread's PCT priority, a preempted thread's delay), whose 0
/// is always the canonical outcome.
extension ShrinkState {
    /// Makes the schedule canonical: every scheduling decision 0 at once (the first ready job,
    /// the running thread goes on, no preemption, no delay), in one replay; then, in runs of at
    /// most ``ShrinkPass/fineDeletionLimit`` actions, each nonzero decision 0 alone, from the last
    /// one back (one preemption, switch or delay removed at a time).
    ///
    /// ```
    /// gap 3 (a preemption at the third point), runner 2, delay 40_000 µs, job 1
    /// -> gap 0, runner 0, delay 0, job 0            (if the failure needs no interleaving at all)
    /// -> gap 3, runner 2, delay 0, job 0            (else: only the decisions it needs stay)
    /// ```
    ///
    /// Why a pass of its own: the value passes reach these draws only among every other value,
    /// by position and late, after the action passes; a failure that needs no interleaving
    /// loses all of it here in one replay, and one that needs a single switch keeps only that.
    ///
    /// Complexity: 1 attempt, plus one per nonzero decision in a short run.
    mutating func canonicalSchedule() {
        let nonzero = currentScheduleDraws.filter { $0 < current.count && current.values[$0] != 0 }
        guard !nonzero.isEmpty else { return }
        var values = current.values
        for position in nonzero { values[position] = 0 }
        if attempt(values) || currentActions.count > ShrinkPass.fineDeletionLimit { return }
        var index = currentScheduleDraws.count - 1
        while index >= 0, stop == nil {
            let position = currentScheduleDraws[index]
            if position < current.count, current.values[position] != 0 {
                var values = current.values
                values[position] = 0
                attempt(values)
            }
            index = min(index, currentScheduleDraws.count) - 1
        }
    }

    /// Moves a switch later: for each nonzero scheduling decision followed by a canonical one,
    /// the value moves to the next decision (this one becomes 0), in runs of at most
    /// ``ShrinkPass/fineDeletionLimit`` actions. Lexicographically smaller, so simpler when the
    /// run still fails: the interleaving happens as late as the failure allows, and what comes
    /// before it reads in the canonical order.
    ///
    /// ```
    /// runner 1 (switch at the first decision), runner 0, runner 0
    /// -> runner 0, runner 1, runner 0   -> runner 0, runner 0, runner 1   (while it still fails)
    /// ```
    ///
    /// Complexity: at most one attempt per scheduling decision per round.
    mutating func delaySwitches() {
        guard currentActions.count <= ShrinkPass.fineDeletionLimit else { return }
        var index = 0
        while index + 1 < currentScheduleDraws.count, stop == nil {
            let (here, next) = (currentScheduleDraws[index], currentScheduleDraws[index + 1])
            if next < current.count, current.values[here] != 0, current.values[next] == 0 {
                var values = current.values
                values[next] = values[here]
                values[here] = 0
                attempt(values)
            }
            index += 1
        }
    }
}
