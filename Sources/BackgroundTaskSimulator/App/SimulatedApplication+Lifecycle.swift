import BackgroundTaskKit
import DeterministicSimulation

extension SimulatedApplication {
    /// Launches the process (B2.1 to the foreground, B2.2 into the background). The launch
    /// methods run on the main queue; BGTaskScheduler registrations are accepted until
    /// `didFinishLaunching` returns (C1.1).
    func launch() {
        let inBackground = core.backgroundLaunched
        device.emit(.processLaunched(process: process, inBackground: inBackground))
        setState(inBackground ? .background : .inactive)  // B2.1: .inactive; B2.2: .background
        if inBackground { startBackgroundSession() }
        mainQueueImpl.async { [self] in
            guard isAlive else { return }
            let context = WorkloadContext(application: self)
            self.core.context = context
            // UIKit's app delegate runs on the main actor: so do the workload's init and launch.
            let make = device.workload.make
            let workload = scheduler.callOnMainActor("the workload's init") { MainThreadWorkload(make()) }.workload
            self.core.workload = workload
            let began = now
            watchMainThread(.launch, limit: profile.launchWatchdogLimit)  // A10.3
            scheduler.callOnMainActor("the workload's didFinishLaunching") { workload.didFinishLaunching(context) }
            deliver(.didFinishLaunching)
            endMainThreadWatch()
            core.hasFinishedLaunching = true
            guard isAlive else { return }
            let took = now - began
            if took > profile.launchWatchdogLimit {
                terminate(.watchdog(detail: "launch took \(took), over the \(profile.launchWatchdogLimit) limit (A10.3)"))
                return
            }
            if !inBackground {
                connectSceneIfNeeded()  // B1.3: the scene connects after launch
                guard isAlive else { return }
                setState(.active)
                deliver(.didBecomeActive)
            }
            let waiting = core.launchesAfterStartup
            core.launchesAfterStartup = []
            for launch in waiting { device.taskScheduler.dispatchLaunch(launch, in: self) }
            evaluateSuspension()
        }
    }

    /// The user brings the app to the foreground (B2.4): `willEnterForeground`, then
    /// `didBecomeActive`. System-side effects happen at once; UIKit's state changes on the main
    /// queue, after whatever was already queued there.
    func enterForeground() {
        guard isAlive, !state.isForeground else { return }
        cancelSuspension()
        endBackgroundSession()
        if profile.budgetResetsOnForeground { core.budgetUsed = .zero }  // A4.7
        core.backgroundLaunched = false
        if state == .suspended { thaw() }
        device.taskScheduler.userStartedUsingDevice(app: self)  // C4.2
        mainQueueImpl.async { [self] in
            guard isAlive else { return }
            setState(.inactive)
            connectSceneIfNeeded()  // B1.3: first time on screen since a background launch or a disconnect
            guard isAlive else { return }
            deliver(.willEnterForeground)
            guard isAlive else { return }
            setState(.active)
            deliver(.didBecomeActive)
        }
    }

    /// Connects the app's scene when the profile has scenes and none is connected (B1.3): after a
    /// foreground launch, and on the first return to the foreground after a background launch
    /// (which shows no UI) or after UIKit disconnected the scene in the background.
    func connectSceneIfNeeded() {
        guard profile.supportsScenes, !core.sceneConnected, let context = core.context, let workload = core.workload else { return }
        core.sceneConnected = true
        device.emit(.sceneWillConnect)
        workload.sceneWillConnect(context)
    }

    /// UIKit disconnects the scene of a background app to reclaim its resources (B1.3).
    func disconnectScene() {
        guard isAlive, core.sceneConnected, !state.isForeground else { return }
        core.sceneConnected = false
        device.emit(.sceneDidDisconnect)
        if let context = core.context { core.workload?.sceneDidDisconnect(context) }
    }

    /// An interruption or the app switcher (B2.5): active to inactive.
    func resignActive(toAppSwitcher: Bool) {
        guard isAlive, state == .active else { return }
        core.inAppSwitcher = toAppSwitcher
        mainQueueImpl.async { [self] in
            guard isAlive, state == .active else { return }
            setState(.inactive)
            deliver(.willResignActive)
        }
    }

    /// The interruption ends and the app becomes active again (B2.5).
    func becomeActiveAgain() {
        guard isAlive, state == .inactive else { return }
        core.inAppSwitcher = false
        mainQueueImpl.async { [self] in
            guard isAlive, state == .inactive else { return }
            setState(.active)
            deliver(.didBecomeActive)
        }
    }

