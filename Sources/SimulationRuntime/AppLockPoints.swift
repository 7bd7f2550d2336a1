import Foundation
internal import SimulationRuntimeShims

/// App code's lock acquisitions as scheduling points: before a simulated thread takes a free
/// mutex that app code asked for (a C mutex, `NSLock.lock()`, `NSLocking.withLock`), the engine
/// may run another thread first, so a read-modify-write through a lock-per-access wrapper loses
/// its update as it can on a device; and before it lets go of such a mutex, so another thread's
/// `trylock` can find it busy (the shim's app_lock_points.c says how the caller is told).
///
/// ```swift
/// AppLockPoints.install { mark in ThreadMark.object(marked: mark, as: Scheduler.self).schedulingPoint() }
/// ```
///
/// Contract: installed once per process, before any run; the point is called only in runs that
/// check plain accesses, on a simulated thread, at most once per lock call, and never for a lock
/// Foundation, Dispatch or the Swift runtime takes for itself. Where the shim is not built it does
/// nothing.
package enum AppLockPoints {
    /// Finds Foundation's forwarding code (``calibrate()``), then registers `point`.
    package static func install(_ point: @convention(c) (UnsafeMutableRawPointer) -> Void) {
        calibrate()
        bgsim_app_lock_points_register(point)
    }

    /// Locks Foundation's lock classes through `NSLocking`, the way generic app code does
    /// (`withLock` and a protocol `lock()`), while the shim notes where in Foundation the mutex
    /// calls come from: code without a symbol, between the app and the mutex. First without
    /// noting, so that the locks the Swift runtime takes on first use of these types are taken
    /// then. Not optimized, so that the calls go through the protocol as generic code's do.
    @_optimize(none)
    private static func calibrate() {
        let locks: [any NSLocking] = [NSLock(), NSRecursiveLock(), NSCondition(), NSConditionLock()]
        for phase in [BGSIM_LOCK_CALIBRATION_WARMING, BGSIM_LOCK_CALIBRATION_RECORDING] {
            bgsim_app_lock_points_calibrate(phase)
            for lock in locks {
                lock.lock()
                lock.unlock()
                lock.withLock {}
            }
        }
        bgsim_app_lock_points_calibrate(BGSIM_LOCK_CALIBRATION_OFF)
    }
}
