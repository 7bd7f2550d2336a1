extension ModelledRule {
    private static func rule(_ id: String, _ summary: String, _ status: Status) -> ModelledRule {
        ModelledRule(id: id, summary: summary, status: status)
    }

    static let taskScheduler: [ModelledRule] = [
        rule("C1.1", "register launch handlers before launch finishes; every permitted id needs one", .modelled),
        rule("C1.2", "register returns false for an identifier not permitted", .modelled),
        rule("C1.3", "a second registration of an identifier crashes the app", .modelled),
        rule("C1.4", "registering after launch crashes: 'All launch handlers must be registered…'", .modelled),
        rule("C1.5", "handlers run on the registration queue; nil means the framework's serial queue", .modelled),
        rule("C1.6", "registrations last for one process", .modelled),
        rule("C1.7", "extensions submit, the host app runs", .notModelled("app extensions are out of scope")),
        rule("C2.1", "a submit with the same identifier replaces the pending request", .modelled),
        rule("C2.2", "1 refresh and 10 processing requests at most",
             .parameter("OSProfile.maxPendingRefreshRequests, OSProfile.maxPendingProcessingRequests")),
        rule("C2.3", "error codes unavailable, tooManyPendingTaskRequests, notPermitted", .modelled),
        rule("C2.4", "submitting without a registered handler raises an exception", .modelled),
        rule("C2.5", "submit may succeed while the request is dropped",
             .parameter("OSProfile.submitDropProbability (default 0)")),
        rule("C2.6", "iOS 27 asynchronous submit: errors reported later, off the main queue",
             .parameter("OSProfile.asynchronousSubmitDelay")),
        rule("C2.7", "permitted identifiers disable background fetch", .modelled),
        rule("C3.1", "earliestBeginDate is a lower bound", .modelled),
        rule("C3.2", "refresh runs when the system sees fit", .parameter("environment weight launchBackgroundTask")),
        rule("C3.3", "processing requests wait for the network and external power they require", .modelled),
        rule("C3.4", "pending requests are copies, delivered on a background queue", .modelled),
        rule("C3.5", "cancel and cancelAll remove pending requests", .modelled),
        rule("C3.6", "a launch consumes the request", .modelled),
        rule("C3.7", "pending requests may vanish after an app update",
             .parameter("OSProfile.appUpdateDropsPendingRequestsProbability")),
        rule("C4.1", "refresh tasks get up to 30 s", .parameter("OSProfile.refreshRuntime")),
        rule("C4.2", "processing tasks run for minutes, only while the device is idle",
             .parameter("OSProfile.processingRuntime")),
        rule("C4.3", "several tasks may launch in one batch", .parameter("OSProfile.batchLaunchProbability")),
        rule("C4.4", "the expiration handler runs shortly before the end, once, then is cleared",
             .parameter("OSProfile.taskExpiryLead")),
        rule("C4.5", "with no expiration handler the task completes unsuccessfully", .modelled),
        rule("C4.6", "not completing in time may kill the app; suspension once all tasks complete", .modelled),
        rule("C4.7", "a second setTaskCompleted is a no-op", .modelled),
        rule("C4.8", "a task freed without completing logs a programmer error", .modelled),
        rule("C4.9", "BGTask.identifier is the registered identifier", .modelled),
        rule("C5.1", "_simulateLaunchForTaskWithIdentifier launches a pending request", .modelled),
        rule("C5.2", "_simulateExpirationForTaskWithIdentifier expires a running task", .modelled),
        rule("C5.3", "the debug functions work only on devices", .parameter("OSProfile.runsInSimulator (default false)")),
        rule("C5.4", "simulating a launch with nothing pending logs an error", .modelled),
        rule("C6.1", "continued processing starts from the foreground, at once if possible", .modelled),
        rule("C6.2", "wildcard identifiers (iOS 26; before, a wildcard entry permits nothing); registration exempt from the launch rule", .modelled),
        rule("C6.3", "earliestBeginDate is ignored", .modelled),
        rule("C6.4", "strategy fail or queue: queued requests start when room frees or the user returns",
             .parameter("faults.systemBusyProbability; OSProfile.continuedProcessingQueueOutlivesProcess")),
        rule("C6.5", "GPU resources need an entitlement and device support",
             .parameter("OSProfile.supportsBackgroundGPU; WorkloadInfo.entitlements")),
        rule("C6.6", "progress must be reported; Live Activity UI", .modelled),
        rule("C6.7", "stalled tasks are expired", .parameter("OSProfile.continuedProcessingStallLimit")),
        rule("C6.8", "expiry causes: user cancel, no progress; no time limit", .modelled),
        rule("C6.9", "swiping the app away cancels tasks without telling it", .modelled),
        rule("C6.10", "resubmitting after failure shows two items", .modelled),
        rule("C6.11", "unexplained early expiry, even in the foreground",
             .parameter("environment weight expireBackgroundTask")),
    ]

    static let otherModes: [ModelledRule] = [
        rule("D1", "background URLSession: transfers go on while the app is suspended or terminated; the app is woken or "
             + "relaunched for a session's events, which reach a session recreated with the same identifier; the "
             + "completion handler after urlSessionDidFinishEvents; a force-quit cancels pending transfers",
             .parameter("OSProfile.backgroundSessionEventsRuntime, OSProfile.backgroundSessionExpiryTerminates, "
                        + "OSProfile.backgroundTransferFailureProbability")),
        rule("D2", "silent push wakes or launches the app; completion handler within 30 s; rate limited",
             .parameter("environment weight silentPush; OSProfile.silentPushRuntime, OSProfile.silentPushMinimumInterval")),
        rule("D3", "background fetch (iOS 7-12): woken after the minimum interval, completion handler within about 30 s",
             .parameter("OSProfile.backgroundFetchAvailable, OSProfile.backgroundFetchRuntime")),
        rule("D4", "accessory and Bluetooth wakes: about 10 s in the background to process the data",
             .parameter("environment weight accessoryWake (bluetooth-central or external-accessory mode); "
                        + "OSProfile.accessoryWakeWindow")),
        rule("D5", "audio, location, VoIP keep the app awake",
             .parameter("OSProfile.backgroundModeAssertionsHoldApp (audio and location sessions; VoIP is not simulated)")),
    ]
}
