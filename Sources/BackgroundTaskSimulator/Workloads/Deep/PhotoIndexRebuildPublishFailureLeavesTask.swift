import BackgroundTaskKit

/// ``PhotoIndexRebuild`` whose failed publish resubmits the rebuild and returns ("we'll try
/// again next time") without completing the third chunk's task: the task stays held with no
/// work until the system expires it, burning the device's idle time. Reached only by a deep
/// sequence: on external power, three processing launches in a row with the app never opened
/// in between (each a minute or more after the last), and the network down when the index is
/// published.
///
/// ```swift
/// let workload = PhotoIndexRebuildPublishFailureLeavesTask.make()
/// ```
///
/// Expected: `no-idle-task`.
enum PhotoIndexRebuildPublishFailureLeavesTask {
    static func make() -> PhotoIndexRebuild { PhotoIndexRebuild(publishFailureLeavesTask: true) }
}
