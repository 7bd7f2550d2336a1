import BackgroundTaskKit
public import DeterministicSimulation
import SimulationRuntime

/// The simulated iPhone for one run: the virtual clock and scheduler, the system's own queue,
/// the app's current process, BGTaskScheduler's daemon, settings and network.
///
/// ```swift
/// let device = SimulatedDevice(profile: .ios17, environment: .init(), workload: info,
///                              choices: ChoiceSource(seed: seed))
/// device.addSink { event, time in print(time, event.name) }
/// device.launchProcess(inBackground: false)
/// _ = device.scheduler.run(until: .seconds(60))
/// ```
///
/// Contract: everything runs in virtual time, one simulated thread at a time (on the calling
/// thread, or on pool threads that hand a baton to each other when the run has simulated
/// threads), with every nondeterministic decision drawn from ``choices``; the same choices give
/// the same run, event for event. Call ``tearDown()`` when done.
public final class SimulatedDevice: @unchecked Sendable {
    // @unchecked: a run and all its objects are touched by one thread at a time (the baton's
    // handoffs order the accesses).
    public let profile: OSProfile
    public let environment: EnvironmentConfig
    public let workload: WorkloadInfo
    public let scheduler: Scheduler
    /// The system's own queue (SpringBoard, assertiond, dasd): never frozen.
    let systemQueue: QueueID

    /// The device's mutable state, which every event reads.
    struct Core {
        var app: SimulatedApplication?
        var processCount = 0
        var isNetworkAvailable: Bool
        var isBackgroundRefreshEnabled = true
        var isOnExternalPower: Bool
        var blockedByForceQuit = false
        var madeTaskScheduler: TaskSchedulerService?
        var madePushService: SilentPushService?
        var madeFetchService: BackgroundFetchService?
        var madeURLSessionService: BackgroundURLSessionService?
        /// Keeps the monitor alive while ``monitorCall`` calls it.
        var heldMonitor: RunMonitor?
        /// The same monitor, called unretained by ``emit(_:)`` (see ``Unretained``).
        var monitorCall: Unretained<RunMonitor>?
        var sinks: [(SimEvent, VirtualTime) -> Void] = []
        /// A dead process's code runs inertly (``Scheduler/onInertCode``): nothing is recorded
        /// meanwhile, the monitor and the sinks wait here (so ``emit(_:)`` checks nothing more).
        var dropsEvents = false
        /// Set when ``tearDown()`` starts: what the app's code does from then on (its threads
        /// unwound, its objects released) is not the app's doing on a device, where a process
        /// that ends runs none of it. Only real Dispatch calls read it.
        var isTearingDown = false
        var monitorWhileInert: Unretained<RunMonitor>?
        var sinksWhileInert: [(SimEvent, VirtualTime) -> Void] = []
        var nextWorkID = 1
        /// The lock state and the disk (``DeviceStorage``).
        var storage = DeviceStorage()
        var isLowPowerModeEnabled = false
        /// MetricKit's exit counts (A7.2).
        var exitMetrics = AppExitMetrics()
        /// The app's `UserDefaults` flags that are true, in the order they were set
        /// (``SimulatedUserDefaults``).
        var userDefaultsFlags: [String] = []
    }

    /// The mutable state, in one place. Unchecked exclusivity: every event reads it several
    /// times and the dynamic check cost more than the reads. Safe because a run is confined to
    /// one thread and no access to it spans a call that could reach it again (``emit(_:)`` reads
    /// the monitor and the sinks before calling them).
    @exclusivity(unchecked) private var core: Core

    /// The device's lock state and disk: what data protection reads (``SimulatedFiles``).
    var storage: DeviceStorage {
        get { core.storage }
        set { core.storage = newValue }
    }

    /// Whether Low Power Mode is on (`ProcessInfo.isLowPowerModeEnabled`).
    public internal(set) var isLowPowerModeEnabled: Bool {
        get { core.isLowPowerModeEnabled }
        set { core.isLowPowerModeEnabled = newValue }
    }

    /// The app's exits so far, counted as MetricKit's `MXForegroundExitData` and
    /// `MXBackgroundExitData` would count them (A7.2; see ``AppExitMetrics``).
    public internal(set) var exitMetrics: AppExitMetrics {
        get { core.exitMetrics }
        set { core.exitMetrics = newValue }
    }

    /// The app's `UserDefaults` flags that are true: on disk, so they outlive every process,
    /// reboot and app update (``SimulatedUserDefaults``).
    var userDefaultsFlags: [String] {
        get { core.userDefaultsFlags }
        set { core.userDefaultsFlags = newValue }
    }

