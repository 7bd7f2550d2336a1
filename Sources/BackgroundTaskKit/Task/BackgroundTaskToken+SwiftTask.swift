import Synchronization

extension BackgroundTaskToken {
    /// Runs `operation` in a new Swift `Task` under a background task that the expiry cancels:
    /// the UIKit counterpart of a `BGTask`'s async launch (``LaunchedTask``). The task begins
    /// before the Swift task is created and ends when `operation` returns or throws; if time runs
    /// out first, the expiration handler cancels the Swift task and the background task ends
    /// inside it (A3.2), so code that honours cancellation stops with it.
    ///
    /// ```swift
    /// @MainActor final class OutboxModel {
    ///     var upload: Task<Int, any Error>?
    ///     func didEnterBackground(_ app: any BackgroundTaskHost, outbox: Outbox) {
    ///         upload = BackgroundTaskToken.task(name: "send-outbox", host: app) { @MainActor in
    ///             try await outbox.sendAll()   // cancelled when time runs out
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// It does what an app otherwise writes by hand, and often gets wrong: a handle through which
    /// the expiration handler cancels the `Task`, which must remember a cancel that comes before
    /// the `Task` exists (a refused begin runs the handler inside the token's `init`, A2.1), work
    /// that does not start when no time was granted, and a token the `Task` keeps alive until
    /// its work ends (P5).
    ///
    /// Contract:
    /// - One `beginBackgroundTask`, before the Swift task exists; one end, when `operation`
    ///   returns or throws or inside the expiration callout, whichever comes first
    ///   (``BackgroundTaskToken``'s contract).
    /// - On expiry the Swift task is cancelled, then `onExpiration` runs, then the background
    ///   task ends, all inside the system's handler on the main queue (A3.1, A3.2). Work that
    ///   ignores cancellation runs on unprotected: make `operation` check for it.
    /// - A refused begin (A2.1) counts as an immediate expiry: `onExpiration` runs before this
    ///   returns, and `operation` never runs: the Swift task throws `CancellationError`. So does
    ///   an expiry that comes before the Swift task starts. (Work started with no task held
    ///   would be suspended under it, bug pattern P5.)
    /// - `operation` is `@Sendable`, as `Task.detached`'s is, and runs with the isolation it
    ///   declares: write `{ @MainActor in … }` to touch main-actor state in it; unannotated it
    ///   runs off every actor. (Not `sending` with the caller's actor inherited, as `Task {}`:
    ///   that needs the standard library's underscored `@_inheritActorContext`, and without it
    ///   Swift 6.3 rejects a `{ @MainActor in … }` closure with awaits passed to a `sending`
    ///   parameter: "pattern that the region-based isolation checker does not understand".)
    /// - `executorPreference` is `Task(executorPreference:)`'s: nil runs the task as `Task {}`
    ///   would; tests pass a simulator's executor.
    ///
    /// - Returns: the Swift task, to await its value or cancel it; the background task ends with
    ///   it whether or not you keep it.
    @discardableResult
    public static func task<Success: Sendable>(
        name: String, host: any BackgroundTaskHost, executorPreference: (any TaskExecutor)? = nil,
        onExpiration: (@Sendable () -> Void)? = nil,
        operation: @escaping @Sendable @isolated(any) () async throws -> Success
    ) -> Task<Success, any Error> {
        let cancellation = EarlyCancellation()
        let token = BackgroundTaskToken(name: name, host: host) {
            cancellation.cancel()
            onExpiration?()
        }
        let task = Task(executorPreference: executorPreference) {
            defer { token.invalidate() }
            // Refused, or expired before this line (the Swift task may start before `attach`
            // below has run): no time to run in, so the operation does not start.
            guard token.state == .running else { throw CancellationError() }
            return try await operation()
        }
        cancellation.attach { task.cancel() }  // an expiry from now on, or one that came first
        return task
    }
}

/// A cancel that may come before what it cancels exists: remembered, and applied when that is
/// attached. Both sides may run on any thread.
private final class EarlyCancellation: Sendable {
    private enum State {
        case waiting
        case cancelledEarly
        case attached(@Sendable () -> Void)
    }

    private let state = Mutex(State.waiting)

    /// Cancels what is attached, now or when it is attached.
    func cancel() {
        let attached: (@Sendable () -> Void)? = state.withCriticalSection { state in
            switch state {
            case .waiting:
                state = .cancelledEarly
                return nil
            case .cancelledEarly: return nil
            case .attached(let cancel): return cancel
            }
        }
        attached?()  // outside the lock: a Swift task's cancellation handlers run inside it
    }

    /// Attaches `cancel`, calling it at once if a cancel came first.
    func attach(_ cancel: @escaping @Sendable () -> Void) {
        let early = state.withCriticalSection { state in
            if case .cancelledEarly = state { return true }
            state = .attached(cancel)
            return false
        }
        if early { cancel() }
    }
}
