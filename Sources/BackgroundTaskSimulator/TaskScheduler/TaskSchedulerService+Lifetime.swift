import BackgroundTaskKit
import DeterministicSimulation

extension TaskSchedulerService {
    /// The system expires a running task (C4.4): the handler runs on the registration queue; with
    /// no handler the task is completed unsuccessfully (C4.5). Whatever the cause (its time is up,
    /// an early expiry, the debugger, a stall, the user), the task's time now ends
    /// `taskExpiryLead` later: a task still not completed then is killed (C4.6). This also holds
    /// for continued-processing tasks, which have no time limit until they expire (C6.8).
    func expire(_ task: SimulatedBGTask) {
        guard !task.isCompleted, !task.expiring, let app = task.app, app.isAlive else { return }
        task.expiring = true
        cancelTimers(of: task)
        armKill(of: task, at: device.now + profile.taskExpiryLead)
        let handler = task.takeExpirationHandler()
        settleLiveActivity(for: task, success: false)  // C6.10: an expired task's item shows failed
        device.emit(.bgTaskExpiring(identifier: task.identifier, task: task.number, hasHandler: handler != nil))
        task.queue?.async { [self, task] in
            // The callout runs on the registration queue (C4.4, C4.5: `_callExpirationHandler`
            // takes the handler when it runs), behind a launch handler queued before it: one that
            // the system expired before its first line still sets its handler in time, as on a
            // device. `hasHandler` above says whether one was set when the system decided.
            if let handler = handler ?? task.takeExpirationHandler() {
                handler()
            } else if !task.isCompleted {  // a launch handler queued before may have completed it
                complete(task, success: false)  // C4.5
                task.completedBySystem = true
            }
        }
    }

    /// `setTaskCompleted(success:)`: the first call completes (C4.6); later ones are no-ops (C4.7).
    func complete(_ task: SimulatedBGTask, success: Bool) {
        guard let app = task.app, app.isAlive else { return }
        guard !task.isCompleted else {
            if task.completedBySystem {
                // C4.5 then C4.7: a launch handler that had not set its expiration handler yet (it
                // was descheduled, say) completes a task the system already completed: a no-op
                // the app could not prevent, so not a second completion by the app.
                task.completedBySystem = false
                return
            }
            device.emit(.bgTaskCompleted(identifier: task.identifier, task: task.number, success: success, repeated: true))
            return
        }
        task.isCompleted = true
        _ = task.takeExpirationHandler()
        cancelTimers(of: task)
        app.core.runningTasks.removeAll { $0 === task }
        device.emit(.bgTaskCompleted(identifier: task.identifier, task: task.number, success: success, repeated: false))
        if task.kind.isContinuedProcessing {
            settleLiveActivity(for: task, success: success)  // C6.10
            startQueuedContinuedProcessing()  // C6.4: room again
        }
        device.checkHeldWork(after: "\(task.kind.name) task \(task.identifier) completed")
        app.evaluateSuspension()  // C4.6: suspended as soon as all tasks are complete
    }

    /// Stops every timer of `task`.
    func cancelTimers(of task: SimulatedBGTask) {
        for timer in task.timers { device.scheduler.cancel(timer) }
        task.timers = []
        if let stall = task.stallTimer { device.scheduler.cancel(stall) }
        task.stallTimer = nil
    }

    /// Kills the app at `time` if `task` has not completed by then (C4.6).
    func armKill(of task: SimulatedBGTask, at time: VirtualTime) {
        task.timers.append(device.scheduler.async(at: time, on: device.systemQueue) { [task] in
            guard !task.isCompleted, let app = task.app, app.isAlive else { return }
            app.terminate(.watchdog(detail:
                "\(task.kind.name) task \(task.identifier) was not completed before its time expired (C4.6)"))
        })
    }

    /// (Re)starts the no-progress timer of a continued-processing task: no new progress within
    /// `continuedProcessingStallLimit` expires it (C6.7).
    func armStallTimer(_ task: SimulatedBGTask) {
        guard task.kind.isContinuedProcessing, !task.isCompleted, !task.expiring else { return }
        if let stall = task.stallTimer { device.scheduler.cancel(stall) }
        task.stallTimer = device.scheduler.asyncAfter(profile.continuedProcessingStallLimit, on: device.systemQueue) {
            [self, task] in
            task.stallTimer = nil
            expire(task)
        }
    }

    /// Starts the first queued continued-processing request (C6.4 `.queue`) if the app is alive
    /// and the system is not busy (a draw with `faults.systemBusyProbability`): when a running
    /// one completes, and when the user returns to the app.
    func startQueuedContinuedProcessing() {
        guard device.liveApp != nil, let queued = pending.first(where: { $0.kind.isContinuedProcessing }),
            !device.choices.bool(probability: device.environment.faults.systemBusyProbability)
        else { return }
        launch(queued)
    }

    /// The user opens the app: processing tasks are expired (C4.2); queued continued-processing
    /// requests can start (C6.1).
    func userStartedUsingDevice(app: SimulatedApplication) {
        for task in app.core.runningTasks where task.kind.isProcessing { expire(task) }
        startQueuedContinuedProcessing()
    }

    /// The process died: its tasks are gone; a force-quit cancels queued continued-processing
    /// requests without telling the app (C6.4, C6.9), and so does any other death unless
    /// ``OSProfile/continuedProcessingQueueOutlivesProcess``. A task whose launch handler was never
    /// called is recorded as a probe (``SimulatedBGTask/handlerNeverRanProbe(_:)``), right after
    /// the `terminated` event: its launch reached no code of the app; one whose handler was
    /// called and had not returned, as ``SimulatedBGTask/handlerCutShortProbe(_:)``.
    func processDied(_ app: SimulatedApplication, reason: TerminationReason) {
        for task in app.core.runningTasks {
            cancelTimers(of: task)
            if !task.handlerStarted {
                device.emit(.probe(SimulatedBGTask.handlerNeverRanProbe(task.identifier)))
            } else if !task.handlerReturned {
                device.emit(.probe(SimulatedBGTask.handlerCutShortProbe(task.identifier)))
            }
        }
        app.core.runningTasks = []
        if reason == .forceQuit || !profile.continuedProcessingQueueOutlivesProcess {
            pending.removeAll { if case .continuedProcessing = $0.kind { return true } else { return false } }
        }
    }

    // MARK: Debugger commands (C5)

    func simulateLaunch(identifier: String) {
        guard let request = pending.first(where: { $0.identifier == identifier }) else {
            device.emit(.console(ConsoleMessages.noTaskRequest(identifier)))  // C5.4
            return
        }
        launch(request)  // C5.1
    }

    func simulateExpiration(identifier: String) {
        guard let task = device.liveApp?.core.runningTasks.first(where: { $0.identifier == identifier }) else { return }
        expire(task)  // C5.2
    }

    /// The user cancels a continued-processing task from its Live Activity (C6.8).
    func userCancelsContinuedTask(_ task: SimulatedBGTask) {
        expire(task)
    }
}
