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
///   accepted iff `keeps` holds on the verdict and the run is strictly simpler than the current
///   one: fewer actions (``ChoiceSource/actions``, which the target marks: for the simulator, its
///   environment actions), then a simpler sequence (``ChoiceSequence/isSimpler(than:)``:
///   shorter, then lexicographically smaller). Shrinking therefore terminates, and the result
///   replays exactly.
/// - Passes: first the action passes alone until they find nothing, then all passes in order,
///   cyclically, until every pass in a row finds nothing; after any pass that found something,
///   the action passes run again. The action passes: `endEarlier` (cut the run before an action:
///   binary search for the earliest cut that still fails), `skipAllBut` (skip every action but
///   the first, the last and at most two others in place: their gaps and the idle steps among
///   them stay, so a failure that needs time to pass keeps its time and loses its actions),
///   `startLater` (delete the longest run
///   of actions after the launch that can go, by binary search), `deleteActions` (from the last
///   action back: one action, an adjacent pair such as `home` and `open`, and in runs of at most
///   24 actions three in a row and a pair one or two apart; runs that double while deletion
///   works; each as a deletion of every draw the actions own, then as a skip in place, see
///   ``ChoiceSource/optionalIndex(weights:)``, and in short runs with their last draw kept), `replaceLastAction` (in runs of at most 12
///   actions, end the run with another action in place of one: `home, open, home` may become
///   `home, earlyExpiry`), `zeroActions` (zero what an action drew besides the action itself:
///   its gap, how it was carried out, the workload's and the scheduler's draws in reaction).
///   Then, in the first phase and once per round (not after every success): first `undoSwarm`
///   and `zeroSwarm` (a swarm run's mix, marked as a span (``ChoiceSource/spans``), deleted with
///   the coin zeroed, or zeroed, each also with every forced action turned into an idle step),
///   then in runs of at most 24 actions `deleteRuns` (every run of actions at every start, longest first: whole, skipped
///   in place, or, when it holds a forced action, with its time folded into the next action's
///   step, whose last draw is also tried doubled and quadrupled), and in runs of at most 12
///   `deleteReaiming` (delete one or two actions, whole or skipped, and re-aim one later action's
///   choice one up or down: deleting an action that changed which actions are possible shifts
///   the index of a later one), and `deleteShifted` (in runs of at most 12: delete the run
///   between two actions chosen by the same value, its block shifted 1 to 4 draws past both
///   choices and also one draw longer or shorter, so that draws a relaunched process made in
///   another order line up).
///   The schedule passes, in the same rounds, work on the draws the scheduler marks as its
///   decisions (``ChoiceSource/scheduleDraws``, whose 0 is canonical): `canonicalSchedule`
///   before `deleteRuns` (every decision 0 at once: no preemption, the first ready job, no
///   delay; then, in runs of at most 24 actions, each nonzero one 0 alone, from the last back)
///   and `delaySwitches` after `deleteShifted` (in runs of at most 24 actions, a nonzero
///   decision moved to the next one: the switch comes later).
///   Deletions of actions that lose the failure are tried again *retimed* (the scheduling
///   points that draws made before them name, moved so that each falls where it fell among the
///   actions that stay: ``ChoiceSource/pointCountDraws``, ``ChoiceAction/pointsBefore``) in
///   `startLater` and `skipAllBut`, in `deleteActions`' pairs and longer runs once a retimed
///   deletion was adopted, and in `deleteRetimed`, which runs after the round order only once
///   every other pass is stuck.
///   The value passes: `deleteChunks` (sizes 8, 4, 2, 1, from the back), `zeroChunks` (8, 4, 2,
///   1), `minimizeValues` (try 0, then binary search down; values above 65,536 are halved while
///   that works), `sortAdjacent` (swap out-of-order neighbours, then lower a pair together).
/// - For a target that marks no actions, the action passes try nothing.
/// - Deterministic: no randomness; the same input gives the same result. Before every replay
///   the shrinker polls `isCancelled` (then stops with ``ShrinkStop/cancelled``) and the clock
///   (``ShrinkOptions/maxSeconds``, default 60 s: ``ShrinkStop/timeLimit``); either ends the
///   shrink within one replay with the simplest failure so far, and neither changes which
///   candidates come before that, so a shrink that ends within its time is the same everywhere.
/// - Memory: the cache of replayed candidates holds at most ``ShrinkOptions/maxCacheBytes``
///   (default 256 MiB); past it, repeats are replayed again.
/// - Complexity: at most `options.maxAttempts` target runs; repeats of a candidate are cached.
public enum Shrinker {
    public static func shrink(_ choices: ChoiceSequence, target: some CampaignTarget, options: ShrinkOptions = .init(),
                              isCancelled: () -> Bool = { false },
                              keeps: (RunVerdict) -> Bool) -> ShrinkResult {
        let wallClock = ContinuousClock()  // tidy: allow it only stops a shrink (maxSeconds), never picks a candidate
        return shrink(choices, target: target, options: options, clock: wallClock, isCancelled: isCancelled, keeps: keeps)
    }

