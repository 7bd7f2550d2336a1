/// The marks a run leaves on its draws for a shrinker: its actions, idle steps, labelled spans and
/// scheduling decisions. Marking draws nothing and changes no outcome, so a marked run is the same
/// run; marks are kept in replay mode only (a campaign's random runs pay one branch), and whoever
/// needs them replays the run's recording, as ``Shrinker`` does.
extension ChoiceSource {
    /// The actions of the run marked so far, in order: what a shrinker deletes as units. Kept
    /// in replay mode only (``markAction(firstDraw:stopDraw:skippable:choice:)``), else empty.
    public var actions: [ChoiceAction] { state.actions }

    /// Marks one action of the run (a step of the test case: for the simulator, one environment
    /// action), so that a shrinker can delete it as a unit and prefer runs with fewer actions.
    ///
    /// ```swift
    /// let stopDraw = choices.drawCount
    /// guard choices.bool(probability: 0.999) else { return }   // go on acting?
    /// let firstDraw = choices.drawCount
    /// guard let action = choices.optionalIndex(weights: [3, 1, 1]) else { return }
    /// choices.markAction(firstDraw: firstDraw, stopDraw: stopDraw, skippable: true,
    ///                    choice: ActionChoice(outcome: [2, 0, 4][action], possible: [2, 0, 4]))
    /// ```
    ///
    /// Contract: draws nothing and changes no outcome, so marking never changes a run. Marks are
    /// kept in replay mode only: a campaign's random runs skip the bookkeeping (a few percent of
    /// a run), and whoever needs a run's actions replays its recording, as a shrinker does. An action
    /// owns the draws from its `firstDraw` up to the next action's (the last one: to the end);
    /// cutting the sequence at `stopDraw` (a draw that reads 0 past the end, and 0 stops the run
    /// short of this action) ends the run before it. Marks come in draw order:
    /// `stopDraw <= firstDraw <= drawCount`, and `firstDraw` is at least the previous action's.
    ///
    /// - Parameters:
    ///   - firstDraw: the position in ``recorded`` of the action's first draw.
    ///   - stopDraw: the position of the draw whose 0 stops the run before this action; equal to
    ///     `firstDraw` when no draw can.
    ///   - skippable: whether the draw at `firstDraw` chose the action with
    ///     ``optionalIndex(weights:)``, so that a shrinker can skip the action in place: set that
    ///     draw past the end and drop the draws up to the next action's `stopDraw` (how it was
    ///     carried out), leaving every later draw where it was.
    ///   - choice: what that draw chose, and among what (``ActionChoice``); kept in replays only.
    /// - Complexity: O(1) amortized.
    public func markAction(firstDraw: Int, stopDraw: Int, skippable: Bool = false, choice: ActionChoice? = nil) {
        guard isReplaying else { return }
        precondition(stopDraw <= firstDraw && firstDraw <= state.outcomes.count
                     && firstDraw >= (state.actions.last?.firstDraw ?? 0), "actions are marked in draw order")
        // One allocation for a typical run's actions instead of a doubling per power of two.
        if state.actions.isEmpty { state.actions.reserveCapacity(256) }
        state.actions.append(ChoiceAction(firstDraw: firstDraw, stopDraw: stopDraw, isSkippable: skippable, choice: choice,
                                          pointsBefore: pointClock?() ?? 0))
    }

    /// The idle steps of the run marked so far, in order: the draws of each step that acted on
    /// nothing. Kept in replay mode only, like ``actions``.
    package var idleSteps: [Range<Int>] { state.idleSteps }

    /// Marks a step of the run that acted on nothing but still let time pass (for the simulator:
    /// a tick of the environment whose action a shrinker skipped, see
    /// ``optionalIndex(weights:)``), from the draw whose 0 would have stopped the run there up to
    /// the draws so far.
    ///
    /// ```swift
    /// let stopDraw = choices.drawCount
    /// guard choices.bool(probability: 0.999) else { return }   // go on acting?
    /// let gap = choices.int(in: 1...90)                         // time passes either way
    /// guard let action = choices.optionalIndex(weights: [3, 1, 1]) else {
    ///     choices.markIdleStep(stopDraw: stopDraw)               // skipped: an idle step
    ///     return
    /// }
    /// ```
    ///
    /// Contract: draws nothing and changes no outcome. An idle step is not an action (a shrinker
    /// counts only ``actions``); it tells a shrinker which draws inside an action's range belong
    /// to a later step that only let time pass, so that skipping the action in place keeps them
    /// (and the time they carry). Marks come in draw order, after the last action's first draw;
    /// `stopDraw <= drawCount`. Kept in replay mode only.
    ///
    /// - Parameter stopDraw: the position of the step's first draw.
    /// - Complexity: O(1) amortized.
    public func markIdleStep(stopDraw: Int) {
        guard isReplaying else { return }
        precondition(stopDraw <= state.outcomes.count && stopDraw >= (state.idleSteps.last?.upperBound ?? 0),
                     "idle steps are marked in draw order")
        state.idleSteps.append(stopDraw..<state.outcomes.count)
    }

