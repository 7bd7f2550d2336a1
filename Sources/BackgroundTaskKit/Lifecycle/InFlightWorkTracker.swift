import Synchronization

/// Keeps the app running in the background while tracked work is in flight: the pattern of the
/// "Easy background tasks" and backup blog posts (begin a task on `didEnterBackground`, end it
/// when the work is done), done right.
///
/// The posts keep one task id in a property and begin a new task on every background entry, so
/// a second entry before the work finishes overwrites, and leaks, the first (bug pattern P1);
/// or they end the task on completion after the expiration handler already ended it (P4). The
/// tracker holds at most one task, and only while work is in flight in the background.
///
/// ```swift
/// final class Downloader {
///     private let tracker: InFlightWorkTracker
///     init(app: any ApplicationHost) {
///         tracker = InFlightWorkTracker(name: "downloads", host: app) { session.suspendAll() }
///     }
///     func download(_ url: URL) {
///         let work = tracker.beginWork(name: url.lastPathComponent)
///         session.fetch(url) { _ in work.finish() }
///     }
/// }
/// ```
///
/// Contract:
/// - A task is held exactly while the app is in the background (after `didEnterBackground`,
///   until `willEnterForeground`) and at least one ``InFlightWork`` is unfinished; however
///   often the app goes back and forth, at most one task is held, and each is ended once.
/// - Work that begins while the app is already in the background gets the task at once.
/// - On expiry, `onExpiration` runs on the main queue, then the task ends inside the system's
///   handler. Work that is still in flight keeps being tracked; a later ``beginWork(name:)`` or
///   background entry asks for a new task (the system decides, A3.4).
/// - Create it on the main queue (it reads ``BackgroundTaskHost/applicationState``); use it
///   from any thread. Releasing the tracker stops observing the lifecycle and ends its task.
public final class InFlightWorkTracker: Sendable {
    private let shared: Shared
    private let observation: LifecycleObservation

    /// A tracker whose background task is named `name`.
    ///
    /// - Parameter onExpiration: runs on the main queue when time runs out, before the task
    ///   ends; stop or checkpoint the in-flight work here.
    public init(
        name: String, host: any BackgroundTaskHost & LifecycleHost, onExpiration: (@Sendable () -> Void)? = nil
    ) {
        let shared = Shared(name: name, host: host, inBackground: host.applicationState == .background)
        if let onExpiration { shared.holder.onExpiration(onExpiration) }
        self.shared = shared
        self.observation = host.addLifecycleObserver { event in shared.handle(event) }
    }

    /// Declares a piece of work in flight; call ``InFlightWork/finish()`` when it is done.
    public func beginWork(name: String) -> InFlightWork {
        shared.update { $0.count += 1 }
        return InFlightWork(name: name, shared: shared)
    }

    /// Unfinished work items.
    public var inFlightCount: Int { shared.state.withCriticalSection { $0.count } }

    /// True while the tracker holds a running background task.
    public var holdsBackgroundTask: Bool { shared.holder.isHolding }

    deinit {
        observation.cancel()
        shared.update { $0.inBackground = false }  // releasing the tracker ends its task
    }

    /// What work items and the lifecycle observer share with the tracker.
    final class Shared: Sendable {
        struct State {
            var count = 0
            var inBackground: Bool
        }

        let state: Mutex<State>
        let holder: TaskHolder

        init(name: String, host: any BackgroundTaskHost, inBackground: Bool) {
            state = Mutex(State(inBackground: inBackground))
            holder = TaskHolder(name: name, host: host)
        }

        func update(_ change: (inout State) -> Void) {
            state.withCriticalSection { change(&$0) }
            holder.reconcile { state.withCriticalSection { $0.count > 0 && $0.inBackground } }
        }

        func handle(_ event: LifecycleEvent) {
            switch event {
            case .didEnterBackground: update { $0.inBackground = true }
            case .willEnterForeground, .didBecomeActive: update { $0.inBackground = false }
            case .didFinishLaunching, .willResignActive, .willTerminate, .didReceiveMemoryWarning: break
            }
        }
    }
}

/// One piece of work tracked by an ``InFlightWorkTracker``.
///
/// ```swift
/// let work = tracker.beginWork(name: "upload")
/// upload { _ in work.finish() }
/// ```
///
/// Contract: ``finish()`` is idempotent and safe from any thread; releasing an unfinished work
/// item finishes it (so a lost item cannot keep the app awake forever).
public final class InFlightWork: Sendable {
    /// The name given to ``InFlightWorkTracker/beginWork(name:)``.
    public let name: String
    private let shared: InFlightWorkTracker.Shared
    private let finished = AtomicFlag()

    init(name: String, shared: InFlightWorkTracker.Shared) {
        self.name = name
        self.shared = shared
    }

    /// Marks the work done. Only the first call counts.
    public func finish() {
        guard finished.setIfClear() else { return }
        shared.update { $0.count -= 1 }
    }

    /// Whether ``finish()`` was called.
    public var isFinished: Bool { finished.isSet }

    deinit { finish() }
}
