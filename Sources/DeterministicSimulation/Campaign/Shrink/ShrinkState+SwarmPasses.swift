/// The passes that undo a swarm run's mix (``ChoiceSpan/Kind/swarmMix``) in one step.
extension ShrinkState {
    /// Turns a swarm run into a random run over the same remaining draws: deletes every draw of
    /// the swarm mix and zeroes the coin before it (``ChoiceSpan/Kind/strategyCoin``: 0 is a
    /// random run), in one replay; then the same with every forced action turned into an idle
    /// step (``unforcing(_:)``). Only for a run whose coin chose swarm (a `default` run).
    ///
    /// ```
    /// coin 1, mix [1, 0, 0, …, 1], launch, home, memoryPressureKill, backgroundRefreshOff ×28 (forced), launchBackgroundTask
    /// -> coin 0, launch, home, memoryPressureKill, launchBackgroundTask   (the toggles' ticks pass idle)
    /// ```
    ///
    /// Why a pass of its own: the mix's draws come before anything else and each sets one
    /// action's weight (or the pace). Zeroing them one at a time changes the run under every
    /// later draw at each step, so a failure found by a swarm run keeps its mix, and with it the
    /// actions the mix forced: an action that is the only one possible draws nothing, so it
    /// cannot be skipped in place, yet often only carries time (a `BGTask` is due 15 minutes
    /// after its submit). Undone at once, the run is a random run, and shrinks like one.
    ///
    /// Complexity: at most 2 attempts.
    mutating func undoSwarm() {
        guard let mix = currentSpans.first(where: { $0.kind == .swarmMix }),
              let coin = currentSpans.first(where: { $0.kind == .strategyCoin }),
              coin.draws.count == 1, coin.draws.upperBound <= mix.draws.lowerBound, mix.draws.upperBound <= current.count,
              current.values[coin.draws.lowerBound] != 0 else { return }
        for unforced in [false, true] where stop == nil {
            var values = unforced ? unforcing(current.values) : current.values
            values.removeSubrange(mix.draws)
            values[coin.draws.lowerBound] = 0
            // The skips make the sequence longer: simpler only in its actions, which `attempt` checks.
            if attempt(values, requireSimplerCandidate: !unforced) { return }
        }
    }

    /// Zeroes every draw of the swarm mix at once, keeping the coin (for a `swarm` run, which has
    /// none, and a `default` run whose swarm coin must stay): every action at the scenario's own
    /// weight, at the scenario's own pace, the later draws where they were; then the same with
    /// every forced action turned into an idle step (``unforcing(_:)``).
    ///
    /// ```
    /// coin 1, mix [4, 2, 0, 1, 5, 0, 3, …, 1], launch, home, …
    /// -> coin 1, mix [0, 0, 0, 0, 0, 0, 0, …, 0], launch, home, …
    /// ```
    ///
    /// Complexity: at most 2 attempts.
    mutating func zeroSwarm() {
        guard let mix = currentSpans.first(where: { $0.kind == .swarmMix }), mix.draws.upperBound <= current.count else {
            return
        }
        for unforced in [false, true] where stop == nil {
            var values = unforced ? unforcing(current.values) : current.values
            for position in mix.draws { values[position] = 0 }
            if values != current.values, attempt(values, requireSimplerCandidate: !unforced) { return }
        }
    }

    /// `values` (the current sequence) with a skip (``ActionExtent/skip``'s past-the-end value)
    /// inserted where each forced action of a step would have drawn its choice: every action
    /// after the launch and before the last that drew nothing (the only one the mix left
    /// possible) but came after a step's go-on draw and gap. Under the scenario's own mix the
    /// choice is drawn, and the skip makes the step an idle one: its time passes, its action goes.
    func unforcing(_ values: [UInt64]) -> [UInt64] {
        var unforced = values
        for action in currentActions.dropFirst().dropLast().reversed()
        where !action.isSkippable && action.firstDraw > action.stopDraw && action.firstDraw <= unforced.count {
            unforced.insert(.max, at: action.firstDraw)
        }
        return unforced
    }
}
