/// A view controller's appearance, as `viewDidAppear(_:)` and `viewWillDisappear(_:)` report it.
public enum ViewAppearanceEvent: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The view is on screen (`viewDidAppear`).
    case didAppear
    /// The view is leaving the screen (`viewWillDisappear`): navigation, a modal, a tab switch.
    case willDisappear

    public var description: String { rawValue }
}

/// A view-appearance observer, typed as the callbacks it stands for: `UIViewController` is
/// `@MainActor` in the iOS 18 SDK, so `viewDidAppear(_:)` and `viewWillDisappear(_:)` run on the
/// main actor, and so does this observer.
///
/// ```swift
/// let observation = host.addViewAppearanceObserver { [weak model] event in
///     model?.isOnScreen = event == .didAppear    // `model` is @MainActor
/// }
/// ```
public typealias ViewAppearanceObserver = @MainActor @Sendable (ViewAppearanceEvent) -> Void

/// Where a view's appearance comes from: a view controller on a device, the simulated app's
/// screen in the simulator.
///
/// ```swift
/// let observation = host.addViewAppearanceObserver { event in
///     if event == .willDisappear { stopPolling() }
/// }
/// ```
///
/// Contract: the observer is called on the host's main queue, on the main actor
/// (``ViewAppearanceObserver``), once per event, until the returned observation is cancelled or
/// released. Navigation alone drives it: going home or locking the device sends no
/// `willDisappear` (UIKit does not call `viewWillDisappear` when the app leaves the foreground),
/// which is why ``ViewVisibility`` also watches the app's state.
public protocol ViewAppearanceHost: AnyObject, Sendable {
    /// Starts observing the view's appearance.
    func addViewAppearanceObserver(_ observer: @escaping ViewAppearanceObserver) -> LifecycleObservation
}
