/// A variable that code on several queues reads and writes, made by the host
/// (``ExecutionHost/makeShared(name:initialValue:)``) so that the simulator can see it.
///
/// ```swift
/// final class Upload: @unchecked Sendable {
///     let didComplete: SharedState<Bool>
///     init(host: any ExecutionHost) { didComplete = host.makeShared(name: "didComplete", initialValue: false) }
///     func finish() {                                        // on the upload's queue
///         guard !didComplete.value else { return }           // a read …
///         didComplete.value = true                           // … then a write: not atomic
///         notify()
///     }
/// }
/// ```
///
/// Why: simulated threads switch only at host calls, so a check-then-act on a plain stored `var`
/// never interleaves under simulation, and its race is never found. Every read and every write
/// of a `SharedState` is a point where the simulator may switch threads, as a device may.
///
/// Contract: it marks shared state; it does not protect it. On a device it is plain storage:
/// no lock, as racy as the `var` it replaces (one branch per access, on a `let` that is nil).
/// `value += 1` and mutating a collection in place (`value.append(x)`) are a read, then a
/// write, with a window between them, as on a `var` (a collection is copied on the way: keep
/// large collections behind a ``HostLock`` instead). Guard it with a ``HostLock`` or confine
/// it to one queue where the race matters; ``FakeHost`` also gives plain storage.
public final class SharedState<Value: Sendable>: @unchecked Sendable {
    // @unchecked: racy on purpose, exactly as the stored property it stands for (see the type).
    /// The name the simulator reports the variable by.
    public let name: String
    private var storage: Value
    /// The simulator's record of accesses; nil in an app (``ExecutionHost``'s default).
    private let observer: (any SharedStateObserver)?

    /// A variable holding `initialValue`, whose accesses `observer` sees first (nil: none).
    package init(name: String, initialValue: Value, observer: (any SharedStateObserver)?) {
        self.name = name
        self.storage = initialValue
        self.observer = observer
    }

    deinit { observer?.didRelease(ObjectIdentifier(self)) }

    /// The current value. Under simulation each read and each write is a scheduling point.
    public var value: Value {
        get {
            observer?.willAccess(.read, of: ObjectIdentifier(self), name: name)
            return storage
        }
        set {
            observer?.willAccess(.write, of: ObjectIdentifier(self), name: name)
            storage = newValue
        }
    }
}

/// What a ``SharedState`` access is: the simulator's data-race checker tells reads from writes.
package enum SharedStateAccessKind: Sendable {
    case read
    case write
}

/// Sees every access to a ``SharedState`` before it happens: the simulator's scheduling point.
package protocol SharedStateObserver: AnyObject, Sendable {
    /// Called before each read or write of the variable `state` named `name`.
    func willAccess(_ kind: SharedStateAccessKind, of state: ObjectIdentifier, name: String)

    /// Called when the variable `state` is freed: its identity may be reused by a new one.
    func didRelease(_ state: ObjectIdentifier)
}