    /// Home, lock or another app (B2.3): `willResignActive` (if still active), then
    /// `didEnterBackground`, which must return within the limit (A10.1); then the background
    /// budget starts (A4.6) and the app is suspended once nothing holds it (B2.3).
    func enterBackground() {
        guard isAlive, state.isForeground else { return }
        core.inAppSwitcher = false
        mainQueueImpl.async { [self] in
            guard isAlive else { return }
            if state == .active {
                setState(.inactive)
                deliver(.willResignActive)
                guard isAlive else { return }
            }
            guard state == .inactive else { return }
            setState(.background)
            startBackgroundSession()
            core.inDidEnterBackground = true
            let began = now
            watchMainThread(.didEnterBackground, limit: profile.didEnterBackgroundLimit)
            deliver(.didEnterBackground)
            endMainThreadWatch()
            core.inDidEnterBackground = false
            guard isAlive else { return }
            let took = now - began
            if took > profile.didEnterBackgroundLimit {
                terminate(.watchdog(detail:
                    "applicationDidEnterBackground took \(took), over the \(profile.didEnterBackgroundLimit) limit (A10.1)"))
                return
            }
            device.checkHeldWork(after: "didEnterBackground returned")
            evaluateSuspension()
        }
    }

    /// The device resumes a suspended process in the background, e.g. to run a BGTask (C4).
    func resumeInBackground() {
        guard isAlive, state == .suspended else { return }
        cancelSuspension()
        thaw()
        core.backgroundLaunched = true
        setState(.background)
        startBackgroundSession()
    }

    // MARK: Suspension (B1.1, B2.3, C4.6)

    /// Whether anything keeps the app running in the background.
    var isHeldAwake: Bool {
        !core.openTasks.isEmpty || !core.runningTasks.isEmpty || !core.launchesAfterStartup.isEmpty || core.terminationPending
            || core.pushesAwaitingCompletion > 0  // D2: until the fetch completion handler is called
            || core.modeAssertions > 0  // D5: audio or location keeps the app running
            || core.mainThreadWatch?.callback == .expirationHandlers  // A3.1: handlers block suspension
    }

    /// Schedules suspension if the app is in the background with nothing holding it awake.
    func evaluateSuspension() {
        guard isAlive, state == .background, !core.inDidEnterBackground, hasFinishedLaunching,
            !isHeldAwake, core.suspensionJob == nil
        else { return }
        core.suspensionJob = scheduler.asyncAfter(profile.suspensionDelay, on: device.systemQueue) { [self] in
            core.suspensionJob = nil
            guard isAlive, state == .background, !core.inDidEnterBackground, !isHeldAwake else { return }
            suspend()
        }
    }

    func cancelSuspension() {
        if let job = core.suspensionJob { scheduler.cancel(job) }
        core.suspensionJob = nil
    }

    /// Suspension: no callback (B2.6); every queue of the process stops. An app that still holds
    /// a lock on a shared-container file is killed instead (0xdead10cc, ``SimulatedFiles``).
    func suspend() {
        if let file = heldSharedFileLock, profile.killsOnSharedFileLockAtSuspension {
            terminate(.fileLockHeld(file: file))
            return
        }
        device.checkHeldWork(after: HeldWorkReasons.suspended)
        endBackgroundSession()
        failRequestsInFlight(.networkConnectionLost)  // DTS: connections are defunct at suspension
        for queue in core.queues { scheduler.freeze(queue) }
        setState(.suspended)
    }

    func thaw() {
        for queue in core.queues { scheduler.thaw(queue) }
    }

    // MARK: Termination (B3)

    /// Kills the process. No callback (B3.1, B3.2, A7.1); its queues never run again.
    func terminate(_ reason: TerminationReason) {
        guard isAlive else { return }
        if case .watchdog(let detail) = reason, profile.debuggerAttached {
            device.emit(.watchdogSuppressed(detail: detail))  // A7.3: no watchdog under the debugger
            return
        }
        device.exitMetrics.count(reason, in: state)  // A7.2
        core.isAlive = false
        cancelSuspension()
        endBackgroundSession()
        for queue in core.queues { scheduler.freeze(queue) }
        // What the app keeps in a `static let` (an actor, a lock) is one object for every
        // simulated process; on a device the next process has its own. The dead code's hold on
        // it ends here, inertly and unrecorded.
        scheduler.releaseDeadQueues(core.queues)
        device.emit(.terminated(reason, openTasks: core.openTasks.map(\.id)))
        setState(.notRunning)
        device.taskScheduler.processDied(self, reason: reason)
        device.processEnded(self, reason: reason)
    }

