import BackgroundTaskKit

/// An app object that does its background work when the app leaves the foreground, on the main
/// actor (what an app calls from `sceneDidEnterBackground`).
@MainActor
protocol BackgroundEntryHandling: AnyObject, Sendable {
    func didEnterBackground()
}

/// The harness side of the plain-async workloads that act on leaving the foreground: makes the
/// app's `@MainActor` object on the simulated main queue at launch (one per process, as an app
/// delegate's), and calls it on every background entry.
///
/// ```swift
/// MainActorAppWorkload { context in
///     PhotoUploader(host: context.application, api: SimulatedAPIClient(context: context))
/// }
/// ```
///
/// Contract: `make` and every call run on the simulated main queue, the run's main actor: the
/// lifecycle observer is `@MainActor` (``LifecycleObserver``); `make` runs in the workload's
/// `didFinishLaunching`, which is not, so it is called on the main actor as the simulated app
/// calls its callbacks (``Scheduler/callOnMainActor(_:_:)``: also with the executors off).
final class MainActorAppWorkload: Workload, @unchecked Sendable {
    // @unchecked: the observation is touched on the simulated main queue only.
    private var observation: LifecycleObservation?
    private let make: @MainActor @Sendable (WorkloadContext) -> any BackgroundEntryHandling

    init(make: @escaping @MainActor @Sendable (WorkloadContext) -> any BackgroundEntryHandling) {
        self.make = make
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let make = make
        let app = context.application.scheduler.callOnMainActor("the app's launch") { make(context) }
        observation = context.application.addLifecycleObserver { event in  // @MainActor, as UIKit's
            if event == .didEnterBackground { app.didEnterBackground() }
        }
    }
}
