import BackgroundTaskKit
import DeterministicSimulation

/// A weather app's refresh on leaving the foreground: under a background task token, a `Task`
/// fetches the forecast and retries with exponential backoff on the process's clock while the
/// network is down. Cancellation ends the loop: the token's expiration handler cancels the
/// `Task`, the fetch in flight stops and the backoff sleep throws.
///
/// Expected: passes every invariant.
final class ForecastRefresh: Workload, @unchecked Sendable {
    // @unchecked: the observation is touched on the simulated main queue only.
    private var observation: LifecycleObservation?
    /// The fetch-with-retry loop (the planted bug swaps it).
    let fetchWithRetry: @Sendable (WorkloadContext) async -> Void

    init(fetchWithRetry: @escaping @Sendable (WorkloadContext) async -> Void = ForecastRefresh.fetchWithRetry) {
        self.fetchWithRetry = fetchWithRetry
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let fetch = fetchWithRetry
        observation = context.onDidEnterBackground {
            let refresh = TaskHandle()
            let token = BackgroundTaskToken(name: "refresh-forecast", host: context.application) {
                refresh.cancel()
            }
            refresh.task = Task(executorPreference: context.taskExecutor) {
                await fetch(context)
                token.invalidate()
            }
        }
    }

    static let attempts = 6

    /// Up to six attempts, 1, 2, 4, 8 and 16 s apart; returns when one succeeds or the task is
    /// cancelled.
    @Sendable static func fetchWithRetry(_ context: WorkloadContext) async {
        for attempt in 0..<attempts {
            do {
                try await AsyncWork.perform("fetch-forecast", context, needsNetwork: true)
                return
            } catch is CancellationError {
                return
            } catch {
                do {
                    try await context.clock.sleep(for: .seconds(min(1 << attempt, 8)))  // short: the task is held meanwhile
                } catch {
                    return  // cancelled while backing off
                }
            }
        }
    }
}

/// The forecast refresh written against the SDK's callback API through a continuation, with
/// the backoff sleep under `try?`: the cancellation error of the sleep is swallowed and the
/// request itself knows nothing of cancellation, so after expiry the loop keeps fetching and
/// backing off, with the token already ended.
///
/// Expected: `background-work-held`.
enum ForecastRefreshIgnoringCancellation {
    static func make() -> ForecastRefresh {
        ForecastRefresh { context in
            let client = CallbackClient(context, work: "fetch-forecast")
            for attempt in 0..<ForecastRefresh.attempts {
                let ok = await withCheckedContinuation { continuation in
                    client.fetch { continuation.resume(returning: $0) }
                }
                if ok { return }
                try? await context.clock.sleep(for: .seconds(1 << attempt))  // the bug: cancellation swallowed
            }
        }
    }
}
