import BackgroundTaskKit

/// A photo app that backs up new photos through a background `URLSession` (D1): photos taken
/// while the app is open are queued; on `didEnterBackground` each queued photo becomes an upload
/// task of the session `com.example.gallery.uploads`, which the system runs while the app is
/// suspended or not running. The session is made at every launch with that fixed identifier;
/// `handleEventsForBackgroundURLSession` keeps its completion handler in BackgroundTaskKit's
/// ``BackgroundSessionCompletion``, and `urlSessionDidFinishEvents` releases it (on main, once).
/// A failed or cancelled upload (a force-quit cancels them) goes back to the queue.
///
/// Expected: passes every invariant, the two background-session invariants included, also under
/// the fault storm and on iOS 12.
final class GalleryUploads: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; the photo queue is touched only on main.
    /// The ways the session's wake handling goes wrong (the planted bugs).
    enum Flaw: Sendable {
        /// Every wake's handler is kept and called after its events.
        case none
        /// `handleEventsForBackgroundURLSession` reconnects and calls the handler at once.
        case completesBeforeEvents
        /// The session's identifier carries a new value on every launch.
        case identifierPerLaunch
        /// The handler is handed to the gallery's view controller, which only a UI launch makes.
        case handlerKeptByViewController
    }

    static let identifier = "com.example.gallery.uploads"

    private let flaw: Flaw
    private var observation: LifecycleObservation?
    private var queued: [String] = []
    private var uploaded = 0
    private var nextPhoto = 1
    private var session: BackgroundURLSession?
    private var completions: BackgroundSessionCompletion?
    /// The gallery screen, made when the scene connects (``Flaw/handlerKeptByViewController``).
    private var viewController: GalleryViewController?

    init(flaw: Flaw = .none) { self.flaw = flaw }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        completions = BackgroundSessionCompletion(mainQueue: app.mainQueue)
        // The background session is made at launch, so a relaunch for its events reconnects it.
        let identifier = flaw == .identifierPerLaunch ? "\(Self.identifier).\(app.process)" : Self.identifier
        session = makeSession(identifier, context)
        observation = app.addLifecycleObserver { [unowned self] event in
            switch event {
            case .didBecomeActive: takePhotos(context)
            case .didEnterBackground: uploadQueued()
            default: break
            }
        }
        context.onBackgroundURLSessionEvents { [unowned self] identifier, completionHandler in
            handleEvents(identifier, completionHandler, context)
        }
        if !app.profile.supportsScenes { viewController = GalleryViewController() }
    }

    func sceneWillConnect(_ context: WorkloadContext) {
        if viewController == nil { viewController = GalleryViewController() }
    }

    /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`.
    private func handleEvents(_ identifier: String, _ completionHandler: @escaping @Sendable () -> Void,
                              _ context: WorkloadContext) {
        switch flaw {
        case .none, .identifierPerLaunch:
            completions?.store(completionHandler, forSession: identifier)
            if session?.identifier != identifier, flaw == .none { session = makeSession(identifier, context) }
        case .completesBeforeEvents:
            if session == nil { session = makeSession(identifier, context) }
            completionHandler()  // the bug: "reconnected, done", before any event was delivered
        case .handlerKeptByViewController:
            // The bug: the screen that shows upload progress keeps the handler, but a background
            // relaunch connects no scene, so there is no screen and the handler is dropped.
            viewController?.backgroundCompletionHandler = completionHandler
        }
    }

    private func makeSession(_ identifier: String, _ context: WorkloadContext) -> BackgroundURLSession {
        let main = context.application.mainQueue
        return context.backgroundURLSession(identifier: identifier, onTaskCompleted: { [unowned self] transfer, result in
            main.async { [unowned self] in record(transfer, result) }
        }, onFinishEvents: { [unowned self] session in
            switch flaw {
            case .handlerKeptByViewController:
                main.async { [unowned self] in
                    viewController?.backgroundCompletionHandler?()
                    viewController?.backgroundCompletionHandler = nil
                }
            default:
                completions?.sessionDidFinishEvents(session.identifier)
            }
        })
    }

    /// The user took one or two photos while the app was open.
    private func takePhotos(_ context: WorkloadContext) {
        for _ in 0..<context.drawInt(in: 1...2) {
            queued.append("IMG_\(nextPhoto).heic")
            nextPhoto += 1
        }
    }

    /// Hands every queued photo to the system before the app is suspended.
    private func uploadQueued() {
        guard let session else { return }
        let photos = queued
        queued = []
        for photo in photos { session.upload(photo) }
    }

    private func record(_ transfer: BackgroundTransfer, _ result: Result<Void, BackgroundTransferError>) {
        switch result {
        case .success: uploaded += 1
        case .failure: queued.append(transfer.name)  // failed or cancelled by a force-quit: try again
        }
    }
}

/// The gallery's screen (``GalleryUploads``' planted `handler-kept-by-view-controller`): it shows
/// upload progress and, in that variant, keeps the background session's completion handler.
final class GalleryViewController: @unchecked Sendable {
    // @unchecked: touched only on main.
    var backgroundCompletionHandler: (@Sendable () -> Void)?
}
