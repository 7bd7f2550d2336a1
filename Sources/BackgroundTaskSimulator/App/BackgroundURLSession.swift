import BackgroundTaskKit
import DeterministicSimulation

/// Why a background transfer did not succeed.
public enum BackgroundTransferError: String, Error, Sendable, CaseIterable, CustomStringConvertible {
    /// `NSURLErrorCancelled` with `NSURLErrorBackgroundTaskCancelledReasonKey` =
    /// `userForceQuitApplication`: the user force-quit the app and the system cancelled the
    /// session's pending transfers (D1, B4.2).
    case cancelledByForceQuit
    /// The transfer failed (a server error, a connection that failed for good): drawn with
    /// ``OSProfile/backgroundTransferFailureProbability``.
    case failed

    public var description: String { rawValue }
}

/// One upload or download task of a background session, numbered from 1 in each run.
public struct BackgroundTransfer: Sendable, Equatable {
    /// The task's number in the run, as `urlsession.transfer` events give it.
    public let number: Int
    /// The session's identifier.
    public let session: String
    /// What the app called it (a photo's file name, an episode).
    public let name: String
}

/// `urlSession(_:task:didCompleteWithError:)` of the session's delegate.
public typealias BackgroundTransferCompletion = @Sendable (BackgroundTransfer, Result<Void, BackgroundTransferError>) -> Void

/// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`: the session's
/// identifier and the completion handler to call once, after its events (D1).
public typealias BackgroundSessionEventsHandler = @Sendable (String, @escaping @Sendable () -> Void) -> Void

/// A background `URLSession` of one process (`URLSessionConfiguration.background(withIdentifier:)`):
/// its upload and download tasks run in the system (nsurlsessiond), not in the app, and go on
/// while the app is suspended or terminated (D1).
///
/// ```swift
/// let session = context.backgroundURLSession(identifier: "com.example.uploads",
///     onTaskCompleted: { transfer, result in markUploaded(transfer.name, result) },
///     onFinishEvents: { _ in completions.sessionDidFinishEvents("com.example.uploads") })
/// session.upload("IMG_0042.heic")
/// ```
///
/// Contract: the delegate's calls (`onTaskCompleted`, then `onFinishEvents` after a wake's
/// events) run on the session's own serial delegate queue, as with `delegateQueue: nil`. See
/// `BackgroundURLSessionService` for when they come.
public final class BackgroundURLSession: @unchecked Sendable {
    // @unchecked: one simulated thread of the run touches it at a time.
    /// The configuration's identifier.
    public let identifier: String
    let process: Int
    let delegateQueue: any WorkQueue
    let onTaskCompleted: BackgroundTransferCompletion
    let onFinishEvents: @Sendable (BackgroundURLSession) -> Void
    private unowned let application: SimulatedApplication

    init(identifier: String, application: SimulatedApplication, onTaskCompleted: @escaping BackgroundTransferCompletion,
         onFinishEvents: @escaping @Sendable (BackgroundURLSession) -> Void) {
        self.identifier = identifier
        self.process = application.process
        self.application = application
        self.delegateQueue = application.makeSerialQueue(label: "urlsession.\(identifier)")
        self.onTaskCompleted = onTaskCompleted
        self.onFinishEvents = onFinishEvents
    }

    /// Starts an upload task (`uploadTask(with:fromFile:)` then `resume()`).
    @discardableResult
    public func upload(_ name: String) -> BackgroundTransfer { start(name) }

    /// Starts a download task (`downloadTask(with:)` then `resume()`).
    @discardableResult
    public func download(_ name: String) -> BackgroundTransfer { start(name) }

    private func start(_ name: String) -> BackgroundTransfer {
        let device = application.device
        device.scheduler.schedulingPoint()
        return device.urlSessionService.start(name, in: identifier)
    }
}

extension WorkloadContext {
    /// Creates (or, on a relaunch, recreates) the process's background session `identifier`,
    /// with its delegate's two calls. The same identifier in the same process gives the session
    /// already made.
    ///
    /// ```swift
    /// uploads = context.backgroundURLSession(identifier: "com.example.uploads",
    ///     onTaskCompleted: { transfer, result in handle(transfer, result) },
    ///     onFinishEvents: { _ in completions.sessionDidFinishEvents("com.example.uploads") })
    /// ```
    ///
    /// Contract: events the system holds for `identifier` (transfers that finished while the
    /// app was suspended or not running) reach only a session with that exact identifier, made
    /// in this process (D1); on a wake they are delivered after the app's
    /// ``onBackgroundURLSessionEvents(_:)`` handler was called.
    public func backgroundURLSession(
        identifier: String, onTaskCompleted: @escaping BackgroundTransferCompletion,
        onFinishEvents: @escaping @Sendable (BackgroundURLSession) -> Void
    ) -> BackgroundURLSession {
        let device = application.device
        device.scheduler.schedulingPoint()
        return device.urlSessionService.session(identifier, in: application) {
            BackgroundURLSession(identifier: identifier, application: application,
                                 onTaskCompleted: onTaskCompleted, onFinishEvents: onFinishEvents)
        }
    }

    /// Registers the process's `application(_:handleEventsForBackgroundURLSession:completionHandler:)`
    /// (D1): called on the main queue when the system wakes or relaunches the app because a
    /// background session's transfers finished.
    ///
    /// ```swift
    /// context.onBackgroundURLSessionEvents { identifier, completionHandler in
    ///     completions.store(completionHandler, forSession: identifier)
    ///     _ = makeSession(identifier)
    /// }
    /// ```
    ///
    /// Contract: register it in `didFinishLaunching`; it lasts for the process. Call the
    /// completion handler once, on the main queue, after the session's `onFinishEvents`, within
    /// ``OSProfile/backgroundSessionEventsRuntime``.
    public func onBackgroundURLSessionEvents(_ handler: @escaping BackgroundSessionEventsHandler) {
        application.device.scheduler.schedulingPoint()
        application.core.sessionEventsHandler = handler
    }
}
