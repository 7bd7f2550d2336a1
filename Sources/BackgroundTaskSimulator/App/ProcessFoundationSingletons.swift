import DeterministicSimulation
import Foundation

/// A simulated process's own `NotificationCenter.default` and `OperationQueue.main`, made when
/// its code first asks for one (``FoundationSingleton``): observers and operations live and die
/// with the process, as on a device.
///
/// ```swift
/// // app code in the run, unchanged:
/// NotificationCenter.default.addObserver(forName: .synced, object: nil, queue: .main) { _ in refresh() }
/// ```
///
/// Contract: ``removeAll()`` at the process's teardown lets go of both, and of what their
/// observers and operations captured. An operation left on the main queue then never runs, as
/// it never would on a device whose process ended.
final class ProcessFoundationSingletons: @unchecked Sendable {
    // @unchecked: a run is confined to one thread at a time (the baton orders the accesses).
    private var center: NotificationCenter?
    private var mainQueue: ProcessMainOperationQueue?

    /// The process's `NotificationCenter.default`, made on first use.
    func notificationCenter() -> NotificationCenter {
        if let center { return center }
        let made = NotificationCenter()
        center = made
        return made
    }

    /// The process's `OperationQueue.main`, made on first use.
    func mainOperationQueue() -> OperationQueue {
        if let mainQueue { return mainQueue }
        let made = ProcessMainOperationQueue()
        mainQueue = made
        return made
    }

    func removeAll() {
        let released = (center, mainQueue)
        center = nil
        mainQueue = nil
        withExtendedLifetime(released) {}
    }
}

/// One simulated process's `OperationQueue.main`: its operations run one at a time on the main
/// queue (`DispatchQueue.main`, the process's simulated main thread), as Foundation's own main
/// queue runs them.
///
/// It counts as equal to Foundation's main queue (`isEqual(_:)`). Foundation's own code still
/// reaches that one, not this: Linux Foundation's `NotificationCenter.post` calls the block of an
/// observer added with `queue: .main` in place when `queue == OperationQueue.current`, and its
/// `current` is Foundation's main queue on the main thread; without the equality a post on the
/// main thread would add the block to this queue and wait for it there, on the thread that has
/// to run it. (The equality goes one way: Foundation's queue is not equal to this one, and the
/// two hash apart: keep neither in a `Set` beside the other.)
final class ProcessMainOperationQueue: OperationQueue, @unchecked Sendable {
    // @unchecked: OperationQueue is thread-safe; this adds no state.
    /// Foundation's name for its main queue, which only that queue has.
    static let foundationMainQueueName = "NSOperationQueue Main Queue"

    override init() {
        super.init()
        name = Self.foundationMainQueueName
        maxConcurrentOperationCount = 1
        underlyingQueue = .main
    }

    override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? OperationQueue else { return false }
        return other === self || (type(of: other) == OperationQueue.self && other.name == Self.foundationMainQueueName)
    }
}
