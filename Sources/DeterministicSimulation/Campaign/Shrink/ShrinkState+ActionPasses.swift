/// The passes that edit whole actions (``ChoiceAction``): what a reader of a failure counts.
extension ShrinkState {
    /// Moves the failure earlier: cuts the run before an action (its go-on draw, cut off, reads 0
    /// and stops the run there), binary-searching the earliest cut that still fails.
    ///
    /// Complexity: O(log a) attempts for a actions (the cuts before the failure usually pass and
    /// those after it fail, so the search finds the action the failure needs last).
    mutating func endEarlier() {
        // Invariant: cutting before `high` keeps the failure (no cut at all, at the start);
        // cutting before `low` was tried and did not (or is out of range).
        var low = -1
        var high = currentActions.count
        while high - low > 1, high <= currentActions.count, stop == nil {
            let middle = low + (high - low) / 2
            let stopDraw = min(currentActions[middle].stopDraw, current.count)
            // The prefix before the cut replays as before, so actions before `middle` keep their places.
            if attempt(Array(current.values[..<stopDraw])) { high = middle } else { low = middle }
        }
    }

    /// Starts the failure later: deletes the actions after the launch and before the ones the
    /// failure needs, binary-searching the longest such run that can go (with all their draws).
    ///
    /// Complexity: O(log a) attempts.
    mutating func startLater() {
        // Long runs of actions go: their preemptions moved back too (``retimesDeletions``).
        let retimed = retimesDeletions
        retimesDeletions = true
        defer { retimesDeletions = retimed }
        // Invariant: deleting actions 1..<low keeps the failure (trivially for low == 1);
        // deleting 1..<high was tried and did not, or is out of range.
        var low = 1
        var high = currentActions.count
        while high - low > 1, stop == nil {
            let middle = low + (high - low) / 2
            if attempt(removing: [1..<middle], .all) {
                // The actions from `middle` on moved down to 1; search what is left of the range.
                high -= middle - 1
                low = 1
            } else {
                high = middle
            }
        }
    }

    /// Deletes actions, from the last action back: one action, an adjacent pair (`home` then
    /// `open`), three in a row (`home`, `forceQuit`, `launch`), a pair with one or two actions
    /// between, then a run that grows by doubling while deletions succeed. Each deletion is tried
    /// with all the draws the actions own, then as a skip in place (``ActionExtent/skip``), which
    /// leaves the draws of work that runs across later actions where they were, then (in short
    /// runs) with all but their last draw (``ActionExtent/allButLast``). The first action (the
    /// launch) is kept.
    ///
    /// Complexity: at most fifteen attempts per action (four in long runs), plus O(log a) per success.
    mutating func deleteActions() {
        var index = currentActions.count - 1
        while index >= 1, stop == nil {
            if deleteAround(index) {
                index = min(index, currentActions.count - 1)
            } else {
                index -= 1
            }
        }
    }

    /// Tries the deletions that end at action `index`; true if one was adopted. In runs of more
    /// than ``ShrinkPass/fineDeletionLimit`` actions only single actions and adjacent pairs are
    /// tried, whole or skipped (four replays per action, not fifteen): most of a long run goes in
    /// runs that grow.
    private mutating func deleteAround(_ index: Int) -> Bool {
        let fine = currentActions.count <= ShrinkPass.fineDeletionLimit
        let extents: [ActionExtent] = fine ? ActionExtent.allCases : [.all, .skip]
        let retimed = retimesDeletions
        defer { retimesDeletions = retimed }
        for size in 1...(fine ? 3 : 2) where index - size + 1 >= 1 {
            // A pair (`home`, `open`) or more, once a retimed deletion was adopted: its
            // preemptions moved back too.
            retimesDeletions = retimed || (size > 1 && adoptedRetimed)
            for extent in extents where attempt(removing: [index - size + 1..<index + 1], extent) {
                growDeletion(endingAt: index - size + 1, size: size, extent)
                return true
            }
        }
        for distance in 2...3 where fine && index - distance >= 1 {
            for extent in extents
            where attempt(removing: [index - distance..<index - distance + 1, index..<index + 1], extent) {
                return true
            }
        }
        return false
    }

