import BackgroundTaskKit

/// The analytics flush (mixpanel / urbanairship, bug pattern P2) done right: on leaving the
/// foreground ``BackgroundWork/inTheBackground(name:onExpiration:_:)`` serialises the queued
/// events under its own task, then a ``BackgroundTaskToken`` token covers the upload, sent in
/// batches that stop when time runs out. The token ends the task inside the expiration handler.
///
/// Expected: passes every invariant.
final class BatchedEventFlusher: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; state that several threads reach is
    // guarded where the workload says so.
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let background = BackgroundWork(host: app)
        observation = context.onDidEnterBackground {
            background.inTheBackground(name: "serialise-events") {
                // Quick, synchronous: a few milliseconds of encoding on the background queue.
            }
            Self.upload(batches: context.drawInt(in: 1...4), context)
        }
    }

    static func upload(batches: Int, _ context: WorkloadContext) {
        let app = context.application
        let work = context.startWork("flush-events")
        let task = BackgroundTaskToken(name: "flush-events", host: app) { work.cancel() }
        @Sendable func send(_ remaining: Int) {
            guard remaining > 0, !work.isDone else {
                if !work.isDone { work.finish() }
                task.invalidate()
                return
            }
            app.backgroundQueue.asyncAfter(context.drawWorkDuration() / 4) { send(remaining - 1) }
        }
        send(batches)
    }
}
