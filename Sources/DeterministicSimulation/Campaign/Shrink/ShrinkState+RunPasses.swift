/// The passes that delete runs of actions of any length and place in short runs: what the
/// galloping deletions of ``deleteActions()`` and the binary search of ``startLater()`` miss
/// when only one exact run can go.
extension ShrinkState {
    /// Deletes runs of consecutive actions after the launch, longest first, at every start:
    /// each run whole (every draw its actions own), then skipped in place when all its actions
    /// can be, then, when it holds a forced action (the only one possible, so not skippable),
    /// with its time folded into the next action's step (``foldTime(of:)``).
    ///
    /// ```
    /// launch, home, memoryPressureKill, launch, home, networkDown, …, forceQuit, launch, home, networkDown, …
    /// -> launch, home, networkDown, …         (the ten actions before the second launch's home go at once)
    /// ```
    ///
    /// Why a pass of its own: a failure that a run repeats (a relaunch, then the same steps) keeps
    /// the first attempt's actions under the other passes. Deleting them needs the one run that
    /// ends where the app's state is again what the later actions were drawn in (an action is
    /// drawn by its index among the actions possible then, so any shorter or longer run turns the
    /// next action into another); `startLater` binary-searches for it, which assumes that every
    /// shorter deletion works too, and `deleteActions` grows runs only from a deletion that works.
    ///
    /// Only in runs of at most ``ShrinkPass/runDeletionLimit`` actions. The first candidate that
    /// still fails is adopted and the search goes on at the same length.
    ///
    /// Complexity: at most about 4 · a²/2 attempts for a actions; replays of a candidate already
    /// tried are free.
    mutating func deleteRuns() {
        tryRunsLongestFirst(followedByAction: false,
                            while: { $0.currentActions.count <= ShrinkPass.runDeletionLimit }) { state, run in
            state.deleteRun(run)
        }
    }

    /// Tries `attempt` on every run of actions after the launch, longest first and at every
    /// start, while `condition` holds and no limit is hit; when one is adopted (`attempt` is
    /// true) the search goes on at the same length (clamped to the shorter run). With
    /// `followedByAction`, only runs with an action after them. The loop of ``deleteRuns()``,
    /// ``deleteCycles()`` and ``deleteShifted()``.
    ///
    /// Complexity: at most a²/2 calls of `attempt` for a actions, plus a per adopted run.
    mutating func tryRunsLongestFirst(followedByAction: Bool, while condition: (Self) -> Bool,
                                      _ attempt: (inout Self, Range<Int>) -> Bool) {
        let margin = followedByAction ? 2 : 1  // the launch, and the action after the run
        var length = currentActions.count - margin
        while length >= 1, condition(self), stop == nil {
            var start = 1
            var adopted = false
            while start + length <= currentActions.count - (margin - 1), condition(self), stop == nil, !adopted {
                adopted = attempt(&self, start..<start + length)
                start += 1
            }
            length = adopted ? min(length, currentActions.count - margin) : length - 1
        }
    }

    /// In runs longer than ``ShrinkPass/runDeletionLimit`` (where ``deleteRuns()`` tries
    /// nothing): deletes runs of actions that bring the app back to the state they started in,
    /// as far as the draws tell (the action after the run was drawn among the same possible
    /// actions as the run's first), longest first, with all their draws. The first one that
    /// still fails is adopted and the search goes on at the same length.
    ///
    /// ```
    /// launch, appSwitcher, open, home, open, … 40 actions, two relaunches …, home, earlyExpiry, open, home
    /// -> launch, appSwitcher, open, home, earlyExpiry, open, home     (both `open` and `earlyExpiry` drawn in the background)
    /// ```
    ///
    /// Why a pass of its own: a failure in a later process keeps the earlier processes under
    /// the other passes. Deleting a run whole works only when it ends where the app's state is
    /// again what the later actions were drawn in; shorter deletions inside it leave the app
    /// elsewhere, and a process's first draws (a thread's first scheduling decision, made
    /// lazily) move when one goes, so the deletions that grow from a working one never start.
    /// Trying every run, as ``deleteRuns()`` does in short runs, costs O(a²) replays; a long
    /// run's cycles (`open … home`, `launch … forceQuit`) are far fewer.
    ///
    /// Complexity: one attempt per run whose ends were drawn among the same actions, O(a²) of
    /// them at worst (comparing the ends costs no replay), and at most
    /// ``ShrinkPass/cycleAttemptsPerAction`` · a replays each time the pass runs.
    mutating func deleteCycles() {
        let budget = attempts + ShrinkPass.cycleAttemptsPerAction * currentActions.count
        tryRunsLongestFirst(followedByAction: true, while: {
            $0.currentActions.count > ShrinkPass.runDeletionLimit && $0.attempts < budget
        }) { state, run in
            let (first, next) = (state.currentActions[run.lowerBound].choice, state.currentActions[run.upperBound].choice)
            guard let first, let next, first.possible == next.possible else { return false }
            return state.attempt(removing: [run], .all)
        }
    }

    /// Runs ``startLater()`` and ``deleteActions()`` again with every deletion of whole
    /// actions also tried with the action after it kept the same action where it is now drawn
    /// (``reaimsDeletions``; the plain deletions were tried before, so they cost no replay).
    ///
    /// ```
    /// launch, home, …, memoryPressureKill, networkDown, launch (drawn while not running), home
    /// -> launch, networkDown (now drawn on screen: re-aimed at networkDown, not its old index), home
    /// ```
    ///
    /// Why a pass of its own: a failure that needs an action drawn in a later state (a
    /// `networkDown` while the app was not running) keeps every action before it, since the
    /// same value drawn on screen picks another action; ``deleteReaiming()`` guesses one index
    /// up or down in short runs, this one knows the action (``ActionChoice``). It runs last in
    /// a round: adopted earlier, such deletions led some failures away from their minimum.
    ///
    /// Complexity: what the two passes cost, and at most one more replay per deletion.
    mutating func deleteKeepingNext() {
        reaimsDeletions = true
        defer { reaimsDeletions = false }
        startLater()
        deleteActions()
    }

