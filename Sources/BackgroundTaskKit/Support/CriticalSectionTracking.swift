#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Whether the current OS thread is inside one of BackgroundTaskKit's critical sections
/// (``Mutex/withCriticalSection(_:)``), for the simulator's controlled concurrency.
///
/// ```swift
/// CriticalSectionTracking.enable()              // once, by the simulator
/// if CriticalSectionTracking.isInsideOnCurrentThread { /* do not preempt here */ }
/// ```
///
/// Why it exists: the simulator runs app code on simulated threads and may preempt one at any
/// host call. The core calls the host while it holds its own lock on purpose (an end reaches the
/// host before a racing expiration handler can look at the token). A simulated thread preempted
/// there would still hold a real `Mutex`; if the thread chosen next took the same lock, the real
/// lock would block the only OS thread allowed to run, and the run would hang. So the simulator
/// does not preempt inside the core's critical sections: with a correct lock nothing that takes
/// the same lock could run there anyway, so no interleaving of the core's own state is lost.
///
/// Contract: tracking is off until ``enable()`` (a real app never pays more than one relaxed
/// atomic load per critical section); once on, it stays on for the process. The depth is per OS
/// thread (a simulated thread's job stays on one OS thread while it is suspended).
package enum CriticalSectionTracking {
    /// Turns tracking on for this process.
    package static func enable() { enabled.store(true, ordering: .relaxed) }

    /// Whether the calling OS thread holds a BackgroundTaskKit lock (always false until
    /// ``enable()``).
    package static var isInsideOnCurrentThread: Bool {
        guard enabled.load(ordering: .relaxed) else { return false }
        return pthread_getspecific(key.value) != nil
    }

    /// Marks entry into a critical section; returns whether it was tracked (pass it to ``leave(_:)``).
    @inline(__always)
    package static func enter() -> Bool {
        guard enabled.load(ordering: .relaxed) else { return false }
        let depth = Int(bitPattern: pthread_getspecific(key.value))
        pthread_setspecific(key.value, UnsafeRawPointer(bitPattern: depth + 1))
        return true
    }

    /// Marks the end of a critical section that ``enter()`` tracked.
    @inline(__always)
    package static func leave(_ tracked: Bool) {
        guard tracked else { return }
        let depth = Int(bitPattern: pthread_getspecific(key.value))
        pthread_setspecific(key.value, UnsafeRawPointer(bitPattern: max(0, depth - 1)))
    }

    private static let enabled = Atomic<Bool>(false)
    /// The per-thread depth, stored as the pointer's bit pattern (no allocation, nothing to free).
    private static let key = ThreadKey()
}

/// A `pthread_key_t` made once (a class so that a `static let` holds it as an immutable value).
private final class ThreadKey: Sendable {
    let value: pthread_key_t

    init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed (\(status)): too many thread-specific keys")
        value = key
    }
}