    /// After deleting `size` actions just before `end` worked, tries deleting twice as many
    /// before it, while that works (Hypothesis' galloping deletion of runs).
    private mutating func growDeletion(endingAt end: Int, size: Int, _ extent: ActionExtent) {
        var size = size * 2
        while end - size >= 1, end <= currentActions.count, stop == nil {
            guard attempt(removing: [end - size..<end], extent) else { return }
            size *= 2
        }
    }

    /// Ends the run with a different action: for each action but the last, replaces its choice
    /// with each of the first ``ShrinkPass/replacementChoices`` others and cuts the run right
    /// after it (`home, open, home` may become `home, earlyExpiry`). Only for runs of at most
    /// ``ShrinkPass/replacementActionLimit`` actions, where it is cheap.
    ///
    /// Complexity: at most `replacementChoices` attempts per action.
    mutating func replaceLastAction() {
        guard currentActions.count <= ShrinkPass.replacementActionLimit else { return }
        var index = 1
        while index + 1 < currentActions.count, stop == nil {
            let action = currentActions[index]
            let cut = currentActions[index + 1].stopDraw
            var replaced = false
            if action.isSkippable, cut > action.firstDraw, cut <= current.count {
                for choice in 0..<ShrinkPass.replacementChoices where choice != current.values[action.firstDraw] {
                    var values = Array(current.values[..<cut])
                    values[action.firstDraw] = choice
                    if attempt(values, requireSimplerCandidate: false) {
                        replaced = true
                        break
                    }
                }
            }
            if !replaced { index += 1 }
        }
    }

    /// Zeroes the draws an action owns except its own first draw and the next action's go-on
    /// draw: its gap, how it was carried out and everything drawn in reaction to it (workload
    /// draws included), from the last action back.
    mutating func zeroActions() {
        var index = currentActions.count - 1
        while index >= 0, stop == nil {
            let draws = drawRange(index..<index + 1)
            let keep = index + 1 < currentActions.count ? currentActions[index + 1].stopDraw : -1
            var values = current.values
            for position in draws where position != draws.lowerBound && position != keep { values[position] = 0 }
            if values != current.values { attempt(values) }
            index -= 1
        }
    }

    /// The draws the actions in `actions` own (up to the next action's first draw, or the end).
    ///
    /// Contract: `actions` is a nonempty range of ``currentActions``' indices (its upper bound may
    /// reach past the last action: the draws then go to the end); the result lies in
    /// `0...current.count` and is never reversed.
    func drawRange(_ actions: Range<Int>) -> Range<Int> {
        let end = actions.upperBound < currentActions.count
            ? min(currentActions[actions.upperBound].firstDraw, current.count) : current.count
        return min(currentActions[actions.lowerBound].firstDraw, end)..<end
    }

    /// Replays the current sequence without the actions of the ranges in `groups` (ascending,
    /// disjoint), removed as `extent` says; while ``reaimsDeletions``, if that does not keep the
    /// failure, once more with the action after each group re-aimed
    /// (``reaim(actionAfter:removedDraws:in:)``) when that changes a draw. False without a
    /// replay if there is nothing to remove.
    ///
    /// The plain deletion comes first: what a deletion leaves in another state is sometimes
    /// what the failure needs (a `home` that the same value now draws as `lock`); the re-aimed
    /// one costs a replay only where the plain one failed and the states differ.
    mutating func attempt(removing groups: [Range<Int>], _ extent: ActionExtent) -> Bool {
        guard let values = values(removing: groups, extent) else { return false }
        // A skip value is larger than the draw it replaces: the run, not the candidate, must be simpler.
        let simplerCandidate = extent != .skip
        if attempt(values, requireSimplerCandidate: simplerCandidate) { return true }
        // While ``retimesDeletions``: the preemptions drawn before the actions, where they fell
        // among the actions that stay (``retimePoints(removing:in:)``).
        if retimesDeletions, stop == nil, let retimed = self.values(removing: groups, extent, retiming: true),
           retimed != values, attempt(retimed, requireSimplerCandidate: simplerCandidate) {
            adoptedRetimed = true
            return true
        }
        guard reaimsDeletions, extent != .skip, stop == nil,
              let reaimed = self.values(removing: groups, extent, reaiming: true),
              reaimed != values else { return false }
        // Re-aiming may raise a value: the run, not the candidate, must be simpler.
        return attempt(reaimed, requireSimplerCandidate: false)
    }