    /// The labelled spans of the run marked so far, in the order they were marked (a span is
    /// marked when it ends). Kept in replay mode only, like ``actions``; not carried across a
    /// process boundary (an isolated run's source has none), so passes that use them find nothing
    /// there.
    public var spans: [ChoiceSpan] { state.spans }

    /// Marks the draws from `firstDraw` up to the draws so far as one span of kind `kind`, so that
    /// a shrinker can edit them together.
    ///
    /// ```swift
    /// let firstDraw = choices.drawCount
    /// let quick = choices.bool(probability: 1.0 / 3)
    /// choices.markSpan(.swarmMix, from: firstDraw)
    /// ```
    ///
    /// Contract: draws nothing and changes no outcome, so marking never changes a run; kept in
    /// replay mode only. `firstDraw <= drawCount`.
    ///
    /// - Parameters:
    ///   - kind: what the span's draws decided.
    ///   - firstDraw: the position in ``recorded`` of the span's first draw.
    /// - Complexity: O(1) amortized.
    public func markSpan(_ kind: ChoiceSpan.Kind, from firstDraw: Int) {
        guard isReplaying else { return }
        precondition(firstDraw >= 0 && firstDraw <= state.outcomes.count, "a span ends at the draws so far")
        state.spans.append(ChoiceSpan(kind: kind, draws: firstDraw..<state.outcomes.count))
    }

    /// The positions in ``recorded`` of the run's scheduling decisions marked so far, in draw
    /// order (``markScheduleDraw()``). Kept in replay mode only, like ``actions``.
    package var scheduleDraws: [Int] { state.scheduleDraws }

    /// Marks the draw just made as a scheduling decision: which ready job runs, which thread runs
    /// at a preemption point, when the next preemption comes, a thread's priority or a preempted
    /// thread's delay. For each, 0 is the canonical outcome (the first ready job, the running
    /// thread goes on, no further preemption, no delay), so a shrinker can make a schedule
    /// canonical, remove one switch, or move one later.
    ///
    /// ```swift
    /// let chosen = Int(choices.draw(below: UInt64(candidateCount)))
    /// choices.markScheduleDraw()
    /// ```
    ///
    /// Contract: call right after a draw that recorded its outcome (not after one with a single
    /// possible outcome, which records nothing). Draws nothing and changes no outcome; kept in
    /// replay mode only, so a campaign's random runs pay one branch.
    /// - Complexity: O(1) amortized.
    @inline(__always)
    package func markScheduleDraw() {
        guard isReplaying else { return }
        markScheduleDrawReplaying()
    }

    private func markScheduleDrawReplaying() {
        precondition(!state.outcomes.isEmpty, "a scheduling decision is marked after its draw")
        if state.scheduleDraws.isEmpty { state.scheduleDraws.reserveCapacity(256) }
        state.scheduleDraws.append(state.outcomes.count - 1)
    }

    /// The draws whose value counts scheduling points (``markPointCountDraw()``), in draw order.
    /// Kept in replay mode only, like ``actions``.
    package var pointCountDraws: [PointCountDraw] { state.pointCountDraws }

    /// Marks the draw just made as a count of scheduling points from now on (``pointClock``'s
    /// reading now, 0 without one): PCT's change points (counted from the run's first point) and
    /// random walk's gaps to the next preemption. A shrinker that deletes actions between this
    /// draw and the point it names lowers it by the points those actions held
    /// (``ChoiceAction/pointsBefore``), so that the point falls where it fell among the actions
    /// that stay.
    ///
    /// ```swift
    /// let gap = choices.draw(below: 1_000)
    /// choices.markPointCountDraw()
    /// ```
    ///
    /// Contract: call right after a draw that recorded its outcome. Draws nothing and changes no
    /// outcome; kept in replay mode only.
    /// - Complexity: O(1) amortized.
    @inline(__always)
    package func markPointCountDraw() {
        guard isReplaying else { return }
        markPointCountDrawReplaying()
    }

    private func markPointCountDrawReplaying() {
        precondition(!state.outcomes.isEmpty, "a point count is marked after its draw")
        state.pointCountDraws.append(PointCountDraw(position: state.outcomes.count - 1, from: pointClock?() ?? 0))
    }
}

/// A draw whose value counts scheduling points (``ChoiceSource/markPointCountDraw()``): the
/// point it names is `from + value` on the run's point clock (``ChoiceSource/pointClock``).
package struct PointCountDraw: Sendable, Hashable {
    /// The draw's position in the run's recorded choices.
    package var position: Int
    /// The point clock's reading when it was drawn.
    package var from: Int
}
