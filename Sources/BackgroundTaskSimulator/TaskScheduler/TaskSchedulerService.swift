import BackgroundTaskKit
import DeterministicSimulation

/// The device side of BGTaskScheduler (the `dasd` daemon): pending requests, launching apps to
/// run them, task lifetimes and expiry (C1-C6).
///
/// Contract: pending requests belong to the device and survive the app's death (C3.6 consumes a
/// request only at launch); registrations belong to a process (C1.6). Every rule decision cites
/// its id.
final class TaskSchedulerService: @unchecked Sendable {
    // @unchecked: one simulated thread of the run touches it at a time.
    /// The device, which creates this service and is its only owner; not retained.
    private let deviceReference: DeviceReference
    var device: SimulatedDevice { deviceReference.device }
    /// Submitted, not yet launched, in submission order. The service's only hot state (most
    /// events ask whether a request is eligible). Unchecked exclusivity: the dynamic check cost
    /// more than the read; safe because a run is confined to one thread and no access to it
    /// spans a call that changes it (its closures only test requests).
    @exclusivity(unchecked) var pending: [TaskRequest] = []
    var nextTaskNumber = 1
    /// The Live Activities of continued-processing tasks, oldest first (C6.6, C6.10).
    var liveActivities: [LiveActivityItem] = []

    init(device: SimulatedDevice) { deviceReference = DeviceReference(device, owner: "TaskSchedulerService") }

    var profile: OSProfile { device.profile }
    private var info: WorkloadInfo { device.workload }

    // MARK: Registration (C1)

    func register(app: SimulatedApplication, identifier: String, queue: SimulatedWorkQueue?,
                  handler: @escaping @Sendable (any ScheduledTask) -> Void) -> Bool {
        guard app.isAlive, profile.hasTaskScheduler else { return false }
        guard permits(identifier) else {  // C1.2
            device.emit(.taskRegistered(identifier: identifier, accepted: false))
            return false
        }
        if app.core.registrations.contains(where: { $0.identifier == identifier }) {  // C1.3
            app.terminate(.exception(name: "NSInternalInconsistencyException",
                reason: "Launch handler for task with identifier \(identifier) has already been registered"))
            return false
        }
        let exempt = info.isWildcardIdentifier(identifier)  // C6.2: continued processing is exempt
        if app.hasFinishedLaunching && !exempt {  // C1.1, C1.4
            app.terminate(.exception(name: "NSInternalInconsistencyException",
                reason: "All launch handlers must be registered before application finishes launching"))
            return false
        }
        // C1.5: with no queue, the handlers run on the framework's own serial queue (a crash
        // report names it `com.apple.BGTaskScheduler (<identifier>)`), never beside each other.
        let queue = queue ?? app.makeProcessSerialQueue(label: "com.apple.BGTaskScheduler (\(identifier))")
        app.core.registrations.append(TaskRegistration(identifier: identifier, queue: queue, handler: handler))
        device.emit(.taskRegistered(identifier: identifier, accepted: true))
        return true
    }

    /// Whether the app's `BGTaskSchedulerPermittedIdentifiers` permits `identifier` on this OS:
    /// an exact entry, or from iOS 26 a `prefix.*` wildcard entry (C6.2). Before iOS 26 a wildcard
    /// entry matches nothing, so `register` returns false for its identifiers (C1.2).
    private func permits(_ identifier: String) -> Bool {
        profile.hasContinuedProcessing ? info.permits(identifier) : info.permittedIdentifiers.contains(identifier)
    }

    // MARK: Submission (C2, C3)