    /// The current values without the actions of the ranges in `groups` (ascending, disjoint),
    /// removed as `extent` says, with the action after each group re-aimed if `reaiming` (whole
    /// deletions only) and the change points after them moved back if `retiming`
    /// (``retimePoints(removing:in:)``); `nil` if there is nothing to remove or an action cannot be.
    func values(removing groups: [Range<Int>], _ extent: ActionExtent, reaiming: Bool = false,
                retiming: Bool = false) -> [UInt64]? {
        // A caller's range may reach past the last action once a deletion shortened the run
        // (`startLater`'s search keeps its bounds): clamped to the actions there are, which reads
        // the same draws as before (``drawRange(_:)`` ends at the end); one left with no action
        // removes nothing.
        let groups = groups.map { $0.clamped(to: 0..<currentActions.count) }
        guard !groups.contains(where: \.isEmpty) else { return nil }
        var values = current.values
        if retiming { retimePoints(removing: groups, in: &values) }
        for group in groups.reversed() {
            switch extent {
            case .all, .allButLast:
                let draws = drawRange(group)
                guard extent == .all || draws.count > 1 else { return nil }
                let removed = extent == .all ? draws : draws.lowerBound..<draws.upperBound - 1
                values.removeSubrange(removed)
                if reaiming, !groups.contains(where: { $0.contains(group.upperBound) }) {
                    reaim(actionAfter: group, removedDraws: removed.count, in: &values)
                }
            case .skip:
                for index in group.reversed() {
                    let action = currentActions[index]
                    // A skippable action drew its choice at `firstDraw`, so that draw exists.
                    guard action.isSkippable, action.firstDraw < values.count else { return nil }
                    // The draws that carried it out end where the next action's go-on draw begins;
                    // idle steps among them only let time pass, and stay.
                    let next = index + 1 < currentActions.count ? currentActions[index + 1].stopDraw : 0
                    if next > action.firstDraw + 1 { removeKeepingIdleSteps(action.firstDraw + 1..<next, from: &values) }
                    values[action.firstDraw] = .max
                }
            }
        }
        return values != current.values ? values : nil
    }
}

extension ShrinkState {
    /// After the actions of `group` and `removedDraws` of their draws went from `values`, sets
    /// the draw of the action after them to the value that chooses the same action where it is
    /// now drawn: in the state the group's first action was drawn in (``ActionChoice``). An
    /// action is drawn by its index among the actions possible then, so without this a run
    /// that the deletion left in another state (`home` deleted after `launch, appSwitcher`: the
    /// next action is now drawn on screen, not in the app switcher) would turn the same value
    /// into another action. Nothing changes when either draw carries no choice, the action was
    /// forced, or it is not possible there.
    func reaim(actionAfter group: Range<Int>, removedDraws: Int, in values: inout [UInt64]) {
        guard group.upperBound < currentActions.count else { return }
        let next = currentActions[group.upperBound]
        let position = next.firstDraw - removedDraws
        guard next.isSkippable, let moved = next.choice, let there = currentActions[group.lowerBound].choice,
              position >= 0, position < values.count,
              let value = there.value(choosing: moved.outcome) else { return }
        values[position] = value
    }

    /// Removes the draws of `range` from `values` except those of the current run's idle steps
    /// (``ChoiceSource/idleSteps``) that lie wholly inside it.
    func removeKeepingIdleSteps(_ range: Range<Int>, from values: inout [UInt64]) {
        let range = range.clamped(to: 0..<values.count)
        var end = range.upperBound
        for step in currentIdleSteps.reversed() where step.upperBound <= end && step.lowerBound >= range.lowerBound {
            if step.upperBound < end { values.removeSubrange(step.upperBound..<end) }
            end = step.lowerBound
        }
        if range.lowerBound < end { values.removeSubrange(range.lowerBound..<end) }
    }
}

/// How a deletion removes an action.
enum ActionExtent: CaseIterable {
    /// Every draw up to the next action's: the action and all it set off.
    case all
    /// Every draw but the last: a draw made lazily on first use (a simulated thread's first
    /// scheduling decision) then stays for the next use, which the deletion made the first.
    case allButLast
    /// In place: the draw that chose it is set past the end (``ChoiceSource/optionalIndex(weights:)``
    /// skips it) and the draws that carried it out are dropped, except those of idle steps
    /// (``ChoiceSource/idleSteps``: their time still passes); the later draws stay where they
    /// were, so work that runs across later actions still reads its own values.
    case skip
}

