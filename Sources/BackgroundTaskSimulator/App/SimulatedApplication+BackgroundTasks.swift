public import BackgroundTaskKit
import DeterministicSimulation

extension SimulatedApplication {
    // MARK: BackgroundTaskHost

    /// `beginBackgroundTask(withName:expirationHandler:)` (A1, A2, A3.4, A4.6).
    public func beginBackgroundTask(
        withName name: String?, expirationHandler: ExpirationHandler?
    ) -> BackgroundTaskIdentifier {
        // Scheduling points before the call takes effect and after (A3.4: the expiration handler
        // may run on main before the begin returns to a background thread).
        schedulingPoint()
        defer { schedulingPoint() }
        let name = name ?? "Called by SimulatedApp, from \(device.workload.name)"  // A1.5
        guard isAlive else { return .invalid }
        if device.drawBeginFailure() {  // A2.1, A2.2: possible, rare on modern systems
            device.emit(.taskBeginDenied(name: name))
            return .invalid
        }
        if let limit = profile.taskLimit, core.openTasks.count >= limit {  // A2.6
            terminate(.taskLimit)
            return .invalid
        }
        let id = core.nextTaskID  // A2.5: from 1, counting up, never reused in a process
        core.nextTaskID += 1
        core.openTasks.append(OpenBackgroundTask(id: id, name: name, handler: expirationHandler, createdAt: now))
        device.emit(.taskBegan(id: id, name: name, state: state))
        cancelSuspension()
        scheduleLongHeldWarning(for: id)
        if state == .background, let session = core.session, session.expired {
            // A3.4: the assertion cannot be granted (the budget is spent): the handler is
            // called at once, on the main queue.
            expireNewTask(id)
        } else if core.inDidEnterBackground, lostLateBeginRace() {
            // A3.4: begun at the very end of didEnterBackground, the asynchronous assertion
            // request lost the race with suspension: the system calls the handler.
            mainQueueImpl.async { [self] in runExpirationHandlers([id], early: true) }
        }
        return BackgroundTaskIdentifier(rawValue: id)
    }

