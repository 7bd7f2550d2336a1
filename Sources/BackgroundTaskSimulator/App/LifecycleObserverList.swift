import BackgroundTaskKit

/// The lifecycle observers of one simulated process, in registration order (B2).
///
/// ```swift
/// let id = list.add { event in print(event) }
/// for observer in list.snapshot { observer(.didEnterBackground) }
/// list.remove(id)
/// ```
///
/// Why a separate object: a ``LifecycleObservation`` must not keep its process alive, so it
/// refers back weakly, and a weakly referenced object gets a side table that puts every later
/// retain and release of it on the runtime's slow path. Pointing the weak reference here
/// instead of at ``SimulatedApplication`` (retained by every closure client code schedules)
/// keeps that cost off the hot path.
///
/// Contract: confined to the run's thread; ids are never reused within a process; removing an
/// id that is gone does nothing.
final class LifecycleObserverList: @unchecked Sendable {
    // @unchecked: confined to the run's thread, like its process.
    /// The observers in registration order; delivery reads it once and calls the copy. The
    /// list's only hot state (every lifecycle event reads it). Unchecked exclusivity: the dynamic
    /// check cost more than the read; safe because the list is confined to the run's thread and
    /// no access to it spans a call to an observer.
    @exclusivity(unchecked) private(set) var snapshot: [LifecycleObserverEntry] = []
    private var nextID = 1

    /// Adds `observer` last and returns the id that removes it.
    func add(_ observer: @escaping LifecycleObserver) -> Int {
        let id = nextID
        nextID += 1
        snapshot.append(LifecycleObserverEntry(id: id, observer: observer))
        return id
    }

    /// Removes the observer `id`, if it is still there.
    func remove(_ id: Int) {
        snapshot.removeAll { $0.id == id }
    }

    /// Removes every observer and returns them, so the caller decides when they are released.
    func removeAll() -> [LifecycleObserverEntry] {
        defer { snapshot = [] }
        return snapshot
    }
}

/// A lifecycle observer and the id its ``LifecycleObservation`` removes it by. A struct, not a
/// tuple: a closure inside a tuple is stored in the array at the generic abstraction, so every
/// call went through a reabstraction thunk.
struct LifecycleObserverEntry {
    let id: Int
    let observer: LifecycleObserver
}
