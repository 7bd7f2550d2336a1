/// A reference that calls its object without retaining or releasing it, for the calls every
/// event of every run makes (the device to its ``RunMonitor``); something else must keep the
/// object alive.
///
/// ```swift
/// heldMonitor = monitor                 // keeps it alive
/// unretained = Unretained(monitor)      // calls it
/// unretained.call { $0.observe(event, at: time) }
/// ```
///
/// Why it exists: calling through a strong stored reference costs a retain and a release per
/// call (the callee might replace the reference while it runs), and so does calling through an
/// `unowned(unsafe)` one, which Swift loads as a strong copy. `Unmanaged`'s guaranteed-reference
/// call makes neither (one retain and one release less per event, and per scheduling point that
/// reaches the thread controller). This file is the only place the engine and the simulator use
/// an underscored standard library call, and the only `Unmanaged` outside the thread pool's and
/// the run marker's pthread keys. Package-wide: the simulator calls its run monitor through it.
///
/// Contract: the caller keeps the object alive for as long as this exists (in practice: a
/// strong reference stored beside it, set and cleared together), and does not release that
/// strong reference while ``call(_:)`` runs. In debug builds (`DEBUG`, as `swift build` and
/// `swift test` compile) a call after the object is gone stops the process with a precondition
/// failure, checked through a weak reference; in release builds it is undefined behaviour and
/// nothing is checked, which is why the uses are few and documented.
package struct Unretained<Object: AnyObject> {
    private let unmanaged: Unmanaged<Object>
    #if DEBUG
    /// The same object, weakly, to catch a call after it is gone (debug builds only: a weak
    /// reference gives the object a side table, which slows every retain of it).
    private weak var watched: Object?
    #endif

    /// An unretained reference to `object`, which the caller keeps alive.
    package init(_ object: Object) {
        unmanaged = Unmanaged.passUnretained(object)
        #if DEBUG
        watched = object
        #endif
    }

    /// Whether the object still exists; always true in release builds, which cannot tell.
    package var isObjectAlive: Bool {
        #if DEBUG
        return watched != nil
        #else
        return true
        #endif
    }

    /// Calls `body` with the object, with no retain or release around the call.
    @inline(__always)
    package func call<Result>(_ body: (Object) -> Result) -> Result {
        #if DEBUG
        precondition(watched != nil, "Unretained<\(Object.self)> called after its object was deallocated")
        #endif
        return unmanaged._withUnsafeGuaranteedRef(body)
    }
}