    /// The current or last process; nil before the first launch.
    public var app: SimulatedApplication? { core.app }
    public var processCount: Int { core.processCount }
    public internal(set) var isNetworkAvailable: Bool {
        get { core.isNetworkAvailable }
        set { core.isNetworkAvailable = newValue }
    }
    public internal(set) var isBackgroundRefreshEnabled: Bool {
        get { core.isBackgroundRefreshEnabled }
        set { core.isBackgroundRefreshEnabled = newValue }
    }
    /// Whether the device is charging: processing requests with `requiresExternalPower` wait
    /// for it (C3.3).
    public internal(set) var isOnExternalPower: Bool {
        get { core.isOnExternalPower }
        set { core.isOnExternalPower = newValue }
    }
    /// The user force-quit the app and has not opened it since (B4.2).
    var blockedByForceQuit: Bool {
        get { core.blockedByForceQuit }
        set { core.blockedByForceQuit = newValue }
    }
    /// BGTaskScheduler's daemon, made on first use.
    var taskScheduler: TaskSchedulerService {
        if let made = core.madeTaskScheduler { return made }
        let made = TaskSchedulerService(device: self)
        core.madeTaskScheduler = made
        return made
    }
    /// The system's silent-push delivery (D2), made on first use.
    var pushService: SilentPushService {
        if let made = core.madePushService { return made }
        let made = SilentPushService(device: self)
        core.madePushService = made
        return made
    }
    /// The system's background fetch (D3), made on first use.
    var fetchService: BackgroundFetchService {
        if let made = core.madeFetchService { return made }
        let made = BackgroundFetchService(device: self)
        core.madeFetchService = made
        return made
    }
    /// The system's background URLSession daemon (D1), made on first use.
    var urlSessionService: BackgroundURLSessionService {
        if let made = core.madeURLSessionService { return made }
        let made = BackgroundURLSessionService(device: self)
        core.madeURLSessionService = made
        return made
    }
    /// The background URLSession daemon if a session was ever used (nil: nothing to tell it).
    var urlSessionServiceIfMade: BackgroundURLSessionService? { core.madeURLSessionService }
    /// Whether a background fetch is due (never before the app set an interval).
    var isBackgroundFetchDue: Bool { core.madeFetchService?.isDue ?? false }
    /// The run's own observer (trace, facts, coverage, checkers): called directly, before the
    /// sinks, because every event of every run passes through it.
    var monitor: RunMonitor? {
        get { core.heldMonitor }
        set {
            core.heldMonitor = newValue
            core.monitorCall = newValue.map { Unretained($0) }
            if workload.usesAsync {
                newValue?.beforeFinish = { [unowned self] in emitAsyncEscapes() }
            }
        }
    }
    /// Every process of the run, for ``tearDown()``.
    private var processes: [SimulatedApplication] = []
    /// Cleared when the device is deinitialized; a ``DeviceReference`` checks it before
    /// following its unretained reference to the device.
    let lifetime = DeviceLifetime()

    public init(profile: OSProfile, environment: EnvironmentConfig, workload: WorkloadInfo, choices: ChoiceSource) {
        self.profile = profile
        self.environment = environment
        self.workload = workload
        self.scheduler = Scheduler(choices: choices)
        self.systemQueue = scheduler.makeQueue(label: "system", kind: .serial)
        self.core = Core(isNetworkAvailable: environment.networkInitiallyAvailable,
                         isOnExternalPower: environment.externalPowerInitiallyConnected)
        self.concurrency = environment.concurrency.configuration(drawingFrom: scheduler.choices)
        // A dead process's code that the scheduler runs to free what it holds
        // (`Scheduler.releaseDeadQueues`: actor turns, threads holding a lock or a turn) records
        // nothing and takes no work id. Without threads or Swift concurrency none ever runs.
        if concurrency != nil || workload.usesAsync {
            scheduler.onInertCode = { [unowned self] inert in dropEvents(inert) }
        }
        if let concurrency {
            // A thread inside BackgroundTaskKit's own lock is never preempted: the hosts'
            // ``CoreLockHost`` seam defers it (SimulatedApplication.whileCoreHoldsLock).
            scheduler.enableControlledConcurrency(concurrency, pool: .forCurrentThread)
            // The system's own work (expiry callouts, deadlines, watchdogs) keeps its times.
            scheduler.disablePreemptionDelays(on: systemQueue)
        }
        // After the threads (enableAsync's contract); each process begins its own domain.
        if workload.usesAsync { scheduler.enableAsync() }
        // The app's own GCD calls run on its simulated queues (SimulatedApplication+RealDispatch).
        scheduler.onRealDispatch = { [unowned self] call in routeRealDispatch(call) }
        // `NotificationCenter.default`, one per process (ProcessFoundationSingletons), and
        // `UserDefaults.standard`, one per run (RunUserDefaults).
        scheduler.onFoundationSingleton = { [unowned self] kind in foundationSingleton(kind) }
    }

