import DeterministicSimulation

/// The system's side of silent pushes (D2): it receives a content-available push for the app,
/// throttles it, wakes or launches the app in the background, calls the app's handler on the
/// main queue and holds the app awake until the handler's fetch completion handler is called or
/// the push's runtime is over.
///
/// ```swift
/// device.pushService.receive()   // the `silentPush` environment action
/// ```
///
/// Contract (rule D2, checked against Apple's documentation of
/// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`):
/// - A push that comes sooner than ``OSProfile/silentPushMinimumInterval`` after the last one
///   delivered is throttled: dropped, `push.receive` "throttled" (D2: more than about three an
///   hour are rate limited; the gap is a parameter).
/// - A suspended app is resumed in the background; a running one gets the push where it is; one
///   that is not running is launched into the background (B4.1), unless the user force-quit it:
///   "the system does not automatically launch your app if the user has force-quit it"
///   (`push.receive` "forceQuitBlocked").
/// - The handler runs on the main queue (after `didFinishLaunching` on a launch). Until its
///   completion handler is called, the app is not suspended.
/// - The completion handler must be called within ``OSProfile/silentPushRuntime`` (30 s): "or
///   your app will be terminated". At the end of the runtime a push not completed is expired
///   (`push.expire`); an app then in the background is killed (a watchdog kill). In the
///   foreground it is not killed, but the push is expired all the same.
/// - A second call records `push.complete` with `repeated` true and changes nothing else.
final class SilentPushService: @unchecked Sendable {
    // @unchecked: confined to the run's thread, like the device.
    private let deviceReference: DeviceReference
    private var device: SimulatedDevice { deviceReference.device }

    /// One delivered push and where it stands.
    private struct Delivered {
        let number: Int
        let process: Int
        var state: State
        var deadline: JobID?
    }

    private enum State { case waiting, completed, expired }

    private var delivered: [Delivered] = []
    private var nextNumber = 1
    private var lastDelivery: VirtualTime?

    init(device: SimulatedDevice) {
        deviceReference = DeviceReference(device, owner: "SilentPushService")
    }

    private var profile: OSProfile { device.profile }

    /// A push arrives from APNs.
    func receive() {
        let device = self.device
        let number = nextNumber
        nextNumber += 1
        if let last = lastDelivery, device.now - last < profile.silentPushMinimumInterval {
            device.emit(.pushReceived(push: number, outcome: "throttled"))  // D2: rate limited
            return
        }
        guard device.liveApp != nil || !device.blockedByForceQuit else {
            device.emit(.pushReceived(push: number, outcome: "forceQuitBlocked"))
            return
        }
        device.emit(.pushReceived(push: number, outcome: "delivered"))
        guard let app = device.wakeOrLaunchInBackground() else { return }  // B4.1
        hold(number, in: app)
    }

    /// Holds `app` awake for push `number`, arms its runtime and queues its handler on main
    /// (after `didFinishLaunching` when the process was just launched: the main queue is serial).
    private func hold(_ number: Int, in app: SimulatedApplication) {
        let device = self.device
        lastDelivery = device.now
        app.core.pushesAwaitingCompletion += 1
        app.cancelSuspension()
        let deadline = device.scheduler.asyncAfter(profile.silentPushRuntime, on: device.systemQueue) { [self] in
            expire(number)
        }
        delivered.append(Delivered(number: number, process: app.process, state: .waiting, deadline: deadline))
        app.mainQueueImpl.async { [self] in
            guard app.isAlive, let index = index(of: number), delivered[index].state == .waiting else { return }
            guard let handler = app.core.pushHandler else {
                device.emit(.pushReceived(push: number, outcome: "noHandler"))
                settle(index, as: .completed, in: app)
                return
            }
            handler(RemoteNotification(number: number)) { [self] result in complete(number, result) }
        }
    }

    /// The app called push `number`'s completion handler.
    private func complete(_ number: Int, _ result: BackgroundFetchResult) {
        let device = self.device
        device.scheduler.schedulingPoint()
        guard let index = index(of: number), let app = device.process(numbered: delivered[index].process),
            app.isAlive
        else { return }
        switch delivered[index].state {
        case .completed:
            device.emit(.pushCompleted(push: number, result: result.rawValue, repeated: true))
        case .expired:
            device.emit(.pushCompleted(push: number, result: result.rawValue, repeated: false))
        case .waiting:
            device.emit(.pushCompleted(push: number, result: result.rawValue, repeated: false))
            settle(index, as: .completed, in: app)
        }
    }

    /// The push's runtime is over (D2): expired, and the app killed if it is in the background.
    private func expire(_ number: Int) {
        guard let index = index(of: number), delivered[index].state == .waiting,
            let app = device.process(numbered: delivered[index].process), app.isAlive
        else { return }
        let terminates = !app.state.isForeground
        device.emit(.pushExpired(push: number, terminates: terminates))
        settle(index, as: .expired, in: app)
        if terminates {
            app.terminate(.watchdog(detail:
                "the fetch completion handler of silent push \(number) was not called within \(profile.silentPushRuntime) (D2)"))
        }
    }

    /// Ends push `index`'s hold on the app.
    private func settle(_ index: Int, as state: State, in app: SimulatedApplication) {
        if let job = delivered[index].deadline { device.scheduler.cancel(job) }
        delivered[index].deadline = nil
        delivered[index].state = state
        app.core.pushesAwaitingCompletion -= 1
        guard state == .completed else { return }
        device.checkHeldWork(after: "the completion handler of silent push \(delivered[index].number) was called")
        app.evaluateSuspension()
    }

    private func index(of number: Int) -> Int? {
        delivered.firstIndex { $0.number == number }
    }
}
