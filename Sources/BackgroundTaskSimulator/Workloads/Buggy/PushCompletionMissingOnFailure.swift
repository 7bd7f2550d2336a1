import BackgroundTaskKit

/// ``PushMailSync`` whose failure branch returns without calling the fetch completion handler
/// (a lost connection, no network or a timeout is "nothing to report"): the system waits out the
/// push's 30 s and terminates the app if it is in the background (D2).
///
/// Expected: `push-completion-called-once`.
enum PushCompletionMissingOnFailure {
    static func make() -> PushMailSync { PushMailSync(flaw: .forgetsCompletionOnFailure) }
}
