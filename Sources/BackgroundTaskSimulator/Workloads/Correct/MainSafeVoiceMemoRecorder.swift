import BackgroundTaskKit

/// The voice-memo recorder of ``MainSyncVoiceMemoRecorder`` done right: `finishMemo` updates the
/// main thread's list through a "main sync safe" helper (SDWebImage's `dispatch_main_sync_safe`):
/// inline when already on the main thread, `mainQueue.sync` otherwise. The expiration handler
/// (main) and the encoder (its own queue) may both finish the memo; the list update is
/// idempotent and the memo ends its task once, under its lock, inside the handler when the
/// handler gets there first (A3.2).
///
/// ```swift
/// func onMainSync(_ body: @escaping @Sendable () -> Void) {
///     if app.isMainThread { body() } else { mainQueue.sync(body) }
/// }
/// ```
///
/// Contract: the encoder never holds the memo's lock while it waits for the main thread, so the
/// handler (which takes that lock on main) cannot wait for a thread that waits for main.
///
/// Expected: passes every invariant.
final class MainSafeVoiceMemoRecorder: Workload, @unchecked Sendable {
    // @unchecked: `memos` is touched on main only.
    private var memos: [Int] = []
    private var encoder: VoiceMemoEncoder?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        encoder = VoiceMemoEncoder(context) { [self] memo in finishMemo(memo, app) }
    }

    /// Adds the memo to the list and ends its task, from the encoder's queue or from main.
    private func finishMemo(_ memo: EncodingMemo, _ app: SimulatedApplication) {
        onMainSync(app) { [self] in
            if !memos.contains(memo.number) { memos.append(memo.number) }
        }
        memo.endTaskIfHeld(app)
    }

    private func onMainSync(_ app: SimulatedApplication, _ body: @escaping @Sendable () -> Void) {
        if app.isMainThread {
            body()
        } else {
            app.mainQueue.sync(body)
        }
    }
}
