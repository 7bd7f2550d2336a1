/// The invariant-relevant conditions coverage counts (the `conditions` category of a report):
/// moments that the invariants are about and that a campaign should be seen to reach. Each is
/// counted from the event stream and the run's ``RunFacts``, with no hashing and no strings.
///
/// ```swift
/// coverage.count("conditions", CoverageCondition.bgTaskLaunchedWhileTaskHeld.rawValue)   // 12
/// ```
///
/// Contract: ids are kebab-case and stable (a report's keys); raw order is the report's order.
/// Adding one appends it.
enum CoverageCondition: String, CaseIterable {
    /// The app was suspended while it held a UIKit background task (A3.2: the task should have
    /// been ended first; `every-begin-ended`, `no-watchdog-kill`).
    case taskHeldAtSuspension = "task-held-at-suspension"
    /// Expiration handlers were called with tasks outstanding (A3.4; `expiry-ends-task`).
    case expiryWithTaskHeld = "expiry-with-task-held"
    /// A BGTask was launched while the app held a UIKit background task (C2.x with A3: two
    /// budgets at once; `no-idle-task`, `background-work-held`).
    case bgTaskLaunchedWhileTaskHeld = "bgtask-launched-while-task-held"
    /// A BGTask was launched before an earlier one of the same process had completed
    /// (`bgtask-completed-once`, `refresh-stays-scheduled`).
    case bgTaskLaunchedBeforePreviousCompleted = "bgtask-launched-before-previous-completed"
    /// The third or a later BGTask launch in a row without the app becoming active: long
    /// background stays, where deep budget bugs live (`deep-*` scenarios).
    case thirdBackgroundLaunchWithoutOpen = "third-bgtask-launch-without-open"
    /// The network went down with a request in flight (`request-failure-handled`,
    /// `background-work-held`).
    case networkDownWithRequestInFlight = "network-down-with-request-in-flight"

    /// The conditions in report order.
    static let ordered = allCases
}

/// The little state the conditions need beyond ``RunFacts``: BGTasks in flight, the launch
/// streak and requests in flight. Updated per event by ``CoverageCounter``.
struct ConditionState {
    var bgTasksInFlight = 0
    var launchesWithoutOpen = 0
    var requestsInFlight = 0

    /// The event kinds ``observe(_:facts:count:)`` looks at, one bit per ``SimEvent/Kind`` raw
    /// value: the hot path skips every other event with a shift and a test.
    static let kindMask: UInt64 = [SimEvent.Kind.stateChanged, .expirationCallout, .bgTaskLaunched, .bgTaskCompleted,
                                   .processLaunched, .terminated, .networkRequest, .networkChanged]
        .reduce(0) { $0 | 1 << UInt64($1.rawValue) }

    /// Calls `count` for each condition `event` reaches, updating the state.
    mutating func observe(_ event: SimEvent, facts: RunFacts, count: (CoverageCondition) -> Void) {
        switch event {
        case .stateChanged(_, let to):
            if to == .active { launchesWithoutOpen = 0 }
            if to == .suspended && !facts.openTasks.isEmpty { count(.taskHeldAtSuspension) }
        case .expirationCallout(let ids, _):
            if !ids.isEmpty { count(.expiryWithTaskHeld) }
        case .bgTaskLaunched:
            launchesWithoutOpen += 1
            if !facts.openTasks.isEmpty { count(.bgTaskLaunchedWhileTaskHeld) }
            if bgTasksInFlight > 0 { count(.bgTaskLaunchedBeforePreviousCompleted) }
            if launchesWithoutOpen >= 3 { count(.thirdBackgroundLaunchWithoutOpen) }
            bgTasksInFlight += 1
        case .bgTaskCompleted(_, _, _, let repeated):
            if !repeated, bgTasksInFlight > 0 { bgTasksInFlight -= 1 }
        case .processLaunched, .terminated:
            bgTasksInFlight = 0
            requestsInFlight = 0
        case .networkRequest(_, _, _, let outcome):
            if outcome == "start" {
                requestsInFlight += 1
            } else if requestsInFlight > 0 {
                requestsInFlight -= 1
            }
        case .networkChanged(let available):
            if !available && requestsInFlight > 0 { count(.networkDownWithRequestInFlight) }
        default:
            break
        }
    }
}
