internal import SimulationRuntimeShims

/// One unretained object per OS thread, in a C thread-local variable the clock shim reads too:
/// the mechanism under the engine's `RunThreadMarker` (which run's job the thread is running).
///
/// ```swift
/// let previous = ThreadMark.enter(scheduler)
/// defer { ThreadMark.leave(restoring: previous) }
/// ThreadMark.current(as: Scheduler.self) === scheduler   // true on this thread
/// ```
///
/// Contract: the mark holds no reference: whoever enters an object keeps it alive until it
/// leaves, and reads it only meanwhile (`current(as:)` must name the type that was entered).
/// One thread-local load or store per call (a function call from another module: the shim is
/// imported internally, so these bodies cannot be inlinable).
package enum ThreadMark {
    /// The object the calling thread is marked with, as `type`; nil when unmarked.
    @inline(__always)
    package static func current<Object: AnyObject>(as type: Object.Type) -> Object? {
        guard let raw = bgsim_run_mark_get() else { return nil }
        return Unmanaged<Object>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Marks the calling thread with `object`; returns the previous mark, for
    /// ``leave(restoring:)``.
    @inline(__always)
    package static func enter(_ object: AnyObject) -> UnsafeMutableRawPointer? {
        bgsim_run_mark_set(Unmanaged.passUnretained(object).toOpaque())
    }

    /// Restores the mark ``enter(_:)`` replaced.
    @inline(__always)
    package static func leave(restoring previous: UnsafeMutableRawPointer?) {
        _ = bgsim_run_mark_set(previous)
    }

    /// Whether the calling thread is marked with `object` (a pointer comparison, no retain).
    @inline(__always)
    package static func isMarked(_ object: AnyObject) -> Bool {
        bgsim_run_mark_get() == Unmanaged.passUnretained(object).toOpaque()
    }
}
