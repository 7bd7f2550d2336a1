public import BackgroundTaskKit
import DeterministicSimulation

/// One process of the simulated app: its `UIApplication` (background tasks, state, lifecycle
/// notifications) and its queues. A run may launch several processes one after another; each
/// gets a fresh ``SimulatedApplication`` with identifiers from 1 again (A2.5 "per process").
///
/// ```swift
/// let id = app.beginBackgroundTask(withName: "upload") { app.endBackgroundTask(id) }
/// app.backgroundQueue.asyncAfter(.seconds(3)) { app.endBackgroundTask(id) }
/// ```
///
/// Contract: it implements the host protocols of BackgroundTaskKit as iOS does, rule by rule
/// (the rule ids are cited at each decision). It is confined to the run's thread: client code
/// calls it from simulated queues, never from real threads.
public final class SimulatedApplication: BackgroundTaskHost, LifecycleHost, ExecutionHost,
    @unchecked Sendable
{
    // @unchecked: confined to the run's thread (see the type's contract).
    /// The device, which owns this process while it runs; not retained (a user may keep an
    /// application after its run, when the device may be gone: a use then traps).
    private let deviceReference: DeviceReference
    /// The device; traps if it no longer exists (the same contract as an `unowned` reference).
    var device: SimulatedDevice { deviceReference.device }
    /// The run's scheduler, for the scheduling points around every host call: called unretained
    /// (reaching it through ``device`` retained and released it twice per call).
    private let schedulerReference: SchedulerReference
    /// The process number in this run, from 1.
    public let process: Int

    /// The process's mutable state, which every event reads or changes.
    struct Core {
        /// Where the process is in its lifecycle (B1.1).
        var state: AppProcessState = .notRunning
        /// Whether the process still exists.
        var isAlive = true
        var hasFinishedLaunching = false
        /// Whether the app is in the app switcher (inactive, B2.5) rather than interrupted by a call.
        var inAppSwitcher = false
        /// True while `applicationDidEnterBackground` is running: no suspension then (A10.1).
        var inDidEnterBackground = false
        /// `applicationWillTerminate` is queued: the app is not suspended before it runs (B3.3).
        var terminationPending = false
        /// When `applicationWillTerminate` began, while it runs (A10.2's watchdog reads it).
        var willTerminateBegan: VirtualTime?
        /// The app's scene is connected (B1.3; always false when the profile has no scenes).
        var sceneConnected = false
        /// Launched or resumed into the background: uses the background-launch budget (A4.2).
        var backgroundLaunched: Bool
        /// The process's queues: main, global, then those the app made.
        var queues: [QueueID]
        var nextTaskID = 1
        var openTasks: [OpenBackgroundTask] = []
        var session: BackgroundSession?
        var budgetUsed = VirtualDuration.zero
        var suspensionJob: JobID?
        /// BGTaskScheduler registrations of this process (C1.6: they last for one process).
        var registrations: [TaskRegistration] = []
        /// Launch handlers waiting for launch to finish before they are called.
        var launchesAfterStartup: [PendingLaunch] = []
        /// BGTasks of this process that have not completed.
        var runningTasks: [SimulatedBGTask] = []
        /// The client code's instance for this process.
        var workload: (any Workload)?
        var context: WorkloadContext?
        /// The main-thread callback under a watchdog, while it runs (threads only).
        var mainThreadWatch: MainThreadWatch?
        /// The process's network requests, made on first use (``WorkloadContext/network``).
        var network: SimulatedNetwork?
        /// The process's files (``SimulatedFiles``), made on first use.
        var files: SimulatedFiles?
        /// The app's screen (``SimulatedScreen``), made when a workload observes its view.
        var screen: SimulatedScreen?
        /// The process's silent-push handler (``WorkloadContext/onRemoteNotification(_:)``, D2).
        var pushHandler: RemoteNotificationHandler?
        /// The process's background-fetch handler (``WorkloadContext/onBackgroundFetch(minimumInterval:_:)``, D3).
        var fetchHandler: BackgroundFetchHandler?
        /// Silent pushes and background fetches delivered whose completion handler is not called
        /// yet: they hold the app awake (D2, D3).
        var pushesAwaitingCompletion = 0
        /// Audio or location sessions held (``BackgroundModeAssertion``, D5): they keep the app
        /// running and stop the background budget (A4.8).
        var modeAssertions = 0
        /// The simulated threads inside a token's begin (``whileCoreBegins(_:)``), one entry per
        /// nested call.
        var beginningThreads: [Int] = []
        /// Expiration handlers waiting for those begins (``waitForCoreBegins()``), and what they
        /// wait on, made the first time one waits.
        var beginWaiters = 0
        var beginsDone: SimulatedSemaphore?
        /// The process's `handleEventsForBackgroundURLSession` (``WorkloadContext/onBackgroundURLSessionEvents(_:)``, D1).
        var sessionEventsHandler: BackgroundSessionEventsHandler?
        /// The process's accessory or Bluetooth event handler (``WorkloadContext/onAccessoryEvent(_:)``, D4).
        var accessoryHandler: AccessoryEventHandler?
    }

    /// The mutable state, in one place. Unchecked exclusivity: every event reads or changes it
    /// several times and the dynamic check cost more than the accesses. Safe because a run is
    /// confined to one thread and no access to it spans a call that could reach it again (client
    /// code, observers and handlers are called with values read out of it first; ``tearDown()``
    /// releases what it held after the access). The whole test suite also passes with the check
    /// on (the attribute removed), which would trap on any overlapping access.
    @exclusivity(unchecked) var core: Core

    /// Where the process is in its lifecycle (B1.1).
    public var state: AppProcessState { core.state }
    /// Whether the process still exists.
    public var isAlive: Bool { core.isAlive }
    public var hasFinishedLaunching: Bool { core.hasFinishedLaunching }

    let mainQueueImpl: SimulatedWorkQueue
    let backgroundQueueImpl: SimulatedWorkQueue
    /// Lifecycle observers; observations refer to this list weakly, never to the process.
    let observers = LifecycleObserverList()
    /// The app's own Dispatch queues, notifications and timers (``route(_:)``), made at the
    /// process's first Dispatch call: most workloads make none, and every run launches processes.
    var madeRealDispatch: RealDispatchRoutes?
    /// The process's own `NotificationCenter.default` and `OperationQueue.main`, made when its
    /// code first asks for one.
    var madeFoundationSingletons: ProcessFoundationSingletons?

    init(device: SimulatedDevice, process: Int, inBackground: Bool) {
        self.deviceReference = DeviceReference(device, owner: "SimulatedApplication")
        self.process = process
        let scheduler = device.scheduler
        schedulerReference = SchedulerReference(scheduler, owner: "SimulatedApplication")
        let main = scheduler.makeQueue(label: "p\(process).main", kind: .serial)
        // The main thread runs at the highest priority: a preemption lets other threads run
        // meanwhile (another core), but never keeps it off the CPU for long.
        scheduler.disablePreemptionDelays(on: main)
        // Its jobs are the main actor's: expiration handlers and lifecycle observers, which the
        // SDK declares @MainActor, are called there (``Scheduler/callOnMainActor(_:_:)``).
        scheduler.setMainThread(main)
        let background = scheduler.makeQueue(label: "p\(process).global", kind: Self.concurrentQueueKind)
        mainQueueImpl = SimulatedWorkQueue(label: "main", id: main, scheduler: scheduler, isMainQueue: true)
        backgroundQueueImpl = SimulatedWorkQueue(label: "global", id: background, scheduler: scheduler)
        var queues = [main, background]
        if device.workload.usesAsync {
            // The process's own tasks queue: frozen with its other queues, so a suspended or dead
            // process's tasks do not run (and `@SimulatedMainActor` is this process's main).
            let tasks = scheduler.beginAsyncDomain(label: "p\(process).tasks", mainQueue: main)
            queues.append(tasks.queue)
            asyncDomain = (tasks, scheduler.asyncClock)
        } else {
            asyncDomain = nil
        }
        core = Core(backgroundLaunched: inBackground, queues: queues)
        // A blocked main thread delays everything the main thread delivers: its watchdog is armed
        // when it blocks (nothing without threads).
        scheduler.onThreadBlocks(on: main) { [unowned self] in mainThreadBlocks() }
    }

    /// The global queue's kind, and that of each concurrent `DispatchQueue` the app makes: four
    /// of its blocks run at once.
    static let concurrentQueueKind = QueueKind.concurrent(width: 4)

    /// The process's task executor and virtual clock, for a workload that uses Swift concurrency.
    let asyncDomain: (executor: SimulationTaskExecutor, clock: SimulationClock)?

    var scheduler: Scheduler { device.scheduler }

    /// A scheduling point (``Scheduler/schedulingPoint()``), as every host call makes before it
    /// takes effect and after it returns; app code calls it as `ExecutionHost.schedulingPoint()`
    /// where it shares plain storage between queues.
    public func schedulingPoint() {
        schedulerReference.call { $0.schedulingPoint() }
    }

    /// ``CoreLockHost``: BackgroundTaskKit holds one of its own (real) locks while `body` calls
    /// this host, so the calling simulated thread is not preempted in there
    /// (``DeterministicSimulation/Scheduler/withPreemptionDeferred(_:)``). With a correct lock
    /// nothing that takes the same lock could run there anyway: no interleaving is lost.
    public func whileCoreHoldsLock<Result>(_ body: () -> Result) -> Result {
        schedulerReference.call { $0.withPreemptionDeferred(body) }
    }

    /// ``CoreLockHost``: a token begins its task in `body` (A1.4). No real lock: the begin has
    /// scheduling points, where other simulated threads run as they would on a device; the app
    /// records which simulated thread is beginning, and an expiration handler on another thread
    /// that comes meanwhile (A3.4) waits in ``waitForCoreBegins()`` until it is done. Nothing is
    /// drawn and nothing waits unless that race happens.
    public func whileCoreBegins<Result>(_ body: () -> Result) -> Result {
        guard let me = schedulerReference.call({ $0.currentThreadID }) else { return body() }
        core.beginningThreads.append(me)
        defer {
            if let index = core.beginningThreads.lastIndex(of: me) { core.beginningThreads.remove(at: index) }
            // Taken before signalling: a signal is a scheduling point, and a woken waiter that
            // finds another begin under way counts itself again.
            let waiters = core.beginWaiters
            core.beginWaiters = 0
            if waiters > 0, let done = core.beginsDone {
                for _ in 0..<waiters { done.signal() }
            }
        }
        return body()
    }

    /// ``CoreLockHost``: blocks the calling simulated thread while another is inside
    /// ``whileCoreBegins(_:)``.
    public func waitForCoreBegins() {
        guard let me = schedulerReference.call({ $0.currentThreadID }) else { return }
        while core.beginningThreads.contains(where: { $0 != me }) {
            let done = core.beginsDone ?? scheduler.makeSemaphore(name: "BackgroundTaskKit begin", value: 0)
            core.beginsDone = done
            core.beginWaiters += 1
            guard done.wait() else { return }  // the run is being torn down
        }
    }
    var profile: OSProfile { device.profile }
    var now: VirtualTime { device.scheduler.now }

    // MARK: ExecutionHost

    public var mainQueue: any WorkQueue { mainQueueImpl }
    public var backgroundQueue: any WorkQueue { backgroundQueueImpl }

    public func makeSerialQueue(label: String) -> any WorkQueue {
        schedulingPoint()
        defer { schedulingPoint() }
        return makeProcessSerialQueue(label: label)
    }

    /// A serial queue of this process, frozen and thawed with its other queues, made without a
    /// scheduling point: for the queues the simulated OS makes for the app, such as the
    /// BGTaskScheduler's default queue (C1.5).
    func makeProcessSerialQueue(label: String) -> SimulatedWorkQueue {
        makeProcessQueue(label: label, kind: .serial)
    }

    /// A queue of this process of either kind, frozen and thawed with its other queues.
    func makeProcessQueue(label: String, kind: QueueKind) -> SimulatedWorkQueue {
        let id = scheduler.makeQueue(label: "p\(process).\(label)", kind: kind)
        core.queues.append(id)
        if core.state == .suspended || !core.isAlive { scheduler.freeze(id) }
        return SimulatedWorkQueue(label: label, id: id, scheduler: scheduler)
    }

    // MARK: LifecycleHost

    public func addLifecycleObserver(_ observer: @escaping LifecycleObserver) -> LifecycleObservation {
        schedulingPoint()
        defer { schedulingPoint() }
        let id = observers.add(observer)
        return LifecycleObservation { [weak observers] in observers?.remove(id) }
    }

    /// Delivers a lifecycle notification to every observer, in registration order (B2), on the
    /// main actor (``LifecycleObserver``: the app delegate is `@MainActor`).
    func deliver(_ event: LifecycleEvent) {
        device.emit(.lifecycle(event))
        // One read of the list (an observer may add or remove observers while it runs; this
        // delivery still goes to the observers registered when it began), then plain indexing.
        let current = observers.snapshot
        if !current.isEmpty {
            scheduler.callOnMainActor("a lifecycle observer (\(event))") {
                var index = 0
                while index < current.count, core.isAlive {
                    current[index].observer(event)
                    index += 1
                }
            }
        }
        if event == .didBecomeActive, core.isAlive { core.screen?.appDidBecomeActive() }
    }

    /// Moves to `newState`, recording the change.
    func setState(_ newState: AppProcessState) {
        guard newState != core.state else { return }
        let old = core.state
        core.state = newState
        device.emit(.stateChanged(from: old, to: newState))
    }

    /// Lets go of everything the client code holds or registered (see
    /// ``SimulatedDevice/tearDown()``); what that releases is released here, while this object
    /// and the device are alive.
    func tearDown() {
        core.isAlive = false
        let released: (Any?, Any?, Any, Any, Any, Any, Any) = (
            core.workload, core.context, observers.removeAll(), core.registrations, core.openTasks,
            core.runningTasks, core.launchesAfterStartup)
        core.workload = nil
        core.context = nil
        core.registrations = []
        core.openTasks = []
        core.runningTasks = []
        core.launchesAfterStartup = []
        let pushHandler = (core.pushHandler, core.fetchHandler)
        core.pushHandler = nil
        core.fetchHandler = nil
        withExtendedLifetime(released) {}
        let viewObservers = core.screen?.removeAll()  // they capture the workload, like `observers`
        withExtendedLifetime(viewObservers) {}
        withExtendedLifetime(pushHandler) {}
        let otherHandlers = (core.sessionEventsHandler, core.accessoryHandler)
        core.sessionEventsHandler = nil
        core.accessoryHandler = nil
        withExtendedLifetime(otherHandlers) {}
        madeRealDispatch?.removeAll()
        madeFoundationSingletons?.removeAll()
    }

    /// The process's own `NotificationCenter.default` and `OperationQueue.main`
    /// (``FoundationSingleton``), made when its code first asks for one.
    var foundationSingletons: ProcessFoundationSingletons {
        if let made = madeFoundationSingletons { return made }
        let made = ProcessFoundationSingletons()
        madeFoundationSingletons = made
        return made
    }

    // MARK: Simulation-only API for workloads

    /// Models synchronous work on the calling thread that takes `duration`.
    ///
    /// ```swift
    /// app.backgroundQueue.async { app.performBlockingWork(for: .seconds(3)); work.finish() }
    /// ```
    ///
    /// Contract: with threads (the default) only the calling simulated thread is blocked:
    /// virtual time, timed system events and every other thread go on, and a blocked main thread
    /// delays everything the main thread delivers (expiration handlers, lifecycle
    /// notifications), so a main thread blocked across the deadline is killed at the deadline
    /// (A3.5, A7.1, A10.1). Without threads (`concurrency` off) the whole run waits: virtual
    /// time moves on while nothing else runs.
    public func performBlockingWork(for duration: Duration) {
        if device.hasThreads {
            schedulerReference.call { $0.block(for: VirtualDuration(duration)) }
        } else {
            scheduler.clock.advance(by: VirtualDuration(duration))
        }
    }

    /// Whether the caller runs on this process's main thread (its main queue's thread), like
    /// `Thread.isMainThread`.
    ///
    /// ```swift
    /// precondition(app.isMainThread, "UI work off the main thread")
    /// ```
    public var isMainThread: Bool { scheduler.currentQueue == mainQueueImpl.id }
}

/// A `register(forTaskWithIdentifier:using:launchHandler:)` that succeeded.
struct TaskRegistration {
    let identifier: String
    /// The queue given, or the framework's own serial queue for nil (C1.5).
    let queue: SimulatedWorkQueue
    let handler: @Sendable (any ScheduledTask) -> Void
}
