import BackgroundTaskKit

/// A photo app's upload queue, kept right across every kind of termination: the user queues
/// photos in the foreground (a change to the `upload-queue` ``DurableRecord``); leaving the
/// foreground saves the queue at once, then uploads it under a ``BackgroundTaskToken``; the
/// upload's completion removes the sent photos and saves again before it ends the task;
/// `applicationWillTerminate` saves as a last resort (it comes only for a running app: a
/// force-quit from the app switcher, B3.3).
///
/// Expected: passes every invariant, including `work-survives-termination` under jetsam of the
/// suspended app (B3.4), which sends no callback at all.
final class PhotoUploadQueue: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; the record is touched only on the main
    // queue.
    private var observation: LifecycleObservation?
    /// Whether the app saves when it leaves the foreground (the planted bug turns this off).
    let savesOnBackground: Bool

    init(savesOnBackground: Bool = true) {
        self.savesOnBackground = savesOnBackground
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let queue = context.durableRecord("upload-queue")
        let savesOnBackground = self.savesOnBackground
        observation = context.application.addLifecycleObserver { event in
            switch event {
            case .didBecomeActive:
                if context.draw(probability: 0.7) { queue.change() }  // the user queued photos
            case .didEnterBackground:
                if savesOnBackground { queue.save() }
                Self.upload(queue, context: context, savesWhenDone: savesOnBackground)
            case .willTerminate:
                queue.save()  // B3.3: only a running app gets here
            default:
                break
            }
        }
    }

    /// Uploads the queue under a task; the completion removes the sent photos from the queue
    /// (a change) and, when `savesWhenDone`, saves it in the same main-queue job.
    static func upload(_ queue: DurableRecord, context: WorkloadContext, savesWhenDone: Bool) {
        let app = context.application
        let work = context.startWork("upload-photos")
        let task = BackgroundTaskToken(name: "upload-photos", host: app) { work.cancel() }
        app.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
            app.mainQueue.async {
                if !work.isDone {
                    work.finish()
                    queue.change()  // the sent photos leave the queue
                    if savesWhenDone { queue.save() }
                }
                task.invalidate()
            }
        }
    }
}
