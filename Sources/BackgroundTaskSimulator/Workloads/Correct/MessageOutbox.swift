import BackgroundTaskKit

/// A messaging app's outbox, sent when the app leaves the foreground: the user writes messages in
/// the foreground; on `didEnterBackground` the app sends what is pending in one request under a
/// ``BackgroundTaskToken``. A success empties the outbox; any failure (the connection lost when
/// the app was suspended or the network went away, no connection, a timeout) keeps the messages
/// and cancels the work, and the next background entry retries. A refused begin sends nothing.
///
/// Expected: passes every invariant, `request-failure-handled` included.
final class MessageOutbox: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; `pending` is touched only on main.
    private var observation: LifecycleObservation?
    private var pending = 0
    /// Whether a lost connection counts as delivered (the planted bug).
    let treatsLostConnectionAsSuccess: Bool

    init(treatsLostConnectionAsSuccess: Bool = false) {
        self.treatsLostConnectionAsSuccess = treatsLostConnectionAsSuccess
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.application.addLifecycleObserver { [unowned self] event in
            switch event {
            case .didBecomeActive: if context.draw(probability: 0.7) { pending += 1 }  // the user wrote
            case .didEnterBackground: send(context)
            default: break
            }
        }
    }

    private func send(_ context: WorkloadContext) {
        guard pending > 0 else { return }
        let work = context.startWork("send-messages")
        let task = BackgroundTaskToken(name: "send-messages", host: context.application) { work.cancel() }
        guard task.isRunning else { return }  // refused (A2.1): retry on the next background entry
        let sending = pending
        context.network.request("send-messages", for: work, timeout: .seconds(30)) { [unowned self] result in
            switch result {
            case .success:
                pending -= min(sending, pending)
                work.finish()
            case .failure(.networkConnectionLost) where treatsLostConnectionAsSuccess:
                pending -= min(sending, pending)  // the bug: "the server probably got it"
                work.finish()
            case .failure:
                work.cancel()  // keep the messages; the next background entry retries
            }
            task.invalidate()
        }
    }
}
