import BackgroundTaskKit
public import BackgroundTaskSimulator
import UploadKit

/// UploadKit's workloads for BackgroundTaskKit's harness: the photo upload queue, fixed and with
/// the bugs it once had. Scenario files name them `"workload": "photo-upload"` with
/// `"variant": "correct"`, `"begins-when-empty"` or `"completes-off-main"`.
///
/// ```swift
/// BGSim.main(workloads: UploadKitWorkloads.all)                       // upload-bgsim's main.swift
/// await WorkloadCampaign(workload: UploadKitWorkloads.correct, runs: 300).expectNoViolations()  // a test
/// ```
public enum UploadKitWorkloads {
    /// The fixed queue: begins a task only when photos are pending.
    public static let correct = WorkloadInfo(
        name: "photo-upload/correct",
        summary: "uploads pending photos under one background task per background entry"
    ) { PhotoUploadWorkload() }

    /// The bug: begins the task before checking the queue, and an empty queue holds it idle.
    public static let beginsWhenEmpty = WorkloadInfo(
        name: "photo-upload/begins-when-empty",
        summary: "begins its task before checking the queue; with nothing to upload it holds the task idle"
    ) { PhotoUploadWorkload(beginsWhenEmpty: true) }

    /// The race: the completion drops the uploaded photo on the session's queue while main
    /// appends new ones.
    public static let completesOffMain = WorkloadInfo(
        name: "photo-upload/completes-off-main",
        summary: "drops each uploaded photo from its queue on the session's queue, where main appends new ones"
    ) { PhotoUploadWorkload(completesOffMain: true) }

    /// Every workload, for `BGSim.main(workloads:)`.
    public static let all = [correct, beginsWhenEmpty, completesOffMain]
}

/// Drives a ``PhotoUploadQueue`` through the simulated app's life: the user takes 0-3 photos
/// before each background entry. Uploads go through the simulator's `URLSession` (drawn times,
/// lost connections at suspension or network loss), each one declared work (`.eachRequest`), so
/// the harness checks that a background task covers it. Main-actor isolated, as an app delegate
/// is: the harness makes it and calls it on the run's main actor.
@MainActor
final class PhotoUploadWorkload: Workload {
    private let beginsWhenEmpty: Bool
    private let completesOffMain: Bool
    private var observation: LifecycleObservation?
    private var taken = 0

    init(beginsWhenEmpty: Bool = false, completesOffMain: Bool = false) {
        self.beginsWhenEmpty = beginsWhenEmpty
        self.completesOffMain = completesOffMain
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let queue = PhotoUploadQueue(
            host: context.application, session: context.makeURLSession(work: .eachRequest),
            beginsWhenEmpty: beginsWhenEmpty, completesOffMain: completesOffMain)
        observation = context.application.addLifecycleObserver { [self] event in  // on the main actor
            guard event == .didEnterBackground else { return }
            for _ in 0..<context.drawInt(in: 0...3) {
                taken += 1
                queue.enqueue("IMG_\(taken).HEIC")
            }
            queue.appDidEnterBackground()
        }
    }
}