    /// The live process's `NotificationCenter.default`, or the run's `UserDefaults.standard`. A
    /// dead process's code (run inertly) gets a center and defaults of its own that nothing else
    /// sees: what it observes there never runs, and what it stores reaches no launch.
    private func foundationSingleton(_ kind: FoundationSingleton) -> AnyObject? {
        let live = core.dropsEvents ? nil : liveApp
        switch kind {
        case .notificationCenter:
            return live?.foundationSingletons.notificationCenter() ?? ProcessFoundationSingletons().notificationCenter()
        case .userDefaults:
            return userDefaults.defaults(deadCode: live == nil)
        case .mainOperationQueue:
            // Dead code's operations would never run (its queues are frozen): a queue of its own.
            return live?.foundationSingletons.mainOperationQueue() ?? ProcessFoundationSingletons().mainOperationQueue()
        }
    }

    /// The run's `UserDefaults.standard` (and dead code's), removed at ``tearDown()``.
    private let userDefaults = RunUserDefaults()

    /// Routes a real Dispatch call made by the run's code to the live process. A dead process's
    /// code (run inertly to free what it holds) sends nothing: its work is taken and never run,
    /// as its frozen queues would never run it (kept in ``deadWork`` until teardown); a `sync`
    /// runs in place.
    private func routeRealDispatch(_ call: RealDispatchCall) -> Bool {
        if !core.dropsEvents, let app = liveApp {
            // A timer let go of at teardown: a process that ends runs no deinit on a device. (Any
            // other call still goes to the process, which keeps its work and frees it with it.)
            if core.isTearingDown, call.operation == .timerReleased { return false }
            return app.route(call)
        }
        switch call.operation {
        case .sync: call.runNow()
        // A timer let go of by dead code: a killed app runs no deinit on a device.
        case .sourceStarted, .isMainThread, .currentQueue, .timerReleased: return false
        case .async, .after, .notify: deadWork.keep(call, abandonsIfNeverRun: scheduler.usedSwiftConcurrency)
        case .groupLeft, .assertOnQueue, .timerSchedule, .timerEventHandler, .timerCancelHandler, .timerResume,
             .timerActivate, .timerSuspend, .timerCancel, .timerIsCancelled, .queueMade:
            break
        }
        return true
    }

    /// The work dead processes' code sent to Dispatch, never to run; released at ``tearDown()``.
    private let deadWork = DeadProcessWork()

    /// This run's controlled concurrency (drawn from the environment's settings), or nil when the
    /// run has one thread.
    public let concurrency: ConcurrencyConfiguration?

    /// Whether the app's code runs on simulated threads that can be preempted and can block.
    var hasThreads: Bool { concurrency != nil }

    deinit { lifetime.isAlive = false }

    public var choices: ChoiceSource { scheduler.choices }
    public var now: VirtualTime { scheduler.now }

    /// The running process, if there is one.
    public var liveApp: SimulatedApplication? { app?.isAlive == true ? app : nil }

    /// Observes every event as it happens (the trace recorder and the invariant checkers).
    public func addSink(_ sink: @escaping (SimEvent, VirtualTime) -> Void) {
        core.sinks.append(sink)
    }

    /// Records `event` at the current virtual time.
    public func emit(_ event: SimEvent) {
        let time = scheduler.now
        core.monitorCall?.call { $0.observe(event, at: time) }
        if core.sinks.isEmpty { return }
        for sink in core.sinks { sink(event, time) }
    }

    // MARK: Processes

    /// Starts a new process (B2.1, B2.2). Does nothing if one is alive.
    @discardableResult
    public func launchProcess(inBackground: Bool) -> SimulatedApplication? {
        if let live = liveApp { return live }
        if !inBackground { core.blockedByForceQuit = false }
        core.processCount += 1
        let process = SimulatedApplication(device: self, process: core.processCount, inBackground: inBackground)
        processes.append(process)
        core.app = process
        process.launch()
        return process
    }