    /// A jetsam (memory-pressure kill, B3.4). A suspended app is killed at once with no callback
    /// (B1.1, B3.1). A running background app may first get `didReceiveMemoryWarning` (with
    /// ``OSProfile/memoryWarningBeforeJetsamProbability``, ``OSProfile/memoryWarningLead`` before
    /// the kill), then is killed with no callback, or with `applicationWillTerminate` when
    /// ``OSProfile/willTerminateOnJetsam`` says so (B3.3). An app the user brings to the
    /// foreground between the warning and the kill is spared (jetsam takes background apps).
    func jetsam() {
        guard isAlive else { return }
        guard state == .background || state.isForeground,
            device.choices.bool(probability: profile.memoryWarningBeforeJetsamProbability)
        else {
            killRunningOrSuspended(.memoryPressure, willTerminate: profile.willTerminateOnJetsam)
            return
        }
        mainQueueImpl.async { [self] in
            guard isAlive else { return }
            deliver(.didReceiveMemoryWarning)
        }
        _ = scheduler.asyncAfter(profile.memoryWarningLead, on: device.systemQueue) { [self] in
            // Jetsam takes background apps first (B3.4): one the user opened meanwhile is spared.
            guard isAlive, !state.isForeground else { return }
            killRunningOrSuspended(.memoryPressure, willTerminate: profile.willTerminateOnJetsam)
        }
    }

    /// The user swipes the app away in the app switcher. A suspended app is killed with no
    /// notification (B3.2); a running one (in the switcher, or running in the background) gets
    /// `applicationWillTerminate` first when ``OSProfile/willTerminateOnForceQuit`` says so (B3.3).
    func forceQuit() {
        killRunningOrSuspended(.forceQuit, willTerminate: profile.willTerminateOnForceQuit)
    }

    /// Kills the process for `reason`: a suspended app silently (B3.1); a running one after
    /// `applicationWillTerminate` when `willTerminate` is true. `willTerminate` runs on the main
    /// queue under the A10.2 limit: past ``OSProfile/willTerminateLimit`` the watchdog kills the
    /// app (0x8badf00d) instead; if the main queue never gets to it in time, the system ends the
    /// process for `reason` anyway.
    func killRunningOrSuspended(_ reason: TerminationReason, willTerminate: Bool) {
        guard isAlive else { return }
        guard willTerminate, state != .suspended, state != .notRunning, !core.terminationPending else {
            terminate(reason)
            return
        }
        core.terminationPending = true
        let limit = profile.willTerminateLimit
        let backstop = scheduler.asyncAfter(limit + .microseconds(1), on: device.systemQueue) { [self] in
            guard isAlive else { return }
            // A10.2: the system does not wait past the limit; a willTerminate still running is
            // the watchdog's, one the main queue never reached ends as the kill it was.
            if let began = core.willTerminateBegan {
                terminate(.watchdog(detail:
                    "applicationWillTerminate still running after \(now - began), over the \(limit) limit (A10.2)"))
            } else {
                terminate(reason)
            }
        }
        mainQueueImpl.async { [self] in
            guard isAlive else { return }
            let began = now
            core.willTerminateBegan = began
            watchMainThread(.willTerminate, limit: limit)
            deliver(.willTerminate)
            endMainThreadWatch()
            core.willTerminateBegan = nil
            guard isAlive else { return }
            scheduler.cancel(backstop)
            let took = now - began
            if took > limit {
                terminate(.watchdog(detail: "applicationWillTerminate took \(took), over the \(limit) limit (A10.2)"))
                return
            }
            terminate(reason)
        }
    }
}

/// A workload instance carried out of the main-actor call that made it.
///
/// ```swift
/// let workload = scheduler.callOnMainActor("the workload's init") { MainThreadWorkload(make()) }.workload
/// ```
///
/// `@unchecked Sendable`: the instance never leaves the run, whose main-thread jobs are the only
/// ones that call it (the scene callbacks run in the environment's step, between jobs).
private struct MainThreadWorkload: @unchecked Sendable {
    let workload: any Workload
    init(_ workload: any Workload) { self.workload = workload }
}
