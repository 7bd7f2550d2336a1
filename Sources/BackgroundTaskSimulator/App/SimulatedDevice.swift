import BackgroundTaskKit
public import DeterministicSimulation

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
/// Contract: everything runs on the calling thread, in virtual time, with every nondeterministic
/// decision drawn from ``choices``; the same choices give the same run, event for event.
public final class SimulatedDevice: @unchecked Sendable {
    // @unchecked: a run and all its objects are confined to one thread.
    //
    // Hot state is `@exclusivity(unchecked)`: every event reads it, and a dynamic exclusivity
    // check costs more than the read. Safe because a run is confined to one thread and these are
    // plain values (flags, counters, references kept alive elsewhere), never modified while a
    // closure they hold runs.
    public let profile: OSProfile
    public let environment: EnvironmentConfig
    public let workload: WorkloadInfo
    public let scheduler: Scheduler
    /// The system's own queue (SpringBoard, assertiond, dasd): never frozen.
    let systemQueue: QueueID
    /// The current or last process; nil before the first launch.
    @exclusivity(unchecked) public private(set) var app: SimulatedApplication?
    @exclusivity(unchecked) public private(set) var processCount = 0
    @exclusivity(unchecked) public internal(set) var isNetworkAvailable: Bool
    @exclusivity(unchecked) public internal(set) var isBackgroundRefreshEnabled = true
    /// Whether the device is charging: processing requests with `requiresExternalPower` wait
    /// for it (C3.3).
    @exclusivity(unchecked) public internal(set) var isOnExternalPower: Bool
    /// The user force-quit the app and has not opened it since (B4.2).
    @exclusivity(unchecked) var blockedByForceQuit = false
    /// BGTaskScheduler's daemon, made on first use.
    var taskScheduler: TaskSchedulerService {
        if let made = madeTaskScheduler { return made }
        let made = TaskSchedulerService(device: self)
        madeTaskScheduler = made
        return made
    }
    @exclusivity(unchecked) private var madeTaskScheduler: TaskSchedulerService?
    /// The run's own observer (trace, facts, coverage, checkers): called directly, before the
    /// sinks, because every event of every run passes through it.
    var monitor: RunMonitor? {
        get { heldMonitor }
        set {
            heldMonitor = newValue
            unsafeMonitor = newValue.map { Unmanaged.passUnretained($0) }
        }
    }
    /// Keeps ``monitor`` alive.
    @exclusivity(unchecked) private var heldMonitor: RunMonitor?
    /// The same monitor, unretained, for ``emit(_:)``: calling through a strong optional (or an
    /// `unowned(unsafe)` one, which is loaded as a strong copy) costs a retain and a release per
    /// event; `_withUnsafeGuaranteedRef` calls without either. Safe because ``heldMonitor`` holds
    /// the monitor whenever this is set, and a run's monitor is only replaced between events.
    @exclusivity(unchecked) private var unsafeMonitor: Unmanaged<RunMonitor>?
    @exclusivity(unchecked) private var sinks: [(SimEvent, VirtualTime) -> Void] = []
    /// Every process of the run, for ``tearDown()``.
    private var processes: [SimulatedApplication] = []
    @exclusivity(unchecked) var nextWorkID = 1
    /// Cleared when the device is deinitialized; objects that users may keep after a run
    /// (``SimulatedApplication``, ``WorkItem``) check it before following their
    /// `unowned(unsafe)` reference to the device (see ``DeviceLifetime``).
    let lifetime = DeviceLifetime()

    public init(profile: OSProfile, environment: EnvironmentConfig, workload: WorkloadInfo, choices: ChoiceSource) {
        self.profile = profile
        self.environment = environment
        self.workload = workload
        self.scheduler = Scheduler(choices: choices)
        self.systemQueue = scheduler.makeQueue(label: "system", kind: .serial)
        self.isNetworkAvailable = environment.networkInitiallyAvailable
        self.isOnExternalPower = environment.externalPowerInitiallyConnected
    }

    public var choices: ChoiceSource { scheduler.choices }
    public var now: VirtualTime { scheduler.now }