    /// Ends the run's world in a defined order, while the device is still alive: no more events
    /// are recorded; the Swift tasks of an async workload that are still suspended are cancelled
    /// and run to their end (``Scheduler/drainAsync(maxJobs:)``); pending jobs are dropped; each process lets go of its workload, observers,
    /// tasks and registrations (breaking the app-workload reference cycles). Releasing them runs
    /// deinits (a token's end, a BGTask's completion) against live objects, and nothing they do
    /// is recorded. Without it, a run's objects would leak, or a deinit would reach a device that
    /// is already gone.
    ///
    /// Contract: call once, after the run's outcome was taken; the device is unusable after.
    public func tearDown() {
        core.isTearingDown = true
        monitor = nil
        let sinks = core.sinks  // released below, outside any access to `core`
        core.sinks = []
        // Swift tasks the run left suspended are finished (cancelled), not abandoned: a suspended
        // task is never freed. Nothing they do now is recorded. A task caught in a busy loop never
        // finishes (it ignores its cancellation): the drain gives up after as many jobs as found
        // the loop, and that run's tasks are left as they are.
        if workload.usesAsync {
            asyncDrain = scheduler.busyLoop == nil ? scheduler.drainAsync() : scheduler.drainAsync(maxJobs: 1_000)
        }
        scheduler.discardPendingJobs()
        for process in processes { process.tearDown() }
        scheduler.discardPendingJobs()
        deadWork.release()
        scheduler.releaseAsync()
        processes.removeAll()
        core.app = nil
        userDefaults.remove()
        withExtendedLifetime(sinks) {}
    }

    /// What teardown's drain of the run's Swift tasks did (async workloads; nil before
    /// ``tearDown()``): how many tasks it cancelled and finished, and how many a continuation
    /// never resumed kept suspended (leaked by the workload's code).
    public private(set) var asyncDrain: AsyncDrainResult?

    /// Process `number` of this run (from 1), until ``tearDown()``; nil for any other number.
    func process(numbered number: Int) -> SimulatedApplication? {
        processes.indices.contains(number - 1) ? processes[number - 1] : nil
    }

    func processEnded(_ process: SimulatedApplication, reason: TerminationReason) {
        if reason == .forceQuit { core.blockedByForceQuit = true }
        core.madeURLSessionService?.processEnded(process.process, reason: reason)  // D1: a force-quit cancels transfers
    }

    /// Stops recording (`true`) while a dead process's code runs inertly, or resumes it: the
    /// monitor and the sinks are set aside meanwhile, so that code is never seen.
    private func dropEvents(_ drop: Bool) {
        guard drop != core.dropsEvents else { return }
        core.dropsEvents = drop
        if drop {
            core.monitorWhileInert = core.monitorCall
            core.sinksWhileInert = core.sinks
            core.monitorCall = nil
            core.sinks = []
        } else {
            core.monitorCall = core.monitorWhileInert
            core.sinks = core.sinksWhileInert
            core.monitorWhileInert = nil
            core.sinksWhileInert = []
        }
    }

    /// A new work item id, from 1 in each run (``WorkloadContext/startWork(_:)``); 0 while a dead
    /// process's code runs inertly (it takes none).
    func makeWorkID() -> Int {
        if core.dropsEvents { return 0 }
        defer { core.nextWorkID += 1 }
        return core.nextWorkID
    }

    // MARK: Facts for the checkers

    /// Emits ``SimEvent/nothingHeld(reason:)`` if the app is in the background and nothing holds
    /// it awake any more. `reason` is built only when the event is emitted (an autoclosure: most
    /// calls emit nothing, and interpolating it cost more than the rest of the check).
    func checkHeldWork(after reason: @autoclosure () -> String) {
        guard let live = liveApp, live.state == .background, !live.core.inDidEnterBackground,
            live.core.openTasks.isEmpty, live.core.runningTasks.isEmpty, live.core.pushesAwaitingCompletion == 0,
            live.core.modeAssertions == 0
        else { return }
        emit(.nothingHeld(reason: reason()))
    }

    /// Records each escape of the run's Swift concurrency as an `async.escape` event (read by
    /// `no-async-escape`), just before the checkers' end-of-run verdicts.
    private func emitAsyncEscapes() {
        for escape in scheduler.asyncEscapes { emit(.asyncEscape(escape.description)) }
        let dropped = scheduler.asyncEscapesDropped
        if dropped > 0 { emit(.asyncEscape("and \(dropped) more escapes")) }
    }

    // MARK: Faults

    /// Whether this `beginBackgroundTask` returns `.invalid` (A2.1; a scenario fault rate).
    func drawBeginFailure() -> Bool {
        choices.bool(probability: environment.faults.beginFailureProbability)
    }
}
