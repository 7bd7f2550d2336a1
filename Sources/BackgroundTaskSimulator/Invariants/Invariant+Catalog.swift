extension Invariant {
    /// Every invariant the harness knows, in a stable order.
    public static let all: [Invariant] = [
        Invariant(
            id: "every-begin-ended",
            rule: "Each begun background task is ended before the run ends, unless the system terminated "
                + "the app for a reason the client could not prevent.",
            references: ["A1.2", "A5.1", "A7.1"]
        ) { _ in EveryBeginEnded() },
        Invariant(
            id: "no-double-end",
            rule: "No task id is ended twice; no unknown or invalid id is ended.",
            references: ["A5.2", "A5.3", "A5.4"]
        ) { _ in NoDoubleEnd() },
        Invariant(
            id: "expiry-ends-task",
            rule: "When the system calls expiration handlers, every outstanding task is ended before the "
                + "handlers return.",
            references: ["A3.2", "A3.5", "A3.6"]
        ) { _ in ExpiryEndsTask() },
        Invariant(
            id: "no-watchdog-kill",
            rule: "The watchdog never kills the app (0x8badf00d).",
            references: ["A3.5", "A7.1", "A10.1", "C4.6"]
        ) { _ in NoWatchdogKill() },
        Invariant(
            id: "no-deadlock",
            rule: "The app's threads never deadlock: no sync onto the caller's own queue, no lock-order "
                + "inversion, no wait that nothing can end. A deadlocked main thread delivers nothing more.",
            references: ["A3.5", "B1.1"]
        ) { _ in NoDeadlock() },
        Invariant(
            id: "expiration-handlers-return-in-time",
            rule: "Expiration handlers return within the system's limit on their total time, so the app is "
                + "not killed while they run.",
            references: ["A3.5"]
        ) { ExpirationHandlersReturnInTime(limit: $0.profile.expirationHandlerWatchdog) },
        Invariant(
            id: "background-work-held",
            rule: "No declared work is in flight while the app is in the background with nothing holding it "
                + "awake (no background task, no BGTask); work an expiration handler's end leaves in flight is "
                + "judged when nothing is held again (at the suspension at the latest).",
            references: ["A1.1", "A3.1", "A3.2", "B2.3", "C4.6"]
        ) { _ in BackgroundWorkHeld() },
        Invariant(
            id: "no-idle-task",
            rule: "No background task or launched BGTask is held in the background with no declared work in "
                + "flight for longer than the profile's idleTaskLimit (10 s by default).",
            references: ["A4.5", "A6.1", "C4.6"]
        ) { spec in NoIdleTask(limit: spec.profile.idleTaskLimit) },
        Invariant(
            id: "bgtask-registered-in-time",
            rule: "Every BGTaskScheduler launch handler is registered once, before the app finishes launching.",
            references: ["C1.1", "C1.3", "C1.4", "C2.4"],
            applies: { $0.usesTaskScheduler }
        ) { _ in BGTaskRegisteredInTime() },
        Invariant(
            id: "bgtask-completed-once",
            rule: "Every launched BGTask is completed exactly once, on every path including expiry.",
            references: ["C4.5", "C4.6", "C4.7"],
            applies: { $0.usesTaskScheduler }
        ) { _ in BGTaskCompletedOnce() },
        Invariant(
            id: "refresh-stays-scheduled",
            rule: "A repeating refresh submits its next request on every path of its launch handler, so a "
                + "request is pending after every launch (liveness, also judged at the end of the run).",
            references: ["C2.1", "C3.6", "C4.6"],
            applies: { !$0.repeatingRefreshIdentifiers.isEmpty }
        ) { RefreshStaysScheduled(identifiers: $0.workload.repeatingRefreshIdentifiers) },
        Invariant(
            id: "no-async-escape",
            rule: "An async workload's tasks, sleeps and main-actor code run only on the simulator: nothing "
                + "reaches Swift's real executors or clocks (such a run is not reproducible; replay exits 3).",
            references: [],
            applies: { $0.usesAsync }
        ) { _ in NoAsyncEscape() },
        Invariant(
            id: "work-survives-termination",
            rule: "When the process ends, for any reason, no durable record (an upload queue, a draft) has "
                + "changes that exist only in memory: suspended and jettisoned apps get no callback.",
            references: ["B1.1", "B3.1", "B3.2", "B3.3", "B3.4"]
        ) { _ in WorkSurvivesTermination() },
        Invariant(
            id: "request-failure-handled",
            rule: "A work item is not finished as done while its last network request failed (connection lost "
                + "at suspension or network loss, no connection, timed out) or is still in flight.",
            references: []
        ) { _ in RequestFailureHandled() },
        Invariant(
            id: "protected-data-available",
            rule: "A work item is not finished as done when its last file write failed because protected data "
                + "was unavailable (complete protection while the device is locked, any protection but none "
                + "before the first unlock after a reboot).",
            references: ["B3.1"]
        ) { _ in ProtectedDataAvailable() },
        Invariant(
            id: "no-file-lock-at-suspend",
            rule: "The app is never suspended while it holds a lock on a file in a shared container (iOS kills "
                + "it with 0xdead10cc).",
            references: ["B1.1", "B2.3"]
        ) { _ in NoFileLockAtSuspend() },
        Invariant(
            id: "push-completion-called-once",
            rule: "Every silent push delivered to the app has its fetch completion handler called exactly once, "
                + "within the push's runtime (30 s), on every path.",
            references: ["D2"],
            applies: { $0.backgroundModes.contains("remote-notification") }
        ) { _ in PushCompletionCalledOnce() },
        Invariant(
            id: "fetch-completion-called-once",
            rule: "Every background fetch (iOS 7-12) has its completion handler called exactly once, within its "
                + "time (about 30 s), on every path.",
            references: ["D3"],
            applies: { $0.backgroundModes.contains("fetch") && !$0.usesTaskScheduler }
        ) { _ in FetchCompletionCalledOnce() },
        Invariant(
            id: "background-session-completion-called-once",
            rule: "Every wake of the app for a background URLSession's events has the completion handler of "
                + "handleEventsForBackgroundURLSession called exactly once, on the main thread, after the session's "
                + "urlSessionDidFinishEvents, within the wake's time (30 s).",
            references: ["D1"],
            applies: { $0.usesBackgroundURLSession }
        ) { _ in BackgroundSessionCompletionCalledOnce() },
        Invariant(
            id: "background-session-recreated",
            rule: "When the system wakes or relaunches the app for a background URLSession's events, the app makes a "
                + "session with that same identifier in that process, so the events are delivered in time.",
            references: ["D1"],
            applies: { $0.usesBackgroundURLSession }
        ) { _ in BackgroundSessionRecreated() },
        Invariant(
            id: "no-data-race",
            rule: "No two accesses to the same shared state are unordered (no queue hand-off, sync, serial queue, "
                + "lock, semaphore or actor hop between them) with at least one a write, even when the run's "
                + "order was harmless: Swift leaves such a race undefined.",
            references: ["A1.4", "A3.1"],
            applies: { $0.sharesState }
        ) { _ in NoDataRace() },
        Invariant(
            id: "no-busy-loop",
            rule: "The app never loops without waiting: a run does not take busyLoopLimit steps (10,000 by "
                + "default) without time passing for the app (a job coming due or a sleep of its own ending; the "
                + "harness's preemption delays do not count). Such a loop (a retry whose `try? await Task.sleep` "  // tidy: allow a message
                + "throws at once once its task is cancelled) burns the CPU on a device until the system ends "
                + "the app.",
            references: ["A3.5", "C4.2"]
        ) { _ in NoBusyLoop() },
    ]

    /// The invariant with this id, if any.
    public static func named(_ id: String) -> Invariant? {
        all.first { $0.id == id }
    }
}
