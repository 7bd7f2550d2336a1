import DeterministicSimulation

/// The system's side of background `URLSession`s (D1, nsurlsessiond): it runs the transfers
/// apart from the app, keeps their completions until a session with the same identifier can take
/// them, and wakes or relaunches the app when a session's transfers are all done.
///
/// ```swift
/// let transfer = device.urlSessionService.start("IMG_0042.heic", in: "com.example.uploads")
/// ```
///
/// Contract (rule D1, checked against Apple's documentation of
/// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`,
/// `urlSessionDidFinishEvents(forBackgroundURLSession:)` and "Downloading files in the
/// background"):
/// - A transfer takes a duration drawn from the environment's work range, in the system: it goes
///   on while the app is suspended or not running. While the network is down it waits (its clock
///   stops) and resumes when the network comes back; it fails with
///   ``OSProfile/backgroundTransferFailureProbability``.
/// - A user force-quit cancels every transfer still pending ("If the user terminates your app,
///   the system cancels any pending tasks"; `cancelledByForceQuit`); a jetsam, a reboot or a
///   crash does not.
/// - A completion goes to a session object with the transfer's session identifier in the live
///   process. While the app runs (foreground, or background and not suspended) it is delivered at
///   once on the session's delegate queue. When all of a session's transfers are done while the
///   app is suspended or not running, the system wakes it (or launches it into the background,
///   not after a force-quit) and, on the main queue after `didFinishLaunching`, calls the app's
///   `handleEventsForBackgroundURLSession` with a completion handler; the held completions are
///   delivered, then `urlSessionDidFinishEvents`, once that call returned and a session with the
///   same identifier exists in the process (made before, or later). Without one they wait.
/// - The wake holds the app awake until the completion handler is called, for at most
///   ``OSProfile/backgroundSessionEventsRuntime`` (30 s by default, UNCERTAIN); a wake not
///   completed by then is expired (`urlsession.expire`) and, with
///   ``OSProfile/backgroundSessionExpiryTerminates``, an app in the background is killed.
///   A second call is recorded (`repeated`) and changes nothing.
final class BackgroundURLSessionService: @unchecked Sendable {
    // @unchecked: confined to the run's thread, like the device.
    private let deviceReference: DeviceReference
    private var device: SimulatedDevice { deviceReference.device }

    private enum TransferState: Equatable {
        case running(since: VirtualTime)
        case waitingForNetwork
        case done(BackgroundTransferError?)
        case delivered
    }

    private struct Transfer {
        let transfer: BackgroundTransfer
        var state: TransferState
        var remaining: VirtualDuration
        var timer: JobID?
        /// Finished (or failed, or cancelled) and not delivered yet.
        var isDone: Bool { if case .done = state { true } else { false } }
        /// Still transferring, or waiting for the network.
        var isPending: Bool {
            switch state {
            case .running, .waitingForNetwork: true
            case .done, .delivered: false
            }
        }
    }

    private struct Wake {
        let number: Int
        let session: String
        let process: Int
        var handleEventsCalled = false
        var eventsDelivered = false
        var completed = false
        var expired = false
        var deadline: JobID?
        var isOpen: Bool { !completed && !expired }
    }

    private var transfers: [Transfer] = []
    private var wakes: [Wake] = []
    /// Session objects made by processes, in the order made.
    private var sessions: [BackgroundURLSession] = []

    init(device: SimulatedDevice) {
        deviceReference = DeviceReference(device, owner: "BackgroundURLSessionService")
    }

    private var profile: OSProfile { device.profile }

    // MARK: The app's calls

    /// The session object `identifier` of `app`'s process: the one made before, or `make()`'s.
    func session(_ identifier: String, in app: SimulatedApplication,
                 make: () -> BackgroundURLSession) -> BackgroundURLSession {
        if let existing = sessions.first(where: { $0.process == app.process && $0.identifier == identifier }) {
            return existing
        }
        let made = make()
        sessions.append(made)
        device.emit(.backgroundSessionEvents(session: identifier, wake: 0, phase: "create"))
        route(identifier)
        return made
    }