    /// Tries the deletions of the actions in `run`; true if one was adopted.
    private mutating func deleteRun(_ run: Range<Int>) -> Bool {
        if attempt(removing: [run], .all) { return true }
        let actions = currentActions[run]
        if actions.allSatisfy(\.isSkippable) { return attempt(removing: [run], .skip) }
        return foldTime(of: run)
    }

    /// Deletes the actions of `run` and everything they drew up to the next action's step, which
    /// then comes right after the action before the run: the time the run's steps let pass is
    /// lost. So the next step's draws (its gap, for the simulator: a decade and an offset in it)
    /// are also tried longer: its last draw plus the same draw of every step of the run (a gap
    /// drawn linearly, added up), doubled and quadrupled, then the draw before it raised by one.
    ///
    /// ```
    /// power 1 s, networkDown 1 s, networkUp 7 s, networkDown 7 s, networkUp 17 s, launchBackgroundTask 60 s
    /// -> power 1 s, launchBackgroundTask 77 s      (the forced toggles only let the minute pass)
    /// ```
    ///
    /// Why: a forced action (the only one possible in its state: say, the only action the swarm
    /// mix enabled while the app is suspended) cannot be skipped in place, yet may only carry
    /// time, which a failure that waits for a deadline needs. Not simpler in its values, but in
    /// its actions, so the longer step is accepted.
    ///
    /// Complexity: at most 5 attempts.
    private mutating func foldTime(of run: Range<Int>) -> Bool {
        guard run.upperBound < currentActions.count else { return false }
        let first = currentActions[run.lowerBound].stopDraw
        let next = currentActions[run.upperBound]
        guard first < next.stopDraw, next.stopDraw <= current.count else { return false }
        var values = current.values
        values.removeSubrange(first..<next.stopDraw)
        // The next step's draws after its go-on draw, now right after the action before the run.
        // None when the next action has no go-on draw (`firstDraw == stopDraw`: a forced action,
        // say the only one a scenario enables): the end is clamped, so the range is empty, never
        // reversed (issue 32's trap).
        let step = first + 1..<max(first + 1, next.firstDraw - (next.stopDraw - first))
        if attempt(values, requireSimplerCandidate: false) { return true }
        guard let last = step.last, last < values.count, values[last] > 0 else { return false }
        // The same draw of every step the run took (its last before the action), summed: the
        // time of a gap drawn linearly (`int(in: 1...90)`) added up.
        let sum = currentActions[run].filter { $0.firstDraw > $0.stopDraw + 1 }
            .reduce(values[last]) { total, action in Self.saturatingSum(total, current.values[action.firstDraw - 1]) }
        let doubled = Self.saturatingSum(values[last], values[last])
        for longerValue in [sum, doubled, Self.saturatingSum(doubled, doubled)]
        where longerValue > values[last] {
            var longer = values
            longer[last] = longerValue
            if attempt(longer, requireSimplerCandidate: false) { return true }
        }
        guard step.count >= 2, values[last - 1] < UInt64.max else { return false }
        var longer = values
        longer[last - 1] += 1
        return attempt(longer, requireSimplerCandidate: false)
    }

    /// `a + b`, or `UInt64.max` when that overflows.
    private static func saturatingSum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    /// Deletes one action or two adjacent ones (whole, then skipped in place) and re-aims one
    /// later action: its choice one higher or one lower. In runs of at most
    /// ``ShrinkPass/replacementActionLimit`` actions.
    ///
    /// ```
    /// …, sceneDisconnect, launchBackgroundTask ×4, networkDown (index 4 of 5)
    /// -> …, launchBackgroundTask ×4, networkDown (index 5 of 6: sceneDisconnect is possible again)
    /// ```
    ///
    /// Why: an action is drawn by its index among the actions possible in the app's state, so
    /// deleting an action that changed that state (a disconnected scene, a connected charger)
    /// shifts the index of a later action by one when a possible action appears or goes, and
    /// the same draw then picks the action next to it.
    ///
    /// Complexity: at most 4 · l attempts per deletion for l later drawn actions.
    mutating func deleteReaiming() {
        guard currentActions.count <= ShrinkPass.replacementActionLimit else { return }
        var index = currentActions.count - 1
        while index >= 1, stop == nil {
            if !deleteReaiming(endingAt: index) { index -= 1 }
            index = min(index, currentActions.count - 1)
        }
    }

    /// Tries the re-aimed deletions of the one or two actions ending at `index`; true if one was adopted.
    private mutating func deleteReaiming(endingAt index: Int) -> Bool {
        for size in 1...2 where index - size + 1 >= 1 {
            let run = index - size + 1..<index + 1
            for extent in [ActionExtent.all, .skip] {
                guard let values = values(removing: [run], extent) else { continue }
                let removed = current.count - values.count
                for later in currentActions[run.upperBound...] where later.isSkippable && stop == nil {
                    let position = later.firstDraw - removed
                    guard position >= 0, position < values.count else { continue }
                    // One up, then one down, in the value's own type: neither end can overflow.
                    let value = values[position]
                    for aimed in [value < .max ? value + 1 : nil, value > 0 ? value - 1 : nil].compactMap({ $0 }) {
                        var candidate = values
                        candidate[position] = aimed
                        if attempt(candidate, requireSimplerCandidate: false) { return true }
                    }
                }
            }
        }
        return false
    }
}