    func submit(_ request: TaskRequest, from app: SimulatedApplication) throws(TaskSchedulerError) {
        // A dead process submits nothing (its code runs only when the simulator must free what
        // it holds: `Scheduler.releaseDeadQueues`).
        guard app.isAlive else { return }
        let canRunNow: Bool
        do {
            canRunNow = try validate(request, from: app)
        } catch {
            device.emit(.requestSubmitted(identifier: request.identifier, kind: request.kind.name, error: "\(error)"))
            throw error
        }
        if !app.core.registrations.contains(where: { $0.identifier == request.identifier }) {  // C2.4
            app.terminate(.exception(name: "NSInternalInconsistencyException",
                reason: "No launch handler registered for task with identifier \(request.identifier)"))
            return
        }
        if profile.submitDropProbability > 0, device.choices.bool(probability: profile.submitDropProbability) {
            // C2.5: success for the caller, but the request never reaches the queue.
            device.emit(.requestSubmitted(identifier: request.identifier, kind: request.kind.name, error: nil))
            device.emit(.requestDropped(identifier: request.identifier))
            return
        }
        pending.removeAll { $0.identifier == request.identifier }  // C2.1: replace
        pending.append(request)
        device.emit(.requestSubmitted(identifier: request.identifier, kind: request.kind.name, error: nil))
        if request.kind.isContinuedProcessing, canRunNow {
            launch(request)  // C6.1: begins immediately if possible; else it waits queued (C6.4)
        }
    }

    /// Checks `request` (C2.3); returns whether a continued-processing request can start now
    /// (C6.1: from the foreground, when the system is not busy).
    private func validate(_ request: TaskRequest, from app: SimulatedApplication) throws(TaskSchedulerError) -> Bool {
        guard profile.hasTaskScheduler, device.isBackgroundRefreshEnabled else { throw .unavailable }  // C2.3
        if profile.runsInSimulator { throw .unavailable }  // C2.3, C5.3: no background processing in Simulator
        guard permits(request.identifier) else { throw .notPermitted }  // C2.3
        switch request.kind {
        case .appRefresh:
            guard info.backgroundModes.contains("fetch") else { throw .notPermitted }
            let others = pending.filter { $0.kind == .appRefresh && $0.identifier != request.identifier }
            if others.count >= profile.maxPendingRefreshRequests { throw .tooManyPendingTaskRequests }  // C2.2
        case .processing:
            guard info.backgroundModes.contains("processing") else { throw .notPermitted }
            let others = pending.filter { $0.kind.isProcessing && $0.identifier != request.identifier }
            if others.count >= profile.maxPendingProcessingRequests { throw .tooManyPendingTaskRequests }
        case .continuedProcessing(_, _, let strategy):
            guard profile.hasContinuedProcessing else { throw .unavailable }
            if request.requiresBackgroundGPU,  // C6.5: the entitlement and a device that supports it
                !profile.supportsBackgroundGPU || !info.entitlements.contains(WorkloadInfo.backgroundGPUEntitlement)
            {
                throw .notPermitted
            }
            let canRunNow = app.state.isForeground
                && !device.choices.bool(probability: device.environment.faults.systemBusyProbability)
            if !canRunNow && strategy == .fail { throw .immediateRunIneligible }  // C6.4
            return canRunNow
        }
        return false
    }

    func cancel(identifier: String, from app: SimulatedApplication) {
        guard app.isAlive else { return }
        pending.removeAll { $0.identifier == identifier }  // C3.5
        device.emit(.requestCancelled(identifier: identifier))
    }

    func cancelAll(from app: SimulatedApplication) {
        guard app.isAlive else { return }
        pending.removeAll()
        device.emit(.requestCancelled(identifier: "*"))
    }

    // MARK: Launching (C3.6, C4, B4)

    /// Requests the system could launch now: due (C3.1), background refresh on, not blocked by a
    /// force-quit (B4.2), network and external power present when required (C3.3), app not in
    /// use (C4.2). Continued-processing requests are never launched this way (C6.1, C6.4).
    func eligibleRequests() -> [TaskRequest] {
        guard canLaunchRequests else { return [] }
        let foreground = device.liveApp?.state.isForeground ?? false
        return pending.filter { isEligible($0, foreground: foreground) }
    }

    /// Whether ``eligibleRequests()`` is non-empty, without building it (the environment asks
    /// before every action).
    func hasEligibleRequest() -> Bool {
        guard canLaunchRequests, !pending.isEmpty else { return false }
        let foreground = device.liveApp?.state.isForeground ?? false
        return pending.contains { isEligible($0, foreground: foreground) }
    }

