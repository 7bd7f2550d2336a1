/// The pass that deletes actions with the preemptions drawn before them moved back.
extension ShrinkState {
    /// `startLater`, `skipAllBut` and `deleteActions` again, each deletion that loses the failure
    /// also tried *retimed* (``retimePoints(removing:in:)``): the scheduling points that draws
    /// made before the deleted actions name are moved so that each falls where it fell among the
    /// actions that stay.
    ///
    /// ```
    /// launch, home, open, home, open, … (100 more), lock, earlyExpiry   (a preemption in `end()`)
    /// -> launch, lock, earlyExpiry                                       (the preemption still there)
    /// ```
    ///
    /// Why a pass of its own: both thread policies draw where a preemption comes as a count of
    /// points (PCT's change points from the run's start, random walk's gap to the next preemption,
    /// at each preemption), so a failure that needs one rare interleaving kept every action
    /// before it: deleting any of them moved the preemption. It runs only once every other pass is
    /// stuck (``ShrinkPass/waitsUntilStuck``): adopted earlier, its deletions led failures that did
    /// not need them away from their minimum. Runs without simulated threads draw no such values:
    /// it tries nothing new there.
    ///
    /// Complexity: what the three passes cost; their plain candidates were tried before (free),
    /// and at most one replay more per deletion.
    mutating func deleteRetimed() {
        guard !currentPointCountDraws.isEmpty else { return }
        retimesDeletions = true
        defer { retimesDeletions = false }
        startLater()
        skipAllBut()
        deleteActions()
    }

    /// Moves the scheduling points that draws of `values` name (``ChoiceSource/pointCountDraws``:
    /// PCT's change points, random walk's gap to its next preemption) so that, once the actions of
    /// `groups` are deleted, each falls where it fell among the actions that stay:
    /// - a draw made before a group that names a point after it is lowered by the points between
    ///   the group's first mark and the next action's (``ChoiceAction/pointsBefore``): a PCT
    ///   change point past ten deleted `home`/`open` cycles;
    /// - the last draw made before a group that names a point inside it takes over the point that
    ///   the group's own last such draw named past its end, at the same distance into the next
    ///   action: random walk draws a gap at each preemption, and the one in flight when the
    ///   deleted actions began would otherwise preempt the actions after them elsewhere, and
    ///   every later draw would be read at another point.
    /// Without this a rare interleaving kept most of its life (probe 7: 103 of 129 actions). A
    /// draw of "never" (0) and groups that reach the run's end are left alone.
    func retimePoints(removing groups: [Range<Int>], in values: inout [UInt64]) {
        let draws = currentPointCountDraws
        guard !draws.isEmpty else { return }
        func target(_ draw: PointCountDraw) -> Int? {
            let count = current.values[draw.position]
            return count > 0 ? draw.from + Int(clamping: count) : nil
        }
        for group in groups where group.upperBound < currentActions.count {
            let first = currentActions[group.lowerBound].pointsBefore
            let end = currentActions[group.upperBound].pointsBefore
            let deleted = drawRange(group)
            guard end > first else { continue }
            let before = draws.lastIndex { $0.position < deleted.lowerBound }
            for (index, draw) in draws.enumerated() where draw.position < deleted.lowerBound && draw.position < values.count {
                guard draw.from <= first, let point = target(draw), point > first else { continue }
                if point > end {
                    values[draw.position] -= min(values[draw.position] - 1, UInt64(end - first))
                } else if index == before,
                          let inFlight = draws.last(where: { deleted.contains($0.position) && (target($0) ?? 0) > end }),
                          let named = target(inFlight) {
                    values[draw.position] = UInt64(first - draw.from + named - end)
                }
            }
        }
    }

}
