/// The expiration handler of a background task, typed as the iOS 18 SDK declares it:
/// `beginBackgroundTask(withName:expirationHandler: (@MainActor @Sendable () -> Void)?)`. Hosts
/// call it on their main queue, synchronously, inside the system's expiry callout (reference
/// A3.1), so an `@MainActor` model touches its state here directly and ends its task in time.
///
/// ```swift
/// @MainActor final class Uploader {
///     var upload: Task<Void, Never>?
///     var taskID = BackgroundTaskIdentifier.invalid
///     func start(_ host: any BackgroundTaskHost) {
///         taskID = host.beginBackgroundTask(withName: "upload") { [weak self] in
///             self?.upload?.cancel()       // main-actor state, no MainActor.assumeIsolated
///             self?.end(host)              // A3.2: end it before returning
///         }
///     }
///     func end(_ host: any BackgroundTaskHost) { host.endBackgroundTask(taskID); taskID = .invalid }
/// }
/// ```
///
/// Contract: every host calls it on the main actor: ``UIKitApplicationHost`` through UIKit; the
/// simulated app as a job of its simulated main queue, which a run's main actor is (the
/// simulator's "Async Under Simulation" article); ``FakeHost`` from its `@MainActor`
/// ``FakeHost/expire()``. A `BGTask`'s handler is not main-actor bound: see
/// ``ScheduledTaskExpirationHandler``.
public typealias ExpirationHandler = @MainActor @Sendable () -> Void

/// A lifecycle observer, typed as the app delegate's callbacks are in the iOS 18 SDK
/// (`UIApplicationDelegate` and `UISceneDelegate` are `@MainActor`; the notifications of B2.3
/// and B2.4 are posted on the main thread): called on the host's main queue, on the main actor.
///
/// ```swift
/// let observation = host.addLifecycleObserver { [weak model] event in
///     if event == .didEnterBackground { model?.save() }   // `model` is @MainActor
/// }
/// ```
public typealias LifecycleObserver = @MainActor @Sendable (LifecycleEvent) -> Void

/// The background-task slice of `UIApplication`: what BackgroundTaskKit needs to begin and end
/// tasks. `UIApplication` backs it on Apple platforms (``UIKitApplicationHost``); the simulated
/// iOS backs it everywhere.
///
/// ```swift
/// let id = host.beginBackgroundTask(withName: "save-draft") {
///     host.endBackgroundTask(id)   // A3.2: end the task inside the handler
/// }
/// saveDraft { host.endBackgroundTask(id) }
/// ```
///
/// Contract (reference A1-A8):
/// - `beginBackgroundTask` returns a new identifier, or ``BackgroundTaskIdentifier/invalid`` when
///   background execution is not possible (A2.1). It may be called from any thread (A1.4).
/// - Every identifier must be ended exactly once with `endBackgroundTask`, on the normal path or
///   from the expiration handler (A1.2, A3.2). Ending an unknown or already ended identifier is
///   harmless to the host but is a bug in the caller (A5.2).
/// - The expiration handler runs on the main queue, on the main actor (A3.1, ``ExpirationHandler``),
///   and may run at any time (A3.3).
/// - Hosts are thread-safe; conformers must be usable from any thread.
public protocol BackgroundTaskHost: CoreLockHost {
    /// Asks for background execution time: `beginBackgroundTask(withName:expirationHandler:)`.
    func beginBackgroundTask(
        withName name: String?, expirationHandler: ExpirationHandler?
    ) -> BackgroundTaskIdentifier

    /// Marks the end of a task: `endBackgroundTask(_:)`.
    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier)

    /// Seconds left before expiry; `Double.greatestFiniteMagnitude` while unconstrained (A8).
    var backgroundTimeRemaining: Double { get }

    /// The current `UIApplication.State`.
    var applicationState: ApplicationState { get }
}

/// Lifecycle notifications: `NotificationCenter` and the app delegate on Apple platforms.
///
/// ```swift
/// let observation = host.addLifecycleObserver { event in
///     if event == .didEnterBackground { startBackup() }
/// }
/// // keep `observation`; cancel() or release it to stop observing
/// ```
///
/// Contract: the observer is called on the host's main queue, on the main actor
/// (``LifecycleObserver``), once per event, in the order of ``LifecycleEvent``'s documentation,
/// until the returned observation is cancelled or released.
public protocol LifecycleHost: AnyObject, Sendable {
    /// Starts observing lifecycle events.
    func addLifecycleObserver(_ observer: @escaping LifecycleObserver) -> LifecycleObservation

    /// True once `application(_:didFinishLaunchingWithOptions:)` has returned for this process.
    /// BGTaskScheduler launch handlers must be registered before that (reference C1.1, C1.4).
    var hasFinishedLaunching: Bool { get }
}

/// A live lifecycle observation. Cancelling it (or releasing the last reference) stops delivery.
public final class LifecycleObservation: Sendable {
    private let onCancel: @Sendable () -> Void
    private let cancelled = AtomicFlag()

    /// Creates an observation whose cancellation runs `onCancel` exactly once.
    public init(onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }

    /// Stops delivery. Idempotent and safe from any thread.
    public func cancel() {
        if cancelled.setIfClear() { onCancel() }
    }

    deinit { cancel() }
}
