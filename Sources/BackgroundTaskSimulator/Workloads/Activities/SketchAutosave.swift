import BackgroundTaskKit

/// A drawing app that saves the open sketch when the user leaves it, inside
/// `ProcessInfo.performExpiringActivity(withReason:using:)` (A9.1), as code shared with the app's
/// share extension must (extensions have no `beginBackgroundTask`, A9.2). The block starts the
/// write on the app's file queue and waits for it on a semaphore, as a `DispatchGroup.wait()`
/// does, so the assertion lasts exactly as long as the write.
///
/// ```swift
/// ProcessInfo.processInfo.performExpiringActivity(withReason: "save-sketch") { expired in
///     if expired { save.cancel(); return }   // A9.1: stop the write at once
///     save.writeAndWait()
/// }
/// ```
///
/// When the time runs out while the block waits, iOS calls the block a second time with
/// `expired` true and releases the assertion when that call returns (A9.1: "If your block is
/// still executing and the system need to suspend the process, the system executes your block a
/// second time with expired set to true"). The correct app cancels the write there (the partial
/// file is discarded; the sketch is saved again on the next background entry) and wakes the
/// waiting block, so nothing of the save runs once the app may be suspended. One lock lets
/// exactly one of the write's completion and the cancellation end the save.
///
/// The planted bug (``AutosaveIgnoringExpiry``) returns from the expired call without touching
/// the write: the first block still waits, the write goes on, and the app is suspended mid-write
/// once the expired call returns (`background-work-held`). It needs simulated threads: without
/// them the first block cannot wait, and nothing is in flight when the second call comes.
///
/// Expected: passes every invariant.
final class SketchAutosave: Workload, @unchecked Sendable {
    // @unchecked: `observation` is main's; each save keeps its state behind its own lock.
    /// Whether the expired call cancels the write (the planted bug's does not).
    let cancelsOnExpiry: Bool
    private var observation: LifecycleObservation?

    init(cancelsOnExpiry: Bool = true) {
        self.cancelsOnExpiry = cancelsOnExpiry
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let files = app.makeSerialQueue(label: "sketch-files")
        let cancelsOnExpiry = cancelsOnExpiry
        observation = context.onDidEnterBackground {
            let save = SketchSave(context, files: files)
            app.performExpiringActivity(withReason: "save-sketch") { expired in
                if expired {
                    if cancelsOnExpiry { save.cancel() }
                    return
                }
                save.writeAndWait()
            }
        }
    }
}

/// One save of the open sketch: the write on the file queue, the semaphore the activity's block
/// waits on, and the lock that orders the write's completion against its cancellation.
final class SketchSave: @unchecked Sendable {
    // @unchecked: `state` is read and written with `lock` held.
    private enum State {
        case notStarted
        case writing(WorkItem)
        case ended
    }

    private let context: WorkloadContext
    private let files: any WorkQueue
    private let lock: any HostLock
    private let written: any HostSemaphore
    private var state = State.notStarted

    init(_ context: WorkloadContext, files: any WorkQueue) {
        self.context = context
        self.files = files
        lock = context.application.makeLock(name: "sketch-save")
        written = context.application.makeSemaphore(name: "sketch-written", value: 0)
    }

    /// Starts the write and blocks the calling thread until it is written or cancelled.
    func writeAndWait() {
        let work = context.startWork("save-sketch")
        let started = lock.withLock { () -> Bool in
            guard case .notStarted = state else { return false }
            state = .writing(work)
            return true
        }
        guard started else {  // cancelled before the block ran
            work.cancel()
            return
        }
        files.asyncAfter(context.drawWorkDuration()) { [self] in
            guard let work = end() else { return }  // cancelled meanwhile: the file is discarded
            work.finish()
            written.signal()
        }
        written.wait()
    }

    /// Stops the save: a write in flight is cancelled and its waiting block woken.
    func cancel() {
        guard let work = end() else { return }
        context.probe("sketch-write-cancelled")
        work.cancel()
        written.signal()
    }

    /// Marks the save ended; returns the write in flight, if this call ended it.
    private func end() -> WorkItem? {
        lock.withLock { () -> WorkItem? in
            defer { state = .ended }
            guard case .writing(let work) = state else { return nil }
            return work
        }
    }
}
