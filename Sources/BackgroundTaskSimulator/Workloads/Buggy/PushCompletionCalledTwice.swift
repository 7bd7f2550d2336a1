import BackgroundTaskKit

/// ``PushMailSync`` whose failure branch calls the fetch completion handler with `.failed` and
/// then, missing a `return`, falls through to the success path, which calls it again with
/// `.noData` or `.newData`: the handler is called twice for every push whose request fails.
///
/// Expected: `push-completion-called-once`.
enum PushCompletionCalledTwice {
    static func make() -> PushMailSync { PushMailSync(flaw: .completesTwiceOnFailure) }
}
