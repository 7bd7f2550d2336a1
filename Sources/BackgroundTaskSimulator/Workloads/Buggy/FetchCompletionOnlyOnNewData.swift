import BackgroundTaskKit

/// ``WeatherFetch`` that calls the background fetch's completion handler only when a new forecast
/// arrived: with no new data, or when the request failed, the system waits out the fetch's time
/// and kills the app (D3).
///
/// Expected: `fetch-completion-called-once`.
enum FetchCompletionOnlyOnNewData {
    static func make() -> WeatherFetch { WeatherFetch(answersOnlyNewData: true) }
}
