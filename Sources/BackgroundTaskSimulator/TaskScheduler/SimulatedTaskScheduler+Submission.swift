public import BackgroundTaskKit

extension SimulatedTaskScheduler {
    /// The iOS 27 asynchronous `submit(_:completionHandler:)` (C2.6): validates and queues the
    /// request after ``OSProfile/asynchronousSubmitDelay`` and then calls `completionHandler` on
    /// the process's background queue, with nil or the error `submit(_:)` would have thrown.
    ///
    /// ```swift
    /// scheduler.submit(TaskRequest(identifier: "com.example.refresh", kind: .appRefresh)) { error in
    ///     if let error { log("refresh not scheduled: \(error)") }
    /// }
    /// ```
    ///
    /// Contract (C2.6, a beta header: errors come "on an arbitrary queue after an arbitrary
    /// amount of delay"): the request is not pending before the completion handler runs, so code
    /// that lists the pending requests right after the call does not see it; the handler is never
    /// called on the main queue and is called at most once (not at all if the process dies
    /// first, as nothing is left to call it in).
    public func submit(
        _ request: TaskRequest, completionHandler: @escaping @Sendable (TaskSchedulerError?) -> Void
    ) {
        let app = application
        let background = app.backgroundQueueImpl
        app.device.scheduler.schedulingPoint()
        _ = app.device.scheduler.asyncAfter(app.profile.asynchronousSubmitDelay, on: background.id) { [self] in
            guard app.isAlive else { return }
            do throws(TaskSchedulerError) {
                try submit(request)
                completionHandler(nil)
            } catch {
                completionHandler(error)
            }
        }
    }

    /// `BGTaskScheduler.supportedResources` contains `.gpu` (C6.5): whether a
    /// continued-processing request may ask for the GPU on this device.
    public var supportsBackgroundGPU: Bool { application.profile.supportsBackgroundGPU }

    /// The Live Activities of the app's continued-processing tasks, oldest first (C6.10: a
    /// resubmit after a failure adds an item beside the failed one).
    public var liveActivities: [LiveActivityItem] { application.device.taskScheduler.liveActivities }
}
