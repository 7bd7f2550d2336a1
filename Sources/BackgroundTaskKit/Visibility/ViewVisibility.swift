import Synchronization

/// Whether a view is really visible: on screen *and* the app in the foreground and active, with
/// one callback per change, as Backgroundable's `Visibility` protocol offers it.
///
/// A view controller that starts work in `viewDidAppear` and stops it in `viewWillDisappear`
/// never stops it when the user goes home or locks the device: UIKit sends no
/// `viewWillDisappear` then, so the work runs on in the background with no task holding the app
/// (until iOS suspends it mid-work). `ViewVisibility` combines the two sources, so the work is
/// stopped on either.
///
/// ```swift
/// final class WatchlistViewController: UIViewController {
///     private var visibility: ViewVisibility!
///     override func viewDidLoad() {
///         super.viewDidLoad()
///         visibility = ViewVisibility(host: UIKitApplicationHost.shared) { [weak self] visible in
///             visible ? self?.startPolling() : self?.stopPolling()
///         }
///     }
///     override func viewDidAppear(_ animated: Bool) { super.viewDidAppear(animated); visibility.viewDidAppear() }
///     override func viewWillDisappear(_ animated: Bool) { visibility.viewWillDisappear(); super.viewWillDisappear(animated) }
/// }
/// ```
///
/// Contract:
/// - Visible exactly when the view has appeared and not disappeared since, and the app is
///   active: `willResignActive` (home, lock, the app switcher, a call) and `didEnterBackground`
///   hide it, `didBecomeActive` shows it again if it is still on screen.
/// - `onChange` is called once per change of ``isVisible``, never twice with the same value,
///   starting from not visible; calls are serialized, and the last one always matches the last
///   state. It may read ``isVisible`` but must not call this object's other methods.
/// - Thread-safe: the view events, the lifecycle observer and ``isVisible`` may race from any
///   threads. Releasing the object stops observing.
public final class ViewVisibility: Sendable {
    private struct State {
        var appeared = false
        var active: Bool
        var visible: Bool { appeared && active }
    }

    private let state: Mutex<State>
    /// The last value given to `onChange`; its lock also serializes the calls.
    private let delivered = Mutex(false)
    /// The same value, readable from inside `onChange` (which runs under `delivered`'s lock).
    private let visibleNow = Atomic(false)
    private let onChange: @Sendable (Bool) -> Void
    /// `onChange` runs under `delivered`'s lock, inside the host's ``CoreLockHost`` seam.
    private let host: any BackgroundTaskHost
    private let observations: Mutex<[LifecycleObservation]> = Mutex([])

    /// A visibility fed by the view controller's ``viewDidAppear()`` and ``viewWillDisappear()``
    /// and by `host`'s lifecycle. Create it on the main queue (it reads the app's state).
    public init(host: any BackgroundTaskHost & LifecycleHost, onChange: @escaping @Sendable (_ visible: Bool) -> Void) {
        self.state = Mutex(State(active: host.applicationState == .active))
        self.onChange = onChange
        self.host = host
        let lifecycle = host.addLifecycleObserver { [weak self] event in self?.handle(event) }
        observations.withCriticalSection { $0.append(lifecycle) }
    }

    /// A visibility fed by `host` alone: its lifecycle and its view appearance events.
    public convenience init(
        host: any BackgroundTaskHost & LifecycleHost & ViewAppearanceHost,
        onChange: @escaping @Sendable (_ visible: Bool) -> Void
    ) {
        self.init(host: host as any BackgroundTaskHost & LifecycleHost, onChange: onChange)
        let appearance = host.addViewAppearanceObserver { [weak self] event in
            switch event {
            case .didAppear: self?.viewDidAppear()
            case .willDisappear: self?.viewWillDisappear()
            }
        }
        observations.withCriticalSection { $0.append(appearance) }
    }

    /// Whether the view is visible, as the last `onChange` call said.
    public var isVisible: Bool { visibleNow.load(ordering: .acquiring) }

    /// Call from `viewDidAppear(_:)`.
    public func viewDidAppear() { update { $0.appeared = true } }

    /// Call from `viewWillDisappear(_:)`.
    public func viewWillDisappear() { update { $0.appeared = false } }

    private func handle(_ event: LifecycleEvent) {
        switch event {
        case .didBecomeActive: update { $0.active = true }
        case .willResignActive, .didEnterBackground, .willTerminate: update { $0.active = false }
        case .didFinishLaunching, .willEnterForeground, .didReceiveMemoryWarning: break
        }
    }

    /// Applies `change`, then tells `onChange` if the visibility now differs from what it last
    /// said. The delivery lock is taken before the state is read, so concurrent updates deliver
    /// in order and the last delivery reads the last state.
    private func update(_ change: (inout State) -> Void) {
        state.withCriticalSection { change(&$0) }
        host.whileCoreHoldsLock {
            delivered.withCriticalSection { last in
                let visible = state.withCriticalSection { $0.visible }
                guard visible != last else { return }
                last = visible
                visibleNow.store(visible, ordering: .releasing)
                onChange(visible)
            }
        }
    }
}
