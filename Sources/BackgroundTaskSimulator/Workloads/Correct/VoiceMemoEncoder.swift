import BackgroundTaskKit

/// What the voice-memo workloads share: on every background entry, the last recording is encoded
/// on a serial "encoder" queue under its own background task, begun on main; `finish` is called
/// with the memo by the encoder when it is done, or by the expiration handler (on main, after
/// stopping the encoder) when time runs out.
///
/// ```swift
/// encoder = VoiceMemoEncoder(context) { memo in
///     onMainSync { memos.append(memo.number) }
///     memo.endTaskIfHeld(app)
/// }
/// ```
///
/// Contract: `finish` may be called twice for one memo, once from each side, from different
/// threads; it must be idempotent.
final class VoiceMemoEncoder: @unchecked Sendable {
    // @unchecked: `recorded` is touched on main only.
    private var recorded = 0
    private var observation: LifecycleObservation?

    init(_ context: WorkloadContext, finish: @escaping @Sendable (EncodingMemo) -> Void) {
        let app = context.application
        let queue = app.makeSerialQueue(label: "encoder")
        observation = context.onDidEnterBackground { [self] in
            recorded += 1
            let memo = EncodingMemo(number: recorded, lock: context.makeLock("memo \(recorded)"))
            let work = context.startWork("encode-memo")
            let id = app.beginBackgroundTask(withName: "encode-memo") {
                memo.stop(work)
                finish(memo)
            }
            memo.setTask(id)
            guard id != .invalid else {
                memo.stop(work)  // refused (A2.1): the memo is encoded when the app is next active
                return
            }
            let chunks = context.drawInt(in: 4...40)
            queue.async {
                if memo.encode(chunks, context, work) { finish(memo) }
            }
        }
    }
}
