import BackgroundTaskKit
import Foundation

/// The BGTaskScheduler app (Apple's sample and TestBGScheduler, bug patterns P6-P8) done right,
/// through ``BackgroundTaskScheduler``: both launch handlers are registered before launch
/// finishes; the refresh is a repeating refresh (resubmitted at the start of every launch, on
/// every path); the processing task is submitted on leaving the foreground; each
/// ``LaunchedTask`` is completed exactly once, and expiry completes it as failed. Registration
/// errors (BGTaskScheduler unavailable before iOS 13) and submission errors (background refresh
/// off, too many pending requests) are kept, never swallowed or fatal.
///
/// Expected: passes every invariant.
final class SchedulerApp: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; state that several threads reach is
    // guarded where the workload says so.
    static let refresh = "com.example.bgapp.refresh"
    static let processing = "com.example.bgapp.processing"
    private var observation: LifecycleObservation?
    private(set) var registrationErrors: [TaskRegistrationError] = []
    private(set) var submissionErrors: [TaskSubmissionError] = []

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let scheduler = BackgroundTaskScheduler(scheduler: context.taskScheduler, lifecycle: app)
        do throws(TaskRegistrationError) {
            try scheduler.registerRepeatingRefresh(Self.refresh, every: .seconds(15 * 60)) { task in
                Self.perform(task, "refresh-feed", context)
            }
            try scheduler.register(Self.processing) { task in
                Self.perform(task, "rebuild-index", context)
            }
        } catch {
            registrationErrors.append(error)  // e.g. iOS 12: no BGTaskScheduler; the app runs without it
            return
        }
        attempt { () throws(TaskSubmissionError) in try scheduler.submitRepeatingRefresh(Self.refresh) }
        observation = app.addLifecycleObserver { [self] event in
            guard event == .didEnterBackground else { return }
            let request = TaskRequest(identifier: Self.processing, kind: .processing(requiresNetworkConnectivity: true, requiresExternalPower: false),
                                      earliestBeginDate: context.taskScheduler.now.addingTimeInterval(60))
            attempt { () throws(TaskSubmissionError) in try scheduler.submit(request) }
        }
    }

    /// Work for a launched task: completed once when it finishes, or as failed on expiry.
    static func perform(_ task: LaunchedTask, _ name: String, _ context: WorkloadContext) {
        let work = context.startWork(name)
        task.onExpiration { work.cancel() }
        context.application.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
            if !work.isDone { work.finish() }
            task.complete(success: true)  // ignored after an expiry completed it
        }
    }

    /// A submission that may fail for reasons the app cannot prevent; the error is kept (an app
    /// would log it), never fatal.
    private func attempt(_ submit: () throws(TaskSubmissionError) -> Void) {
        do {
            try submit()
        } catch {
            submissionErrors.append(error)
        }
    }
}
