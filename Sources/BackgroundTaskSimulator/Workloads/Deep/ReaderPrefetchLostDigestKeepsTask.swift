import BackgroundTaskKit

/// ``ReaderPrefetch`` whose digest download returns on `networkConnectionLost` before ending its
/// UIKit background task ("the next refresh retries it"): the task stays held with nothing to do
/// until the system expires it. Reached only by a deep sequence: four refresh launches in a
/// row with the app never opened in between (a minute or more apart), then a network drop
/// while the digest downloads.
///
/// ```swift
/// let workload = ReaderPrefetchLostDigestKeepsTask.make()
/// ```
///
/// Expected: `no-idle-task`.
enum ReaderPrefetchLostDigestKeepsTask {
    static func make() -> ReaderPrefetch { ReaderPrefetch(lostDigestKeepsTask: true) }
}
