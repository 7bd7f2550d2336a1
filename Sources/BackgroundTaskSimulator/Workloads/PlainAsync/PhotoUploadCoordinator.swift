import BackgroundTaskKit
import Synchronization

/// A photo-sharing app's upload coordinator as Swift 6 code keeps shared state: an `actor`. The
/// app flushes the photos waiting to upload when it becomes active and when it leaves the
/// foreground; a flush asks the photo library how many wait, then uploads them under a
/// background task (BackgroundTaskKit's token, which ends itself in its expiration handler,
/// A3.2) whose expiry cancels the upload. A flush that finds another in progress returns.
///
/// ```swift
/// // in sceneDidBecomeActive and sceneDidEnterBackground:
/// Task { await coordinator.flush() }
/// ```
///
/// Actor methods are reentrant: at every `await` another call may run on the actor. The correct
/// coordinator marks the flush in progress before its first `await`, so a call that comes while
/// it asks the library returns. The planted bug (``Claim/whenUploadStarts``) lets the stored
/// token say "in progress", and stores it only once the count is known: a background entry while
/// a flush counts passes the same check, and two flushes run, each storing its token over the
/// other's. The first to finish invalidates the stored token, which is the other flush's, so that
/// upload runs on with nothing held (`background-work-held`).
///
/// Contract (``Claim/beforeFirstAwait``): one flush at a time; every token it makes is ended
/// by that flush or by its expiry; a begin the system refuses (A2.1) uploads nothing (the photos
/// wait for the next flush).
///
/// Expected: `actor-reentrancy/correct` passes every invariant; `claims-after-await` violates
/// `background-work-held`.
actor PhotoUploadCoordinator {
    /// When a flush marks itself in progress.
    enum Claim: Sendable {
        /// Before its first `await` (correct).
        case beforeFirstAwait
        /// When its upload starts, by storing its token, after the count (the planted bug).
        case whenUploadStarts
    }

    private let host: any BackgroundTaskHost
    private let api: any APIClient
    private let library: any PhotoLibrary
    private let claim: Claim
    /// The flush in progress has claimed the coordinator (``Claim/beforeFirstAwait``).
    private var claimed = false
    /// The background task of the upload in progress.
    private var token: BackgroundTaskToken?

    init(host: any BackgroundTaskHost, api: any APIClient, library: any PhotoLibrary, claim: Claim = .beforeFirstAwait) {
        self.host = host
        self.api = api
        self.library = library
        self.claim = claim
    }

    /// Uploads the photos waiting, unless a flush is in progress.
    func flush() async {
        guard !claimed, token == nil else { return }
        if claim == .beforeFirstAwait { claimed = true }
        defer { claimed = false }
        let waiting = await library.countWaitingForUpload()  // a reentrant call may run here
        guard waiting > 0 else { return }
        let cancellation = UploadCancellation()
        let token = BackgroundTaskToken(name: "upload-photos", host: host) { cancellation.cancel() }
        guard token.isRunning else { return }  // refused (A2.1): the photos wait for the next flush
        self.token = token
        let api = api
        let upload = Task {
            for _ in 0..<waiting {
                do { try await api.send("upload-photo") } catch { return }
            }
        }
        cancellation.start(upload)
        await upload.value
        self.token?.invalidate()
        self.token = nil
    }
}

/// The photo library, asked how many photos wait for upload (a PhotoKit fetch or a database
/// read: asynchronous, and not work that must finish once begun).
protocol PhotoLibrary: Sendable {
    func countWaitingForUpload() async -> Int
}

/// Cancels an upload from a token's expiration handler, which runs on main, synchronously
/// (A3.1), and may come before the upload's `Task` exists: a real `Mutex`, held for no
/// scheduling point.
final class UploadCancellation: Sendable {
    private let state = Mutex<(upload: Task<Void, Never>?, cancelled: Bool)>((nil, false))

    /// The expiration handler: cancels the upload, now or as soon as it starts.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            return state.upload
        }?.cancel()
    }

    /// The upload started: cancelled at once if the handler came first.
    func start(_ upload: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            state.upload = upload
            return state.cancelled
        }
        if cancelled { upload.cancel() }
    }
}

/// ``PhotoLibrary`` on the simulated device: a read of a drawn 0.1 to 2 s (waited with a plain
/// `Task.sleep`, virtual time inside a run) that finds 1 to 4 photos waiting.
struct SimulatedPhotoLibrary: PhotoLibrary {
    let context: WorkloadContext

    func countWaitingForUpload() async -> Int {
        try? await Task.sleep(for: context.drawDuration(in: .milliseconds(100) ... .seconds(2)))  // tidy: allow virtual in a run
        return context.drawInt(in: 1...4)
    }
}

/// The harness side: the app's coordinator, made once per process, flushed from `Task {}` on
/// every `didBecomeActive` and `didEnterBackground` (on the main actor, as UIKit calls them).
final class PhotoUploadCoordinatorWorkload: Workload, @unchecked Sendable {
    // @unchecked: the observation is touched on the simulated main queue only.
    private let claim: PhotoUploadCoordinator.Claim
    private var observation: LifecycleObservation?

    init(claim: PhotoUploadCoordinator.Claim = .beforeFirstAwait) {
        self.claim = claim
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let coordinator = PhotoUploadCoordinator(
            host: context.application, api: SimulatedAPIClient(context: context),
            library: SimulatedPhotoLibrary(context: context), claim: claim)
        observation = context.application.addLifecycleObserver { event in
            guard event == .didBecomeActive || event == .didEnterBackground else { return }
            Task { await coordinator.flush() }
        }
    }
}
