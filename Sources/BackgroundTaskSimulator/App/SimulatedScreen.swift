public import BackgroundTaskKit

/// The app's screen: whether the workload's view is on top of the app's navigation, and the
/// observers of its appearance (``ViewAppearanceHost``), so that work tied to a view meets the
/// case UIKit leaves out: going home sends no `viewWillDisappear`.
///
/// ```swift
/// observation = context.application.addViewAppearanceObserver { event in
///     event == .didAppear ? startPolling() : stopPolling()
/// }
/// ```
///
/// Contract: made when a workload first observes the view (a run that never does has none and
/// draws no view action). The view is on top of the navigation when a process starts; it
/// appears (`didAppear`, after the observers of `didBecomeActive`) the first time the process
/// becomes active with it on top. The environment's `viewDisappears` (the user navigates away,
/// offered while the app is active and the view on top) sends `willDisappear`; `viewAppears`
/// (back to it) sends `didAppear`. Home, lock and the app switcher send nothing to the view
/// (its appearance stays), as in UIKit. Each delivery is a `view` event, on the main queue, and
/// its observers run on the main actor (``ViewAppearanceObserver``).
final class SimulatedScreen: @unchecked Sendable {
    // @unchecked: confined to the run's thread, like its process.
    private unowned let application: SimulatedApplication
    /// Whether the workload's view is on top of the navigation (the user's choice).
    private(set) var isOnTop = true
    /// Whether `didAppear` was delivered and `willDisappear` not since.
    private(set) var hasAppeared = false
    private var observers: [(id: Int, observer: ViewAppearanceObserver)] = []
    private var nextID = 1

    init(application: SimulatedApplication) {
        self.application = application
    }

    func add(_ observer: @escaping ViewAppearanceObserver) -> LifecycleObservation {
        let id = nextID
        nextID += 1
        observers.append((id, observer))
        return LifecycleObservation { [weak self] in self?.observers.removeAll { $0.id == id } }
    }

    /// The process became active: the view appears if it is on top and has not yet.
    func appDidBecomeActive() {
        guard isOnTop, !hasAppeared else { return }
        deliver(.didAppear)
    }

    /// The user navigates away from the view (`visible` false) or back to it (true).
    func userNavigates(toView visible: Bool) {
        isOnTop = visible
        application.mainQueueImpl.async { [self] in
            guard application.isAlive, application.state == .active, hasAppeared != visible, isOnTop == visible else { return }
            deliver(visible ? .didAppear : .willDisappear)
        }
    }

    private func deliver(_ event: ViewAppearanceEvent) {
        hasAppeared = event == .didAppear
        application.device.emit(.viewAppearance(visible: hasAppeared))
        let current = observers
        guard !current.isEmpty else { return }
        application.scheduler.callOnMainActor("a view-appearance observer (\(event))") {  // viewDidAppear: @MainActor
            for entry in current where application.isAlive { entry.observer(event) }
        }
    }

    /// Lets go of the observers (teardown).
    func removeAll() -> [Any] {
        defer { observers = [] }
        return observers.map(\.observer)
    }
}

extension SimulatedApplication: ViewAppearanceHost {
    /// The app's screen, made on first use.
    var screen: SimulatedScreen {
        if let made = core.screen { return made }
        let made = SimulatedScreen(application: self)
        core.screen = made
        return made
    }

    public func addViewAppearanceObserver(_ observer: @escaping ViewAppearanceObserver) -> LifecycleObservation {
        screen.add(observer)
    }
}
