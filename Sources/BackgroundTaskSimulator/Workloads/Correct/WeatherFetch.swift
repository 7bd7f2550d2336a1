import BackgroundTaskKit

/// A weather app on iOS 7-12 that refreshes its forecast with background fetch (D3): it asks for
/// fetches at most every 15 minutes and, in the fetch handler, loads the forecast with a 20 s
/// timeout and calls the completion handler once: `.newData` or `.noData` after a success,
/// `.failed` after any failure.
///
/// Expected: passes every invariant, `fetch-completion-called-once` included.
final class WeatherFetch: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; `forecasts` is touched only on main.
    /// Whether only the new-data path calls the completion handler (the planted bug).
    private let answersOnlyNewData: Bool
    private var forecasts = 0

    init(answersOnlyNewData: Bool = false) { self.answersOnlyNewData = answersOnlyNewData }

    func didFinishLaunching(_ context: WorkloadContext) {
        context.onBackgroundFetch(minimumInterval: .seconds(900)) { [unowned self] completionHandler in
            let work = context.startWork("forecast")
            context.network.request("forecast", for: work, timeout: .seconds(20)) { [unowned self] result in
                let changed = context.draw(probability: 0.5)  // the server had a newer forecast
                if case .success = result { work.finish() } else { work.cancel() }
                if answersOnlyNewData {
                    // The bug: "the system only cares when there is something new".
                    if case .success = result, changed {
                        forecasts += 1
                        completionHandler(.newData)
                    }
                    return
                }
                switch result {
                case .success:
                    if changed { forecasts += 1 }
                    completionHandler(changed ? .newData : .noData)
                case .failure:
                    completionHandler(.failed)
                }
            }
        }
    }
}