    /// Starts a transfer in session `identifier`.
    func start(_ name: String, in identifier: String) -> BackgroundTransfer {
        let device = self.device
        let transfer = BackgroundTransfer(number: transfers.count + 1, session: identifier, name: name)
        let timing = device.environment.work
        let duration = device.choices.duration(in: timing.minimum...timing.maximum)
        transfers.append(Transfer(transfer: transfer, state: .waitingForNetwork, remaining: duration))
        device.emit(.backgroundTransfer(session: identifier, task: transfer.number, phase: "start"))
        if device.isNetworkAvailable { run(transfer.number) } else { emitTransfer(transfer.number, "wait") }
        return transfer
    }

    // MARK: The network and the process

    /// The device's network went down or came back: running transfers wait, waiting ones resume.
    func networkChanged(available: Bool) {
        let now = device.now
        for index in transfers.indices {
            switch transfers[index].state {
            case .running(let since) where !available:
                if let timer = transfers[index].timer { device.scheduler.cancel(timer) }
                transfers[index].timer = nil
                transfers[index].remaining = max(.zero, transfers[index].remaining - (now - since))
                transfers[index].state = .waitingForNetwork
                emitTransfer(index + 1, "wait")
            case .waitingForNetwork where available:
                emitTransfer(index + 1, "resume")
                run(index + 1)
            default:
                break
            }
        }
    }

    /// Process `process` ended: a force-quit cancels every pending transfer (D1, B4.2); its
    /// session objects are gone.
    func processEnded(_ process: Int, reason: TerminationReason) {
        sessions.removeAll { $0.process == process }
        guard reason == .forceQuit else { return }
        for index in transfers.indices {
            switch transfers[index].state {
            case .running, .waitingForNetwork:
                if let timer = transfers[index].timer { device.scheduler.cancel(timer) }
                transfers[index].timer = nil
                transfers[index].state = .done(.cancelledByForceQuit)
                emitTransfer(index + 1, "cancel")
            default:
                break
            }
        }
    }

    // MARK: Transfers

    private func run(_ number: Int) {
        let index = number - 1
        transfers[index].state = .running(since: device.now)
        transfers[index].timer = device.scheduler.asyncAfter(transfers[index].remaining, on: device.systemQueue) { [self] in
            finish(number)
        }
    }

    private func finish(_ number: Int) {
        let index = number - 1
        guard case .running = transfers[index].state else { return }
        transfers[index].timer = nil
        let fails = device.choices.bool(probability: profile.backgroundTransferFailureProbability)
        transfers[index].state = .done(fails ? .failed : nil)
        emitTransfer(number, fails ? "fail" : "finish")
        route(transfers[index].transfer.session)
    }

    private func emitTransfer(_ number: Int, _ phase: String) {
        device.emit(.backgroundTransfer(session: transfers[number - 1].transfer.session, task: number, phase: phase))
    }

    // MARK: Delivery

    /// Delivers or holds session `identifier`'s finished transfers, and wakes the app for them
    /// when they are all done while it is suspended or not running.
    private func route(_ identifier: String) {
        guard transfers.contains(where: { $0.transfer.session == identifier && $0.isDone }) else { return }
        let app = device.liveApp
        if let app, app.state != .suspended {
            // Running: delivered now, unless a wake for this session will deliver them.
            if let wake = wakes.last(where: { $0.session == identifier && $0.process == app.process && $0.isOpen }),
                !wake.eventsDelivered {
                if wake.handleEventsCalled { deliver(identifier, in: app, wake: wake.number) }
                return
            }
            deliver(identifier, in: app, wake: nil)
            return
        }
        let pending = transfers.contains { $0.transfer.session == identifier && $0.isPending }
        guard !pending, app != nil || !device.blockedByForceQuit else { return }
        wake(for: identifier)
    }

    /// The system wakes or relaunches the app for session `identifier`'s events (D1, B4.1).
    private func wake(for identifier: String) {
        let device = self.device
        guard let app = device.wakeOrLaunchInBackground() else { return }
        let number = wakes.count + 1
        app.core.pushesAwaitingCompletion += 1  // held awake like a push (D2) until the handler is called
        app.cancelSuspension()
        let deadline = device.scheduler.asyncAfter(profile.backgroundSessionEventsRuntime, on: device.systemQueue) {
            [self] in expire(number)
        }
        wakes.append(Wake(number: number, session: identifier, process: app.process, deadline: deadline))
        device.emit(.backgroundSessionEvents(session: identifier, wake: number, phase: "wake"))
        app.mainQueueImpl.async { [self] in
            guard app.isAlive, wakes[number - 1].isOpen else { return }
            wakes[number - 1].handleEventsCalled = true
            if let handler = app.core.sessionEventsHandler {
                device.emit(.backgroundSessionEvents(session: identifier, wake: number, phase: "handleEvents"))
                handler(identifier) { [self] in complete(number) }
            } else {
                device.emit(.backgroundSessionEvents(session: identifier, wake: number, phase: "noHandler"))
                settle(number, in: app, expired: false)
            }
            guard app.isAlive, app.state != .suspended else { return }
            deliver(identifier, in: app, wake: number)
        }
    }

