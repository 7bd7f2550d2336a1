import BackgroundTaskKit
public import BackgroundTaskSimulator
import DeterministicSimulation
import UploadKit

/// UploadKit's workloads for BackgroundTaskKit's harness: the photo upload queue, fixed and with
/// the bug it once had. Scenario files name them `"workload": "photo-upload"` with
/// `"variant": "correct"` or `"variant": "begins-when-empty"`.
///
/// ```swift
/// BGSim.main(workloads: UploadKitWorkloads.all)                       // upload-bgsim's main.swift
/// let report = WorkloadCampaign(workload: UploadKitWorkloads.correct, runs: 300).run()  // a test
/// ```
public enum UploadKitWorkloads {
    /// The fixed queue: begins a task only when photos are pending.
    public static let correct = WorkloadInfo(
        name: "photo-upload/correct",
        summary: "uploads pending photos under one background task per background entry"
    ) { PhotoUploadWorkload(beginsWhenEmpty: false) }

    /// The bug: begins the task before checking the queue, and an empty queue holds it idle.
    public static let beginsWhenEmpty = WorkloadInfo(
        name: "photo-upload/begins-when-empty",
        summary: "begins its task before checking the queue; with nothing to upload it holds the task idle"
    ) { PhotoUploadWorkload(beginsWhenEmpty: true) }

    /// Every workload, for `BGSim.main(workloads:)`.
    public static let all = [correct, beginsWhenEmpty]
}

/// Drives a ``PhotoUploadQueue`` through the simulated app's life: the user takes 0-3 photos
/// before each background entry, and uploads take drawn times on the simulated network.
final class PhotoUploadWorkload: Workload, @unchecked Sendable {
    // @unchecked: set once in didFinishLaunching, on the simulated main thread.
    private let beginsWhenEmpty: Bool
    private var observation: LifecycleObservation?
    private var queue: PhotoUploadQueue?
    private var taken = 0

    init(beginsWhenEmpty: Bool) {
        self.beginsWhenEmpty = beginsWhenEmpty
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let queue = PhotoUploadQueue(
            host: context.application, uploader: SimulatedPhotoUploader(context: context),
            beginsWhenEmpty: beginsWhenEmpty)
        self.queue = queue
        observation = context.onDidEnterBackground { [self] in
            for _ in 0..<context.drawInt(in: 0...3) {
                taken += 1
                queue.enqueue("IMG_\(taken).HEIC")
            }
            queue.appDidEnterBackground()
        }
    }
}

/// The simulated network: each upload takes a drawn time on the app's background queue and fails
/// one time in eight; every upload in flight is declared to the harness as work (`startWork`),
/// so it checks that a task covers it.
final class SimulatedPhotoUploader: PhotoUploader, @unchecked Sendable {
    // @unchecked: `inFlight` is touched only holding `lock` (a simulated lock: the main thread
    // and the background queue's thread both reach it).
    private let context: WorkloadContext
    private let lock: SimulatedLock
    private var inFlight: [(photo: String, work: WorkItem, completion: @Sendable (Bool) -> Void)] = []

    init(context: WorkloadContext) {
        self.context = context
        lock = context.makeLock("uploads")
    }

    func upload(_ photo: String, completion: @escaping @Sendable (Bool) -> Void) {
        let work = context.startWork("upload \(photo)")
        lock.withLock { inFlight.append((photo, work, completion)) }
        let fails = context.drawInt(in: 1...8) == 1
        context.application.backgroundQueue.asyncAfter(context.drawWorkDuration()) { [self] in
            // The upload leaves `inFlight` and stops being work in the same critical section:
            // finished outside it, a `cancelAll` between the two (the expiration handler on
            // main) found nothing to cancel, and the task ended under a still-running upload
            // (the harness found that race in an earlier version of this example).
            let completion = lock.withLock { () -> (@Sendable (Bool) -> Void)? in
                guard let index = inFlight.firstIndex(where: { $0.work === work }) else { return nil }
                let entry = inFlight.remove(at: index)
                if !entry.work.isDone { entry.work.finish() }
                return entry.completion
            }
            completion?(!fails)  // nil: cancelled meanwhile
        }
    }

    func cancelAll() {
        let cancelled = lock.withLock { () -> [@Sendable (Bool) -> Void] in
            defer { inFlight.removeAll() }
            for entry in inFlight where !entry.work.isDone { entry.work.cancel() }
            return inFlight.map(\.completion)
        }
        if !cancelled.isEmpty { context.probe("uploads-cancelled-by-expiry") }
        for completion in cancelled { completion(false) }
    }
}
