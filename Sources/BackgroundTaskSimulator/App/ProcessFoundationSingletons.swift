import DeterministicSimulation
import Foundation

/// A simulated process's own `NotificationCenter.default`, made when its code first asks for it
/// (``FoundationSingleton``): observers live and die with the process, as on a device.
///
/// ```swift
/// // app code in the run, unchanged:
/// NotificationCenter.default.addObserver(forName: .synced, object: nil, queue: nil) { _ in refresh() }
/// ```
///
/// Contract: ``removeAll()`` at the process's teardown lets go of the center, and of what its
/// observers captured.
final class ProcessFoundationSingletons: @unchecked Sendable {
    // @unchecked: a run is confined to one thread at a time (the baton orders the accesses).
    private var center: NotificationCenter?

    /// The process's `NotificationCenter.default`, made on first use.
    func notificationCenter() -> NotificationCenter {
        if let center { return center }
        let made = NotificationCenter()
        center = made
        return made
    }

    func removeAll() {
        let released = center
        center = nil
        withExtendedLifetime(released) {}
    }
}
