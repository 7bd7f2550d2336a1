/// The pass that keeps a few actions and skips all the others in place.
extension ShrinkState {
    /// Skips every action but the first, the last and at most two others, in place
    /// (``ActionExtent/skip``): each skipped action's draw is set past its candidates and the
    /// draws that carried it out go, but the draws before it (the go-on draw and the gap of the
    /// tick that would have acted) stay, so time still passes as it did and only the actions go.
    ///
    /// ```
    /// launch, home, open, home, open, … (70 more, small gaps) …, home, launchBackgroundTask at 908 s
    /// -> launch, home, launchBackgroundTask at 908 s        (the other ticks still pass, acting on nothing)
    /// ```
    ///
    /// Why a pass of its own: a failure that needs time to pass (a `BGTask` is due only 15
    /// minutes after its submit, and the environment's gaps are at most 90 s) keeps, under the
    /// other passes, every action that carries time forward: deleting one deletes its gap, and
    /// skipping one at a time changes the app's state under the next (an action is drawn by its
    /// index among the actions possible in the current state, so skipping `open` turns the next
    /// `home` into something else). Skipping everything between the few actions the failure
    /// needs keeps both the time and, once they are the only ones, their states.
    ///
    /// Tried in order: no action kept in the middle, then each one alone (earliest first), then
    /// (in runs of at most ``ShrinkPass/keepPairLimit`` actions) each pair. The first candidate
    /// that still fails is adopted and the pass returns; the shrinker runs it again while it
    /// finds something. Actions that cannot be skipped (forced: the only possible one) are kept
    /// and not counted.
    ///
    /// Complexity: at most 1 + m + m(m-1)/2 attempts for m skippable middle actions (pairs only
    /// when m + 2 <= `keepPairLimit`); replays of a candidate already tried are free.
    mutating func skipAllBut() {
        // Every action but a few goes: their preemptions moved back too (``retimesDeletions``).
        let retimed = retimesDeletions
        retimesDeletions = true
        defer { retimesDeletions = retimed }
        let count = currentActions.count
        guard count > 2 else { return }
        let middle = (1..<count - 1).filter { currentActions[$0].isSkippable }
        guard !middle.isEmpty else { return }
        if attemptSkipping(middle, keeping: []) { return }
        for kept in middle where stop == nil {
            if attemptSkipping(middle, keeping: [kept]) { return }
        }
        guard count <= ShrinkPass.keepPairLimit else { return }
        for (offset, first) in middle.enumerated() {
            for second in middle[(offset + 1)...] where stop == nil {
                if attemptSkipping(middle, keeping: [first, second]) { return }
            }
        }
    }

    /// Skips the actions of `skippable` not in `kept`, in place; whether the result was adopted.
    private mutating func attemptSkipping(_ skippable: [Int], keeping kept: [Int]) -> Bool {
        let skipped = skippable.filter { !kept.contains($0) }
        guard !skipped.isEmpty else { return false }
        // Adjacent skipped actions form one range, as `attempt(removing:_:)` expects (ascending, disjoint).
        var groups: [Range<Int>] = []
        for index in skipped {
            if let last = groups.last, last.upperBound == index {
                groups[groups.count - 1] = last.lowerBound..<index + 1
            } else {
                groups.append(index..<index + 1)
            }
        }
        return attempt(removing: groups, .skip)
    }
}