    /// Shrinks `choices` while the run still violates `invariant`: as
    /// ``shrink(_:target:options:isCancelled:keeps:)`` with that `keeps`, with the candidates run
    /// on `target.checking(only: invariant)` (``CampaignTarget/checking(only:)``: the other
    /// invariants' checkers are work a shrink never reads), and the result's event count from one
    /// run of the shrunk choices on `target` itself. So the result is the one the plain shrink
    /// gives, field for field, for less work per candidate.
    ///
    /// ```swift
    /// let result = Shrinker.shrink(failing, target: target, while: "no-double-end")
    /// ```
    public static func shrink(_ choices: ChoiceSequence, target: some CampaignTarget, while invariant: String,
                              options: ShrinkOptions = .init(), isCancelled: () -> Bool = { false }) -> ShrinkResult {
        let keeps = { (verdict: RunVerdict) in verdict.failures.contains { $0.invariant == invariant } }
        let narrowed = target.checking(only: invariant)
        var result = shrink(choices, target: narrowed, options: options, isCancelled: isCancelled, keeps: keeps)
        // The narrowed runs leave out the other invariants' `violation` events: count the shrunk
        // run's events as the plain shrink did (the same run, all checked).
        result.eventCount = target.run(choices: ChoiceSource(replaying: result.choices), keepTrace: false).eventCount
        return result
    }

    /// ``shrink(_:target:options:isCancelled:keeps:)`` timed by `clock` (a test's clock that
    /// moves when told; the wall clock otherwise).
    ///
    /// ```swift
    /// let result = Shrinker.shrink(failing, target: target, options: ShrinkOptions(maxSeconds: 5),
    ///                              clock: testClock, keeps: keeps)
    /// ```
    public static func shrink(_ choices: ChoiceSequence, target: some CampaignTarget, options: ShrinkOptions = .init(),
                              clock: some Clock<Duration>, isCancelled: () -> Bool = { false },
                              keeps: (RunVerdict) -> Bool) -> ShrinkResult {
        let start = clock.now
        let limit = options.timeLimit
        let isOverTime = { limit.map { start.duration(to: clock.now) >= $0 } ?? false }
        return withoutActuallyEscaping(isCancelled) { isCancelled in
            withoutActuallyEscaping(keeps) { keeps in
                var state = ShrinkState(target: target, options: options, isCancelled: isCancelled,
                                        isOverTime: isOverTime, keeps: keeps)
                return state.shrink(choices)
            }
        }
    }

    /// Whether a run that marked `actions` actions and drew `choices` is strictly simpler than
    /// one that marked `otherActions` and drew `other`, in the shrinker's order: fewer actions,
    /// then a simpler sequence (``ChoiceSequence/isSimpler(than:)``). A shrink's result is never
    /// less simple than its input in this order, though it may draw more values (a run with one
    /// action less that waits longer can draw more).
    ///
    /// ```swift
    /// Shrinker.isSimpler(result.choices, actions: result.actionCount, than: input, actions: inputActions)
    /// ```
    ///
    /// Contract: a strict total order on (actions, sequence) pairs with no infinite descent, so
    /// shrinking terminates.
    package static func isSimpler(_ choices: ChoiceSequence, actions: Int,
                                 than other: ChoiceSequence, actions otherActions: Int) -> Bool {
        actions != otherActions ? actions < otherActions : choices.isSimpler(than: other)
    }
}

