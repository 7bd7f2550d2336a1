/// Shrinks a failing run's choice sequence to a simpler one that still fails the same way, in
/// the style of Hypothesis: named passes over the recorded choices, run to a fixpoint.
///
/// ```swift
/// let result = Shrinker.shrink(failing.recorded, target: target, options: ShrinkOptions()) { verdict in
///     verdict.failures.contains { $0.invariant == "no-double-end" }
/// }
/// print(result.choices.token)   // paste after `bgsim replay SCENARIO --choices`
/// ```
///
/// Contract:
/// - A candidate is replayed with `ChoiceSource(replaying:)`; the sequence it actually drew
///   (``ChoiceSource/recorded``: misfits and draws past the end become 0, unread values drop) is
///   accepted iff `keeps` holds on the verdict and it is strictly simpler than the current one
///   (``ChoiceSequence/isSimpler(than:)``: shorter, then lexicographically smaller). Shrinking
///   therefore terminates, and the result replays exactly.
/// - Passes, in order, repeated until a round accepts nothing: `deleteChunks` (sizes 8, 4, 2, 1,
///   from the back), `zeroChunks` (8, 4, 2, 1), `minimizeValues` (try 0, then binary search down),
///   `sortAdjacent` (swap out-of-order neighbours, then lower a pair together).
/// - Deterministic: no time limit, no randomness; the same input gives the same result.
/// - Complexity: at most `options.maxAttempts` target runs; repeats of a candidate are cached.
public enum Shrinker {
    public static func shrink(_ choices: ChoiceSequence, target: some CampaignTarget, options: ShrinkOptions = .init(),
                              isCancelled: () -> Bool = { false },
                              keeps: (RunVerdict) -> Bool) -> ShrinkResult {
        withoutActuallyEscaping(isCancelled) { isCancelled in
            withoutActuallyEscaping(keeps) { keeps in
                var state = ShrinkState(target: target, maxAttempts: options.maxAttempts, isCancelled: isCancelled,
                                        keeps: keeps)
                return state.shrink(choices)
            }
        }
    }
}

/// The named passes, in the order they run.
enum ShrinkPass: Int, CaseIterable {
    case deleteChunks, zeroChunks, minimizeValues, sortAdjacent

    var name: String {
        switch self {
        case .deleteChunks: "deleteChunks"
        case .zeroChunks: "zeroChunks"
        case .minimizeValues: "minimizeValues"
        case .sortAdjacent: "sortAdjacent"
        }
    }

    static let chunkSizes = [8, 4, 2, 1]
}
