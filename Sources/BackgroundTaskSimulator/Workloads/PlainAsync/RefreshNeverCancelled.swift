import BackgroundTaskKit

/// A podcast app's `BGAppRefreshTask` as it ships: the launch handler starts a `Task` that
/// fetches the new episodes and completes the `BGTask` with the result; the expiration handler
/// cancels that `Task`, whose cancelled fetch stops at once and completes the task as failed
/// (C4.4, C4.6). A request is submitted on every background entry (C3.1).
///
/// ```swift
/// let refresh = EpisodeRefresh(scheduler: BGTaskSchedulerHost(), api: URLSessionAPIClient())
/// refresh.register()                            // in didFinishLaunching (C1.1)
/// refresh.schedule()                            // on entering the background
/// ```
///
/// Contract: every launched task is completed once, and its fetch ends with it. With
/// ``cancelsOnExpiry`` off (the planted bug) the expiration handler completes the task as
/// failed and never cancels the `Task`: the fetch runs on with no task holding the app awake
/// (A1.1, B2.3), and completes the task a second time when it ends (C4.7).
struct EpisodeRefresh: Sendable {
    static let identifier = "com.example.bgapp.refresh"

    let scheduler: any TaskSchedulerHost
    let api: any APIClient
    var cancelsOnExpiry = true

    /// Registers the launch handler; false if the identifier is not permitted (C1.2).
    @discardableResult
    func register() -> Bool {
        scheduler.register(forTaskWithIdentifier: Self.identifier, using: nil) { task in
            handle(task)
        }
    }

    /// Asks for a refresh; a refused request is retried on the next background entry.
    func schedule() {
        try? scheduler.submit(TaskRequest(identifier: Self.identifier, kind: .appRefresh))
    }

    private func handle(_ task: any ScheduledTask) {
        let api = api
        let refresh = Task {
            if cancelsOnExpiry {
                do {
                    try await api.send("fetch-episodes")
                    task.setTaskCompleted(success: true)
                } catch {
                    task.setTaskCompleted(success: false)  // offline, or cancelled by expiry
                }
            } else {
                try? await api.send("fetch-episodes")
                task.setTaskCompleted(success: true)
            }
        }
        if cancelsOnExpiry {
            task.expirationHandler = { refresh.cancel() }
        } else {
            task.expirationHandler = { task.setTaskCompleted(success: false) }  // the bug: the Task runs on
        }
    }
}

/// The harness side: registers the refresh at launch and schedules it on every background
/// entry, with an API client that declares its requests as work.
///
/// Expected: `correct` passes every invariant; `expiry-never-cancels-task` violates
/// `background-work-held`.
final class RefreshNeverCancelledWorkload: Workload, @unchecked Sendable {
    // @unchecked: the observation is touched on the simulated main queue only.
    private var observation: LifecycleObservation?
    private let cancelsOnExpiry: Bool

    init(cancelsOnExpiry: Bool) {
        self.cancelsOnExpiry = cancelsOnExpiry
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let refresh = EpisodeRefresh(scheduler: context.taskScheduler, api: SimulatedAPIClient(context: context),
                                     cancelsOnExpiry: cancelsOnExpiry)
        refresh.register()
        observation = context.onDidEnterBackground { refresh.schedule() }
    }
}
