import Synchronization

/// A unit of work for a ``BackgroundOperationQueue`` that says when it is done: the base of
/// ``AsyncOperation`` and ``SyncOperation``, and of your own operations.
///
/// Subclass it and override ``execute()``; call ``finish()`` when the work is done, from any
/// thread, as late as you like. The queue keeps its background task until then.
///
/// ```swift
/// final class UploadOperation: BackgroundOperation, @unchecked Sendable {
///     let photo: Photo
///     init(photo: Photo) {
///         self.photo = photo
///         super.init(name: "upload \(photo.id)")
///     }
///     override func execute() {
///         guard !isCancelled else { return finish() }
///         uploader.upload(photo) { _ in self.finish() }
///     }
/// }
/// queue.addOperation(UploadOperation(photo: photo))
/// ```
///
/// Contract:
/// - An operation runs at most once and belongs to at most one queue; adding it again is
///   ignored.
/// - ``finish()`` completes the operation the first time and does nothing afterwards, so an
///   operation finishes exactly once. Finishing before the queue starts it means it will not
///   be executed.
/// - ``cancel()`` only sets ``isCancelled``: a pending operation is then finished without
///   executing; an executing one should notice and finish early.
/// - Thread-safe. Subclasses are `@unchecked Sendable`; keep their own state thread-safe.
open class BackgroundOperation: @unchecked Sendable, CustomStringConvertible {
    // @unchecked: the base's mutable state lives in `state`, a Mutex; subclasses inherit the
    // conformance and must keep their own state safe.
    private struct State {
        var phase = Phase.pending
        var cancelled = false
        var enqueued = false
        var onFinish: (@Sendable () -> Void)?
    }

    private enum Phase { case pending, executing, finished }

    /// A name for descriptions and debugging.
    public let name: String
    private let state = Mutex(State())

    /// An operation named `name`.
    public init(name: String) { self.name = name }

    /// Does the work. The default finishes at once; override it and call ``finish()`` when
    /// done. Runs on the queue's host background queue.
    open func execute() { finish() }

    /// Marks the operation done, letting the queue move on. Only the first call counts; safe
    /// from any thread.
    public final func finish() {
        let onFinish: (@Sendable () -> Void)? = state.withCriticalSection { state in
            guard state.phase != .finished else { return nil }
            state.phase = .finished
            defer { state.onFinish = nil }
            return state.onFinish
        }
        onFinish?()
    }

    /// Asks the operation to stop; see the type's contract.
    public final func cancel() { state.withCriticalSection { $0.cancelled = true } }

    /// Whether ``cancel()`` was called (or the queue's background time expired).
    public final var isCancelled: Bool { state.withCriticalSection { $0.cancelled } }
    /// Whether the operation has started and not finished.
    public final var isExecuting: Bool { state.withCriticalSection { $0.phase == .executing } }
    /// Whether the operation has finished (run to the end, skipped after cancel, or finished
    /// early).
    public final var isFinished: Bool { state.withCriticalSection { $0.phase == .finished } }

    public var description: String {
        let flags = state.withCriticalSection { state -> String in
            let phase = switch state.phase {
            case .pending: "pending"
            case .executing: "executing"
            case .finished: "finished"
            }
            return state.cancelled ? "\(phase), cancelled" : phase
        }
        return "\(type(of: self))(\(name), \(flags))"
    }

    // MARK: For the queue

    /// Claims the operation for a queue; false if it already belongs to one.
    final func claim() -> Bool {
        state.withCriticalSection { state in
            guard !state.enqueued else { return false }
            state.enqueued = true
            return true
        }
    }

    /// Starts the operation; `onFinish` runs once, when it finishes (at once if it was finished
    /// or cancelled before starting).
    final func start(onFinish: @escaping @Sendable () -> Void) {
        enum Start { case execute, skip, alreadyFinished }
        let start: Start = state.withCriticalSection { state in
            switch state.phase {
            case .finished: return .alreadyFinished
            case .executing: return .alreadyFinished  // cannot happen: a queue starts it once
            case .pending:
                if state.cancelled {
                    state.phase = .finished
                    return .skip
                }
                state.phase = .executing
                state.onFinish = onFinish
                return .execute
            }
        }
        switch start {
        case .execute: execute()
        case .skip, .alreadyFinished: onFinish()
        }
    }

    /// Cancels and finishes an operation the queue drops without starting it.
    final func drop() {
        state.withCriticalSection { state in
            state.cancelled = true
            if state.phase == .pending { state.phase = .finished }
        }
    }
}
