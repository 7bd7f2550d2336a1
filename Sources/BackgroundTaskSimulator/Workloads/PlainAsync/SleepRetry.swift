import BackgroundTaskKit

/// A news app's feed refresh on leaving the foreground, as it ships: an `@MainActor` refresher
/// holds a ``BackgroundTaskToken`` while a `Task` fetches through the app's networking SDK and
/// retries with backoff, `Task.sleep(for:)` between attempts (at most 8 s: the task is held
/// meanwhile, and a task held idle only burns the app's background time). The SDK knows
/// nothing of task cancellation, so the token's expiration handler (on main, A3.1) stops its
/// requests and cancels the `Task`; the token then ends the task (A3.2). The loop stops when
/// cancelled: the backoff sleep throws, and a cancelled task starts no new attempt
/// (`Task.checkCancellation()`).
///
/// ```swift
/// let refresher = FeedRefresher(host: UIKitApplicationHost(), sdk: FeedSDKClient.shared)
/// refresher.didEnterBackground()   // on the main actor
/// ```
///
/// Contract: one refresh at a time, under its own token; with ``honoursCancellation`` off (the
/// planted bug: `try?` on the sleep, no check) a cancelled refresh goes on fetching after the
/// token ended, with nothing holding the app awake (A1.1, B2.3).
///
/// Expected: `sleep-retry/correct` passes every invariant; `sleep-swallows-cancellation`
/// violates `background-work-held`.
@MainActor
final class FeedRefresher: BackgroundEntryHandling {
    static let attempts = 6

    private let host: any BackgroundTaskHost
    private let sdk: any FeedSDK
    private let honoursCancellation: Bool
    private var refresh: Task<Void, Never>?

    init(host: any BackgroundTaskHost, sdk: any FeedSDK, honoursCancellation: Bool = true) {
        self.host = host
        self.sdk = sdk
        self.honoursCancellation = honoursCancellation
    }

    /// Refreshes the feed under a token, unless a refresh is in flight.
    func didEnterBackground() {
        guard refresh == nil else { return }
        let sdk = sdk
        let token = BackgroundTaskToken(name: "refresh-feed", host: host) { [weak self] in
            sdk.cancelRequests()  // the SDK ignores task cancellation: stop its request here
            MainActor.assumeIsolated { self?.refresh?.cancel() }
        }
        guard token.isRunning else { return }  // A2.1: refused (its handler already ran)
        refresh = Task {
            try? await self.fetchWithRetry()
            token.invalidate()
            self.refresh = nil
        }
    }

    /// The SDK's request as an `await`. The check before it and the request's start run in one
    /// job of the main actor, like the expiration handler: the handler comes before the check
    /// (which throws) or after the request is registered (which `cancelRequests()` stops). A
    /// nonisolated `async` wrapper would open a window between them, on the hop off the main
    /// actor, in which a handler cancels nothing and the request then runs unheld (the simulator
    /// found it in an earlier version, in 1 run of 100).
    private func fetchLatest() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            sdk.fetchLatest { continuation.resume(with: $0) }
        }
    }

    /// Up to ``attempts`` fetches, 1, 2, 4, 8 and 8 s apart; returns at the first success.
    private func fetchWithRetry() async throws {
        for attempt in 0..<Self.attempts {
            if honoursCancellation { try Task.checkCancellation() }
            do {
                try await fetchLatest()
                return
            } catch {
                // offline, or stopped by the expiration handler: back off and try again
            }
            let backoff = Duration.seconds(min(1 << attempt, 8))
            if honoursCancellation {
                try await Task.sleep(for: backoff)  // tidy: allow virtual in a run
            } else {
                try? await Task.sleep(for: backoff)  // tidy: allow virtual in a run. The bug: swallows CancellationError
            }
        }
    }
}
