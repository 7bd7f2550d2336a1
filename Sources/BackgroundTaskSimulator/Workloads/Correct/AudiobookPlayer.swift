import BackgroundTaskKit
import Foundation

/// An audiobook player: opening the app starts the current chapter under an audio session (D5),
/// which keeps the app running in the background until the chapter ends; leaving the app starts
/// downloading the next chapter under a background task. The task's expiration handler cancels
/// the download and ends the task: it is not needed while the chapter plays (A4.8: no expiry
/// while audio holds the app), but the chapter may end before the download does, and from then on
/// the app has the usual 30 s.
///
/// Expected: passes every invariant.
class AudiobookPlayer: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; the state is touched on main only.
    var observation: LifecycleObservation?
    /// The chapter playing, and its audio session.
    var playback: BackgroundModeAssertion?
    var chapter = 0
    var downloading = false

    required init() {}

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.application.addLifecycleObserver { [unowned self] event in
            switch event {
            case .didBecomeActive: playChapter(context)
            case .didEnterBackground: downloadNextChapter(context)
            default: break
            }
        }
    }

    /// Plays the current chapter if nothing plays: 20 s to 5 min of audio, then the session ends.
    func playChapter(_ context: WorkloadContext) {
        guard playback == nil, let session = context.beginBackgroundModeAssertion(.audio) else { return }
        playback = session
        chapter += 1
        let playing = chapter
        let length = context.drawDuration(in: .seconds(20)...(.seconds(300)))
        context.application.mainQueue.asyncAfter(length) { [unowned self] in
            guard chapter == playing else { return }
            playback?.end()  // the chapter is over: nothing holds the app now but its tasks
            playback = nil
        }
    }

    /// Downloads the next chapter (10 s to 2 min) under a background task.
    func downloadNextChapter(_ context: WorkloadContext) {
        guard !downloading else { return }
        let app = context.application
        let download = context.startWork("download-chapter")
        let task = TaskID()
        task.id = beginDownloadTask(app) { [unowned self] in
            download.cancel()  // resumed on the next background entry
            app.endBackgroundTask(task.id)
            downloading = false  // the handler runs on main (A3.1)
        }
        guard task.id != .invalid else {  // no background time (A2.1): try next time
            download.cancel()
            return
        }
        downloading = true
        app.backgroundQueue.asyncAfter(context.drawDuration(in: .seconds(10)...(.seconds(120)))) {
            guard !download.isDone else { return }
            download.finish()
            app.endBackgroundTask(task.id)
            app.mainQueue.async { [unowned self] in downloading = false }
        }
    }

    /// Begins the download's task; `cancel` is its expiration handler.
    func beginDownloadTask(_ app: SimulatedApplication, cancel: @escaping @Sendable () -> Void) -> BackgroundTaskIdentifier {
        app.beginBackgroundTask(withName: "download-chapter", expirationHandler: cancel)
    }

    /// The identifier a handler and a completion share.
    final class TaskID: @unchecked Sendable {
        var id = BackgroundTaskIdentifier.invalid
    }
}
