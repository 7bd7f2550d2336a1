package import Synchronization
import ThreadSanitizerSupport

extension Mutex where Value: ~Copyable {
    /// `withLock`, announced to ThreadSanitizer. Use it instead of `withLock` for every `Mutex`
    /// in BackgroundTaskKit and its tests.
    ///
    /// ```swift
    /// private let state = Mutex(State())
    /// func begin() -> Int { state.withCriticalSection { $0.began += 1; return $0.began } }
    /// ```
    ///
    /// It is `withAnnotatedLock` (ThreadSanitizerSupport: TSan sees the lock's hand-overs on
    /// Linux, where the contended path is not instrumented). A section that calls a host is
    /// also wrapped in the host's ``CoreLockHost/whileCoreHoldsLock(_:)``.
    @inline(__always)
    package borrowing func withCriticalSection<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try withAnnotatedLock(body)
    }
}
