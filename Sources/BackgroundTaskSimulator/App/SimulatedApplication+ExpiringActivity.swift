import BackgroundTaskKit

extension SimulatedApplication {
    /// `ProcessInfo.performExpiringActivity(withReason:using:)` (A9.1): runs `block(false)` on
    /// the process's background (global) queue while a task assertion named `reason` keeps the
    /// app from being suspended; tells the block when the process must suspend.
    ///
    /// ```swift
    /// app.performExpiringActivity(withReason: "save-draft") { expired in
    ///     if expired { drafts.cancelSave(); return }
    ///     drafts.saveSynchronously()
    /// }
    /// ```
    ///
    /// Contract (A9.1, documented): the block runs asynchronously. The assertion is taken before
    /// it runs (a UIKit task named `reason`, so the budget and its watchdog apply as to any task,
    /// A4.5) and released when the block returns. If the assertion cannot be taken (the begin is
    /// refused, A2.1, or the background time is already spent, A3.4) the block is called once,
    /// with `true`, and never with `false`. If the time runs out while `block(false)` is still
    /// running (only possible with simulated threads, where the block can block), the block is
    /// called a second time with `true` from the expiration callout, and the assertion is
    /// released when that call returns. Differences from iOS, on purpose: iOS calls the second
    /// block on another thread of its concurrent queue; the simulator calls it in the
    /// expiration callout on the main queue, where the handlers' watchdog (A3.5) times it.
    /// A9.2: this is the API extensions and watchOS use instead of `beginBackgroundTask`; the
    /// simulator runs it in the app.
    public func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {
        let activity = ExpiringActivity()
        let background = backgroundQueueImpl
        let id = beginBackgroundTask(withName: reason) { [self] in
            // A9.1: "If your block is still executing and the system need to suspend the
            // process, the system executes your block a second time with expired set to true."
            switch activity.phase {
            case .queued:
                activity.phase = .expiredBeforeStart
                block(true)
            case .running:
                activity.phase = .expiredWhileRunning
                block(true)
            case .expiredBeforeStart, .expiredWhileRunning, .done: break
            }
            endBackgroundTask(activity.id)
        }
        guard id != .invalid else {  // A9.1: no assertion: the block is told it has expired
            background.async { block(true) }
            return
        }
        activity.id = id
        if state == .background, core.session?.expired == true {
            // A3.4, A9.1: the time is already spent, so the assertion is not granted (its
            // handler, already queued, only ends the task).
            activity.phase = .expiredBeforeStart
            background.async { block(true) }
            return
        }
        background.async { [self] in
            guard activity.phase == .queued else { return }  // expired before it could start
            activity.phase = .running
            block(false)
            // The system's own bookkeeping: the check and the release are one step, so the
            // expiration callout on main cannot release the assertion between them (it once did,
            // and the release here ended the task a second time: no-double-end against the app).
            whileCoreHoldsLock {
                if activity.phase == .running {
                    activity.phase = .done
                    endBackgroundTask(activity.id)
                }
            }
        }
    }
}

/// Where one ``SimulatedApplication/performExpiringActivity(withReason:using:)`` call is.
private final class ExpiringActivity: @unchecked Sendable {
    // @unchecked: touched by the run's simulated threads one at a time.
    enum Phase { case queued, running, expiredBeforeStart, expiredWhileRunning, done }
    var phase = Phase.queued
    var id = BackgroundTaskIdentifier.invalid
}
