import DeterministicSimulation

/// The system's side of background fetch on iOS 7-12 (D3): once the app has set a minimum fetch
/// interval and registered its handler, the system wakes the app (or launches it in the
/// background) after at least that interval, calls the handler on the main queue, and holds the
/// app awake until the fetch completion handler is called or the fetch's time is over.
///
/// ```swift
/// device.fetchService.launch()   // the `backgroundFetch` environment action
/// ```
///
/// Contract (rules D3 and C2.7):
/// - Only on profiles with ``OSProfile/backgroundFetchAvailable`` (iOS 7-12), for a workload that
///   declares the `fetch` background mode and no BGTaskScheduler identifiers (C2.7: permitted
///   identifiers disable background fetch), after it set an interval
///   (`setMinimumBackgroundFetchInterval`; the default is "never"), never sooner than that
///   interval after the last fetch, never while the app is in the foreground, and not after a
///   force-quit until the user opens the app.
/// - The completion handler must be called within ``OSProfile/backgroundFetchRuntime`` (about
///   30 s): "executing this block tells the system that it can move your app back to the
///   suspended state". A fetch not completed in time is expired (`fetch` event, phase "expire")
///   and the app killed; a second call is recorded (`fetch.complete` with `repeated`).
final class BackgroundFetchService: @unchecked Sendable {
    // @unchecked: confined to the run's thread, like the device.
    private let deviceReference: DeviceReference
    private var device: SimulatedDevice { deviceReference.device }

    private struct Fetch {
        let number: Int
        let process: Int
        var completed = false
        var expired = false
        var deadline: JobID?
    }

    private var fetches: [Fetch] = []
    /// The interval the app set (`setMinimumBackgroundFetchInterval`); nil: never.
    private(set) var minimumInterval: VirtualDuration?
    private var lastFetch: VirtualTime?

    init(device: SimulatedDevice) {
        deviceReference = DeviceReference(device, owner: "BackgroundFetchService")
    }

    /// `setMinimumBackgroundFetchInterval(_:)`.
    func setMinimumInterval(_ interval: VirtualDuration) {
        minimumInterval = interval
    }

    /// Whether the system may launch a fetch now (the environment asks before each action).
    var isDue: Bool {
        guard let interval = minimumInterval else { return false }
        if let live = device.liveApp {
            if live.state.isForeground { return false }
        } else if device.blockedByForceQuit {
            return false
        }
        guard let last = lastFetch else { return true }
        return device.now - last >= interval
    }

    /// The system launches a background fetch (D3).
    func launch() {
        guard isDue else { return }
        let device = self.device
        let number = fetches.count + 1
        lastFetch = device.now
        device.emit(.backgroundFetch(fetch: number, phase: "launch"))
        guard let app = device.wakeOrLaunchInBackground() else { return }
        app.core.pushesAwaitingCompletion += 1  // held awake like a push (D2, D3)
        app.cancelSuspension()
        let deadline = device.scheduler.asyncAfter(device.profile.backgroundFetchRuntime, on: device.systemQueue) {
            [self] in expire(number)
        }
        fetches.append(Fetch(number: number, process: app.process, deadline: deadline))
        app.mainQueueImpl.async { [self] in
            guard app.isAlive, !fetches[number - 1].completed, !fetches[number - 1].expired else { return }
            guard let handler = app.core.fetchHandler else {
                device.emit(.backgroundFetch(fetch: number, phase: "noHandler"))
                settle(number, in: app, expired: false)
                return
            }
            handler { [self] result in complete(number, result) }
        }
    }

    private func complete(_ number: Int, _ result: BackgroundFetchResult) {
        let device = self.device
        device.scheduler.schedulingPoint()
        let fetch = fetches[number - 1]
        guard let app = device.process(numbered: fetch.process), app.isAlive else { return }
        device.emit(.fetchCompleted(fetch: number, result: result.rawValue, repeated: fetch.completed))
        guard !fetch.completed, !fetch.expired else { return }
        settle(number, in: app, expired: false)
    }

    private func expire(_ number: Int) {
        let fetch = fetches[number - 1]
        guard !fetch.completed, !fetch.expired, let app = device.process(numbered: fetch.process), app.isAlive
        else { return }
        device.emit(.backgroundFetch(fetch: number, phase: "expire"))
        settle(number, in: app, expired: true)
        guard !app.state.isForeground else { return }
        app.terminate(.watchdog(detail:
            "the completion handler of background fetch \(number) was not called within \(device.profile.backgroundFetchRuntime) (D3)"))
    }

    private func settle(_ number: Int, in app: SimulatedApplication, expired: Bool) {
        if let job = fetches[number - 1].deadline { device.scheduler.cancel(job) }
        fetches[number - 1].deadline = nil
        if expired { fetches[number - 1].expired = true } else { fetches[number - 1].completed = true }
        app.core.pushesAwaitingCompletion -= 1
        guard !expired else { return }
        device.checkHeldWork(after: "the completion handler of background fetch \(number) was called")
        app.evaluateSuspension()
    }
}