    /// The running process, if there is one.
    public var liveApp: SimulatedApplication? { app?.isAlive == true ? app : nil }

    /// Observes every event as it happens (the trace recorder and the invariant checkers).
    public func addSink(_ sink: @escaping (SimEvent, VirtualTime) -> Void) {
        sinks.append(sink)
    }

    /// Records `event` at the current virtual time.
    public func emit(_ event: SimEvent) {
        let time = scheduler.now
        unsafeMonitor?._withUnsafeGuaranteedRef { $0.observe(event, at: time) }
        if sinks.isEmpty { return }
        for sink in sinks { sink(event, time) }
    }

    // MARK: Processes

    /// Starts a new process (B2.1, B2.2). Does nothing if one is alive.
    @discardableResult
    public func launchProcess(inBackground: Bool) -> SimulatedApplication? {
        if let live = liveApp { return live }
        if !inBackground { blockedByForceQuit = false }
        processCount += 1
        let process = SimulatedApplication(device: self, process: processCount, inBackground: inBackground)
        processes.append(process)
        app = process
        process.launch()
        return process
    }

    /// Ends the run's world in a defined order, while the device is still alive: no more events
    /// are recorded; pending jobs are dropped; each process lets go of its workload, observers,
    /// tasks and registrations (breaking the app-workload reference cycles). Releasing them runs
    /// deinits (a token's end, a BGTask's completion) against live objects, and nothing they do
    /// is recorded. Without it, a run's objects would leak, or a deinit would reach a device that
    /// is already gone.
    ///
    /// Contract: call once, after the run's outcome was taken; the device is unusable after.
    deinit { lifetime.isAlive = false }

    public func tearDown() {
        monitor = nil
        sinks.removeAll()
        scheduler.discardPendingJobs()
        for process in processes { process.tearDown() }
        scheduler.discardPendingJobs()
        processes.removeAll()
        app = nil
    }

    /// Process `number` of this run (from 1), until ``tearDown()``; nil for any other number.
    func process(numbered number: Int) -> SimulatedApplication? {
        processes.indices.contains(number - 1) ? processes[number - 1] : nil
    }

    func processEnded(_ process: SimulatedApplication, reason: TerminationReason) {
        if reason == .forceQuit { blockedByForceQuit = true }
    }

    // MARK: Facts for the checkers

    /// Emits ``SimEvent/nothingHeld(reason:)`` if the app is in the background and nothing holds
    /// it awake any more. `reason` is built only when the event is emitted (an autoclosure: most
    /// calls emit nothing, and interpolating it cost more than the rest of the check).
    func checkHeldWork(after reason: @autoclosure () -> String) {
        guard let live = liveApp, live.state == .background, !live.inDidEnterBackground,
            live.openTasks.isEmpty, live.runningTasks.isEmpty
        else { return }
        emit(.nothingHeld(reason: reason()))
    }

    // MARK: Faults

    /// Whether this `beginBackgroundTask` returns `.invalid` (A2.1; a scenario fault rate).
    func drawBeginFailure() -> Bool {
        choices.bool(probability: environment.faults.beginFailureProbability)
    }
}

/// Whether a ``SimulatedDevice`` still exists, shared by the device and the public objects that
/// refer back to it without owning it.
///
/// Why: a plain `unowned` reference costs a strong retain and release on every access (several
/// per event), and `unowned(unsafe)` alone would make a use after the device is gone undefined
/// behaviour. A ``SimulatedApplication`` or ``WorkItem`` can outlive its device (a user may keep
/// one after the run), so each holds this token strongly and checks it before following its
/// `unowned(unsafe)` device reference: a late use traps, as it did with `unowned`, for the price
/// of a load and a branch. The device clears it in `deinit`, before its memory goes.
final class DeviceLifetime: @unchecked Sendable {
    // @unchecked: a run and all its objects are confined to one thread. Unchecked exclusivity:
    // a plain flag, never modified while it is read.
    @exclusivity(unchecked) var isAlive = true
}
