#if canImport(UIKit)
public import UIKit
import Synchronization

/// The app's `UIApplication` as an ``ApplicationHost``: background tasks, state, lifecycle
/// notifications and Dispatch queues.
///
/// ```swift
/// func application(_ application: UIApplication,
///                  didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
///     let host = UIKitApplicationHost(application: application)
///     uploads = BackgroundOperationQueue(name: "uploads", host: host)
///     return true
/// }
/// ```
///
/// Contract: create it on the main thread, before launch finishes (it learns that launch has
/// finished from `didFinishLaunchingNotification`; pass `launchFinished: true` when creating it
/// later). `beginBackgroundTask`/`endBackgroundTask` are called on the caller's thread (they
/// are thread-safe, A1.4); UIKit calls the expiration handler on the main actor, as its
/// signature (``ExpirationHandler``) says, and observers are called on the main actor from the
/// main queue's notifications (``LifecycleObserver``); the application state is tracked from
/// the lifecycle notifications so it can be read from any thread; `backgroundTimeRemaining` is
/// read on the main thread.
public final class UIKitApplicationHost: ApplicationHost, @unchecked Sendable {
    // @unchecked: UIApplication is main-actor bound; it is touched off the main thread only
    // through its thread-safe begin/end methods. Our own state is atomic or Mutex-guarded.
    private let application: UIApplication
    private let execution = DispatchExecutionHost()
    private let state: Atomic<Int>
    private let launched: Atomic<Bool>
    private let tokens = Mutex<[any NSObjectProtocol]>([])
    private let observers = Mutex<[Int: LifecycleObserver]>([:])
    private let nextObserver = Atomic<Int>(0)

    private static let notifications: [(Notification.Name, LifecycleEvent)] = [
        (UIApplication.didFinishLaunchingNotification, .didFinishLaunching),
        (UIApplication.didBecomeActiveNotification, .didBecomeActive),
        (UIApplication.willResignActiveNotification, .willResignActive),
        (UIApplication.didEnterBackgroundNotification, .didEnterBackground),
        (UIApplication.willEnterForegroundNotification, .willEnterForeground),
        (UIApplication.willTerminateNotification, .willTerminate),
        (UIApplication.didReceiveMemoryWarningNotification, .didReceiveMemoryWarning),
    ]

    /// Wraps `application`; call on the main thread.
    @MainActor
    public init(application: UIApplication = .shared, launchFinished: Bool = false) {
        self.application = application
        self.state = Atomic(Self.convert(application.applicationState).rawValue)
        self.launched = Atomic(launchFinished)
        let center = NotificationCenter.default
        let made = Self.notifications.map { name, event in
            center.addObserver(forName: name, object: application, queue: .main) { [weak self] _ in
                // Posted on the main thread and delivered on the main queue: the main actor.
                MainActor.assumeIsolated { self?.deliver(event) }
            }
        }
        tokens.withCriticalSection { $0 = made }
    }

    deinit {
        let center = NotificationCenter.default
        for token in tokens.withCriticalSection({ $0 }) { center.removeObserver(token) }
    }

    // MARK: BackgroundTaskHost

    public func beginBackgroundTask(
        withName name: String?, expirationHandler: ExpirationHandler?
    ) -> BackgroundTaskIdentifier {
        let id = application.beginBackgroundTask(withName: name, expirationHandler: expirationHandler)
        return id == .invalid ? .invalid : BackgroundTaskIdentifier(rawValue: id.rawValue)
    }

    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        application.endBackgroundTask(UIBackgroundTaskIdentifier(rawValue: identifier.rawValue))
    }

    public var backgroundTimeRemaining: Double {
        if Thread.isMainThread {
            return MainActor.assumeIsolated { application.backgroundTimeRemaining }
        }
        return DispatchQueue.main.sync { MainActor.assumeIsolated { application.backgroundTimeRemaining } }
    }

    public var applicationState: ApplicationState {
        ApplicationState(rawValue: state.load(ordering: .acquiring)) ?? .active
    }

    // MARK: LifecycleHost

    public func addLifecycleObserver(_ observer: @escaping LifecycleObserver) -> LifecycleObservation {
        let key = nextObserver.wrappingAdd(1, ordering: .relaxed).newValue
        observers.withCriticalSection { $0[key] = observer }
        return LifecycleObservation { [weak self] in
            _ = self?.observers.withCriticalSection { $0.removeValue(forKey: key) }
        }
    }

    public var hasFinishedLaunching: Bool { launched.load(ordering: .acquiring) }

    // MARK: ExecutionHost

    public var mainQueue: any WorkQueue { execution.mainQueue }
    public var backgroundQueue: any WorkQueue { execution.backgroundQueue }
    public func makeSerialQueue(label: String) -> any WorkQueue { execution.makeSerialQueue(label: label) }

    // MARK: Notifications

    @MainActor
    private func deliver(_ event: LifecycleEvent) {
        switch event {
        case .didFinishLaunching: launched.store(true, ordering: .releasing)
        case .didBecomeActive: state.store(ApplicationState.active.rawValue, ordering: .releasing)
        case .willResignActive, .willEnterForeground:
            state.store(ApplicationState.inactive.rawValue, ordering: .releasing)
        case .didEnterBackground: state.store(ApplicationState.background.rawValue, ordering: .releasing)
        case .willTerminate, .didReceiveMemoryWarning: break
        }
        // In registration order, outside the lock: an observer may add or cancel observers.
        let current = observers.withCriticalSection { $0.sorted { $0.key < $1.key }.map(\.value) }
        for observer in current { observer(event) }
    }

    private static func convert(_ state: UIApplication.State) -> ApplicationState {
        switch state {
        case .active: .active
        case .inactive: .inactive
        case .background: .background
        @unknown default: .inactive
        }
    }
}
#endif
