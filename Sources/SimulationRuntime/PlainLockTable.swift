#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
internal import SimulationRuntimeShims

/// The memory a run shares with the shim's `pthread_mutex_lock`, `_trylock` and `_unlock`
/// (shims_plain_locks.h, `bgsim_plain_locks`): which of the run's simulated threads holds
/// which real mutex, and which simulated thread is running. The engine's `PlainLocks` owns one
/// per run with simulated threads; the run mark hands it to the shim (``ThreadMark``).
///
/// ```swift
/// let table = PlainLockTable()
/// table.setCurrent(2)                      // thread 2's job runs: its locks are tracked
/// table.holder(of: address)                // 2, while its job holds that mutex
/// ```
///
/// Contract: only the thread holding the run's baton reads or writes it (the shim on the run's
/// marked threads, the engine at its thread switches); it is freed with the object, which must
/// outlive every mark that carries it.
package final class PlainLockTable {
    /// The C struct, zeroed at first.
    @usableFromInline let memory: UnsafeMutableRawPointer

    package init() {
        memory = UnsafeMutableRawPointer(UnsafeMutablePointer<bgsim_plain_locks>.allocate(capacity: 1))
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<bgsim_plain_locks>.size)
    }

    deinit {
        memory.deallocate()
    }

    /// Whether the shim tracks real mutexes in this process (Linux with glibc).
    package static var isSupported: Bool { bgsim_plain_locks_supported() != 0 }

    /// Records which simulated thread runs (nil: loop level, where nothing is tracked). One store:
    /// `current` is the struct's first field.
    @inlinable @inline(__always)
    package func setCurrent(_ thread: Int?) {
        let current: Int32 = if let thread { Int32(truncatingIfNeeded: thread &+ 1) } else { 0 }
        memory.storeBytes(of: current, as: Int32.self)
    }

    /// The simulated thread holding the mutex at `address`, if one does.
    package func holder(of address: UInt) -> Int? {
        holder { UInt(bitPattern: $0.mutex) == address }
    }

    /// Whether the mutex at `address` is reserved: released to the threads that waited for it,
    /// none of which has taken it yet (`bgsim_held_mutex.holder` 0).
    package func isReserved(_ address: UInt) -> Bool {
        entry { UInt(bitPattern: $0.mutex) == address }?.holder == 0
    }

    /// Whether simulated thread `thread` holds a mutex.
    package func holdsAny(_ thread: Int) -> Bool {
        holder { Int($0.holder) - 1 == thread } != nil
    }

    /// Whether simulated thread `thread` holds a mutex the Swift concurrency runtime took: it is
    /// inside a task's cancellation or escalation handler, which Swift runs holding the task's
    /// status-record lock (`bgsim_plain_locks.runtimeHolds`). One load when no thread does.
    package func holdsRuntimeLock(_ thread: Int) -> Bool {
        guard memory.assumingMemoryBound(to: bgsim_plain_locks.self).pointee.runtimeHolds > 0 else { return false }
        return holder { $0.runtime != 0 && Int($0.holder) - 1 == thread } != nil
    }

    /// The holder of the first held entry (not a reserved one) that `matches`, if any.
    private func holder(where matches: (bgsim_held_mutex) -> Bool) -> Int? {
        entry { $0.holder != 0 && matches($0) }.map { Int($0.holder) - 1 }
    }

    /// The first entry in use that `matches`, if any.
    private func entry(where matches: (bgsim_held_mutex) -> Bool) -> bgsim_held_mutex? {
        let locks = memory.assumingMemoryBound(to: bgsim_plain_locks.self)
        let count = Int(locks.pointee.count)
        return withUnsafeMutablePointer(to: &locks.pointee.held) { tuple in
            tuple.withMemoryRebound(to: bgsim_held_mutex.self, capacity: Int(BGSIM_HELD_MUTEX_CAPACITY)) { held in
                for index in 0..<count where matches(held[index]) {
                    return held[index]
                }
                return nil
            }
        }
    }

    /// Acquisitions that found the table full (more mutexes held at once by one run's threads
    /// than it has entries) and were not tracked.
    package var untrackedCount: Int {
        Int(memory.assumingMemoryBound(to: bgsim_plain_locks.self).pointee.untracked)
    }
}
