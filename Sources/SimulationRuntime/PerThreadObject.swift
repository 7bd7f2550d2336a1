#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An object per OS thread, made on the thread's first use and released when the thread exits:
/// a `pthread_key_t` whose destructor releases it (the engine gives each campaign worker its
/// own simulated-thread pool this way, without passing it around).
///
/// ```swift
/// static let pools = PerThreadObject { SimulatedThreadPool() }
/// let pool = pools.current   // this thread's, made now if it had none
/// ```
///
/// Contract: `make` runs at most once per thread, on that thread; the object lives until the
/// thread exits (it is never released earlier, whatever else holds it). Keep the
/// `PerThreadObject` itself for the life of the process (a `static let`): its key is never
/// deleted.
package final class PerThreadObject<Object: AnyObject & Sendable>: Sendable {
    private let key: pthread_key_t
    private let make: @Sendable () -> Object

    package init(make: @escaping @Sendable () -> Object) {
        var key = pthread_key_t()
        #if canImport(Darwin)
            let status = pthread_key_create(&key) { pointer in
                Unmanaged<AnyObject>.fromOpaque(pointer).release()
            }
        #else
            let status = pthread_key_create(&key) { pointer in
                guard let pointer else { return }
                Unmanaged<AnyObject>.fromOpaque(pointer).release()
            }
        #endif
        precondition(status == 0, "pthread_key_create failed: \(status)")
        self.key = key
        self.make = make
    }

    /// The calling thread's object.
    package var current: Object {
        if let existing = pthread_getspecific(key) {
            return Unmanaged<Object>.fromOpaque(existing).takeUnretainedValue()
        }
        let made = make()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }
}
