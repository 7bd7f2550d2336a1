#if canImport(Glibc)
import Glibc
#endif
public import Synchronization

extension Mutex where Value: ~Copyable {
    /// `withLock`, with the critical section also announced to ThreadSanitizer. Every `Mutex` in
    /// this package is used through it (BackgroundTaskKit wraps it as `withCriticalSection`;
    /// `.ci/tsan` fails on a bare `withLock`).
    ///
    /// ```swift
    /// private let runs = Mutex<[UInt32: Run]>([:])
    /// func add(_ run: Run, as serial: UInt32) { runs.withAnnotatedLock { $0[serial] = run } }
    /// ```
    ///
    /// Why it exists: on Linux a contended `Mutex` hands the lock over in
    /// `libswiftSynchronization.so` (`_lockSlow`/`_unlockSlow`, a futex), which is not
    /// instrumented, so ThreadSanitizer sees no happens-before edge between two critical sections
    /// and reports false races on the protected state and on objects handed over through it
    /// (.ci/README.md, "ThreadSanitizer"). This calls `__tsan_acquire` on entering the body and
    /// `__tsan_release` on leaving it, on the Mutex's own address (stable for its lifetime and
    /// distinct per Mutex), so TSan orders the critical sections the way the lock does. It adds
    /// no synchronization of its own: races outside the lock are still reported.
    ///
    /// Cost: the hooks are looked up once with `dlsym`; outside a `--sanitize=thread` build they
    /// are nil, so each call adds two nil checks. On Darwin, TSan understands `os_unfair_lock`,
    /// and this is plain `withLock`.
    @inlinable
    package borrowing func withAnnotatedLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        #if canImport(Glibc)
        // The Mutex's own address: stable while it is borrowed, one per Mutex, and taken without
        // touching `value` (an `&value` here would itself be an access TSan checks, made before
        // the acquire).
        let token = withUnsafePointer(to: self) { UnsafeMutableRawPointer(mutating: $0) }
        return try withLock { (value: inout sending Value) throws(E) -> sending Result in
            ThreadSanitizerHooks.acquire?(token)
            defer { ThreadSanitizerHooks.release?(token) }
            return try body(&value)
        }
        #else
        try withLock(body)
        #endif
    }
}

#if canImport(Glibc)
/// ThreadSanitizer's annotation entry points, present only in a process built with
/// `--sanitize=thread` (nil otherwise). Resolved once, on first use.
@usableFromInline
package enum ThreadSanitizerHooks {
    @usableFromInline
    package typealias Hook = @convention(c) (UnsafeMutableRawPointer?) -> Void

    @usableFromInline
    package static let acquire: Hook? = dlsym(nil, "__tsan_acquire").map { unsafeBitCast($0, to: Hook.self) }

    @usableFromInline
    package static let release: Hook? = dlsym(nil, "__tsan_release").map { unsafeBitCast($0, to: Hook.self) }
}
#endif
