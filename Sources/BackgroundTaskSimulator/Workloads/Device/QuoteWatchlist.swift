import BackgroundTaskKit

/// A stock app's watchlist screen: while the screen is visible it refreshes the quotes every
/// 5 s (a request of 0.2 to 3 s on the background queue, merged on the main queue). Nothing of
/// it should run in the background: quotes nobody sees are wasted, and iOS suspends the app
/// mid-request anyway.
///
/// The correct screen starts and stops polling from ``ViewVisibility``, which also hides the
/// view when the app resigns active (home, lock, the app switcher, a call): the refresh in
/// flight is cancelled before `didEnterBackground`. The planted bug
/// (``PollingTiedToViewAppearance``) starts polling in `viewDidAppear` and stops it in
/// `viewWillDisappear` only, the usual UIKit code: going home sends no `viewWillDisappear`, so a
/// refresh in flight runs on in the background with no task holding the app
/// (`background-work-held`), and the timer keeps firing until the app is suspended.
///
/// Expected: passes every invariant.
final class QuoteWatchlist: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; the state is touched on main only.
    /// Whether the screen follows ``ViewVisibility`` (the planted bug follows view appearance).
    let usesVisibility: Bool
    private var visibility: ViewVisibility?
    private var appearance: LifecycleObservation?
    private var polling = false
    /// Bumped on every start, so that a stopped poll chain's pending timer does nothing.
    private var generation = 0
    private var refreshInFlight: WorkItem?

    init(usesVisibility: Bool = true) {
        self.usesVisibility = usesVisibility
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        if usesVisibility {
            visibility = ViewVisibility(host: context.application) { [unowned self] visible in
                visible ? startPolling(context) : stopPolling()
            }
        } else {
            appearance = context.application.addViewAppearanceObserver { [unowned self] event in
                event == .didAppear ? startPolling(context) : stopPolling()  // viewDidAppear / viewWillDisappear
            }
        }
    }

    private func startPolling(_ context: WorkloadContext) {
        guard !polling else { return }
        polling = true
        generation += 1
        refresh(context, generation: generation)
    }

    private func stopPolling() {
        polling = false
        refreshInFlight?.cancel()
        refreshInFlight = nil
    }

    private func refresh(_ context: WorkloadContext, generation: Int) {
        guard polling, generation == self.generation else { return }
        let work = context.startWork("refresh-quotes")
        refreshInFlight = work
        let took = context.drawDuration(in: .milliseconds(200)...(.seconds(3)))
        context.application.backgroundQueue.asyncAfter(took) { [unowned self] in
            context.application.mainQueue.async { [unowned self] in
                guard !work.isDone else { return }  // stopped meanwhile
                work.finish()
                if refreshInFlight === work { refreshInFlight = nil }
                context.application.mainQueue.asyncAfter(.seconds(5)) { [unowned self] in
                    refresh(context, generation: generation)
                }
            }
        }
    }
}
