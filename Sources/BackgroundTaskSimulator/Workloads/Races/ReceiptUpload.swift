import BackgroundTaskKit

/// An expense app that uploads a scanned receipt when the user leaves it: the upload runs on the
/// global queue under a background task begun on main. Whoever gets there first, the upload's
/// completion or the expiration handler (on main, A3.1), ends the task; a `didComplete` flag
/// says whether that already happened.
///
/// ```swift
/// func complete() {                          // upload worker, or expiration handler on main
///     guard !didComplete.value else { return }
///     didComplete.value = true               // check-then-act: not atomic without the lock
///     work.finish(); app.endBackgroundTask(task)
/// }
/// ```
///
/// Planted (`guarded: false`): the flag is read on one thread and set on the other with nothing
/// ordering them, a data race on `didComplete` whenever the handler runs for an upload that
/// outlasts the background time (A1.4: the handler must be coordinated with the other thread).
/// In the rare schedule where both pass the check, the task is also ended twice (A5.2).
/// Correct twin (`guarded: true`): the same code with the check, the set and the end in one
/// critical section of a ``HostLock`` both threads take, so the task has ended when the handler
/// returns (A3.2) and is ended once.
///
/// Expected: `no-data-race` planted; passes every invariant guarded.
final class ReceiptUpload: Workload, @unchecked Sendable {
    // @unchecked: `uploads` is main's; each upload's flag is a `SharedState` (guarded: behind its lock).
    private let guarded: Bool
    private var observation: LifecycleObservation?
    /// Every upload of this process, kept while it lives (the app lists them). This also keeps each
    /// upload's `SharedState` at its own address for the whole run: the race checker deduplicates
    /// reported races by the state's address, so a freed state's address reused by a later one would
    /// make a report depend on the allocator (nondeterministic).
    private var uploads: [Upload] = []

    init(guarded: Bool) { self.guarded = guarded }

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.onDidEnterBackground { [self] in uploads.append(Upload.start(context, guarded: guarded)) }
    }

    /// One receipt's upload, from background entry to its task's end.
    private final class Upload: @unchecked Sendable {
        // @unchecked: `task` is written once on main before any other thread sees the upload.
        let didComplete: SharedState<Bool>
        let lock: (any HostLock)?
        let work: WorkItem
        var task = BackgroundTaskIdentifier.invalid

        init(_ context: WorkloadContext, guarded: Bool) {
            let app = context.application
            didComplete = app.makeShared(name: "receipt-upload didComplete", initialValue: false)
            lock = guarded ? app.makeLock(name: "receipt-upload") : nil
            work = context.startWork("receipt-upload")
        }

        /// On main: begins the task and starts the upload on the global queue.
        static func start(_ context: WorkloadContext, guarded: Bool) -> Upload {
            let app = context.application
            let upload = Upload(context, guarded: guarded)
            upload.task = app.beginBackgroundTask(withName: "receipt-upload") {
                upload.complete(app, finished: false)
            }
            guard upload.task != .invalid else {
                upload.work.cancel()  // refused (A2.1): the receipt waits for the next background entry
                return upload
            }
            let duration = context.drawDuration(in: .seconds(2) ... .seconds(90))
            app.backgroundQueue.async {
                app.performBlockingWork(for: duration)  // the upload
                upload.complete(app, finished: true)
            }
            return upload
        }

        /// Ends the upload's task unless the other thread already did.
        func complete(_ app: SimulatedApplication, finished: Bool) {
            guard let lock else { return completeOnce(app, finished: finished) }  // the planted race
            lock.withLock { completeOnce(app, finished: finished) }
        }

        private func completeOnce(_ app: SimulatedApplication, finished: Bool) {
            guard !didComplete.value else { return }
            didComplete.value = true
            if finished { work.finish() } else { work.cancel() }
            app.endBackgroundTask(task)
        }
    }
}
