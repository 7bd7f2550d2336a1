import BackgroundTaskKit
import DeterministicSimulation

extension TaskSchedulerService {
    /// The system expires a running task (C4.4): the handler runs on the registration queue; with
    /// no handler the task is completed unsuccessfully (C4.5).
    func expire(_ task: SimulatedBGTask) {
        guard !task.isCompleted, !task.expiring, let app = task.app, app.isAlive else { return }
        task.expiring = true
        let handler = task.takeExpirationHandler()
        device.emit(.bgTaskExpiring(identifier: task.identifier, task: task.number, hasHandler: handler != nil))
        task.queue?.async { [self, task] in
            if let handler {
                handler()
            } else {
                complete(task, success: false)
            }
        }
    }

    /// `setTaskCompleted(success:)`: the first call completes (C4.6); later ones are no-ops (C4.7).
    func complete(_ task: SimulatedBGTask, success: Bool) {
        guard let app = task.app, app.isAlive else { return }
        guard !task.isCompleted else {
            device.emit(.bgTaskCompleted(identifier: task.identifier, task: task.number, success: success, repeated: true))
            return
        }
        task.isCompleted = true
        _ = task.takeExpirationHandler()
        for timer in task.timers { device.scheduler.cancel(timer) }
        task.timers = []
        app.runningTasks.removeAll { $0 === task }
        device.emit(.bgTaskCompleted(identifier: task.identifier, task: task.number, success: success, repeated: false))
        device.checkHeldWork(after: "\(task.kind.name) task \(task.identifier) completed")
        app.evaluateSuspension()  // C4.6: suspended as soon as all tasks are complete
    }

    /// The user opens the app: processing tasks are expired (C4.2); queued continued-processing
    /// requests can start (C6.1).
    func userStartedUsingDevice(app: SimulatedApplication) {
        for task in app.runningTasks where task.kind.isProcessing { expire(task) }
    }

    /// The process died: its tasks are gone; a force-quit cancels queued continued-processing
    /// requests without telling the app (C6.4, C6.9).
    func processDied(_ app: SimulatedApplication, reason: TerminationReason) {
        for task in app.runningTasks {
            for timer in task.timers { device.scheduler.cancel(timer) }
            task.timers = []
        }
        app.runningTasks = []
        if reason == .forceQuit {
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
        guard let task = device.liveApp?.runningTasks.first(where: { $0.identifier == identifier }) else { return }
        expire(task)  // C5.2
    }

    /// The user cancels a continued-processing task from its Live Activity (C6.8).
    func userCancelsContinuedTask(_ task: SimulatedBGTask) {
        expire(task)
    }
}
