/// The passes that undo a swarm run's mix (``ChoiceSpan/Kind/swarmMix``) in one step.
extension ShrinkState {
    /// Turns a swarm run into a random run over the same remaining draws: deletes every draw of
    /// the swarm mix and zeroes the coin before it (``ChoiceSpan/Kind/strategyCoin``: 0 is a
    /// random run), in one replay. Only for a run whose coin chose swarm (a `default` run).
    ///
    /// ```
    /// coin 1, mix [4, 2, 0, 1, 5, 0, 3, …, 1], launch, home, …   (a swarm run: `open` off, quick pace)
    /// -> coin 0, launch, home, …                                   (the same draws, the scenario's own mix)
    /// ```
    ///
    /// Why a pass of its own: the mix's draws come before anything else and each sets one
    /// action's weight (or the pace). Zeroing them one at a time changes the run under every
    /// later draw at each step, so a failure found by a swarm run keeps its mix, and with it
    /// actions that a random run of the same bug does not need (a forced action of a narrow mix
    /// draws nothing; under the scenario's mix it would be drawn, so the edits that helped a
    /// random run's shrink do not apply). Undone at once, the run is a random run, and shrinks
    /// like one.
    ///
    /// Complexity: at most 1 attempt.
    mutating func undoSwarm() {
        guard let mix = currentSpans.first(where: { $0.kind == .swarmMix }),
              let coin = currentSpans.first(where: { $0.kind == .strategyCoin }),
              coin.draws.count == 1, coin.draws.upperBound <= mix.draws.lowerBound,
              current.values[coin.draws.lowerBound] != 0 else { return }
        var values = current.values
        values.removeSubrange(mix.draws)
        values[coin.draws.lowerBound] = 0
        attempt(values)
    }

    /// Zeroes every draw of the swarm mix at once, keeping the coin (for a `swarm` run, which has
    /// none, and a `default` run whose swarm coin must stay): every action at the scenario's own
    /// weight, at the scenario's own pace, the later draws where they were.
    ///
    /// ```
    /// coin 1, mix [4, 2, 0, 1, 5, 0, 3, …, 1], launch, home, …
    /// -> coin 1, mix [0, 0, 0, 0, 0, 0, 0, …, 0], launch, home, …
    /// ```
    ///
    /// Complexity: at most 1 attempt.
    mutating func zeroSwarm() {
        guard let mix = currentSpans.first(where: { $0.kind == .swarmMix }) else { return }
        var values = current.values
        for position in mix.draws { values[position] = 0 }
        if values != current.values { attempt(values) }
    }
}