    /// Background refresh is on and no force-quit blocks background launches (B4.2).
    private var canLaunchRequests: Bool {
        device.isBackgroundRefreshEnabled && !(device.blockedByForceQuit && profile.forceQuitBlocksBackgroundLaunch)
            && !(device.isLowPowerModeEnabled && profile.lowPowerModeHoldsBackgroundTasks)
    }

    /// An app update dropped every pending request (C3.7).
    func dropPendingRequests() {
        for request in pending where !request.kind.isContinuedProcessing {
            device.emit(.requestDropped(identifier: request.identifier))
        }
        pending.removeAll { !$0.kind.isContinuedProcessing }
    }

    private func isEligible(_ request: TaskRequest, foreground: Bool) -> Bool {
        if let date = request.earliestBeginDate, !request.kind.isContinuedProcessing,  // C6.3
            VirtualDate.time(for: date) > device.now
        {
            return false
        }
        switch request.kind {
        case .appRefresh: return !foreground
        case .processing(let network, let power):  // C3.3
            return !foreground && (!network || device.isNetworkAvailable) && (!power || device.isOnExternalPower)
        case .continuedProcessing: return false  // started by submit or from the queue (C6.1, C6.4)
        }
    }

    /// Launches `request`: consumes it (C3.6), then starts, resumes or uses the app (B4.1).
    func launch(_ request: TaskRequest) {
        pending.removeAll { $0.identifier == request.identifier }
        let number = nextTaskNumber
        nextTaskNumber += 1
        guard let app = device.wakeOrLaunchInBackground() else { return }
        let launch = PendingLaunch(request: request, number: number)
        if app.hasFinishedLaunching {
            dispatchLaunch(launch, in: app)
        } else {
            app.core.launchesAfterStartup.append(launch)
        }
    }

    /// Calls the launch handler on the registration queue (C1.5) and arms the task's expiry.
    func dispatchLaunch(_ launch: PendingLaunch, in app: SimulatedApplication) {
        guard app.isAlive else { return }
        let request = launch.request
        guard let registration = app.core.registrations.first(where: { $0.identifier == request.identifier }) else {
            app.terminate(.exception(name: "NSInternalInconsistencyException",  // C1.1
                reason: "No launch handler registered for task with identifier \(request.identifier)"))
            return
        }
        let bound = SimulatedBGTask(identifier: request.identifier, kind: request.kind, number: launch.number,
                                    queue: registration.queue, service: self)
        bound.process = app.process
        app.core.runningTasks.append(bound)
        app.cancelSuspension()
        device.emit(.bgTaskLaunched(identifier: bound.identifier, task: bound.number, kind: bound.kind.name))
        showLiveActivity(for: bound)  // C6.10
        armExpiry(of: bound)
        let handler = registration.handler
        let handle = BGTaskHandle(bound, device: device)  // the app's reference (C4.8)
        bound.queue?.async {
            handle.task.handlerStarted = true
            handler(handle)
            handle.task.handlerReturned = true
        }
    }

    private func armExpiry(of task: SimulatedBGTask) {
        let runtime: VirtualDuration
        switch task.kind {
        case .appRefresh: runtime = profile.refreshRuntime  // C4.1
        case .processing: runtime = profile.processingRuntime  // C4.2
        case .continuedProcessing:  // C6.7, C6.8: no time limit, but stalls expire
            armStallTimer(task)
            return
        }
        let start = device.now
        task.timers.append(device.scheduler.async(at: start + runtime - profile.taskExpiryLead, on: device.systemQueue) {
            [self, task] in expire(task)
        })
        armKill(of: task, at: start + runtime)
    }
}

/// A request the system has consumed (C3.6) and will hand to the launch handler once the process
/// has finished launching.
struct PendingLaunch {
    let request: TaskRequest
    let number: Int
}

extension TaskRequest.Kind {
    var isProcessing: Bool {
        if case .processing = self { return true }
        return false
    }

    var isContinuedProcessing: Bool {
        if case .continuedProcessing = self { return true }
        return false
    }
}