    /// Hands session `identifier`'s finished transfers to its session object in `app`, if the
    /// process has one, on its delegate queue; after a wake's events, `urlSessionDidFinishEvents`.
    private func deliver(_ identifier: String, in app: SimulatedApplication, wake: Int?) {
        guard let session = sessions.first(where: { $0.process == app.process && $0.identifier == identifier })
        else { return }
        var ready: [(BackgroundTransfer, Result<Void, BackgroundTransferError>)] = []
        for index in transfers.indices where transfers[index].transfer.session == identifier {
            guard case .done(let error) = transfers[index].state else { continue }
            transfers[index].state = .delivered
            ready.append((transfers[index].transfer, error.map { .failure($0) } ?? .success(())))
        }
        let device = self.device
        if let wake { wakes[wake - 1].eventsDelivered = true }
        let completions = ready
        session.delegateQueue.async { [self] in
            for (transfer, result) in completions {
                device.emit(.backgroundTransfer(session: identifier, task: transfer.number, phase: "deliver"))
                session.onTaskCompleted(transfer, result)
            }
            guard let wake, app.isAlive else { return }
            device.emit(.backgroundSessionEvents(session: identifier, wake: wake, phase: "didFinishEvents"))
            finishedEvents.append(wake)
            session.onFinishEvents(session)
        }
    }

    // MARK: The completion handler

    /// The app called wake `number`'s completion handler.
    private func complete(_ number: Int) {
        let device = self.device
        device.scheduler.schedulingPoint()
        let wake = wakes[number - 1]
        guard let app = device.process(numbered: wake.process), app.isAlive else { return }
        let finished = didFinishEventsRan(number)
        device.emit(.backgroundSessionCompleted(session: wake.session, wake: number, onMain: app.isMainThread,
                                                afterEvents: finished, repeated: wake.completed))
        guard wake.isOpen else { return }
        settle(number, in: app, expired: false)
    }

    /// Whether wake `number`'s `urlSessionDidFinishEvents` was called (not only queued).
    private func didFinishEventsRan(_ number: Int) -> Bool {
        finishedEvents.contains(number)
    }

    /// Wakes whose `urlSessionDidFinishEvents` ran.
    private var finishedEvents: [Int] = []

    /// Wake `number`'s time is over with its completion handler not called (D1).
    private func expire(_ number: Int) {
        let wake = wakes[number - 1]
        guard wake.isOpen, let app = device.process(numbered: wake.process), app.isAlive else { return }
        let terminates = !app.state.isForeground && profile.backgroundSessionExpiryTerminates
        device.emit(.backgroundSessionExpired(session: wake.session, wake: number,
                                              eventsDelivered: didFinishEventsRan(number), terminates: terminates))
        settle(number, in: app, expired: true)
        guard terminates else {
            // The system stops waiting: the app may be suspended once nothing else holds it.
            device.checkHeldWork(after: "the time of background session \"\(wake.session)\"'s wake ran out")
            app.evaluateSuspension()
            return
        }
        app.terminate(.watchdog(detail:
            "the completion handler of background session \"\(wake.session)\" was not called within "
            + "\(profile.backgroundSessionEventsRuntime) (D1)"))
    }

    /// Ends wake `number`'s hold on the app.
    private func settle(_ number: Int, in app: SimulatedApplication, expired: Bool) {
        if let job = wakes[number - 1].deadline { device.scheduler.cancel(job) }
        wakes[number - 1].deadline = nil
        if expired { wakes[number - 1].expired = true } else { wakes[number - 1].completed = true }
        app.core.pushesAwaitingCompletion -= 1
        guard !expired else { return }
        device.checkHeldWork(after: "the completion handler of background session \"\(wakes[number - 1].session)\" was called")
        app.evaluateSuspension()
    }
}
