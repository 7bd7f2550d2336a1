extension ChoiceSource {
    /// An integer in `range`; the lower bound is the simplest.
    ///
    /// ```swift
    /// let delayMilliseconds = choices.int(in: 0...5_000)
    /// ```
    ///
    /// Contract: `range.lowerBound + draw(below: count)`. A one-element range draws nothing. The
    /// count is computed without overflow; for the full `Int` range (2^64 values) it is clamped to
    /// `UInt64.max`, so `Int.max` itself is never drawn there.
    ///
    /// - Parameter range: the possible values.
    /// - Complexity: O(1).
    public func int(in range: ClosedRange<Int>) -> Int {
        let lower = UInt64(bitPattern: Int64(range.lowerBound))
        let distance = UInt64(bitPattern: Int64(range.upperBound)) &- lower
        let count = distance == .max ? UInt64.max : distance + 1
        return Int(Int64(bitPattern: lower &+ draw(below: count)))
    }

    /// `true` with probability `probability`; `false` is the simplest outcome.
    ///
    /// ```swift
    /// if choices.bool(probability: 0.05) { injectNetworkFailure() }
    /// ```
    ///
    /// Contract: `probability <= 0` or NaN gives `false` and `probability >= 1` gives `true`, both
    /// without drawing. Otherwise one draw with two outcomes whose recorded value is the outcome
    /// (1 = true). In random mode the outcome is `true` iff
    /// `next(below: 1 << 53) < UInt64(probability * 2^53)`, exact to 2^-53. In replay mode it is
    /// the recorded value (a value above 1 is a misfit and gives `false`).
    ///
    /// - Parameter probability: the chance of `true`.
    /// - Complexity: O(1).
    public func bool(probability: Double) -> Bool {
        guard probability > 0 else { return false }  // also NaN
        guard probability < 1 else { return true }
        if isInert { return false }
        let outcome: UInt64
        if replaysNextDraw() {
            outcome = nextReplayed(below: 2)
        } else {
            let threshold = UInt64(probability * 9_007_199_254_740_992.0)  // 2^53
            let sample = withGenerator { $0.next(below: 1 << 53) }
            outcome = sample < threshold ? 1 : 0
        }
        record(outcome)
        return outcome == 1
    }

    /// An index into `weights`, chosen with probability proportional to its weight.
    ///
    /// ```swift
    /// // 70% foreground, 25% background, 5% terminate
    /// let transition = choices.index(weights: [70, 25, 5])
    /// ```
    ///
    /// Contract: a zero weight is never picked. Empty or all-zero weights return 0 and one nonzero
    /// weight returns its index, both without drawing. Otherwise the recorded value is the
    /// chosen index (0 is the simplest). In random mode `r = next(below: total)` picks the first
    /// index whose running total exceeds `r`; if the total exceeds `UInt64.max` the running total
    /// saturates (later weights then get less than their share). In replay mode a recorded index
    /// that is out of range or has zero weight falls back to the first index with a nonzero
    /// weight (counted in ``fallbackCount``).
    ///
    /// - Parameter weights: relative weights, one per outcome.
    /// - Complexity: O(weights.count), no allocation beyond the recording's growth.
    public func index(weights: [UInt64]) -> Int {
        weights.withUnsafeBufferPointer { index(weights: $0) }
    }

    /// ``index(weights:)`` over a buffer the caller owns (a draw from fixed scratch, without an
    /// array of the exact length): same contract, same draws, same recorded values.
    package func index(weights: UnsafeBufferPointer<UInt64>) -> Int {
        index(weights: weights, skippable: false)!
    }

    /// ``index(weights:)``, except that an edited sequence can skip the draw: in replay mode a
    /// recorded value at or past `weights.count` gives `nil` (recorded as `weights.count`), so a
    /// shrinker can remove a step of the run without moving any later draw.
    ///
    /// ```swift
    /// guard let action = choices.optionalIndex(weights: [70, 25, 5]) else { return }  // skipped
    /// ```
    ///
    /// Contract: random mode never returns `nil` and draws exactly as ``index(weights:)``; so does
    /// replay mode for every value below `weights.count`. A draw past the end falls back as
    /// ``index(weights:)`` does (it is not a skip). Draws with one possible outcome draw nothing
    /// and cannot be skipped.
    ///
    /// - Parameter weights: relative weights, one per outcome.
    /// - Complexity: O(weights.count).
    public func optionalIndex(weights: [UInt64]) -> Int? {
        weights.withUnsafeBufferPointer { optionalIndex(weights: $0) }
    }

    /// ``optionalIndex(weights:)`` over a buffer the caller owns.
    package func optionalIndex(weights: UnsafeBufferPointer<UInt64>) -> Int? {
        index(weights: weights, skippable: true)
    }

    /// The weighted draw; `nil` only when `skippable` and a replayed value is `>= weights.count`.
    private func index(weights: UnsafeBufferPointer<UInt64>, skippable: Bool) -> Int? {
        var total: UInt64 = 0
        var firstNonzero = -1
        var nonzeroCount = 0
        for (index, weight) in weights.enumerated() where weight > 0 {
            if firstNonzero < 0 { firstNonzero = index }
            nonzeroCount += 1
            let (sum, overflow) = total.addingReportingOverflow(weight)
            total = overflow ? .max : sum
        }
        if nonzeroCount == 0 { return 0 }
        if nonzeroCount == 1 || isInert { return firstNonzero }
        let chosen: Int
        if replaysNextDraw() {
            if let value = nextReplayedRaw() {
                if skippable, value >= UInt64(weights.count) {
                    record(UInt64(weights.count))
                    return nil
                }
                if value < UInt64(weights.count), weights[Int(value)] > 0 {
                    chosen = Int(value)
                } else {
                    countFallback()
                    chosen = firstNonzero
                }
            } else {
                chosen = firstNonzero  // exhausted: already counted
            }
        } else {
            let sample = withGenerator { $0.next(below: total) }
            chosen = Self.weightedIndex(weights, sample: sample)
        }
        record(UInt64(chosen))
        return chosen
    }

    /// One element of `items`; the first is the simplest.
    ///
    /// ```swift
    /// let queue = choices.pick(from: [mainQueue, uploadQueue, databaseQueue])
    /// ```
    ///
    /// Contract: `items[draw(below: items.count)]`; a single item draws nothing.
    ///
    /// - Parameter items: the possible outcomes.
    /// - Precondition: `items` is not empty (picking from nothing is a programming error).
    /// - Complexity: O(1).
    public func pick<T>(from items: [T]) -> T {
        precondition(!items.isEmpty, "ChoiceSource.pick(from:) needs at least one item")
        return items[Int(draw(below: UInt64(items.count)))]
    }

    /// The first index whose saturating running total of weights exceeds `sample`.
    private static func weightedIndex(_ weights: UnsafeBufferPointer<UInt64>, sample: UInt64) -> Int {
        var running: UInt64 = 0
        var last = 0
        for (index, weight) in weights.enumerated() where weight > 0 {
            let (sum, overflow) = running.addingReportingOverflow(weight)
            running = overflow ? .max : sum
            last = index
            if sample < running { return index }
        }
        return last
    }
}