/// The named passes, in the order they run.
enum ShrinkPass: Int, CaseIterable {
    case endEarlier, skipAllBut, startLater, deleteActions, replaceLastAction, zeroActions
    case deleteChunks, zeroChunks, minimizeValues, sortAdjacent
    case deleteRuns, deleteCycles, deleteKeepingNext, deleteReaiming, deleteShifted, deleteRetimed
    case undoSwarm, zeroSwarm
    case canonicalSchedule, delaySwitches

    var name: String {
        switch self {
        case .endEarlier: "endEarlier"
        case .skipAllBut: "skipAllBut"
        case .startLater: "startLater"
        case .replaceLastAction: "replaceLastAction"
        case .deleteActions: "deleteActions"
        case .zeroActions: "zeroActions"
        case .deleteChunks: "deleteChunks"
        case .zeroChunks: "zeroChunks"
        case .minimizeValues: "minimizeValues"
        case .sortAdjacent: "sortAdjacent"
        case .deleteRuns: "deleteRuns"
        case .deleteCycles: "deleteCycles"
        case .deleteKeepingNext: "deleteKeepingNext"
        case .deleteRetimed: "deleteRetimed"
        case .deleteReaiming: "deleteReaiming"
        case .deleteShifted: "deleteShifted"
        case .undoSwarm: "undoSwarm"
        case .zeroSwarm: "zeroSwarm"
        case .canonicalSchedule: "canonicalSchedule"
        case .delaySwitches: "delaySwitches"
        }
    }

    /// The passes that edit whole actions, run again after every pass that found something.
    static let actionPasses: [ShrinkPass] = [.endEarlier, .skipAllBut, .startLater, .deleteActions, .replaceLastAction, .zeroActions]

    /// The action passes of the first phase and of each round: the swarm passes (which try
    /// nothing in a run without a swarm mix, and at most four replays in one with it: run after
    /// every success they steered track-backup's shrink to a 9-action local minimum), the cheap ones, then the ones
    /// that try every run (`deleteRuns`), re-aim later actions (`deleteReaiming`) and shift a
    /// deleted block across action boundaries (`deleteShifted`), which are not run again after
    /// every success (a few hundred replays each time in a short run).
    static let firstPhase: [ShrinkPass] = [.undoSwarm, .zeroSwarm] + actionPasses
        + [.canonicalSchedule, .deleteRuns, .deleteReaiming, .deleteShifted, .delaySwitches]

    /// Every pass in the order a round runs them (``allCases`` is the order of the statistics).
    /// The deletions that move an action into another state (`deleteKeepingNext`) or delete a
    /// long run at once (`deleteCycles`) come last, once every other pass is stuck: adopted
    /// earlier, they can leave a failure that the other passes would have taken further.
    static let runOrder: [ShrinkPass] = firstPhase
        + [.deleteChunks, .deleteCycles, .zeroChunks, .minimizeValues, .sortAdjacent, .deleteKeepingNext, .deleteRetimed]

    /// Whether the pass runs only once every other pass of the round order has found nothing
    /// since the last success: `deleteRetimed`, whose deletions, adopted while other passes still
    /// found something, led failures that needed no retiming away from their minimum
    /// (feed-refresh's planted watchdog kill: 6 actions instead of 3).
    var waitsUntilStuck: Bool { self == .deleteRetimed }

    /// `deleteCycles` replays at most this many candidates per action of the run each time it
    /// runs (candidates replayed before are free, so the next time goes on where it stopped).
    static let cycleAttemptsPerAction = 2

    /// `replaceLastAction` tries choices `0..<replacementChoices` for runs of at most
    /// `replacementActionLimit` actions.
    static let replacementChoices: UInt64 = 8
    static let replacementActionLimit = 12

    /// Runs of at most this many actions get every `deleteActions` shape; longer ones only
    /// single actions and adjacent pairs.
    static let fineDeletionLimit = 24

    /// `deleteRuns` deletes runs of every length at every start in runs of at most this many actions.
    static let runDeletionLimit = 24

    /// `deleteShifted` shifts a deleted block by 1 up to this many draws past the actions' choices.
    static let shiftWindow = 4

    /// `skipAllBut` tries keeping pairs of middle actions in runs of at most this many actions.
    static let keepPairLimit = 16

    static let chunkSizes = [8, 4, 2, 1]

    /// The largest value `minimizeValues` binary-searches; larger ones are halved instead.
    static let binarySearchLimit: UInt64 = 1 << 16
}
