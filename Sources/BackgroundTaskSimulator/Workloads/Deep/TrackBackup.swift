import BackgroundTaskKit

/// A hiking app backs up the recorded track when it leaves the foreground: one background task,
/// kept in a property for the whole backup, and one upload request. A lost connection (the
/// network dropped mid-upload) is retried after a one-second back-off, at most three times in
/// one backup; then the backup gives up until the next background entry. Any other failure (no
/// connection at all, a timeout) ends the backup at once. The expiration handler cancels the
/// upload and drops the task.
///
/// ```swift
/// let backup = TrackBackup()                               // the correct variant
/// let planted = TrackBackupKeepsTaskWhenGivingUp.make()    // the deep planted bug
/// ```
///
/// Contract: every path out of a backup (success, a failure, giving up, expiry) invalidates
/// the token and clears the property, so no task is held once the upload stopped. Expected:
/// passes every invariant. The planted variant forgets that on the give-up path, which only a
/// backup that lost its connection three times (down, up within the back-off, down again
/// during the retry, twice) ever takes: a deep bug.
final class TrackBackup: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; everything here is touched on main only.
    /// Lost connections one backup retries before giving up.
    static let maximumLostConnections = 3
    private var observation: LifecycleObservation?
    private var task: BackgroundTaskToken?
    private var lostConnections = 0
    /// Whether the give-up path forgets to end the task (the planted bug).
    let keepsTaskWhenGivingUp: Bool

    init(keepsTaskWhenGivingUp: Bool = false) {
        self.keepsTaskWhenGivingUp = keepsTaskWhenGivingUp
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.application.addLifecycleObserver { [unowned self] event in
            if event == .didEnterBackground { startBackup(context) }
        }
    }

    private func startBackup(_ context: WorkloadContext) {
        guard task == nil else { return }  // the previous backup is still running
        let work = context.startWork("backup-track")
        let token = BackgroundTaskToken(name: "backup-track", host: context.application) { [unowned self] in
            work.cancel()  // time ran out: the token ends the task after this handler
            task = nil
        }
        guard token.isRunning else { return }  // refused (A2.1): the next background entry retries
        task = token
        lostConnections = 0
        upload(work, context)
    }

    private func upload(_ work: WorkItem, _ context: WorkloadContext) {
        context.network.request("upload-track", for: work, timeout: .seconds(30)) { [unowned self] result in
            guard !work.isDone else { return }  // expired meanwhile
            switch result {
            case .success:
                work.finish()
                endBackup()
            case .failure(.networkConnectionLost) where lostConnections + 1 < Self.maximumLostConnections:
                lostConnections += 1
                context.probe("track-backup-retry-after-lost-connection")
                context.application.mainQueue.asyncAfter(.seconds(1)) { [unowned self] in
                    guard !work.isDone else { return }
                    upload(work, context)
                }
            case .failure(.networkConnectionLost):
                context.probe("track-backup-gave-up")
                work.cancel()  // a flaky network: the next background entry tries again
                if !keepsTaskWhenGivingUp { endBackup() }
            case .failure:
                work.cancel()
                endBackup()
            }
        }
    }

    private func endBackup() {
        task?.invalidate()
        task = nil
    }
}
