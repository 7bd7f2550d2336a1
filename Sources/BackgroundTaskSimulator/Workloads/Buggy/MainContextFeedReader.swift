import BackgroundTaskKit

/// A news reader refreshes its feeds when the user leaves, under a background task: the articles
/// download on the global queue, then the results are merged into the main (view) context and
/// saved there, on the main queue, before the task ends. For a large refresh that merge and save
/// block the main thread for seconds.
///
/// ```swift
/// app.mainQueue.async {
///     app.performBlockingWork(for: mergeAndSave)   // the view context's save, on main
///     app.endBackgroundTask(id)
/// }
/// ```
///
/// The race: when the downloads finish shortly before the expiry callout, the merge is still
/// blocking main when the system calls the expiration handler (A3.1: on the main thread), and the
/// handler waits behind it. A merge still running at the deadline gets the app killed there with
/// the task held (A7.1, A10.4), although it would have ended the task a moment later. With one
/// thread the merge's job ends the task before the overdue callout and deadline are handled, so
/// the run passes (`concurrency` off).
///
/// Expected: `no-watchdog-kill`.
final class MainContextFeedReader: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; the box is touched on main only.
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.onDidEnterBackground { Self.refresh(context) }
    }

    static func refresh(_ context: WorkloadContext) {
        let app = context.application
        let work = context.startWork("refresh-feeds")
        let box = IdentifierBox()
        box.id = app.beginBackgroundTask(withName: "refresh-feeds") {
            work.cancel()
            app.endBackgroundTask(box.id)
            box.id = .invalid
        }
        let feeds = context.drawInt(in: 5...60)
        app.backgroundQueue.asyncAfter(context.drawWorkDuration()) {  // the downloads
            app.mainQueue.async {
                guard box.id != .invalid else { return }  // expired meanwhile
                // The bug: merge and save in the view context, on main (about 0.2 s per feed).
                app.performBlockingWork(for: .milliseconds(200 * feeds))
                work.finish()
                app.endBackgroundTask(box.id)
                box.id = .invalid
            }
        }
    }
}
