import BackgroundTaskKit

/// A mail app that fetches new mail when a silent push says some arrived (D2): the push handler
/// starts one request with a timeout shorter than the push's 30 s, then calls the fetch
/// completion handler exactly once: `.newData` or `.noData` after a success, `.failed` after
/// any failure (no network, the connection lost, a timeout). The mail is marked read when the
/// user opens the app.
///
/// Expected: passes every invariant, `push-completion-called-once` included, also under the
/// fault storm.
final class PushMailSync: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; `unread` is touched only on main.
    /// The ways a push handler goes wrong (the planted bugs).
    enum Flaw: Sendable {
        /// Every path calls the completion handler once.
        case none
        /// The failure branch calls `.failed` and falls through to the success path's call.
        case completesTwiceOnFailure
        /// The failure branch returns without calling the completion handler.
        case forgetsCompletionOnFailure
    }

    private let flaw: Flaw
    private var observation: LifecycleObservation?
    private var unread = 0

    init(flaw: Flaw = .none) { self.flaw = flaw }

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.application.addLifecycleObserver { [unowned self] event in
            if event == .didBecomeActive { unread = 0 }  // the user read the inbox
        }
        context.onRemoteNotification { [unowned self] _, completionHandler in
            fetchNewMail(context, completionHandler: completionHandler)
        }
    }

    private func fetchNewMail(_ context: WorkloadContext, completionHandler: @escaping FetchCompletionHandler) {
        let work = context.startWork("fetch-mail")
        // A timeout well inside the push's 30 s, so a slow server still leaves time to answer.
        context.network.request("fetch-mail", for: work, timeout: .seconds(20)) { [unowned self] result in
            switch flaw {
            case .none:
                guard case .success = result else {
                    work.cancel()
                    completionHandler(.failed)
                    return
                }
                work.finish()
                completionHandler(store(context))
            case .completesTwiceOnFailure:
                if case .failure = result {
                    work.cancel()
                    completionHandler(.failed)  // the bug: no return, the success path runs too
                }
                work.finish()
                completionHandler(store(context))
            case .forgetsCompletionOnFailure:
                guard case .success = result else {
                    work.cancel()
                    return  // the bug: "nothing to report", but the system waits for an answer
                }
                work.finish()
                completionHandler(store(context))
            }
        }
    }

    /// Stores what the server sent: how many new messages, maybe none.
    private func store(_ context: WorkloadContext) -> BackgroundFetchResult {
        let received = context.drawInt(in: 0...3)
        unread += received
        return received > 0 ? .newData : .noData
    }
}
