import BackgroundTaskKit
import Foundation

/// A photo app rebuilds its search index in the background, in chunks, one BGProcessingTask
/// each (on external power, C3.3): each chunk submits the next one a minute later; after the
/// third chunk the app publishes the index to its server (one request) and starts over. Opening
/// the app throws the partial index away (the user may change the library), as does a new
/// process. Each task's expiration handler cancels its work and completes it as failed.
///
/// ```swift
/// let rebuild = PhotoIndexRebuild()                              // the correct variant
/// let planted = PhotoIndexRebuildPublishFailureLeavesTask.make() // the deep planted bug
/// ```
///
/// Contract: every launched task is completed exactly once, on every path (a chunk done, the
/// index published or not, an expiry). Expected: passes every invariant. The planted variant's
/// publish failure only resubmits and returns, leaving the third chunk's task held and idle:
/// reached only after three processing launches in a row with the app never opened in between
/// (minutes in the background on power) and a publish that fails (the network down).
final class PhotoIndexRebuild: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; everything here is touched on main only.
    static let identifier = "com.example.photos.index-rebuild"
    /// Chunks per rebuild; the last one publishes.
    static let chunks = 3
    private var observation: LifecycleObservation?
    private var chunksDone = 0
    /// The work of the running task (a chunk, then the publish), which its expiry cancels.
    private var running: WorkItem?
    /// Whether a failed publish leaves its task uncompleted (the planted bug).
    let publishFailureLeavesTask: Bool

    init(publishFailureLeavesTask: Bool = false) {
        self.publishFailureLeavesTask = publishFailureLeavesTask
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let scheduler = context.taskScheduler
        _ = scheduler.register(forTaskWithIdentifier: Self.identifier, using: app.mainQueue) { [unowned self] task in
            runChunk(task, context)
        }
        observation = app.addLifecycleObserver { [unowned self] event in
            switch event {
            case .willEnterForeground: chunksDone = 0  // the library may change: start over
            case .didEnterBackground: submitChunk(scheduler)
            default: break
            }
        }
    }

    private func submitChunk(_ scheduler: any TaskSchedulerHost) {
        try? scheduler.submit(TaskRequest(
            identifier: Self.identifier,
            kind: .processing(requiresNetworkConnectivity: false, requiresExternalPower: true),
            earliestBeginDate: scheduler.now.addingTimeInterval(60)))
    }

    private func runChunk(_ task: any ScheduledTask, _ context: WorkloadContext) {
        let app = context.application
        let work = context.startWork("index-chunk")
        running = work
        task.expirationHandler = { [unowned self] in
            running?.cancel()
            running = nil
            chunksDone = 0
            task.setTaskCompleted(success: false)
        }
        app.backgroundQueue.asyncAfter(context.drawWorkDuration()) { [unowned self] in
            app.mainQueue.async { [unowned self] in
                guard !work.isDone else { return }  // expired meanwhile
                work.finish()
                running = nil
                chunksDone += 1
                guard chunksDone >= Self.chunks else {
                    submitChunk(context.taskScheduler)
                    task.setTaskCompleted(success: true)
                    return
                }
                context.probe("index-rebuild-publishing")
                publish(task, context)
            }
        }
    }

    private func publish(_ task: any ScheduledTask, _ context: WorkloadContext) {
        let work = context.startWork("publish-index")
        running = work
        context.network.request("publish-index", for: work, timeout: .seconds(30)) { [unowned self] result in
            guard !work.isDone else { return }  // expired meanwhile
            chunksDone = 0
            running = nil
            switch result {
            case .success:
                work.finish()
                task.setTaskCompleted(success: true)
            case .failure:
                context.probe("index-rebuild-publish-failed")
                work.cancel()
                submitChunk(context.taskScheduler)  // rebuild again later
                if !publishFailureLeavesTask { task.setTaskCompleted(success: false) }
            }
        }
    }
}
