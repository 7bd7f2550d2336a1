import BackgroundTaskKit
import DeterministicSimulation

/// A voice-memo app finishes encoding the last recording when the user leaves: the encoder runs on
/// its own serial queue under a background task (``VoiceMemoEncoder``), and `finishMemo` (called
/// by the encoder when it is done, or by the expiration handler when time runs out) adds the memo
/// to the list the UI shows, with `mainQueue.sync` because that list belongs to the main thread,
/// and then ends the task. The function was written for the encoder's queue.
///
/// ```swift
/// func finishMemo(_ memo: Memo) {
///     mainQueue.sync { memos.append(memo) }   // from the main thread: never returns
///     memo.endTaskIfHeld()
/// }
/// ```
///
/// The race: which thread finishes the memo first. When the encoder wins, `sync` from its queue is
/// fine; when the expiry callout comes first, the handler (on the main thread, A3.1) calls
/// `finishMemo`, whose `sync` onto the main queue waits for the main thread itself: the app hangs
/// (the watchdog would kill it, A3.5, A10.4). With one thread `sync` runs inline and the run
/// passes (`concurrency` off).
///
/// Expected: `no-deadlock`.
final class MainSyncVoiceMemoRecorder: Workload, @unchecked Sendable {
    // @unchecked: `memos` is touched on main only.
    private var memos: [Int] = []
    private var encoder: VoiceMemoEncoder?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        encoder = VoiceMemoEncoder(context) { [self] memo in finishMemo(memo, app) }
    }

    /// Adds the memo to the list and ends its task; written for the encoder's queue.
    private func finishMemo(_ memo: EncodingMemo, _ app: SimulatedApplication) {
        (app.mainQueue as? SimulatedWorkQueue)?.sync { [self] in  // the bug: also called on main
            if !memos.contains(memo.number) { memos.append(memo.number) }
        }
        memo.endTaskIfHeld(app)
    }
}
