import BackgroundTaskKit

/// A video editor's Export button on iOS 26: the export runs as a continued-processing task,
/// submitted from the foreground when the user taps Export, so it goes on after the user leaves
/// the app (C6.1). Here the user taps Export each time the app becomes active with no export of
/// this process running.
///
/// ```swift
/// let identifier = "com.example.videoexport.export.\(nextExport)"   // a fresh one per export
/// BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
///     let export = Task { await exporter.run(reporting: task.progress); task.setTaskCompleted(success: …) }
///     task.expirationHandler = { export.cancel() }
/// }
/// try BGTaskScheduler.shared.submit(BGContinuedProcessingTaskRequest(identifier: identifier, …))
/// ```
///
/// Contract: every export registers its own identifier under the `…export.*` wildcard (C6.2:
/// registration may come after launch, but a second registration of one identifier crashes the
/// app, so apps register a fresh identifier per request). The export is a Swift `Task` of eight
/// chunks of 1 to 5 s; progress is reported after each (C6.6), well inside the stall limit
/// (C6.7). Expiry (the user cancels the Live Activity, a stall, C6.8) cancels the `Task`, which
/// stops its chunk and completes the task unsuccessfully; a finished export completes it
/// successfully; exactly once either way. A refused submission (C2.3) waits for the next tap;
/// a request queued behind a busy system (C6.4, strategy `.queue`) starts when the system lets
/// it. Before iOS 26 (no continued processing: the wildcard permits nothing, so `register`
/// returns false) the same export runs under a background task whose expiry cancels it.
///
/// The planted bug (``ExportReusingIdentifier``) registers one fixed identifier on every tap: the
/// first export works, and the second tap in the same process registers it again and crashes the
/// app with "Launch handler for task with identifier … has already been registered"
/// (`bgtask-registered-in-time`).
///
/// Expected: passes every invariant.
final class VideoExport: Workload, @unchecked Sendable {
    // @unchecked: `exporting` and `nextExport` are main's (lifecycle callbacks); the launch handler
    // and the export's Task touch only the task they are given.
    static let identifiers = ["com.example.videoexport.export.*"]
    static let chunks = 8

    /// Whether each export registers a fresh identifier (the planted bug reuses one).
    let freshIdentifiers: Bool
    private var observation: LifecycleObservation?
    /// Whether an export of this process is submitted and not yet completed.
    private var exporting = false
    private var nextExport = 1

    init(freshIdentifiers: Bool = true) {
        self.freshIdentifiers = freshIdentifiers
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = app.addLifecycleObserver { [self] event in
            if event == .didBecomeActive { exportTapped(context) }
        }
    }

    /// The Export button: registers this export's identifier and submits its request.
    private func exportTapped(_ context: WorkloadContext) {
        guard !exporting else { return }
        let identifier: String
        if freshIdentifiers {
            identifier = "com.example.videoexport.export.\(nextExport)"
            nextExport += 1
        } else {
            identifier = "com.example.videoexport.export.current"
        }
        let main = context.application.mainQueue
        let registered = context.taskScheduler.register(forTaskWithIdentifier: identifier, using: nil) { task in
            let export = Task {
                let success = await Self.export(reporting: task, context)
                task.setTaskCompleted(success: success)
                main.async { [self] in exporting = false }
            }
            task.expirationHandler = { export.cancel() }
        }
        guard registered else {
            // Before iOS 26 the wildcard permits nothing (C1.2, C6.2): export the old way.
            exportUnderBackgroundTask(context)
            return
        }
        let request = TaskRequest(identifier: identifier,
                                  kind: .continuedProcessing(title: "Exporting video", subtitle: "", strategy: .queue))
        do {
            try context.taskScheduler.submit(request)
            exporting = true
        } catch {
            context.probe("video-export-submission-refused")  // the next tap tries again
        }
    }

    /// The export before iOS 26: a Swift task under a background task (BackgroundTaskKit's
    /// ``BackgroundTaskToken/task(name:host:executorPreference:onExpiration:operation:)``), which
    /// expiry cancels; an export that outlasts the background time is cut short and waits for the
    /// next tap.
    private func exportUnderBackgroundTask(_ context: WorkloadContext) {
        exporting = true
        let main = context.application.mainQueue
        let export = BackgroundTaskToken.task(name: "video-export", host: context.application) {
            _ = await Self.export(reporting: nil, context)
        }
        Task {
            _ = try? await export.value
            main.async { [self] in exporting = false }
        }
    }

    /// Exports chunk by chunk, reporting progress to `task` after each; false once the `Task` is
    /// cancelled.
    private static func export(reporting task: (any ScheduledTask)?, _ context: WorkloadContext) async -> Bool {
        for chunk in 1...chunks {
            let work = context.startWork("export-chunk")
            do {
                try await Task.sleep(for: context.drawDuration(in: .seconds(1) ... .seconds(5)))  // tidy: allow virtual in a run
            } catch {
                context.probe("video-export-cancelled")
                work.cancel()
                return false
            }
            work.finish()
            task?.updateProgress(completedUnitCount: Int64(chunk), totalUnitCount: Int64(chunks))
        }
        return true
    }
}
