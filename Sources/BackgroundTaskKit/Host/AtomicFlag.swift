import Synchronization

/// A one-way flag that can be set once from any thread; the building block for idempotent
/// `invalidate()` and `cancel()`.
///
/// ```swift
/// let ended = AtomicFlag()
/// if ended.setIfClear() { host.endBackgroundTask(id) }   // runs at most once
/// ```
public final class AtomicFlag: Sendable {
    private let value = Atomic<Bool>(false)

    /// A clear flag.
    public init() {}

    /// Sets the flag; returns true only for the one call that found it clear.
    public func setIfClear() -> Bool {
        value.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
            .exchanged
    }

    /// Whether the flag has been set.
    public var isSet: Bool { value.load(ordering: .acquiring) }
}