    /// `endBackgroundTask(_:)` (A1.2, A5).
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        schedulingPoint()
        defer { schedulingPoint() }
        guard isAlive else { return }
        guard let index = core.openTasks.firstIndex(where: { $0.id == identifier.rawValue }) else {
            device.emit(.endedUnknownTask(id: identifier.rawValue))
            if identifier != .invalid || profile.endingInvalidLogs {  // A5.3
                device.emit(.console(ConsoleMessages.cannotEnd(identifier.rawValue, wording: profile.consoleWording)))
            }
            return
        }
        let task = core.openTasks.remove(at: index)
        device.emit(.taskEnded(id: task.id, name: task.name))
        if core.openTasks.isEmpty {
            device.checkHeldWork(after: HeldWorkReasons.taskEnded(id: task.id, name: task.name))
        }
        evaluateSuspension()
    }

    /// `backgroundTimeRemaining` (A8): unbounded in the foreground, else the budget left: an
    /// estimate (A8.5) off by up to ``OSProfile/backgroundTimeRemainingError`` either way, drawn
    /// per read (no draw when that is 0).
    public var backgroundTimeRemaining: Double {
        schedulingPoint()
        defer { schedulingPoint() }
        guard isAlive, state == .background, let session = core.session else { return .greatestFiniteMagnitude }
        var left = max(0, (session.deadline - now).microseconds)
        let error = profile.backgroundTimeRemainingError.microseconds
        if error > 0 {  // A8.5: "an estimate [that] can change at any time"
            left = max(0, left + Int64(device.choices.int(in: Int(-error)...Int(error))))
        }
        return Double(left) / 1_000_000
    }

    public var applicationState: ApplicationState {
        schedulingPoint()
        defer { schedulingPoint() }
        return state.applicationState
    }

    // MARK: The budget (A3, A4, A7)

    /// Starts the app-wide budget on entering the background (A4.5, A4.6): expiration handlers
    /// at the deadline minus the lead (A3.7), the watchdog at the deadline (A7.1).
    func startBackgroundSession() {
        guard core.session == nil, core.modeAssertions == 0 else { return }  // A4.8: none while audio/location holds the app
        let full = core.backgroundLaunched ? profile.backgroundLaunchBudget : profile.budget  // A4.2
        let budget = max(VirtualDuration.zero, full - core.budgetUsed)
        var newSession = BackgroundSession(start: now, deadline: now + budget)
        newSession.calloutJob = scheduler.async(at: newSession.deadline - profile.expiryLead, on: device.systemQueue) {
            [self] in expireOutstandingTasks(early: false)
        }
        newSession.deadlineJob = scheduler.async(at: newSession.deadline, on: device.systemQueue) { [self] in
            reachDeadline()
        }
        core.session = newSession
        device.emit(.budgetStarted(deadline: newSession.deadline))
        for index in core.openTasks.indices where core.openTasks[index].warned == false {
            fireLongHeldWarningIfDue(index)
        }
    }

    /// Stops the budget clock (foreground, suspension, death).
    func endBackgroundSession() {
        guard let ended = core.session else { return }
        if let job = ended.calloutJob { scheduler.cancel(job) }
        if let job = ended.deadlineJob { scheduler.cancel(job) }
        if !profile.budgetResetsOnForeground { core.budgetUsed = core.budgetUsed + (now - ended.start) }
        core.session = nil
    }

    /// The system calls the expiration handlers of every outstanding task (A3.1, A3.5): at the
    /// lead time before the deadline, or at any time when `early` (A3.3).
    func expireOutstandingTasks(early: Bool) {
        guard isAlive, state == .background, var current = core.session, !current.expired else { return }
        current.expired = true
        if early {
            if let job = current.calloutJob { scheduler.cancel(job) }
            if let job = current.deadlineJob { scheduler.cancel(job) }
            current.deadline = min(current.deadline, now + profile.expiryLead)
            current.deadlineJob = scheduler.async(at: current.deadline, on: device.systemQueue) { [self] in
                reachDeadline()
            }
        }
        core.session = current
        let ids = orderedForExpiry(core.openTasks.filter { !$0.handlerCalled }.map(\.id))  // A3.8
        guard !ids.isEmpty else { return }
        mainQueueImpl.async { [self] in runExpirationHandlers(ids, early: early) }
    }

    /// The expiry callout on the main queue: each handler in turn, then the check that every
    /// task ended inside its handler (A3.2, A3.6) and the handler watchdog (A3.5).
    func runExpirationHandlers(_ ids: [Int], early: Bool) {
        guard isAlive else { return }
        device.emit(.expirationCallout(ids: ids, early: early))
        let began = now
        // A3.5: with threads a handler can block the main thread, and the watchdog kills the app
        // at the limit, not when the handlers return.
        watchMainThread(.expirationHandlers, limit: profile.expirationHandlerWatchdog)
        defer {
            // A3.1: the handlers block suspension while they run (with threads, time can pass
            // in them); once they return the app may be suspended.
            if core.mainThreadWatch != nil {
                endMainThreadWatch()
                evaluateSuspension()
            }
        }
        for id in ids {
            guard isAlive, let index = core.openTasks.firstIndex(where: { $0.id == id }),
                !core.openTasks[index].handlerCalled
            else { continue }
            core.openTasks[index].handlerCalled = true  // A3.8: once per task
            let handler = core.openTasks[index].handler
            device.emit(.expirationHandlerCalled(id: id))
            if let handler {  // A3.1: @MainActor, on the main thread
                scheduler.callOnMainActor("the expiration handler of background task \(id)") { handler() }
            }
        }
        guard isAlive else { return }
        let elapsed = now - began
        let stillOpen = ids.filter { id in core.openTasks.contains { $0.id == id } }
        device.emit(.expirationHandlersReturned(openIDs: stillOpen, elapsed: elapsed))
        for id in stillOpen {
            if let task = core.openTasks.first(where: { $0.id == id }) {
                device.emit(.console(ConsoleMessages.stillNotEnded(task, now: now)))
            }
        }
        if elapsed > profile.expirationHandlerWatchdog {
            terminate(.watchdog(detail:
                "expiration handlers ran for \(elapsed), over the \(profile.expirationHandlerWatchdog) limit (A3.5)"))
        }
    }

    // MARK: Main-thread watchdogs (A3.5, A10.1)

    /// Starts watching a main-thread callback with a time limit. With threads, time passes inside
    /// the callback only when the main thread blocks; the first time it does, a system job is
    /// armed that kills the app if the callback is still running just past the limit (as the
    /// watchdog does, while it is still blocked). Without threads the caller checks the elapsed
    /// time when the callback returns instead (the same verdict, later in the trace).
    func watchMainThread(_ callback: MainThreadWatch.Callback, limit: VirtualDuration) {
        guard device.hasThreads else { return }
        core.mainThreadWatch = MainThreadWatch(callback: callback, began: now, limit: limit)
    }

    /// The watched callback returned: disarms its watchdog.
    func endMainThreadWatch() {
        guard let watch = core.mainThreadWatch else { return }
        core.mainThreadWatch = nil
        if let job = watch.job { scheduler.cancel(job) }
    }

    /// The main thread blocks (the process's hook, ``Scheduler/onThreadBlocks(on:_:)``):
    /// arms the watchdog of the callback it is in, once.
    func mainThreadBlocks() {
        guard var watch = core.mainThreadWatch, watch.job == nil, isAlive else { return }
        let callback = watch.callback
        watch.job = scheduler.async(at: watch.began + watch.limit + .microseconds(1), on: device.systemQueue) {
            [self] in
            // A suspended process's threads are frozen mid-callback: no watchdog kills it then.
            guard let current = core.mainThreadWatch, current.callback == callback, isAlive,
                state != .suspended
            else { return }
            core.mainThreadWatch = nil
            var detail = current.killDetail(after: now - current.began)
            if let (wait, behind) = scheduler.blockedWait(on: mainQueueImpl.id) {
                // What main was stuck on, as a deadlock report names it; a block queued behind
                // it (the one that would signal the semaphore) cannot run until main returns.
                detail += "; the main thread was blocked waiting for \(wait)"
                if behind > 0 { detail += ", with \(behind) block\(behind == 1 ? "" : "s") waiting on the main queue behind it" }
            }
            terminate(.watchdog(detail: detail))
        }
        core.mainThreadWatch = watch
    }

    /// A task begun after the budget was spent gets its handler called at once (A3.4).
    /// Whether a begin made now, inside `applicationDidEnterBackground`, loses the race for its
    /// assertion (A3.4): only in the callback's last ``OSProfile/lateBeginWindow`` before its
    /// limit, with ``OSProfile/lateBeginLosesRaceProbability`` (no draw when that is 0).
    private func lostLateBeginRace() -> Bool {
        let chance = profile.lateBeginLosesRaceProbability
        guard chance > 0, let watch = core.mainThreadWatch, watch.callback == .didEnterBackground,
            now - watch.began + profile.lateBeginWindow >= watch.limit
        else { return false }
        return device.choices.bool(probability: chance)
    }

    private func expireNewTask(_ id: Int) {
        if var current = core.session, current.deadline <= now {
            current.deadline = now + profile.expiryLead
            current.deadlineJob = scheduler.async(at: current.deadline, on: device.systemQueue) { [self] in
                reachDeadline()
            }
            core.session = current
        }
        mainQueueImpl.async { [self] in runExpirationHandlers([id], early: true) }
    }

    /// The deadline: a task still open means the watchdog kill (A7.1).
    func reachDeadline() {
        guard isAlive, state == .background, core.session != nil, !core.openTasks.isEmpty else { return }
        let list = core.openTasks.map { "\($0.id) (\($0.name))" }.joined(separator: ", ")
        terminate(.watchdog(detail: "background task \(list) still held at the end of the background time (A7.1)"))
    }

    private func orderedForExpiry(_ ids: [Int]) -> [Int] {
        switch profile.expirationHandlerOrder {
        case .beginOrder: return ids
        case .reverseBeginOrder: return ids.reversed()
        case .drawn:
            var remaining = ids
            var ordered: [Int] = []
            while !remaining.isEmpty {
                ordered.append(remaining.remove(at: device.choices.int(in: 0...(remaining.count - 1))))
            }
            return ordered
        }
    }

    // MARK: The 30 s warning (A6)

    private func scheduleLongHeldWarning(for id: Int) {
        guard let after = profile.longHeldTaskWarning else { return }
        scheduler.asyncAfter(after, on: device.systemQueue) { [self] in
            guard isAlive, let index = core.openTasks.firstIndex(where: { $0.id == id }) else { return }
            fireLongHeldWarningIfDue(index)
        }
    }

    private func fireLongHeldWarningIfDue(_ index: Int) {
        guard let after = profile.longHeldTaskWarning, !core.openTasks[index].warned,
            now - core.openTasks[index].createdAt >= after,
            state == .background || profile.longHeldTaskWarningInForeground
        else { return }
        core.openTasks[index].warned = true  // A6.2: once per task
        device.emit(.console(ConsoleMessages.longHeld(core.openTasks[index])))
    }
}
