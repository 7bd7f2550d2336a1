import BackgroundTaskKit

/// A news reader that keeps articles for offline reading: a repeating app refresh
/// (``BackgroundTaskScheduler``) downloads the latest articles and writes them to
/// `articles.json`. Refreshes often run at night, with the device locked, and after a reboot the
/// app can be launched before the user has unlocked the phone once.
///
/// The correct app writes the file with
/// ``FileProtection/completeUntilFirstUserAuthentication`` (readable in the background once the
/// user has unlocked since boot) and checks the write: when it fails (before first unlock) the
/// articles stay in memory, the work is cancelled, the task completes unsuccessfully, and the
/// next foreground entry writes them. The planted bug (``CompleteProtectionAtNight``) protects
/// the file with ``FileProtection/complete`` "for privacy" and writes with `try?`: from a few
/// seconds after the lock the write fails and the refresh reports success anyway.
///
/// Expected: passes every invariant, `protected-data-available` included.
final class OfflineArticles: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; `unsavedArticles` is touched on main only.
    static let refresh = "com.example.reader.refresh"
    static let file = "Library/Caches/articles.json"
    /// The class the articles file is written with.
    let protection: FileProtection
    /// Whether a failed write is noticed (the planted bug uses `try?`).
    let checksWrite: Bool
    /// Articles downloaded but not yet on disk.
    private var unsavedArticles = 0
    private var observation: LifecycleObservation?
    /// Submit errors, kept as an app would log them.
    private(set) var submissionErrors: [TaskSubmissionError] = []

    init(protection: FileProtection = .completeUntilFirstUserAuthentication, checksWrite: Bool = true) {
        self.protection = protection
        self.checksWrite = checksWrite
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.application.addLifecycleObserver { [unowned self] event in
            // In the foreground the user has unlocked the device: every class is available.
            if event == .didBecomeActive { saveUnsaved(context) }
        }
        let scheduler = BackgroundTaskScheduler(scheduler: context.taskScheduler, lifecycle: context.application)
        do throws(TaskRegistrationError) {
            try scheduler.registerRepeatingRefresh(Self.refresh, every: .seconds(15 * 60)) { [unowned self] task in
                refresh(task, context)
            }
        } catch {
            return  // no BGTaskScheduler (iOS 12): articles load in the foreground only
        }
        do throws(TaskSubmissionError) {
            try scheduler.submitRepeatingRefresh(Self.refresh)
        } catch {
            submissionErrors.append(error)  // e.g. Background App Refresh off: the user's choice
        }
    }

    private func refresh(_ task: LaunchedTask, _ context: WorkloadContext) {
        let work = context.startWork("save-articles")
        task.onExpiration { work.cancel() }
        context.application.backgroundQueue.asyncAfter(context.drawWorkDuration()) { [unowned self] in
            // Downloaded; write on the main queue, where the app keeps its model.
            context.application.mainQueue.async { [unowned self] in
                guard !work.isDone else { return }  // expired meanwhile: the task is already completed
                unsavedArticles += 1
                save(context, for: work, task: task)
            }
        }
    }

    private func save(_ context: WorkloadContext, for work: WorkItem, task: LaunchedTask) {
        guard checksWrite else {
            try? context.files.write(Self.file, protection: protection, for: work)  // the bug: error dropped
            unsavedArticles = 0
            work.finish()
            task.complete(success: true)
            return
        }
        do {
            try context.files.write(Self.file, protection: protection, for: work)
            unsavedArticles = 0
            work.finish()
            task.complete(success: true)
        } catch {
            context.probe("articles-write-refused")  // locked past the grace period, or before first unlock
            work.cancel()  // keep the articles in memory; the next foreground entry writes them
            task.complete(success: false)
        }
    }

    private func saveUnsaved(_ context: WorkloadContext) {
        guard unsavedArticles > 0 else { return }
        let work = context.startWork("save-articles")
        do {
            try context.files.write(Self.file, protection: protection, for: work)
            unsavedArticles = 0
            work.finish()
        } catch {
            work.cancel()
        }
    }
}
